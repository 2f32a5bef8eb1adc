// What the random program generator (trees/random_program.h) holds while it writes a program:
// its settings and dice, the functions' signatures, the variables in scope and their names, and
// the estimated cost of what it wrote against the budget. The expression maker
// (random_expressions.h) and the program maker (random_statements.h) share one.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "base/rng.h"
#include "trees/random_program.h"
#include "trees/syntax.h"

namespace gs::trees::random {

inline bool is_sequence(Type t) { return t == Type::Str || is_array(t); }

// A recursive helper's first parameter is a depth that its one self-call changes.
enum class Recursion : u8 {
  None,
  Bounded,  // callers pass at most kBoundedDepth; the self-call shrinks it
  Deep,     // callers pass a depth near the call-depth bound: it may trap
  Runaway,  // the self-call grows the depth: call_depth_exceeded unless it starts at the base
};
inline constexpr i64 kBoundedDepth = 8;
inline constexpr i64 kDeepDepth = 66;

struct Signature {
  std::string name;
  std::vector<Param> params;
  std::vector<Type> results;
  Recursion recursion = Recursion::None;
  u64 cost = 0;  // estimated steps of one call, set once its body exists
};

struct Var {
  std::string name;
  Type type;
  bool readonly = false;  // a while loop's counter
  bool tainted = false;   // a sequence that may grow with the loop or recursion around it
  bool param = false;
  bool used = false;  // read by some expression
};

// Builtin names a helper may take (int, float and str are keywords, so they cannot).
inline const char* const kHideableBuiltins[] = {
    "len",      "abs",   "min",  "max",   "push", "pop",   "slice", "sum",   "sort", "reverse",  "contains",
    "index_of", "array", "sqrt", "floor", "ceil", "round", "chr",   "split", "join", "parse_int"};

struct State {
  State(const RandomProgramConfig& config, Rng& dice) : cfg(config), rng(dice) {}

  // ---- randomness ----

  bool chance(double p) { return rng.bernoulli(p); }
  bool risky() { return chance(risk); }  // leave a form that can trap unguarded
  u32 below(u32 n) { return rng.below(n); }
  i64 uniform(i64 lo, i64 hi) { return rng.uniform_int(lo, hi); }
  template <typename T>
  T pick(std::initializer_list<T> items) {
    return items.begin()[below(u32(items.size()))];
  }
  // Index of an option drawn with the given weights (a weight of 0 disables an option).
  int choose(std::initializer_list<int> weights) {
    int total = 0;
    for (int w : weights) total += w;
    int r = int(below(u32(total)));
    int k = 0;
    for (int w : weights) {
      if (r < w) return k;
      r -= w;
      ++k;
    }
    return 0;
  }

  // ---- signatures ----

  Type random_type() {
    int k = choose({8, cfg.floats ? 3 : 0, 3, cfg.strings ? 3 : 0, cfg.arrays ? 3 : 0,
                    cfg.arrays && cfg.floats ? 1 : 0, cfg.arrays ? 1 : 0, cfg.arrays && cfg.strings ? 2 : 0});
    static const Type kTypes[] = {Type::Int,      Type::Float,      Type::Bool,      Type::Str,
                                  Type::IntArray, Type::FloatArray, Type::BoolArray, Type::StrArray};
    return kTypes[k];
  }
  bool hidden(const std::string& name) const {
    return std::find(hidden_builtins.begin(), hidden_builtins.end(), name) != hidden_builtins.end();
  }
  bool has(const char* builtin) const { return !hidden(builtin); }

  // ---- scopes and names ----

