#include "trees/random_program.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

namespace gs::trees {

namespace {

bool is_sequence(Type t) { return t == Type::Str || is_array(t); }

// A recursive helper's first parameter is a depth that its one self-call changes.
enum class Recursion : u8 {
  None,
  Bounded,  // callers pass at most kBoundedDepth; the self-call shrinks it
  Deep,     // callers pass a depth near the call-depth bound: it may trap
  Runaway,  // the self-call grows the depth: call_depth_exceeded unless it starts at the base
};
constexpr i64 kBoundedDepth = 8;
constexpr i64 kDeepDepth = 66;

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
const char* const kHideableBuiltins[] = {
    "len",      "abs",   "min",  "max",   "push", "pop",   "slice", "sum",   "sort", "reverse",  "contains",
    "index_of", "array", "sqrt", "floor", "ceil", "round", "chr",   "split", "join", "parse_int"};

// ---- literals and inputs ---------------------------------------------------------------------

i64 random_int(Rng& rng) {
  static const i64 kSpecial[] = {INT64_MIN,
                                 INT64_MAX,
                                 -1,
                                 0,
                                 1,
                                 2,
                                 63,
                                 64,
                                 65,
                                 -64,
                                 255,
                                 256,
                                 i64(1) << 32,
                                 (i64(1) << 31) - 1,
                                 -(i64(1) << 31),
                                 INT64_MIN + 1,
                                 1000000007,
                                 -9,
                                 48,
                                 57,
                                 97};
  switch (rng.below(12)) {
    case 0:
    case 1:
    case 2:
    case 3: return rng.uniform_int(-10, 10);
    case 4:
    case 5: return rng.uniform_int(0, 255);
    case 6: return rng.uniform_int(-100000, 100000);
    case 7:
    case 8: return kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
    case 9: return rng.bernoulli(0.5) ? INT64_MIN : INT64_MAX;
    default: return i64(rng.next_u64());
  }
}

// A float whose literal converts exactly (few significant digits, small exponent).
double random_float(Rng& rng) {
  // Halves for round, values around str(float)'s thresholds (1e12; a mantissa rounding up to 10).
  static const double kSpecial[] = {0.5,
                                    1.5,
                                    2.5,
                                    0.1,
                                    0.2,
                                    0.3,
                                    1e12,
                                    999999999999.5,
                                    1e21,
                                    1.5e20,
                                    1e22,
                                    2.5e-10,
                                    1e-5,
                                    123456.789,
                                    0.0000005,
                                    0.0000015,
                                    3.25,
                                    1e15,
                                    9.9999996e13,
                                    9.9999995e12,
                                    999999999999.999,
                                    0.0000004999,
                                    9.99999949e20};
  double v;
  switch (rng.below(9)) {
    case 7: v = 0.0; break;
    case 0:
    case 1: v = double(rng.uniform_int(0, 100)); break;
    case 2:
    case 3:
    case 4: {
      double scale[] = {1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
      v = double(rng.uniform_int(0, 999999)) / scale[rng.below(6)];
      break;
    }
    case 5: v = double(rng.uniform_int(0, 20)) + 0.5; break;
    default: v = kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
  }
  if (rng.bernoulli(0.3)) v = -v;
  return float_literal_is_exact(v) ? v : 1.5;
}

std::string random_bytes(Rng& rng, u32 max_length) {
  static const char* const kSpecial[] = {
      "",         " ",   ",",  "a,b,,c", "  hello  world ",     "123", "-42", "+7", "abc",
      "a b\tc\n", "007", "ab", "x,y",    "99999999999999999999"};
  if (rng.bernoulli(0.25)) return kSpecial[rng.below(sizeof kSpecial / sizeof kSpecial[0])];
  static const char kAlphabet[] = "abcab ,-+0123456789xyzXYZ\n\t\"\\";
  std::string s;
  u32 n = rng.below(max_length + 1);
  bool digits = rng.bernoulli(0.2);
  for (u32 k = 0; k < n; ++k) {
    if (digits) {
      s += char('0' + rng.below(10));
    } else if (rng.bernoulli(0.1)) {
      static const unsigned char kOdd[] = {0, 0x7f, 0x80, 0xff, 0x01, 0x0b, 0x0c, 0xe9};
      s += char(kOdd[rng.below(sizeof kOdd)]);
    } else {
      s += kAlphabet[rng.below(sizeof kAlphabet - 1)];
    }
  }
  if (digits && rng.bernoulli(0.3)) s.insert(s.begin(), rng.bernoulli(0.5) ? '-' : '+');
  return s;
}

// ---- the generator ---------------------------------------------------------------------------

class Generator {
 public:
  Generator(const RandomProgramConfig& config, Rng& rng) : cfg_(config), rng_(rng) {}

  Tree run() {
    // Risk varies by program, so some programs run long without a trap and others trap often.
    risk_ = cfg_.p_risky * pick({0.0, 0.0, 0.25, 0.5, 1.0, 2.0});
    plan_signatures();
    Tree p;
    for (size_t k = sigs_.size(); k-- > 0;) p.functions.push_back(gen_function(u32(k)));
    for (size_t k = p.functions.size(); k > 1; --k) std::swap(p.functions[k - 1], p.functions[below(u32(k))]);
    return p;
  }

  // Sets the generator inside an existing program, at `at` (random_expr, random_statements):
  // signature 0 is the enclosing function, the callees follow it, so user_call() can only call
  // them, and a recursive callee gets a small depth argument, as Recursion::Bounded.
  void enter(const Surroundings& at) {
    risk_ = cfg_.p_risky * pick({0.0, 0.0, 0.25, 0.5, 1.0, 2.0});
    hidden_ = at.hidden_builtins;
    hidden_.insert(hidden_.end(), cfg_.disabled_builtins.begin(), cfg_.disabled_builtins.end());
    sigs_.assign(1, {});
    sigs_[0].results = at.results;
    sigs_[0].recursion = at.recursive ? Recursion::Bounded : Recursion::None;
    for (const Surroundings::Callee& c : at.callees) {
      Signature s{c.name, {}, c.results, c.recursive ? Recursion::Bounded : Recursion::None, c.cost};
      for (size_t k = 0; k < c.params.size(); ++k) s.params.push_back({"p" + std::to_string(k), c.params[k]});
      sigs_.push_back(std::move(s));
    }
    current_ = 0;
    scopes_.assign(1, {});
    for (const Surroundings::Variable& v : at.variables)
      declare({v.name, v.type, v.readonly, v.growing && is_sequence(v.type), v.param});
    taken_ = at.taken_names;
    std::sort(taken_.begin(), taken_.end());
    loops_ = at.loops;
    block_depth_ = at.block_depth;
    mult_ = std::max<u64>(at.multiplier, 1);
    cost_ = at.cost;
    budget_ = std::max(cfg_.cost_budget, at.cost + 1);
  }
  Expr make_expr(Type t) { return expr(t, depth()); }
  Expr make_literal(Type t) { return literal(t); }
  Block make_statements() {
    Block b;
    for (int tries = 0; tries < 4 && b.empty(); ++tries) statement(b);
    return b;
  }
  Block make_block() { return statements(false); }

 private:
  // ---- randomness ----

  bool chance(double p) { return rng_.bernoulli(p); }
  bool risky() { return chance(risk_); }  // leave a form that can trap unguarded
  u32 below(u32 n) { return rng_.below(n); }
  i64 uniform(i64 lo, i64 hi) { return rng_.uniform_int(lo, hi); }
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
    int k = choose({8, cfg_.floats ? 3 : 0, 3, cfg_.strings ? 3 : 0, cfg_.arrays ? 3 : 0,
                    cfg_.arrays && cfg_.floats ? 1 : 0, cfg_.arrays ? 1 : 0,
                    cfg_.arrays && cfg_.strings ? 2 : 0});
    static const Type kTypes[] = {Type::Int,      Type::Float,      Type::Bool,      Type::Str,
                                  Type::IntArray, Type::FloatArray, Type::BoolArray, Type::StrArray};
    return kTypes[k];
  }

  std::vector<Type> random_results(bool allow_unit) {
    if (allow_unit && chance(cfg_.p_unit_helper)) return {};
    if (cfg_.tuples && chance(cfg_.p_tuple_result)) {
      std::vector<Type> r(2 + below(2));
      for (Type& t : r) t = random_type();
      return r;
    }
    return {random_type()};
  }

  void plan_signatures() {
    for (u32 b = 0; b < kBuiltinCount; ++b)
      for (const std::string& name : cfg_.disabled_builtins)
        if (name == builtin_name(Builtin(b))) hidden_.push_back(name);
    u32 helpers = below(cfg_.max_helpers + 1);
    sigs_.resize(1 + helpers);
    for (u32 k = 0; k < sigs_.size(); ++k) {
      Signature& s = sigs_[k];
      s.name = k == 0 ? cfg_.entry : std::string("h").append(std::to_string(k));
      if (k > 0 && chance(cfg_.p_builtin_named_helper)) {
        std::string name = kHideableBuiltins[below(sizeof kHideableBuiltins / sizeof kHideableBuiltins[0])];
        if (!hidden(name) && name != cfg_.entry) {
          s.name = name;  // hides the builtin in the whole program
          hidden_.push_back(name);
        }
      }
      if (k > 0 && cfg_.recursion && chance(cfg_.p_recursive_helper)) {
        s.recursion = !chance(cfg_.p_deep_recursion) ? Recursion::Bounded
                      : chance(0.6)                  ? Recursion::Deep
                                                     : Recursion::Runaway;
        s.params.push_back({"d", Type::Int});
      }
      if (k == 0 && cfg_.fixed_entry) {
        for (size_t p = 0; p < cfg_.entry_params.size(); ++p)
          s.params.push_back({std::string("p").append(std::to_string(p)), cfg_.entry_params[p]});
        s.results = cfg_.entry_results;
        continue;
      }
      u32 params = below(cfg_.max_params + 1 - u32(s.params.size()));
      for (u32 p = 0; p < params; ++p)
        s.params.push_back({std::string("p").append(std::to_string(p)), random_type()});
      s.results = s.recursion != Recursion::None ? std::vector<Type>{random_type()} : random_results(k > 0);
    }
  }

  bool hidden(const std::string& name) const {
    return std::find(hidden_.begin(), hidden_.end(), name) != hidden_.end();
  }
  bool has(const char* builtin) const { return !hidden(builtin); }

  // ---- functions ----

  Function gen_function(u32 k) {
    Signature& s = sigs_[k];
    current_ = k;
    scopes_.assign(1, {});
    loops_ = 0;
    mult_ = 1;
    cost_ = 0;
    names_ = 0;
    safe_indexes_.clear();
    u64 helper_budget = std::max<u64>(cfg_.cost_budget / 16, 200);
    budget_ = k == 0 ? cfg_.cost_budget : helper_budget;
    if (s.recursion != Recursion::None) budget_ = std::max<u64>(helper_budget / u64(depth_bound(s) + 1), 60);
    self_result_.clear();
    bool recursive = s.recursion != Recursion::None;
    for (size_t p = 0; p < s.params.size(); ++p)  // the depth is read-only: recursion stays bounded
      declare({s.params[p].name, s.params[p].type, recursive && p == 0,
               recursive && is_sequence(s.params[p].type), true});
    observe_ = k == 0 && !cfg_.fixed_entry && chance(cfg_.p_observe_locals);
    Function f{s.name, s.params, s.results, {}};
    if (s.recursion != Recursion::None) {
      f.body = recursive_body();
      s.cost = cost_ * u64(depth_bound(s) + 1);
    } else {
      block_depth_ = 0;
      f.body = statements(true);
      if (observe_) {
        f.body.push_back(observe_locals());
        f.results = s.results;
      } else if (!s.results.empty() || chance(0.3)) {
        f.body.push_back(return_statement());
      }
      s.cost = cost_ + 1;
    }
    observe_ = false;
    return f;
  }

  // return (a, b, ...) of up to 8 of the body's own variables, those never read first: what
  // the program computed reaches its result instead of dying in a local. Sets the results.
  Stmt observe_locals() {
    Signature& s = sigs_[current_];
    std::vector<const Var*> unused, used;
    for (const Var& v : scopes_[0]) (v.used ? used : unused).push_back(&v);
    for (auto* list : {&unused, &used})
      for (size_t k = list->size(); k > 1; --k) std::swap((*list)[k - 1], (*list)[below(u32(k))]);
    unused.insert(unused.end(), used.begin(), used.end());
    if (unused.size() > 8) unused.resize(1 + below(8));
    s.results.clear();
    std::vector<Expr> values;
    for (const Var* v : unused) {
      s.results.push_back(v->type);
      values.push_back(Expr::name(v->name, v->type));
    }
    if (values.empty()) {
      s.results = {Type::Int};
      values.push_back(int_expr(2));
    }
    return Stmt::ret(std::move(values));
  }

  static i64 depth_bound(const Signature& s) {
    return s.recursion == Recursion::Bounded ? kBoundedDepth : kDeepDepth;
  }

  // if d <= 0 { return base; }  ...  let r = self(d - step, ...);  ...  return f(r);
  Block recursive_body() {
    Signature& s = sigs_[current_];
    block_depth_ = 1;
    Block body, base;
    base.push_back(return_statement());
    Expr d = Expr::name("d", Type::Int);
    std::vector<Expr> cond;
    cond.push_back(chance(0.5) ? Expr::binary(BinaryOp::Le, d, Expr::int_lit(0))
                               : Expr::binary(BinaryOp::Lt, d, Expr::int_lit(1)));
    std::vector<Block> blocks;
    blocks.push_back(std::move(base));
    body.push_back(Stmt::if_chain(std::move(cond), std::move(blocks)));
    append_statements(body, below(3));
    std::string r = fresh_name();
    Type t = s.results[0];
    body.push_back(Stmt::let(r, self_call()));
    declare({r, t, false, is_sequence(t)});
    self_result_ = r;
    append_statements(body, below(2));
    body.push_back(return_statement());
    return body;
  }

  Expr self_call() {
    Signature& s = sigs_[current_];
    std::vector<Expr> args;
    Expr d = Expr::name("d", Type::Int);
    if (s.recursion == Recursion::Runaway) {
      args.push_back(chance(0.5) ? d : Expr::binary(BinaryOp::Add, d, Expr::int_lit(1)));
    } else {
      switch (below(3)) {
        case 0: args.push_back(Expr::binary(BinaryOp::Sub, d, Expr::int_lit(1))); break;
        case 1: args.push_back(Expr::binary(BinaryOp::Sub, d, Expr::int_lit(2))); break;
        default: args.push_back(Expr::binary(BinaryOp::Div, d, Expr::int_lit(2)));
      }
    }
    for (size_t k = 1; k < s.params.size(); ++k) {
      const Param& p = s.params[k];
      args.push_back(is_sequence(p.type) && chance(0.5) ? grown(p.name, p.type, 1) : untainted(p.type, 2));
    }
    cost_ += 2 + args.size();
    return Expr::call(s.name, s.results[0], std::move(args));
  }

  // ---- scopes and names ----

  void declare(Var v) { scopes_.back().push_back(std::move(v)); }

  bool declared_here(const std::string& name) const {
    for (const Var& v : scopes_.back())
      if (v.name == name) return true;
    return false;
  }

  // Visible variables (the innermost of each name) that pass `keep`.
  template <typename Keep>
  std::vector<Var*> visible(Keep keep) {
    std::vector<Var*> out;
    std::vector<const std::string*> seen;
    for (size_t s = scopes_.size(); s-- > 0;) {
      for (size_t k = scopes_[s].size(); k-- > 0;) {
        Var& v = scopes_[s][k];
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
    auto usable = [&](const Var& v) { return v.type == t && !(exclude_tainted_ && v.tainted); };
    auto vars = visible(
        [&](const Var& v) { return usable(v) && (prefer != 1 || v.param) && (prefer != 2 || !v.used); });
    if (vars.empty() && prefer != 0) vars = visible(usable);
    if (vars.empty()) return nullptr;
    Var* v = vars[below(u32(vars.size()))];
    touched_tainted_ |= v->tainted;
    touched_sequence_ |= is_sequence(t);
    v->used = true;
    return v;
  }

  // Inside an existing program (enter()) a fresh name also avoids every name the program uses.
  std::string fresh_name() {
    std::string name = std::string("v").append(std::to_string(names_++));
    while (taken(name)) name = std::string("v").append(std::to_string(names_++));
    return name;
  }
  bool taken(const std::string& name) const { return std::binary_search(taken_.begin(), taken_.end(), name); }

  // A name for a new variable: fresh, a builtin's (variables and functions are apart), or a
  // visible outer one (shadowing).
  std::string new_name() {
    if (chance(cfg_.p_shadow) && scopes_.size() > 1) {
      auto outer = visible([&](const Var& v) { return !declared_here(v.name) && !v.readonly; });
      if (!outer.empty()) return outer[below(u32(outer.size()))]->name;
    }
    if (chance(0.04)) {
      std::string name = kHideableBuiltins[below(sizeof kHideableBuiltins / sizeof kHideableBuiltins[0])];
      if (!declared_here(name) && !taken(name)) return name;
    }
    return fresh_name();
  }

  bool in_recursive() const { return sigs_[current_].recursion != Recursion::None; }
  bool growth_context() const { return loops_ > 0 || in_recursive(); }

  // ---- statements ----

  // Statements of a new block; `top` is the function body (its scope holds the parameters).
  Block statements(bool top) {
    if (!top) scopes_.emplace_back();
    ++block_depth_;
    Block b;
    u32 most = std::max<u32>(1, cfg_.max_statements >> (block_depth_ > 1 ? block_depth_ - 1 : 0));
    append_statements(b, (top ? 2 : 1) + below(most));
    if (!top) end_block(b);
    --block_depth_;
    if (!top) scopes_.pop_back();
    return b;
  }

  // A nested block may end with break, continue or return.
  void end_block(Block& b) {
    if (loops_ > 0 && chance(0.2)) {
      b.push_back(Stmt::jump(chance(0.5) ? StmtKind::Break : StmtKind::Continue));
    } else if (!observe_ && chance(0.07)) {
      b.push_back(return_statement());
    }
  }

  void append_statements(Block& b, u32 n) {
    for (u32 k = 0; k < n; ++k) statement(b);
  }

  void statement(Block& b) {
    bool nest = block_depth_ < cfg_.max_block_depth;
    bool loop = nest && cfg_.loops && loops_ < cfg_.max_loop_nesting &&
                cost_ + mult_ * cfg_.max_loop_iterations * 16 <= budget_;
    bool sequences = cfg_.arrays || cfg_.strings;
    auto assignable = visible([](const Var& v) { return !v.readonly; });
    auto arrays = visible([](const Var& v) { return is_array(v.type) && !v.readonly; });
    int k = choose({30, assignable.empty() ? 0 : 14, arrays.empty() ? 0 : 8, nest ? 12 : 0, loop ? 7 : 0,
                    loop && sequences ? 5 : 0, loop ? 4 : 0, 5, cfg_.tuples ? 5 : 0, nest ? 2 : 0,
                    arrays.empty() ? 0 : 3});
    size_t before = b.size();
    switch (k) {
      case 0: let_statement(b); break;
      case 1: assign_statement(b, *assignable[below(u32(assignable.size()))]); break;
      case 2: element_assign(b, *arrays[below(u32(arrays.size()))]); break;
      case 3: if_statement(b); break;
      case 4: for_range(b); break;
      case 5: for_in(b); break;
      case 6: while_loop(b); break;
      case 7: call_statement(b); break;
      case 8: let_tuple(b); break;
      case 9: b.push_back(Stmt::block(statements(false))); break;
      default: alias_statements(b, *arrays[below(u32(arrays.size()))]); break;
    }
    for (size_t s = before; s < b.size(); ++s) cost_ += mult_ * (1 + expr_nodes(b[s]));
  }

  static u64 expr_nodes(const Expr& e) {
    u64 n = 1;
    for (const Expr& c : e.children) n += expr_nodes(c);
    return n;
  }
  static u64 expr_nodes(const Stmt& s) {
    u64 n = 0;
    for (const Expr& e : s.exprs) n += expr_nodes(e);
    return n;
  }

  // In a loop a new sequence made from another may copy what is about to grow (let c = xs;
  // xs = xs + c; doubles xs), so it is tainted too.
  void let_statement(Block& b) {
    Type t = random_type();
    touched_tainted_ = touched_sequence_ = false;
    Expr init = is_array(t) && chance(0.15) ? Expr::array_lit(t, {}) : expr(t, depth());
    bool empty = init.kind == ExprKind::ArrayLit && init.children.empty();
    std::string name = new_name();
    b.push_back(Stmt::let(name, std::move(init), empty || chance(0.3) ? t : Type::Unit));
    bool tainted = touched_tainted_ || (growth_context() && touched_sequence_);
    declare({name, t, false, is_sequence(t) && tainted});
  }

  // In a loop or a recursion, a str or array assigned back never mentions what may be growing
  // except as the one prefix `v + ...` / `push(v, ...)`: its size grows linearly at most.
  void assign_statement(Block& b, Var& v) {
    std::string name = v.name;
    Type t = v.type;
    if (is_sequence(t) && growth_context()) {
      v.tainted = true;
      b.push_back(Stmt::assign(name, chance(0.5) ? grown(name, t, depth()) : untainted(t, depth())));
      return;
    }
    touched_tainted_ = false;
    Expr value = is_array(t) && chance(0.1) ? Expr::array_lit(t, {}) : expr(t, depth());
    if (is_sequence(t) && touched_tainted_) v.tainted = true;
    b.push_back(Stmt::assign(name, std::move(value)));
  }

  // v + e, or push(v, x), where e and x do not mention growing sequences.
  Expr grown(const std::string& name, Type t, int d) {
    Expr self = Expr::name(name, t);
    if (is_array(t) && has("push") && chance(0.5))
      return Expr::call("push", t, {std::move(self), untainted(element_of(t), d)});
    return Expr::binary(BinaryOp::Add, std::move(self), untainted(t, d));
  }

  Expr untainted(Type t, int d) {
    bool saved = exclude_tainted_;
    exclude_tainted_ = true;
    Expr e = expr(t, d);
    exclude_tainted_ = saved;
    return e;
  }

  void element_assign(Block& b, Var& v) {
    std::string name = v.name;
    Type t = v.type;
    Expr at = index_for(Expr::name(name, t), depth() - 1);
    bool grows = t == Type::StrArray && growth_context();  // an element could double each time
    if (grows) v.tainted = true;
    touched_tainted_ = false;
    Expr value = grows ? untainted(element_of(t), depth()) : expr(element_of(t), depth());
    if (t == Type::StrArray && touched_tainted_) v.tainted = true;
    b.push_back(Stmt::element_assign(name, std::move(at), std::move(value)));
  }

  // let b = a; b[i] = e;  (a keeps its value: arrays are values)
  void alias_statements(Block& b, const Var& a) {
    std::string copy = fresh_name();
    Type t = a.type;
    bool tainted = a.tainted;
    b.push_back(Stmt::let(copy, Expr::name(a.name, t)));
    declare({copy, t, false, tainted || growth_context()});
    element_assign(b, scopes_.back().back());
  }

  void if_statement(Block& b) {
    std::vector<Expr> conditions;
    std::vector<Block> blocks;
    u32 arms = 1 + (chance(0.35) ? 1 + below(2) : 0);
    for (u32 k = 0; k < arms; ++k) {
      conditions.push_back(expr(Type::Bool, depth()));
      blocks.push_back(statements(false));
    }
    if (chance(0.5)) blocks.push_back(statements(false));
    b.push_back(Stmt::if_chain(std::move(conditions), std::move(blocks)));
  }

  std::string loop_variable() {
    if (chance(cfg_.p_shadow)) {
      auto outer = visible([&](const Var& v) { return !v.readonly; });
      if (!outer.empty()) return outer[below(u32(outer.size()))]->name;
    }
    return fresh_name();
  }

  // Runs body generation with the loop multiplier raised by `iterations`.
  Block loop_body(u64 iterations, Var var) {
    mult_ *= std::max<u64>(iterations, 1);
    ++loops_;
    scopes_.emplace_back();
    if (!var.name.empty()) declare(std::move(var));
    ++block_depth_;
    Block body;
    append_statements(body, 1 + below(std::max<u32>(1, cfg_.max_statements / 2)));
    end_block(body);
    --block_depth_;
    scopes_.pop_back();
    --loops_;
    mult_ /= std::max<u64>(iterations, 1);
    return body;
  }

  // Sequences a loop may run over: untainted ones, and only in an outermost loop. Inside another
  // loop a length may grow with each outer iteration (by as much as the inner loop runs), so
  // nested loops have static bounds.
  std::vector<Var*> loop_sequences() {
    if (loops_ > 0) return {};
    return visible([](const Var& v) { return is_sequence(v.type) && !v.tainted; });
  }

  // Range bounds with a static bound on the iterations.
  void for_range(Block& b) {
    i64 most = i64(cfg_.max_loop_iterations);
    Expr lo = Expr::int_lit(0), hi = Expr::int_lit(0);
    u64 iterations = u64(most);
    std::string seq_name;
    auto seqs = loop_sequences();
    switch (choose(
        {4, seqs.empty() || !has("len") ? 0 : 4, 2, has("min") && has("len") && !seqs.empty() ? 2 : 0})) {
      case 0: {
        i64 l = uniform(-3, 3);
        lo = Expr::int_lit(l);
        hi = Expr::int_lit(l + uniform(-1, most));
        break;
      }
      case 1: {
        const Var* v = seqs[below(u32(seqs.size()))];
        hi = Expr::call("len", Type::Int, {Expr::name(v->name, v->type)});
        seq_name = v->name;
        iterations = 16;
        break;
      }
      case 2:
        lo = Expr::binary(BinaryOp::Mod, expr(Type::Int, 1), Expr::int_lit(most / 2 + 1));
        hi = Expr::binary(BinaryOp::Mod, expr(Type::Int, 1), Expr::int_lit(most / 2 + 1));
        break;
      default: {
        const Var* v = seqs[below(u32(seqs.size()))];
        lo = Expr::int_lit(uniform(0, 1));
        hi = Expr::call(
            "min", Type::Int,
            {Expr::call("len", Type::Int, {Expr::name(v->name, v->type)}), Expr::int_lit(uniform(0, most))});
      }
    }
    std::string var = loop_variable();
    if (!seq_name.empty()) safe_indexes_.push_back({var, seq_name});
    Block body = loop_body(iterations, {var, Type::Int});
    if (!seq_name.empty()) safe_indexes_.pop_back();
    b.push_back(Stmt::for_range(var, std::move(lo), std::move(hi), std::move(body)));
  }

  void for_in(Block& b) {
    auto seqs = loop_sequences();
    Expr seq = Expr::int_lit(0);
    u64 iterations = 16;
    if (loops_ > 0) {  // slice(e, a, a + K): at most K elements whatever e is
      Type t = random_sequence_type();
      i64 a = uniform(-1, 2);
      if (has("slice"))
        seq =
            Expr::call("slice", t,
                       {untainted(t, 2), Expr::int_lit(a), Expr::int_lit(a + i64(cfg_.max_loop_iterations))});
      else
        seq = literal(t);
      iterations = cfg_.max_loop_iterations;
    } else if (!seqs.empty() && chance(0.7)) {
      const Var* v = seqs[below(u32(seqs.size()))];
      seq = Expr::name(v->name, v->type);
    } else {
      Type t =
          cfg_.arrays ? pick({Type::IntArray, Type::StrArray, Type::FloatArray, Type::BoolArray}) : Type::Str;
      if ((t == Type::StrArray || t == Type::Str) && !cfg_.strings) t = Type::IntArray;
      if (t == Type::FloatArray && !cfg_.floats) t = Type::IntArray;
      if (t == Type::Str && !cfg_.strings) t = Type::IntArray;
      seq = untainted(t, 2);
    }
    Type element = item_of(seq.type);
    std::string var = loop_variable();
    Block body = loop_body(iterations, {var, element});
    b.push_back(Stmt::for_in(var, std::move(seq), std::move(body)));
  }

  // let c = 0; while c < K [&& cond] { c = c + 1; ... }  — the counter is read-only to the body
  // and counts first, so continue cannot skip it.
  void while_loop(Block& b) {
    std::string counter = fresh_name();
    i64 bound = uniform(0, i64(cfg_.max_loop_iterations));
    b.push_back(Stmt::let(counter, Expr::int_lit(0)));
    declare({counter, Type::Int, true, false});
    Expr cond = Expr::binary(BinaryOp::Lt, Expr::name(counter, Type::Int), Expr::int_lit(bound));
    if (chance(0.4)) cond = Expr::binary(BinaryOp::And, std::move(cond), expr(Type::Bool, 2));
    Block body = loop_body(u64(bound), {});
    body.insert(
        body.begin(),
        Stmt::assign(counter, Expr::binary(BinaryOp::Add, Expr::name(counter, Type::Int), Expr::int_lit(1))));
    b.push_back(Stmt::while_loop(std::move(cond), std::move(body)));
  }

  void call_statement(Block& b) {
    if (auto call = user_call([](const Signature&) { return true; }, depth())) {
      b.push_back(Stmt::call_stmt(std::move(*call)));
      return;
    }
    // A builtin whose value is dropped still runs, and still traps.
    Expr e = Expr::int_lit(0);
    switch (below(4)) {
      case 0:
        if (has("chr")) e = chr(1);
        break;
      case 1:
        if (cfg_.strings && has("parse_int")) e = parse_int(1);
        break;
      case 2:
        if (cfg_.arrays) e = array_expr(Type::IntArray, 2);
        break;
      default:
        if (has("len")) e = call1("len", Type::Int, expr(random_sequence_type(), 1));
    }
    if (e.kind == ExprKind::Call) b.push_back(Stmt::call_stmt(std::move(e)));
  }

  void let_tuple(Block& b) {
    auto call = user_call([](const Signature& s) { return s.results.size() > 1; }, depth());
    if (!call) return let_statement(b);
    const Signature& s = *find_sig(call->text);
    std::vector<std::string> names;
    for (size_t k = 0; k < s.results.size(); ++k) names.push_back(fresh_name());
    b.push_back(Stmt::let_tuple(names, std::move(*call)));
    for (size_t k = 0; k < names.size(); ++k)  // results may copy arguments, like a let
      declare({names[k], s.results[k], false, growth_context() && is_sequence(s.results[k])});
  }

  Stmt return_statement() {
    const Signature& s = sigs_[current_];
    if (s.results.empty()) return Stmt::ret({});
    if (s.results.size() > 1 && chance(0.25)) {  // return g(x); with g's results the same
      if (auto call = user_call([&](const Signature& g) { return g.results == s.results; }, depth()))
        return Stmt::ret({std::move(*call)});
    }
    std::vector<Expr> values;
    for (Type t : s.results) values.push_back(return_value(t));
    return Stmt::ret(std::move(values));
  }

  // In a recursive helper a returned sequence may grow by one term per level, not double.
  Expr return_value(Type t) {
    if (in_recursive() && is_sequence(t)) {
      auto r = visible([&](const Var& v) { return v.name == self_result_ && v.type == t; });
      if (!r.empty() && chance(0.6)) return grown(self_result_, t, depth());
      return untainted(t, depth());
    }
    if (is_array(t) && chance(0.1)) return Expr::array_lit(t, {});
    return expr(t, depth());
  }

  // ---- calls ----

  const Signature* find_sig(const std::string& name) const {
    for (const Signature& s : sigs_)
      if (s.name == name) return &s;
    return nullptr;
  }

  // A call of a later helper that `fits` and whose cost stays in the budget.
  template <typename Fits>
  std::optional<Expr> user_call(Fits fits, int d) {
    std::vector<u32> candidates;
    for (u32 k = std::max<u32>(current_ + 1, 1); k < sigs_.size(); ++k)
      if (fits(sigs_[k]) && cost_ + mult_ * sigs_[k].cost <= budget_) candidates.push_back(k);
    if (candidates.empty()) return std::nullopt;
    const Signature& s = sigs_[candidates[below(u32(candidates.size()))]];
    cost_ += mult_ * s.cost;
    std::vector<Expr> args;
    bool saved = exclude_tainted_;
    exclude_tainted_ = true;  // a callee's loops and copies assume small arguments
    for (size_t k = 0; k < s.params.size(); ++k) {
      Type t = s.params[k].type;
      if (k == 0 && s.recursion != Recursion::None)
        args.push_back(depth_argument(s.recursion));
      else if (is_array(t) && chance(0.1))
        args.push_back(Expr::array_lit(t, {}));
      else
        args.push_back(expr(t, std::max(d - 1, 0)));
    }
    exclude_tainted_ = saved;
    Type result = s.results.empty() ? Type::Unit : s.results.size() == 1 ? s.results[0] : Type::Tuple;
    return Expr::call(s.name, result, std::move(args));
  }

  Expr depth_argument(Recursion r) {
    switch (r) {
      case Recursion::Bounded:
        if (chance(0.5)) return Expr::int_lit(uniform(-1, kBoundedDepth));
        return Expr::binary(BinaryOp::Mod, int_expr(1), Expr::int_lit(kBoundedDepth + 1));
      case Recursion::Deep:
        if (chance(0.8)) return Expr::int_lit(uniform(kDeepDepth - 10, kDeepDepth));
        return Expr::binary(BinaryOp::Mod, int_expr(1), Expr::int_lit(kDeepDepth + 1));
      default:
        if (chance(0.6)) return Expr::int_lit(uniform(-1, 3));
        return int_expr(1);
    }
  }

  std::optional<Expr> valued_call(Type t, int d) {
    if (d <= 0) return std::nullopt;
    return user_call([&](const Signature& s) { return s.results.size() == 1 && s.results[0] == t; }, d);
  }

  // ---- expressions ----

  int depth() { return 1 + int(below(cfg_.max_expr_depth)); }

  Expr expr(Type t, int d) {
    switch (t) {
      case Type::Int: return int_expr(d);
      case Type::Float: return float_expr(d);
      case Type::Bool: return bool_expr(d);
      case Type::Str: return str_expr(d);
      default: return array_expr(t, d);
    }
  }

  Expr literal(Type t) {
    switch (t) {
      case Type::Int: return Expr::int_lit(random_int(rng_), chance(0.1));
      case Type::Float: return Expr::float_lit(random_float(rng_));
      case Type::Bool: return Expr::bool_lit(chance(0.5));
      case Type::Str: return Expr::str_lit(random_bytes(rng_, 6));
      default: {
        std::vector<Expr> items(1 + below(3));
        for (Expr& e : items) e = literal(element_of(t));
        return Expr::array_lit(t, std::move(items));
      }
    }
  }

  Expr leaf(Type t) {
    if (chance(0.75))
      if (Var* v = random_var(t)) return Expr::name(v->name, t);
    return literal(t);
  }

  Expr call1(const char* f, Type result, Expr a) { return Expr::call(f, result, {std::move(a)}); }
  Expr call2(const char* f, Type result, Expr a, Expr b) {
    return Expr::call(f, result, {std::move(a), std::move(b)});
  }

  // An array expression, sometimes the literal [] (where its type is known from elsewhere).
  Expr array_or_empty(Type t, int d) { return chance(0.15) ? Expr::array_lit(t, {}) : array_expr(t, d); }

  Type random_sequence_type() {
    if (!cfg_.arrays) return Type::Str;
    Type t = random_type();
    return is_sequence(t) ? t : cfg_.strings && chance(0.5) ? Type::Str : Type::IntArray;
  }

  Expr int_expr(int d) {
    if (d <= 0) return leaf(Type::Int);
    bool seqs = cfg_.strings || cfg_.arrays;
    int k = choose({6, 2, 6, 3, 2, 2, seqs && has("len") ? 3 : 0, 3, cfg_.arrays ? 2 : 0,
                    cfg_.arrays && has("sum") ? 1 : 0, seqs && has("index_of") ? 2 : 0, 2,
                    cfg_.strings && has("parse_int") ? 2 : 0, seqs ? 3 : 0, 2, 1});
    int e = d - 1;
    switch (k) {
      case 0: return leaf(Type::Int);
      case 1: return Expr::unary(chance(0.5) ? UnaryOp::Neg : UnaryOp::BitNot, int_expr(e));
      case 2:
        return Expr::binary(pick({BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}), int_expr(e), int_expr(e));
      case 3: return division(Type::Int, e);
      case 4:
        return Expr::binary(pick({BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor}), int_expr(e),
                            int_expr(e));
      case 5: {
        Expr amount = chance(0.6) ? Expr::int_lit(uniform(0, 70)) : int_expr(e);
        return Expr::binary(pick({BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Ushr}), int_expr(e),
                            std::move(amount));
      }
      case 6: return call1("len", Type::Int, expr(random_sequence_type(), e));
      case 7: return number_builtin(Type::Int, e);
      case 8: return array_fold(Type::Int, e);
      case 9: return call1("sum", Type::Int, array_expr(Type::IntArray, e));
      case 10: return search_builtin("index_of", Type::Int, e);
      case 11: return int_conversion(e);
      case 12: return parse_int(e);
      case 13: return element(Type::Int, e);
      case 14:
        if (auto call = valued_call(Type::Int, d)) return std::move(*call);
        return leaf(Type::Int);
      default: return int_edge(e);
    }
  }

  // The corners of int arithmetic, computed at run time (a variable keeps them from folding).
  Expr int_edge(int e) {
    Expr min_int = Expr::binary(BinaryOp::Sub, Expr::int_lit(-INT64_MAX), Expr::int_lit(1));
    Expr x =
        has("min") ? call2("min", Type::Int, int_expr(e), std::move(min_int)) : int_expr(e);  // usually MIN
    switch (below(4)) {
      case 0: return Expr::binary(BinaryOp::Div, std::move(x), Expr::int_lit(-1));
      case 1: return Expr::binary(BinaryOp::Mod, std::move(x), Expr::int_lit(-1));
      case 2: return has("abs") ? call1("abs", Type::Int, std::move(x)) : x;
      default: return Expr::unary(UnaryOp::Neg, std::move(x));
    }
  }

  // NaN, infinities and signed zeros, at run time or folded from literals.
  Expr float_edge(int e) {
    Expr zero = Expr::float_lit(chance(0.5) ? 0.0 : -0.0);
    switch (below(6)) {
      case 0: return Expr::binary(BinaryOp::Div, float_expr(e), std::move(zero));  // +-inf or NaN
      case 1: return Expr::binary(BinaryOp::Div, zero, Expr::float_lit(0.0));      // NaN
      case 2: return Expr::binary(BinaryOp::Mul, float_expr(e), std::move(zero));  // +-0 or NaN
      case 3: return has("sqrt") ? call1("sqrt", Type::Float, float_expr(e)) : zero;
      case 4: return Expr::binary(BinaryOp::Mul, float_expr(e), Expr::float_lit(1e22));
      default: {
        const char* f = chance(0.5) ? "min" : "max";
        return has(f) ? call2(f, Type::Float, float_expr(e), std::move(zero)) : zero;
      }
    }
  }

  // a / b and a % b: the divisor is usually made nonzero, sometimes left to trap.
  Expr division(Type t, int e) {
    BinaryOp op = chance(0.5) ? BinaryOp::Div : BinaryOp::Mod;
    Expr a = expr(t, e);
    if (t == Type::Float) return Expr::binary(op, std::move(a), float_expr(e));
    Expr b = int_expr(e);
    if (!risky() && !(b.kind == ExprKind::IntLit && b.int_value != 0)) {
      b = chance(0.5) ? Expr::int_lit(pick<i64>({-1, 1, 2, 3, 7, 10, -2, 1000}))
                      : Expr::binary(BinaryOp::BitOr, std::move(b), Expr::int_lit(1));
    }
    return Expr::binary(op, std::move(a), std::move(b));
  }

  // abs, and min/max of two numbers.
  Expr number_builtin(Type t, int e) {
    const char* f = pick({"abs", "min", "max"});
    if (!has(f)) return leaf(t);
    if (f[0] == 'a') return call1(f, t, expr(t, e));
    return call2(f, t, expr(t, e), expr(t, e));
  }

  // min(xs) / max(xs): traps on an empty array unless made non-empty with push.
  Expr array_fold(Type t, int e) {
    const char* f = chance(0.5) ? "min" : "max";
    if (!has(f)) return leaf(t);
    Expr xs = array_expr(array_of(t), e);
    if (!(risky() || risky()) && has("push")) xs = call2("push", array_of(t), std::move(xs), expr(t, e));
    return call1(f, t, std::move(xs));
  }

  // contains / index_of on an array or a string.
  Expr search_builtin(const char* f, Type result, int e) {
    if (!has(f)) return leaf(result);
    if (cfg_.strings && chance(0.35)) return call2(f, result, str_expr(e), str_expr(e));
    Type t = array_type_for_search();
    return call2(f, result, chance(0.1) ? Expr::array_lit(t, {}) : array_expr(t, e), expr(element_of(t), e));
  }

  Type array_type_for_search() {
    if (!cfg_.arrays) return Type::IntArray;
    Type t = random_type();
    return is_array(t) ? t : Type::IntArray;
  }

  Expr int_conversion(int e) {
    switch (choose({cfg_.floats ? 3 : 0, 1, 1})) {
      case 0: return call1("int", Type::Int, float_expr(e));
      case 1: return call1("int", Type::Int, bool_expr(e));
      default: return call1("int", Type::Int, int_expr(e));
    }
  }

  // parse_int of text that is a number (str(x), digit literals) or, riskily, of anything.
  Expr parse_int(int e) {
    static const char* const kGood[] = {
        "42", "-7", "+0", "0009", "99999999999999999999", "-9223372036854775808"};
    static const char* const kBad[] = {" 1", "", "-", "1a", "0x1f", "+", "1 "};
    if (risky()) {
      if (chance(0.5)) return call1("parse_int", Type::Int, Expr::str_lit(kBad[below(7)]));
      return call1("parse_int", Type::Int, str_expr(e));
    }
    if (chance(0.5)) return call1("parse_int", Type::Int, Expr::str_lit(kGood[below(6)]));
    return call1("parse_int", Type::Int, call1("str", Type::Str, int_expr(e)));
  }

  // seq[i] with an element of type t (an int may come from a str).
  Expr element(Type t, int e) {
    bool from_str = t == Type::Int && cfg_.strings && (!cfg_.arrays || chance(0.35));
    Type seq_type = from_str ? Type::Str : array_of(t);
    Var* v = chance(0.8) ? random_var(seq_type) : nullptr;
    Expr seq = v ? Expr::name(v->name, seq_type) : literal(seq_type);
    if (seq.kind == ExprKind::StrLit && seq.text.empty()) seq.text = "ab";  // ""[i] always traps
    Expr at = index_for(seq, e);
    return Expr::index(std::move(seq), std::move(at));
  }

  // An index into seq: a safe loop variable, a clamp, a small literal, or (riskily) anything.
  Expr index_for(const Expr& seq, int e) {
    if (seq.kind == ExprKind::Name && chance(0.6)) {
      for (auto it = safe_indexes_.rbegin(); it != safe_indexes_.rend(); ++it) {
        if (it->second != seq.text) continue;
        auto vars = visible([&](const Var& v) { return v.name == it->first && v.type == Type::Int; });
        if (!vars.empty()) return Expr::name(it->first, Type::Int);
      }
    }
    i64 known = seq.kind == ExprKind::ArrayLit ? i64(seq.children.size())
                : seq.kind == ExprKind::StrLit ? i64(seq.text.size())
                                               : 2;  // a guess for a variable
    bool clamp = has("min") && has("max") && has("len");
    bool unsafe = risky();
    bool variable = seq.kind == ExprKind::Name;  // of unknown length: clamp unless risky
    switch (choose({variable && !unsafe && clamp ? 0 : 3, clamp ? 5 : 0, unsafe ? 3 : 0,
                    unsafe && has("len") ? 1 : 0})) {
      case 0: return Expr::int_lit(unsafe ? uniform(-1, known) : uniform(0, std::max<i64>(known - 1, 0)));
      case 1: {  // min(max(i, 0), len(seq) - 1): out of range only when seq is empty
        Expr last = Expr::binary(BinaryOp::Sub, call1("len", Type::Int, seq), Expr::int_lit(1));
        return call2("min", Type::Int, call2("max", Type::Int, int_expr(e), Expr::int_lit(0)),
                     std::move(last));
      }
      case 2: return int_expr(e);
      default: return Expr::binary(BinaryOp::Mod, int_expr(e), call1("len", Type::Int, seq));
    }
  }

  Expr float_expr(int d) {
    if (!cfg_.floats) return Expr::float_lit(1.5);
    if (d <= 0) return leaf(Type::Float);
    int k = choose({6, 2, 6, 2, 3, cfg_.arrays ? 1 : 0, cfg_.arrays && has("sum") ? 1 : 0, 3, 3,
                    cfg_.arrays ? 2 : 0, 2, 2});
    int e = d - 1;
    switch (k) {
      case 0: return leaf(Type::Float);
      case 1: return Expr::unary(UnaryOp::Neg, float_expr(e));
      case 2:
        return Expr::binary(pick({BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul}), float_expr(e),
                            float_expr(e));
      case 3: return division(Type::Float, e);
      case 4: return number_builtin(Type::Float, e);
      case 5: return array_fold(Type::Float, e);
      case 6: return call1("sum", Type::Float, array_expr(Type::FloatArray, e));
      case 7:
        if (chance(0.7)) return call1("float", Type::Float, int_expr(e));
        return call1("float", Type::Float, float_expr(e));
      case 8: {
        const char* f = pick({"sqrt", "floor", "ceil", "round"});
        return has(f) ? call1(f, Type::Float, float_expr(e)) : leaf(Type::Float);
      }
      case 9: return element(Type::Float, e);
      case 10:
        if (auto call = valued_call(Type::Float, d)) return std::move(*call);
        return leaf(Type::Float);
      default: return float_edge(e);
    }
  }

  Expr bool_expr(int d) {
    if (d <= 0) return leaf(Type::Bool);
    int k = choose(
        {4, 2, 5, 8, (cfg_.arrays || cfg_.strings) && has("contains") ? 2 : 0, 2, cfg_.arrays ? 1 : 0, 2});
    int e = d - 1;
    switch (k) {
      case 0: return leaf(Type::Bool);
      case 1: return Expr::unary(UnaryOp::Not, bool_expr(e));
      case 2: return Expr::binary(chance(0.5) ? BinaryOp::And : BinaryOp::Or, bool_expr(e), bool_expr(e));
      case 3: return comparison(e);
      case 4: return search_builtin("contains", Type::Bool, e);
      case 5: return guarded(e);
      case 6: return element(Type::Bool, e);
      default:
        if (auto call = valued_call(Type::Bool, d)) return std::move(*call);
        return leaf(Type::Bool);
    }
  }

  Expr comparison(int e) {
    static const BinaryOp kOrdered[] = {BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt,
                                        BinaryOp::Ge, BinaryOp::Eq, BinaryOp::Ne};
    Type t = random_type();
    BinaryOp op = kOrdered[below(6)];
    bool ordered = t == Type::Int || t == Type::Float || t == Type::Str;
    if (!ordered) op = chance(0.5) ? BinaryOp::Eq : BinaryOp::Ne;
    if (is_array(t) && chance(0.2)) {  // [] takes its type from the other side
      Expr a = array_expr(t, e), empty = Expr::array_lit(t, {});
      return chance(0.5) ? Expr::binary(op, std::move(a), std::move(empty))
                         : Expr::binary(op, std::move(empty), std::move(a));
    }
    Expr a = expr(t, e);
    Expr b = chance(0.3) ? a : expr(t, e);  // equal operands make == and <= true now and then
    return Expr::binary(op, std::move(a), std::move(b));
  }

  // A short-circuit operator keeping a trap from happening (or not, when the guard fails).
  Expr guarded(int e) {
    switch (below(3)) {
      case 0: {  // b != 0 && a / b > c
        Expr b = int_expr(e);
        Expr guard = Expr::binary(BinaryOp::Ne, b, Expr::int_lit(0));
        Expr risky =
            Expr::binary(pick({BinaryOp::Gt, BinaryOp::Eq}),
                         Expr::binary(pick({BinaryOp::Div, BinaryOp::Mod}), int_expr(e), b), int_expr(e));
        return Expr::binary(BinaryOp::And, std::move(guard), std::move(risky));
      }
      case 1: {  // len(s) > k && s[k] == c   (or len(s) <= k || ...)
        if (!has("len") || (!cfg_.arrays && !cfg_.strings)) break;
        Type t = cfg_.arrays ? array_type_for_search() : Type::Str;
        if (cfg_.strings && chance(0.3)) t = Type::Str;
        Var* v = random_var(t);
        Expr seq = v ? Expr::name(v->name, t) : literal(t);
        i64 k = uniform(0, 3);
        Type elem = item_of(t);
        Expr item = Expr::binary(BinaryOp::Eq, Expr::index(seq, Expr::int_lit(k)), expr(elem, e));
        Expr n = call1("len", Type::Int, seq);
        if (chance(0.5))
          return Expr::binary(BinaryOp::And, Expr::binary(BinaryOp::Gt, std::move(n), Expr::int_lit(k)),
                              std::move(item));
        return Expr::binary(BinaryOp::Or, Expr::binary(BinaryOp::Le, std::move(n), Expr::int_lit(k)),
                            std::move(item));
      }
      default: {  // len(xs) == 0 || min(xs) < c
        if (!has("len") || !has("min") || !cfg_.arrays) break;
        Var* v = random_var(Type::IntArray);
        Expr xs = v ? Expr::name(v->name, Type::IntArray) : array_expr(Type::IntArray, e);
        Expr empty = Expr::binary(BinaryOp::Eq, call1("len", Type::Int, xs), Expr::int_lit(0));
        Expr risky = Expr::binary(BinaryOp::Lt, call1("min", Type::Int, xs), int_expr(e));
        return Expr::binary(BinaryOp::Or, std::move(empty), std::move(risky));
      }
    }
    return leaf(Type::Bool);
  }

  Expr str_expr(int d) {
    if (!cfg_.strings) return Expr::str_lit("s");
    if (d <= 0) return leaf(Type::Str);
    int k = choose({6, 4, has("slice") ? 2 : 0, has("reverse") ? 1 : 0, 5, has("chr") ? 2 : 0,
                    cfg_.arrays && has("join") ? 1 : 0, cfg_.arrays ? 1 : 0, 2});
    int e = d - 1;
    switch (k) {
      case 0: return leaf(Type::Str);
      case 1: return Expr::binary(BinaryOp::Add, str_expr(e), str_expr(e));
      case 2: return Expr::call("slice", Type::Str, {str_expr(e), small_int(e), small_int(e)});
      case 3: return call1("reverse", Type::Str, str_expr(e));
      case 4:
        return call1("str", Type::Str,
                     expr(pick({Type::Int, Type::Float, Type::Float, Type::Bool, Type::Str}), e));
      case 5: return chr(e);
      case 6: return call2("join", Type::Str, array_expr(Type::StrArray, e), str_expr(e));
      case 7: return element(Type::Str, e);
      default:
        if (auto call = valued_call(Type::Str, d)) return std::move(*call);
        return leaf(Type::Str);
    }
  }

  // Mostly small ints, the kind slice bounds and counts need, and sometimes anything.
  Expr small_int(int e) {
    if (chance(0.6)) return Expr::int_lit(uniform(-2, 8));
    return int_expr(e);
  }

  Expr chr(int e) {
    switch (risky() ? 2 + below(2) : below(2)) {
      case 0:
        return call1("chr", Type::Str,
                     Expr::int_lit(chance(0.2) ? pick<i64>({0, 255, 128}) : uniform(0, 255)));
      case 1: return call1("chr", Type::Str, Expr::binary(BinaryOp::BitAnd, int_expr(e), Expr::int_lit(255)));
      case 2:
        return call1("chr", Type::Str, Expr::int_lit(pick<i64>({-1, 256, 255, 0})));  // around the domain
      default: return call1("chr", Type::Str, int_expr(e));                           // outside 0..255 traps
    }
  }

  Expr array_expr(Type t, int d) {
    Type elem = element_of(t);
    if ((elem == Type::Float && !cfg_.floats) || (elem == Type::Str && !cfg_.strings)) return literal(t);
    if (d <= 0) return leaf(t);
    bool ordered = elem != Type::Bool;
    int k = choose({6, 3, has("push") ? 3 : 0, has("pop") ? 1 : 0, has("slice") ? 2 : 0,
                    ordered && has("sort") ? 2 : 0, has("reverse") ? 1 : 0, has("array") ? 2 : 0,
                    t == Type::StrArray && has("split") ? 3 : 0, 2, 2});
    int e = d - 1;
    switch (k) {
      case 0: return leaf(t);
      case 1: {
        if (chance(0.15)) return Expr::binary(BinaryOp::Add, array_expr(t, e), Expr::array_lit(t, {}));
        return Expr::binary(BinaryOp::Add, array_expr(t, e), array_expr(t, e));
      }
      case 2: {
        Expr xs = chance(0.1) ? Expr::array_lit(t, {}) : array_expr(t, e);
        return call2("push", t, std::move(xs), expr(elem, e));
      }
      case 3: {  // empty arrays trap unless pushed to first
        Expr xs = array_expr(t, e);
        if (!(risky() || risky()) && has("push")) xs = call2("push", t, std::move(xs), expr(elem, e));
        return call1("pop", t, std::move(xs));
      }
      case 4: return Expr::call("slice", t, {array_expr(t, e), small_int(e), small_int(e)});
      case 5: return call1("sort", t, array_expr(t, e));
      case 6: return call1("reverse", t, array_expr(t, e));
      case 7: return Expr::call("array", t, {array_count(e), expr(elem, e)});
      case 8: {
        Expr sep =
            chance(0.6) ? Expr::str_lit(pick<const char*>({",", " ", "", "", "ab", ",,"})) : str_expr(e);
        return call2("split", t, str_expr(e), std::move(sep));
      }
      case 9: {
        std::vector<Expr> items(1 + below(3));
        for (Expr& x : items) x = expr(elem, e);
        return Expr::array_lit(t, std::move(items));
      }
      default:
        if (auto call = valued_call(t, d)) return std::move(*call);
        return leaf(t);
    }
  }

  // The n of array(n, x): small, and negative (a trap) only when risky.
  Expr array_count(int e) {
    switch (risky() ? 2 : below(2)) {
      case 0: return Expr::int_lit(uniform(0, 5));
      case 1: return Expr::binary(BinaryOp::BitAnd, int_expr(e), Expr::int_lit(7));
      default: return Expr::binary(BinaryOp::Mod, int_expr(e), Expr::int_lit(6));
    }
  }

  const RandomProgramConfig& cfg_;
  Rng& rng_;
  double risk_ = 0;
  std::vector<Signature> sigs_;
  std::vector<std::string> hidden_;  // builtins a helper hides or the config disables
  // The function being generated.
  u32 current_ = 0;
  std::vector<std::vector<Var>> scopes_;
  std::vector<std::pair<std::string, std::string>> safe_indexes_;  // (i, xs) of for i in 0..len(xs)
  u32 loops_ = 0;
  u32 block_depth_ = 0;
  u64 mult_ = 1;  // product of the enclosing loops' iteration bounds
  u64 cost_ = 0;  // estimated steps so far
  u64 budget_ = 0;
  u32 names_ = 0;
  std::vector<std::string> taken_;  // sorted: names an existing program already uses (enter())
  std::string self_result_;        // a recursive helper's `let r = self(...)`, once declared
  bool observe_ = false;           // the entry returns its variables: no early returns
  bool exclude_tainted_ = false;   // the expression must not mention growing sequences
  bool touched_tainted_ = false;   // it did mention one
  bool touched_sequence_ = false;  // it mentioned a str or array variable
};

}  // namespace

Tree random_program(const RandomProgramConfig& config, Rng& rng) { return Generator(config, rng).run(); }

namespace {

// Inside an existing program new variables never shadow visible ones: a shadowing let of
// another type would break the statements after it, which the generator did not write.
RandomProgramConfig embedded(const RandomProgramConfig& config) {
  RandomProgramConfig c = config;
  c.p_shadow = 0;
  return c;
}

}  // namespace

Expr random_expr(Type t, const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  Generator g(c, rng);
  g.enter(at);
  return g.make_expr(t);
}

Block random_statements(const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  Generator g(c, rng);
  g.enter(at);
  return g.make_statements();
}

Block random_block(const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  Generator g(c, rng);
  g.enter(at);
  return g.make_block();
}

Expr random_literal(Type t, Rng& rng) {
  RandomProgramConfig c;
  return Generator(c, rng).make_literal(t);
}

vm::Value random_value(Type t, const InputConfig& config, Rng& rng) {
  switch (t) {
    case Type::Int: return vm::Value::of_int(random_int(rng));
    case Type::Bool: return vm::Value::of_bool(rng.bernoulli(0.5));
    case Type::Str: return vm::Value::of_str(random_bytes(rng, config.max_string_length));
    case Type::Float: {
      static const double kOdd[] = {0.0,   -0.0,        0.0,    -0.0,     1e15,   -1e15,
                                    1e300, -1e300,      1e-300, 4.9e-324, 1e12,   999999999999.9999,
                                    2.5,   -2.5,        0.5,    -0.5,     9.3e18, -9.3e18,
                                    1e19,  9.9999996e13};
      if (config.non_finite_floats && rng.bernoulli(0.1)) {
        static const double kNonFinite[] = {NAN, INFINITY, -INFINITY};
        return vm::Value::of_float(kNonFinite[rng.below(3)]);
      }
      if (rng.bernoulli(0.25)) return vm::Value::of_float(kOdd[rng.below(sizeof kOdd / sizeof kOdd[0])]);
      if (rng.bernoulli(0.1)) {  // any finite bit pattern
        double d;
        do d = double_of(rng.next_u64());
        while (!std::isfinite(d));
        return vm::Value::of_float(d);
      }
      return vm::Value::of_float(random_float(rng));
    }
    default: {
      u32 n = rng.bernoulli(0.15) ? 0 : rng.below(config.max_array_length + 1);
      std::vector<vm::Value> items;
      for (u32 k = 0; k < n; ++k) items.push_back(random_value(element_of(t), config, rng));
      return vm::Value::of_array(element_of(t), std::move(items));
    }
  }
}

std::vector<vm::Value> random_inputs(const Function& f, const InputConfig& config, Rng& rng) {
  std::vector<vm::Value> args;
  for (const Param& p : f.params) args.push_back(random_value(p.type, config, rng));
  return args;
}

}  // namespace gs::trees
