// A typed, grammar-guided generator of random Syn programs (random inputs for them:
// trees/random_values.h).
//
// Every program it makes is well typed (it compiles without errors) and terminates: loops have
// static bounds (ranges of a few iterations, while loops driven by a counter the body cannot
// assign), helpers only call helpers after them, and a recursive helper takes a depth argument
// that shrinks towards its base case. Sequences cannot grow exponentially (what a loop or a
// recursion assigns back to a str or array never mentions itself twice), and every call stays
// inside an estimated step budget. Programs still trap on purpose: unguarded divisions and
// indexing, builtins given arguments outside their domain, and recursion that runs into the
// call-depth bound (64).
#pragma once

#include <string>
#include <vector>

#include "base/rng.h"
#include "trees/syntax.h"
#include "vm/value.h"

namespace gs::trees {

struct RandomProgramConfig {
  std::string entry = "solve";
  u32 max_helpers = 3;      // helper functions besides the entry
  u32 max_params = 4;       // per function
  u32 max_statements = 8;   // per block (fewer in nested blocks)
  u32 max_block_depth = 3;  // blocks nested in a function body
  u32 max_expr_depth = 4;   // operator nesting of one expression
  u32 max_loop_nesting = 2;
  u32 max_loop_iterations = 8;  // of a loop with a static bound
  u64 cost_budget = 40000;      // estimated evaluation steps of one entry call
  double p_risky = 0.15;        // a form that can trap is left unguarded
  double p_recursive_helper = 0.35;
  double p_deep_recursion = 0.3;  // of recursive helpers: depth near or past the bound
  double p_tuple_result = 0.25;
  double p_unit_helper = 0.1;
  double p_shadow = 0.15;                // a let or loop reuses a visible name
  double p_builtin_named_helper = 0.05;  // a helper takes (and hides) a builtin's name
  // The entry returns up to 8 of its own variables (its results are chosen at the end), so more
  // of what a program computes is observable; otherwise it returns expressions.
  double p_observe_locals = 0.75;
  bool floats = true;
  bool strings = true;
  bool arrays = true;
  bool tuples = true;
  bool loops = true;
  bool recursion = true;
  std::vector<std::string> disabled_builtins;  // by name, e.g. "split"
  // A problem's signature: when fixed_entry is set, the entry takes parameters of exactly these
  // types (named p0, p1, …) and returns exactly these results; otherwise both are random.
  bool fixed_entry = false;
  std::vector<Type> entry_params, entry_results;
};

// A random well-typed, terminating program whose entry is config.entry.
Tree random_program(const RandomProgramConfig& config, Rng& rng);

// ---- new code inside an existing program (genetic operators, trees/variation.h) -------------

// A point of an existing program where new code goes: what that code may read, assign and
// call. The generator keeps its discipline there: read-only variables are never assigned,
// growing sequences are never looped over, calls go only to `callees` (which the caller chose
// so that no call cycle appears), and new variables take names outside `taken_names` (so new
// code never collides with, or shadows, the program's own names).
struct Surroundings {
  struct Variable {
    std::string name;
    Type type = Type::Int;
    bool readonly = false;  // a while loop's counter, a recursion's depth
    bool param = false;
    bool growing = false;  // a sequence that may grow with a loop or recursion around it
  };
  struct Callee {
    std::string name;
    std::vector<Type> params;
    std::vector<Type> results;
    bool recursive = false;  // its first parameter is a depth: callers pass a small one
    u64 cost = 1;            // estimated steps of one call
  };
  std::vector<Variable> variables;  // the visible ones (the innermost of each name)
  std::vector<Callee> callees;
  std::vector<Type> results;                 // of the enclosing function, for `return`
  std::vector<std::string> hidden_builtins;  // builtins that functions of the program hide
  std::vector<std::string> taken_names;
  bool recursive = false;  // the enclosing function calls itself
  u32 loops = 0;           // loops around the point
  u32 block_depth = 1;     // blocks around the point (a function body is 1)
  u64 multiplier = 1;      // product of the iteration bounds of the loops around it
  u64 cost = 0;            // estimated steps the enclosing function already takes
};

// A random expression of type t, as the generator makes one at `at`.
Expr random_expr(Type t, const Surroundings& at, const RandomProgramConfig& config, Rng& rng);
// A random statement for a block at `at` (two for a while loop and its counter, or an array
// copy and its element assignment; rarely none).
Block random_statements(const Surroundings& at, const RandomProgramConfig& config, Rng& rng);
// A random nested block (its own scope) at `at`.
Block random_block(const Surroundings& at, const RandomProgramConfig& config, Rng& rng);
// A random literal of type t (never the empty array).
Expr random_literal(Type t, Rng& rng);

}  // namespace gs::trees
