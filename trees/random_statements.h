// Random programs for the random program generator (trees/random_program.h): the functions'
// signatures, then each function's body — statements, loops with static bounds, while loops
// driven by a counter the body cannot assign, recursion towards a base case — with expressions
// from the ExpressionMaker. Also what genetic operators ask for inside an existing program
// (enter(): random_expr, random_statements, random_block).
#pragma once

#include "trees/random_expressions.h"
#include "trees/random_state.h"

namespace gs::trees::random {

class ProgramMaker {
 public:
  ProgramMaker(const RandomProgramConfig& config, Rng& rng) : s_(config, rng), x_(s_) {}
  ProgramMaker(const ProgramMaker&) = delete;
  ProgramMaker& operator=(const ProgramMaker&) = delete;

  // ----  ----

  Tree run();
  // Sets the generator inside an existing program, at `at` (random_expr, random_statements):
  // signature 0 is the enclosing function, the callees follow it, so user_call() can only call
  // them, and a recursive callee gets a small depth argument, as Recursion::Bounded.
  void enter(const Surroundings& at);
  Expr make_expr(Type t);
  Expr make_literal(Type t);
  Block make_statements();
  Block make_block();

  // ---- signatures ----

  std::vector<Type> random_results(bool allow_unit);
  void plan_signatures();

  // ---- functions ----

  Function gen_function(u32 k);
  // return (a, b, ...) of up to 8 of the body's own variables, those never read first: what
  // the program computed reaches its result instead of dying in a local. Sets the results.
  Stmt observe_locals();
  static i64 depth_bound(const Signature& s);
  // if d <= 0 { return base; }  ...  let r = self(d - step, ...);  ...  return f(r);
  Block recursive_body();
  Expr self_call();

  // ---- statements ----

  // Statements of a new block; `top` is the function body (its scope holds the parameters).
  Block statements(bool top);
  // A nested block may end with break, continue or return.
  void end_block(Block& b);
  void append_statements(Block& b, u32 n);
  void statement(Block& b);
  static u64 expr_nodes(const Expr& e);
  static u64 expr_nodes(const Stmt& s);
  // In a loop a new sequence made from another may copy what is about to grow (let c = xs;
  // xs = xs + c; doubles xs), so it is tainted too.
  void let_statement(Block& b);
  // In a loop or a recursion, a str or array assigned back never mentions what may be growing
  // except as the one prefix `v + ...` / `push(v, ...)`: its size grows linearly at most.
  void assign_statement(Block& b, Var& v);
  void element_assign(Block& b, Var& v);
  // let b = a; b[i] = e;  (a keeps its value: arrays are values)
  void alias_statements(Block& b, const Var& a);
  void if_statement(Block& b);
  std::string loop_variable();
  // Runs body generation with the loop multiplier raised by `iterations`.
  Block loop_body(u64 iterations, Var var);
  // Sequences a loop may run over: untainted ones, and only in an outermost loop. Inside another
  // loop a length may grow with each outer iteration (by as much as the inner loop runs), so
  // nested loops have static bounds.
  std::vector<Var*> loop_sequences();
  // Range bounds with a static bound on the iterations.
  void for_range(Block& b);
  void for_in(Block& b);
  // let c = 0; while c < K [&& cond] { c = c + 1; ... }  — the counter is read-only to the body
  // and counts first, so continue cannot skip it.
  void while_loop(Block& b);
  void call_statement(Block& b);
  void let_tuple(Block& b);
  Stmt return_statement();
  // In a recursive helper a returned sequence may grow by one term per level, not double.
  Expr return_value(Type t);

 private:
  State s_;
  ExpressionMaker x_;
};

}  // namespace gs::trees::random