  void declare(Var v) { scopes.back().push_back(std::move(v)); }
  bool declared_here(const std::string& name) const {
    for (const Var& v : scopes.back())
      if (v.name == name) return true;
    return false;
  }
  // Visible variables (the innermost of each name) that pass `keep`.
  template <typename Keep>
  std::vector<Var*> visible(Keep keep) {
    std::vector<Var*> out;
    std::vector<const std::string*> seen;
    for (size_t s = scopes.size(); s-- > 0;) {
      for (size_t k = scopes[s].size(); k-- > 0;) {
        Var& v = scopes[s][k];
        bool shadowed = false;
        for (const std::string* n : seen) shadowed |= *n == v.name;
        if (shadowed) continue;
        seen.push_back(&v.name);
        if (keep(v)) out.push_back(&v);
      }
    }
    return out;
  }
  // A random visible variable of type t usable in the current expression, or null. Parameters
  // are favoured: they make the outcome depend on the input.
  Var* random_var(Type t) {
    int prefer = choose({4, 3, 3});  // any, a parameter, one not read yet
    auto usable = [&](const Var& v) { return v.type == t && !(exclude_tainted && v.tainted); };
    auto vars = visible(
        [&](const Var& v) { return usable(v) && (prefer != 1 || v.param) && (prefer != 2 || !v.used); });
    if (vars.empty() && prefer != 0) vars = visible(usable);
    if (vars.empty()) return nullptr;
    Var* v = vars[below(u32(vars.size()))];
    touched_tainted |= v->tainted;
    touched_sequence |= is_sequence(t);
    v->used = true;
    return v;
  }
  // Inside an existing program (enter()) a fresh name also avoids every name the program uses.
  std::string fresh_name() {
    std::string name = std::string("v").append(std::to_string(next_name++));
    while (taken(name)) name = std::string("v").append(std::to_string(next_name++));
    return name;
  }
  bool taken(const std::string& name) const {
    return std::binary_search(taken_names.begin(), taken_names.end(), name);
  }
  // A name for a new variable: fresh, a builtin's (variables and functions are apart), or a
  // visible outer one (shadowing).
  std::string new_name() {
    if (chance(cfg.p_shadow) && scopes.size() > 1) {
      auto outer = visible([&](const Var& v) { return !declared_here(v.name) && !v.readonly; });
      if (!outer.empty()) return outer[below(u32(outer.size()))]->name;
    }
    if (chance(0.04)) {
      std::string name = kHideableBuiltins[below(sizeof kHideableBuiltins / sizeof kHideableBuiltins[0])];
      if (!declared_here(name) && !taken(name)) return name;
    }
    return fresh_name();
  }
  bool in_recursive() const { return sigs[current].recursion != Recursion::None; }
  bool growth_context() const { return loops > 0 || in_recursive(); }

  // ---- calls ----

  const Signature* find_sig(const std::string& name) const {
    for (const Signature& s : sigs)
      if (s.name == name) return &s;
    return nullptr;
  }

  // ---- expressions ----

  int depth() { return 1 + int(below(cfg.max_expr_depth)); }
  Type random_sequence_type() {
    if (!cfg.arrays) return Type::Str;
    Type t = random_type();
    return is_sequence(t) ? t : cfg.strings && chance(0.5) ? Type::Str : Type::IntArray;
  }

  const RandomProgramConfig& cfg;
  Rng& rng;
  double risk = 0;
  std::vector<Signature> sigs;
  std::vector<std::string> hidden_builtins;  // builtins a helper hides or the config disables
  // The function being generated.
  u32 current = 0;
  std::vector<std::vector<Var>> scopes;
  std::vector<std::pair<std::string, std::string>> safe_indexes;  // (i, xs) of for i in 0..len(xs)
  u32 loops = 0;
  u32 block_depth = 0;
  u64 mult = 1;  // product of the enclosing loops' iteration bounds
  u64 cost = 0;  // estimated steps so far
  u64 budget = 0;
  u32 next_name = 0;
  std::vector<std::string> taken_names;  // sorted: names an existing program already uses (enter())
  std::string self_result;               // a recursive helper's `let r = self(...)`, once declared
  bool observe = false;                  // the entry returns its variables: no early returns
  bool exclude_tainted = false;          // the expression must not mention growing sequences
  bool touched_tainted = false;          // it did mention one
  bool touched_sequence = false;         // it mentioned a str or array variable
};

}  // namespace gs::trees::random
