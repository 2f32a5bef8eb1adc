// Random expressions for the random program generator (trees/random_program.h): of every type,
// built from the variables in scope, literals, operators, builtins — guarded against traps
// unless the dice say a risky form stays unguarded — and calls of the program's later helpers
// within the cost budget.
#pragma once

#include <optional>
#include <string>

#include "trees/random_state.h"

namespace gs::trees::random {

class ExpressionMaker {
 public:
  explicit ExpressionMaker(State& state) : s_(state) {}

  // ---- statements ----

  // v + e, or push(v, x), where e and x do not mention growing sequences.
  Expr grown(const std::string& name, Type t, int d);
  Expr untainted(Type t, int d);

  // ---- calls ----

  // A call of a later helper that `fits` and whose cost stays in the budget.
  template <typename Fits>
  std::optional<Expr> user_call(Fits fits, int d) {
    std::vector<u32> candidates;
    for (u32 k = std::max<u32>(s_.current + 1, 1); k < s_.sigs.size(); ++k)
      if (fits(s_.sigs[k]) && s_.cost + s_.mult * s_.sigs[k].cost <= s_.budget) candidates.push_back(k);
    if (candidates.empty()) return std::nullopt;
    const Signature& s = s_.sigs[candidates[s_.below(u32(candidates.size()))]];
    s_.cost += s_.mult * s.cost;
    std::vector<Expr> args;
    bool saved = s_.exclude_tainted;
    s_.exclude_tainted = true;  // a callee's loops and copies assume small arguments
    for (size_t k = 0; k < s.params.size(); ++k) {
      Type t = s.params[k].type;
      if (k == 0 && s.recursion != Recursion::None)
        args.push_back(depth_argument(s.recursion));
      else if (is_array(t) && s_.chance(0.1))
        args.push_back(Expr::array_lit(t, {}));
      else
        args.push_back(expr(t, std::max(d - 1, 0)));
    }
    s_.exclude_tainted = saved;
    Type result = s.results.empty() ? Type::Unit : s.results.size() == 1 ? s.results[0] : Type::Tuple;
    return Expr::call(s.name, result, std::move(args));
  }
  Expr depth_argument(Recursion r);
  std::optional<Expr> valued_call(Type t, int d);

  // ---- expressions ----

  Expr expr(Type t, int d);
  Expr literal(Type t);
  Expr leaf(Type t);
  Expr call1(const char* f, Type result, Expr a);
  Expr call2(const char* f, Type result, Expr a, Expr b);
  // An array expression, sometimes the literal [] (where its type is known from elsewhere).
  Expr array_or_empty(Type t, int d);
  Expr int_expr(int d);
  // The corners of int arithmetic, computed at run time (a variable keeps them from folding).
  Expr int_edge(int e);
  // NaN, infinities and signed zeros, at run time or folded from literals.
  Expr float_edge(int e);
  // a / b and a % b: the divisor is usually made nonzero, sometimes left to trap.
  Expr division(Type t, int e);
  // abs, and min/max of two numbers.
  Expr number_builtin(Type t, int e);
  // min(xs) / max(xs): traps on an empty array unless made non-empty with push.
  Expr array_fold(Type t, int e);
  // contains / index_of on an array or a string.
  Expr search_builtin(const char* f, Type result, int e);
  Type array_type_for_search();
  Expr int_conversion(int e);
  // parse_int of text that is a number (str(x), digit literals) or, riskily, of anything.
  Expr parse_int(int e);
  // seq[i] with an element of type t (an int may come from a str).
  Expr element(Type t, int e);
  // An index into seq: a safe loop variable, a clamp, a small literal, or (riskily) anything.
  Expr index_for(const Expr& seq, int e);
  Expr float_expr(int d);
  Expr bool_expr(int d);
  Expr comparison(int e);
  // A short-circuit operator keeping a trap from happening (or not, when the guard fails).
  Expr guarded(int e);
  Expr str_expr(int d);
  // Mostly small ints, the kind slice bounds and counts need, and sometimes anything.
  Expr small_int(int e);
  Expr chr(int e);
  Expr array_expr(Type t, int d);
  // The n of array(n, x): small, and negative (a trap) only when risky.
  Expr array_count(int e);

 private:
  State& s_;
};

}  // namespace gs::trees::random
