#include "trees/variation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace gs::trees {

namespace {

bool is_sequence(Type t) { return t == Type::Str || is_array(t); }
bool is_empty_array(const Expr& e) { return e.kind == ExprKind::ArrayLit && e.children.empty(); }
// An expression another may take the place of: a value (not a tuple or nothing).
bool replaceable_type(Type t) { return is_value_type(t); }

std::vector<Type> param_types(const Function& f) {
  std::vector<Type> out;
  for (const Param& p : f.params) out.push_back(p.type);
  return out;
}

i64 function_index(const Tree& p, std::string_view name) {
  for (size_t k = 0; k < p.functions.size(); ++k)
    if (p.functions[k].name == name) return i64(k);
  return -1;
}

template <typename Visit>
void visit_expr(const Expr& e, Visit& visit) {
  visit(e);
  for (const Expr& c : e.children) visit_expr(c, visit);
}

template <typename Visit>
void visit_stmt_exprs(const Block& b, Visit& visit) {
  for (const Stmt& s : b) {
    for (const Expr& e : s.exprs) visit_expr(e, visit);
    for (const Block& inner : s.blocks) visit_stmt_exprs(inner, visit);
  }
}

// ---- guidance (VariationConfig::weight) -----------------------------------------------------

double weight_of(const Expr& e, const NodeWeight& weight) {
  double w = 1;
  auto visit = [&](const Expr& node) { w *= weight(node); };
  visit_expr(e, visit);
  return w;
}

double weight_of(const Block& b, const NodeWeight& weight) {
  double w = 1;
  auto visit = [&](const Expr& node) { w *= weight(node); };
  visit_stmt_exprs(b, visit);
  return w;
}

// An index drawn in proportion to `weights` (uniform when they are all 0 or not finite).
u32 weighted_index(const std::vector<double>& weights, Rng& rng) {
  double total = 0;
  for (double w : weights) total += std::isfinite(w) && w > 0 ? w : 0;
  if (!(total > 0) || !std::isfinite(total)) return rng.below(u32(weights.size()));
  double r = rng.uniform01() * total;
  for (u32 k = 0; k < weights.size(); ++k) {
    const double w = std::isfinite(weights[k]) && weights[k] > 0 ? weights[k] : 0;
    if (r < w) return k;
    r -= w;
  }
  return u32(weights.size() - 1);
}

// `make()` once unguided; guided, config.guided_draws times, one kept by its weight.
template <typename Make>
auto guided_draw(const VariationConfig& config, Rng& rng, Make make) {
  if (!config.weight || config.guided_draws <= 1) return make();
  std::vector<decltype(make())> drawn;
  std::vector<double> weights;
  for (u32 k = 0; k < config.guided_draws; ++k) {
    drawn.push_back(make());
    weights.push_back(weight_of(drawn.back(), config.weight));
  }
  return std::move(drawn[weighted_index(weights, rng)]);
}

// Whether a statement (or anything inside it) mentions a variable `name`: reads or assigns it.
bool mentions(const Stmt& s, const std::string& name) {
  if ((s.kind == StmtKind::Assign || s.kind == StmtKind::ElementAssign) && s.name == name) return true;
  bool found = false;
  auto visit = [&](const Expr& e) { found |= e.kind == ExprKind::Name && e.text == name; };
  for (const Expr& e : s.exprs) visit_expr(e, visit);
  for (const Block& b : s.blocks)
    for (const Stmt& inner : b) found = found || mentions(inner, name);
  return found;
}

// ---- the generator's termination patterns ---------------------------------------------------

// `c < K` with c a variable: the bound of a generated while loop.
const Expr* counter_test(const Expr& cond) {
  const Expr* lt = &cond;
  if (cond.kind == ExprKind::Binary && cond.binary_op() == BinaryOp::And) lt = &cond.children[0];
  if (lt->kind == ExprKind::Binary && lt->binary_op() == BinaryOp::Lt &&
      lt->children[0].kind == ExprKind::Name && lt->children[0].type == Type::Int &&
      lt->children[1].kind == ExprKind::IntLit)
    return lt;
  return nullptr;
}

// The counter of `while c < K [&& x] { c = c + 1; ... }`, or null.
const std::string* while_counter(const Stmt& s) {
  if (s.kind != StmtKind::While || s.blocks[0].empty()) return nullptr;
  const Expr* test = counter_test(s.exprs[0]);
  if (!test) return nullptr;
  const std::string& c = test->children[0].text;
  const Stmt& first = s.blocks[0][0];
  if (first.kind != StmtKind::Assign || first.name != c) return nullptr;
  const Expr& v = first.exprs[0];
  bool step = v.kind == ExprKind::Binary && v.binary_op() == BinaryOp::Add &&
              v.children[0].kind == ExprKind::Name && v.children[0].text == c &&
              v.children[1].kind == ExprKind::IntLit && v.children[1].int_value > 0;
  return step ? &c : nullptr;
}

// ---- estimated cost of a call (as the generator estimates it) ------------------------------

class CostEstimate {
 public:
  CostEstimate(const Tree& p, u64 loop_iterations) : p_(p), iterations_(std::max<u64>(loop_iterations, 1)) {
    cost_.assign(p.functions.size(), 0);
    state_.assign(p.functions.size(), 0);
    for (u32 f = 0; f < p.functions.size(); ++f) of(f);
  }
  u64 operator[](u32 f) const { return cost_[f]; }

 private:
  static constexpr u64 kCap = u64(1) << 40;

  u64 of(u32 f) {
    if (state_[f] == 2) return cost_[f];
    if (state_[f] == 1) return 1;  // a cycle (recursion): counted by the caller's factor
    state_[f] = 1;
    const Function& fn = p_.functions[f];
    u64 c = block(fn.body, fn.name);
    bool recursive = false;
    auto visit = [&](const Expr& e) { recursive |= e.kind == ExprKind::Call && e.text == fn.name; };
    visit_stmt_exprs(fn.body, visit);
    if (recursive) c = std::min(kCap, c * 9);
    cost_[f] = std::max<u64>(c, 1);
    state_[f] = 2;
    return cost_[f];
  }
  u64 expr(const Expr& e, const std::string& self) {
    u64 c = 1;
    if (e.kind == ExprKind::Call && e.text != self) {
      i64 g = function_index(p_, e.text);
      if (g >= 0) c += of(u32(g));
    }
    for (const Expr& child : e.children) c = std::min(kCap, c + expr(child, self));
    return c;
  }
  u64 block(const Block& b, const std::string& self) {
    u64 c = 0;
    for (const Stmt& s : b) {
      u64 here = 1;
      for (const Expr& e : s.exprs) here += expr(e, self);
      bool loop = s.kind == StmtKind::While || s.kind == StmtKind::ForRange || s.kind == StmtKind::ForIn;
      for (const Block& inner : s.blocks) here += block(inner, self) * (loop ? iterations_ : 1);
      c = std::min(kCap, c + here);
    }
    return c;
  }

  const Tree& p_;
  u64 iterations_;
  std::vector<u64> cost_;
  std::vector<u8> state_;  // 0 new, 1 in progress, 2 done
};

// ---- finding the sites ----------------------------------------------------------------------

class SiteFinder {
 public:
  SiteFinder(Tree& p, const RandomProgramConfig& gen) : p_(p), gen_(gen) {}

  EditSites run(u32 entry) {
    out_.entry = entry;
    call_graph();
    for (u32 f = 0; f < p_.functions.size(); ++f) function_facts(f);
    for (u32 f = 0; f < p_.functions.size(); ++f) walk_function(f);
    return std::move(out_);
  }

 private:
  using Var = Surroundings::Variable;

  void call_graph() {
    size_t n = p_.functions.size();
    auto& reach = out_.reaches;
    reach.assign(n, std::vector<bool>(n, false));
    for (size_t f = 0; f < n; ++f) {
      auto visit = [&](const Expr& e) {
        if (e.kind != ExprKind::Call) return;
        i64 g = function_index(p_, e.text);
        if (g >= 0) reach[f][size_t(g)] = true;
      };
      visit_stmt_exprs(p_.functions[f].body, visit);
    }
    for (size_t k = 0; k < n; ++k)  // transitive closure (Warshall)
      for (size_t i = 0; i < n; ++i)
        if (reach[i][k])
          for (size_t j = 0; j < n; ++j)
            if (reach[k][j]) reach[i][j] = true;
  }

  // A self-calling function whose first parameter is an int: a recursion with a depth.
  bool has_depth(u32 f) const {
    const Function& fn = p_.functions[f];
    return out_.reaches[f][f] && !fn.params.empty() && fn.params[0].type == Type::Int;
  }

  void function_facts(u32 f) {
    if (f == 0) {
      costs_ = std::make_unique<CostEstimate>(p_, gen_.max_loop_iterations);
      for (const Function& fn : p_.functions)
        if (is_builtin_name(fn.name)) hidden_.push_back(fn.name);
    }
    const Function& fn = p_.functions[f];
    Surroundings s;
    for (u32 g = 0; g < p_.functions.size(); ++g) {
      if (g == f || out_.reaches[g][f]) continue;  // calling g from f would close a cycle
      const Function& callee = p_.functions[g];
      s.callees.push_back({callee.name, param_types(callee), callee.results, has_depth(g), (*costs_)[g]});
    }
    s.results = fn.results;
    s.hidden_builtins = hidden_;
    for (const Param& p : fn.params) s.taken_names.push_back(p.name);
    std::vector<std::string> grown;
    names_in(fn.body, 0, s.taken_names, grown);
    std::sort(s.taken_names.begin(), s.taken_names.end());
    s.taken_names.erase(std::unique(s.taken_names.begin(), s.taken_names.end()), s.taken_names.end());
    s.recursive = out_.reaches[f][f];
    s.cost = (*costs_)[f];
    out_.functions.push_back(std::move(s));
    grown_.push_back(std::move(grown));
  }

  // Every variable name a block declares, and those assigned inside a loop.
  static void names_in(const Block& b, u32 loops, std::vector<std::string>& names,
                       std::vector<std::string>& grown) {
    for (const Stmt& s : b) {
      if (s.kind == StmtKind::Let || s.kind == StmtKind::ForRange || s.kind == StmtKind::ForIn)
        names.push_back(s.name);
      if (s.kind == StmtKind::LetTuple) names.insert(names.end(), s.names.begin(), s.names.end());
      if ((s.kind == StmtKind::Assign || s.kind == StmtKind::ElementAssign) && loops > 0)
        grown.push_back(s.name);
      bool loop = s.kind == StmtKind::While || s.kind == StmtKind::ForRange || s.kind == StmtKind::ForIn;
      for (const Block& inner : s.blocks) names_in(inner, loops + (loop ? 1 : 0), names, grown);
    }
  }

  // ---- scopes ----

  void declare(const std::string& name, Type t, bool readonly, bool param) {
    const std::vector<std::string>& grown = grown_[f_];
    bool growing =
        is_sequence(t) && (loops_ > 0 || std::find(grown.begin(), grown.end(), name) != grown.end() ||
                           (param && out_.functions[f_].recursive));
    scopes_.back().push_back({name, t, readonly, param, growing});
  }

  // The visible variables now (the innermost of each name), as a new scope index.
  u32 snapshot() {
    Surroundings s;
    std::vector<const std::string*> seen;
    for (size_t k = scopes_.size(); k-- > 0;) {
      for (size_t j = scopes_[k].size(); j-- > 0;) {
        const Var& v = scopes_[k][j];
        bool shadowed = false;
        for (const std::string* n : seen) shadowed |= *n == v.name;
        if (shadowed) continue;
        seen.push_back(&v.name);
        s.variables.push_back(v);
      }
    }
    s.loops = loops_;
    s.block_depth = depth_;
    s.multiplier = multiplier_;
    out_.scopes.push_back(std::move(s));
    out_.scope_function.push_back(f_);
    return u32(out_.scopes.size() - 1);
  }

  // ---- walking ----

  void walk_function(u32 f) {
    f_ = f;
    Function& fn = p_.functions[f];
    scopes_.assign(1, {});
    loops_ = 0;
    depth_ = 0;
    multiplier_ = 1;
    bool depth_param = has_depth(f);
    for (size_t k = 0; k < fn.params.size(); ++k)  // a recursion's depth is read-only
      declare(fn.params[k].name, fn.params[k].type, depth_param && k == 0, true);
    // The base case `if d <= 0 { ... }` opening a recursion with a depth stays.
    if (depth_param && !fn.body.empty() && fn.body[0].kind == StmtKind::If &&
        mentions_name(fn.body[0].exprs[0], fn.params[0].name))
      locked_.insert(&fn.body[0]);
    walk_block(fn.body, true, 0);
  }

  static bool mentions_name(const Expr& e, const std::string& name) {
    bool found = false;
    auto visit = [&](const Expr& x) { found |= x.kind == ExprKind::Name && x.text == name; };
    visit_expr(e, visit);
    return found;
  }

  // keep: leading statements that must stay first (a while loop's counter update).
  void walk_block(Block& b, bool body, u32 keep) {
    scopes_.emplace_back();
    ++depth_;
    std::vector<bool> counter_let(b.size(), false);
    for (size_t i = 1; i < b.size(); ++i) {
      const std::string* c = while_counter(b[i]);
      if (c && b[i - 1].kind == StmtKind::Let && b[i - 1].name == *c) counter_let[i - 1] = true;
    }
    const Function& fn = p_.functions[f_];
    bool ends_with_return = !b.empty() && b.back().kind == StmtKind::Return;
    for (size_t i = 0; i <= b.size(); ++i) {
      u32 scope = snapshot();
      bool end = i == b.size();
      // Nothing goes between a while loop and its counter's let: the pair stays recognisable.
      bool after_counter = i > 0 && counter_let[i - 1];
      StmtSite site{&b, u32(i), f_, scope, false, i >= keep && !after_counter && !(end && ends_with_return)};
      if (!end) site.removable = i >= keep && removable(b, i, body && !fn.results.empty());
      out_.stmts.push_back(site);
      if (end) break;
      Stmt& s = b[i];
      if (counter_let[i]) {
        declare(s.name, s.exprs[0].type, true, false);  // its initial value stays too
        continue;
      }
      walk_stmt(s, scope);
    }
    --depth_;
    scopes_.pop_back();
  }

  bool removable(const Block& b, size_t i, bool must_return) const {
    const Stmt& s = b[i];
    if (locked_.count(&s)) return false;
    if (must_return && i + 1 == b.size()) return false;
    std::vector<std::string> declared;
    if (s.kind == StmtKind::Let) declared.push_back(s.name);
    if (s.kind == StmtKind::LetTuple) declared = s.names;
    for (const std::string& name : declared)
      for (size_t k = i + 1; k < b.size(); ++k)
        if (mentions(b[k], name)) return false;
    return true;
  }

  void walk_stmt(Stmt& s, u32 scope) {
    bool locked = locked_.count(&s) > 0;
    switch (s.kind) {
      case StmtKind::ForRange:
        bound(s.exprs[0], scope);
        bound(s.exprs[1], scope);
        break;
      case StmtKind::ForIn: {
        Expr& seq = s.exprs[0];
        bool sliced = seq.kind == ExprKind::Call && seq.text == "slice" && seq.children.size() == 3 &&
                      seq.children[1].kind == ExprKind::IntLit && seq.children[2].kind == ExprKind::IntLit;
        if (loops_ > 0 && sliced) {
          expr(seq.children[0], scope);  // slice(e, a, a + K): at most K iterations whatever e is
        } else {
          expr(seq, scope);
        }
        break;
      }
      case StmtKind::While:
        if (while_counter(s)) {
          Expr& cond = s.exprs[0];
          if (&cond != counter_test(cond)) expr(cond.children[1], scope);  // c < K && x: x is free
        } else {
          expr(s.exprs[0], scope);
        }
        break;
      case StmtKind::CallStmt:
      case StmtKind::LetTuple:  // the call itself must stay a call
        call_args(s.exprs[0], scope);
        break;
      default:
        if (!locked)
          for (Expr& e : s.exprs) expr(e, scope);
    }
    walk_nested(s);
    if (s.kind == StmtKind::Let) declare(s.name, s.exprs[0].type, false, false);
    if (s.kind == StmtKind::LetTuple) {
      const Function* callee = p_.find(s.exprs[0].text);
      for (size_t k = 0; k < s.names.size(); ++k)
        declare(s.names[k], callee && k < callee->results.size() ? callee->results[k] : Type::Int, false,
                false);
    }
  }

  void walk_nested(Stmt& s) {
    bool loop = s.kind == StmtKind::While || s.kind == StmtKind::ForRange || s.kind == StmtKind::ForIn;
    if (!loop) {
      for (Block& inner : s.blocks) nested_block(inner, 0);
      return;
    }
    ++loops_;
    u64 saved = multiplier_;
    multiplier_ = std::min<u64>(multiplier_ * std::max<u32>(gen_.max_loop_iterations, 1), u64(1) << 40);
    scopes_.emplace_back();
    if (s.kind == StmtKind::ForRange) declare(s.name, Type::Int, false, false);
    if (s.kind == StmtKind::ForIn) declare(s.name, item_of(s.exprs[0].type), false, false);
    u32 keep = 0;
    if (const std::string* c = while_counter(s)) {
      keep = 1;
      locked_.insert(&s.blocks[0][0]);
      mark_readonly(*c);
    }
    nested_block(s.blocks[0], keep);
    scopes_.pop_back();
    multiplier_ = saved;
    --loops_;
  }

  // Marks the innermost visible variable `name` read-only (a while counter not declared by a
  // let right before its loop).
  void mark_readonly(const std::string& name) {
    for (size_t k = scopes_.size(); k-- > 0;)
      for (size_t j = scopes_[k].size(); j-- > 0;)
        if (scopes_[k][j].name == name) {
          scopes_[k][j].readonly = true;
          return;
        }
  }

  void nested_block(Block& b, u32 keep) {
    ++depth_;
    u32 scope = snapshot();  // what code at the start of b sees
    --depth_;
    out_.blocks.push_back({&b, f_, scope, keep});
    walk_block(b, false, keep);
  }

  // A for-range bound: generated bounds are static, so only the operand under `% K` may change.
  void bound(Expr& e, u32 scope) {
    if (e.kind == ExprKind::Binary && e.binary_op() == BinaryOp::Mod &&
        e.children[1].kind == ExprKind::IntLit)
      expr(e.children[0], scope);
  }

  void call_args(Expr& call, u32 scope) {
    bool self = call.text == p_.functions[f_].name && has_depth(f_);
    for (size_t k = self ? 1 : 0; k < call.children.size(); ++k) expr(call.children[k], scope);
  }

  void expr(Expr& e, u32 scope) {
    if (replaceable_type(e.type)) out_.exprs.push_back({&e, f_, scope});
    if (e.kind == ExprKind::Call) {
      call_args(e, scope);  // a recursion's depth argument stays
      return;
    }
    for (Expr& c : e.children) expr(c, scope);
  }

  Tree& p_;
  const RandomProgramConfig& gen_;
  EditSites out_;
  std::unique_ptr<CostEstimate> costs_;
  std::vector<std::string> hidden_;
  std::vector<std::vector<std::string>> grown_;  // per function
  std::unordered_set<const Stmt*> locked_;
  // The walk.
  u32 f_ = 0;
  std::vector<std::vector<Var>> scopes_;
  u32 loops_ = 0;
  u32 depth_ = 0;
  u64 multiplier_ = 1;
};

// ---- fitting a subtree of another program ---------------------------------------------------

// Whether code from `donor` may go into function f of `target` at a scope: its free variables
// are visible there with the same types (and writable where it assigns them), its calls reach
// the same functions (or builtins) without closing a cycle, its jumps have a loop, its returns
// the same results, and what it declares at its top is new to f.
class Fit {
 public:
  Fit(const Tree& target, const EditSites& sites, u32 scope, const Tree& donor, u32 donor_function)
      : target_(target),
        sites_(sites),
        at_(sites.scopes[scope]),
        f_(sites.scope_function[scope]),
        donor_(donor),
        donor_f_(donor_function) {}

  bool expr(const Expr& e) {
    expr_walk(e);
    return ok_;
  }

  bool stmt(const Stmt& s) {
    locals_.assign(1, {});
    stmt_walk(s, 0);
    if (!ok_) return false;
    if (free_jump_ && at_.loops == 0) return false;
    if (returns_ && target_.functions[f_].results != donor_.functions[donor_f_].results) return false;
    const std::vector<std::string>& taken = sites_.functions[f_].taken_names;
    for (const auto& [name, type] : locals_[0])
      if (std::binary_search(taken.begin(), taken.end(), name)) return false;
    return true;
  }

 private:
  using Local = std::pair<std::string, Type>;

  const Local* local(const std::string& name) const {
    for (size_t k = locals_.size(); k-- > 0;)
      for (size_t j = locals_[k].size(); j-- > 0;)
        if (locals_[k][j].first == name) return &locals_[k][j];
    return nullptr;
  }

  void use(const std::string& name, Type t, bool write) {
    if (const Local* l = local(name)) {
      ok_ &= l->second == t;
      return;
    }
    const Surroundings::Variable* v = nullptr;
    for (const auto& x : at_.variables)
      if (x.name == name) v = &x;
    ok_ &= v && v->type == t && !(write && v->readonly);
  }

  void expr_walk(const Expr& e) {
    if (!ok_) return;
    if (e.kind == ExprKind::Name) use(e.text, e.type, false);
    if (e.kind == ExprKind::Call) ok_ &= call_fits(e);
    for (const Expr& c : e.children) expr_walk(c);
  }

  bool call_fits(const Expr& call) const {
    const Function* theirs = donor_.find(call.text);
    i64 g = function_index(target_, call.text);
    if (!theirs) return g < 0;  // a builtin there must not be hidden here
    if (g < 0) return false;
    const Function& ours = target_.functions[size_t(g)];
    if (param_types(ours) != param_types(*theirs) || ours.results != theirs->results) return false;
    return u32(g) != f_ && !sites_.reaches[size_t(g)][f_];
  }

  void block_walk(const Block& b, u32 loops, const Local* loop_var) {
    locals_.emplace_back();
    if (loop_var) locals_.back().push_back(*loop_var);
    for (const Stmt& s : b) stmt_walk(s, loops);
    locals_.pop_back();
  }

  void stmt_walk(const Stmt& s, u32 loops) {
    if (!ok_) return;
    for (const Expr& e : s.exprs) expr_walk(e);
    switch (s.kind) {
      case StmtKind::Let: locals_.back().push_back({s.name, s.exprs[0].type}); break;
      case StmtKind::LetTuple: {
        const Function* callee = donor_.find(s.exprs[0].text);
        if (!callee || callee->results.size() != s.names.size()) {
          ok_ = false;
          return;
        }
        for (size_t k = 0; k < s.names.size(); ++k)
          locals_.back().push_back({s.names[k], callee->results[k]});
        break;
      }
      case StmtKind::Assign: use(s.name, s.exprs[0].type, true); break;
      case StmtKind::ElementAssign: use(s.name, array_of(s.exprs[1].type), true); break;
      case StmtKind::Break:
      case StmtKind::Continue: free_jump_ |= loops == 0; break;
      case StmtKind::Return: returns_ = true; break;
      case StmtKind::While: {
        const std::string* c = while_counter(s);
        if (c && !local(*c)) ok_ = false;  // its counter would not start at the loop's own let
        block_walk(s.blocks[0], loops + 1, nullptr);
        break;
      }
      case StmtKind::ForRange: {
        Local var{s.name, Type::Int};
        block_walk(s.blocks[0], loops + 1, &var);
        break;
      }
      case StmtKind::ForIn: {
        Local var{s.name, item_of(s.exprs[0].type)};
        block_walk(s.blocks[0], loops + 1, &var);
        break;
      }
      default:
        for (const Block& b : s.blocks) block_walk(b, loops, nullptr);
    }
  }

  const Tree& target_;
  const EditSites& sites_;
  const Surroundings& at_;
  u32 f_;
  const Tree& donor_;
  u32 donor_f_;
  std::vector<std::vector<Local>> locals_;
  bool ok_ = true;
  bool free_jump_ = false;
  bool returns_ = false;
};

// ---- point changes --------------------------------------------------------------------------

std::vector<BinaryOp> same_typing(const Expr& e) {
  BinaryOp op = e.binary_op();
  Type t = e.children[0].type;
  using B = BinaryOp;
  std::vector<B> group;
  if (op == B::And || op == B::Or) {
    group = {B::And, B::Or};
  } else if (is_comparison(op)) {
    bool ordered = t == Type::Int || t == Type::Float || t == Type::Str;
    group = ordered ? std::vector<B>{B::Eq, B::Ne, B::Lt, B::Le, B::Gt, B::Ge} : std::vector<B>{B::Eq, B::Ne};
  } else if (t == Type::Int) {
    group = {B::Add, B::Sub, B::Mul, B::Div, B::Mod, B::BitAnd, B::BitOr, B::BitXor, B::Shl, B::Shr, B::Ushr};
  } else if (t == Type::Float) {
    group = {B::Add, B::Sub, B::Mul, B::Div, B::Mod};
  }
  group.erase(std::remove(group.begin(), group.end(), op), group.end());
  return group;
}

// Functions and builtins that take the same argument types and give the same result as `call`.
std::vector<std::string> compatible_callees(const Expr& call, const Tree& p, const EditSites& sites, u32 f,
                                            const RandomProgramConfig& gen) {
  std::vector<Type> args;
  bool untyped = false;  // a [] argument gets its type from the callee: keep the callee
  for (const Expr& a : call.children) {
    args.push_back(a.type);
    untyped |= is_empty_array(a);
  }
  std::vector<std::string> out;
  if (!untyped) {
    for (u32 b = 0; b < kBuiltinCount; ++b) {
      std::string name = builtin_name(Builtin(b));
      if (name == call.text || std::find(out.begin(), out.end(), name) != out.end() || p.find(name)) continue;
      if (std::find(gen.disabled_builtins.begin(), gen.disabled_builtins.end(), name) !=
          gen.disabled_builtins.end())
        continue;
      Type result = Type::Unit;
      if (resolve_builtin(name, args, &result) && result == call.type) out.push_back(name);
    }
  }
  for (u32 g = 0; g < p.functions.size(); ++g) {
    const Function& fn = p.functions[g];
    if (fn.name == call.text || g == f || sites.reaches[g][f]) continue;
    if (param_types(fn) == args && fn.results.size() == 1 && fn.results[0] == call.type)
      out.push_back(fn.name);
  }
  return out;
}

i64 changed_int(i64 v, Rng& rng) {
  switch (rng.below(6)) {
    case 0: return i64(u64(v) + 1);
    case 1: return i64(u64(v) - 1);
    case 2: return i64(0 - u64(v));
    case 3: return i64(u64(v) * 2);
    case 4: return rng.uniform_int(-10, 10);
    default: return random_literal(Type::Int, rng).int_value;
  }
}

double changed_float(double v, Rng& rng) {
  double w = v;
  switch (rng.below(5)) {
    case 0: w = v + 1; break;
    case 1: w = -v; break;
    case 2: w = v * 2; break;
    case 3: w = v / 2; break;
    default: w = random_literal(Type::Float, rng).float_value;
  }
  return float_literal_is_exact(w) ? w : random_literal(Type::Float, rng).float_value;
}

// One of `options` for node e, each made by `set` on a copy of it: guided, drawn by the weight of
// the node it makes; else uniformly.
template <typename T, typename Set>
const T& pick_change(const Expr& e, const std::vector<T>& options, const NodeWeight& weight, Rng& rng,
                     Set set) {
  if (!weight) return options[rng.below(u32(options.size()))];
  std::vector<double> weights;
  Expr node = e;
  for (const T& o : options) {
    set(node, o);
    weights.push_back(weight(node));
  }
  return options[weighted_index(weights, rng)];
}

// Changes one node in place; false when it has nothing to change to.
bool point_change(Expr& e, const Tree& p, const EditSites& sites, u32 scope, const VariationConfig& config,
                  Rng& rng) {
  switch (e.kind) {
    case ExprKind::IntLit: {
      i64 v = changed_int(e.int_value, rng);
      if (v == e.int_value) v = i64(u64(v) + 1);
      e.int_value = v;
      return true;
    }
    case ExprKind::FloatLit: {
      double v = changed_float(e.float_value, rng);
      if (v == e.float_value && std::signbit(v) == std::signbit(e.float_value)) return false;
      e.float_value = v;
      return true;
    }
    case ExprKind::BoolLit: e.int_value = !e.int_value; return true;
    case ExprKind::StrLit: {
      std::string s = random_literal(Type::Str, rng).text;
      if (s == e.text) s += 'a';
      e.text = std::move(s);
      return true;
    }
    case ExprKind::Name: {
      std::vector<const std::string*> others;
      for (const auto& v : sites.scopes[scope].variables)
        if (v.type == e.type && v.name != e.text) others.push_back(&v.name);
      if (others.empty()) return false;
      e.text = *others[rng.below(u32(others.size()))];
      return true;
    }
    case ExprKind::Unary:
      if (e.type != Type::Int) return false;
      e.op = u8(e.unary_op() == UnaryOp::Neg ? UnaryOp::BitNot : UnaryOp::Neg);
      return true;
    case ExprKind::Binary: {
      std::vector<BinaryOp> ops = same_typing(e);
      if (ops.empty()) return false;
      e.op = u8(pick_change(e, ops, config.weight, rng, [](Expr& n, BinaryOp op) { n.op = u8(op); }));
      return true;
    }
    case ExprKind::Call: {
      std::vector<std::string> names =
          compatible_callees(e, p, sites, sites.scope_function[scope], config.generator);
      if (names.empty()) return false;
      e.text = pick_change(e, names, config.weight, rng, [](Expr& n, const std::string& f) { n.text = f; });
      return true;
    }
    default: return false;
  }
}

// ---- the operators --------------------------------------------------------------------------

void check_parent(const Tree& p, const suites::Signature& s, const char* who) {
  if (!has_entry(p, s))
    throw std::invalid_argument(std::string(who) + ": the parent has no entry function matching '" + s.text +
                                "'");
}

bool within_limits(const Tree& p, const VariationConfig& c) {
  return node_count(p) <= c.max_nodes && syntax_depth(p) <= c.max_depth;
}

// Runs `attempt` on fresh copies of the parent until one changes it within the size limits.
template <typename Attempt>
Offspring vary(const Tree& parent, const VariationConfig& config, Attempt attempt) {
  Offspring o;
  for (u32 k = 0; k < std::max<u32>(config.max_attempts, 1); ++k) {
    ++o.attempts;
    Tree child = parent;
    if (attempt(child) && within_limits(child, config)) {
      o.program = std::move(child);
      return o;
    }
  }
  o.program = parent;
  o.copied = true;
  return o;
}

template <typename T>
T* pick(std::vector<T>& items, Rng& rng) {
  return items.empty() ? nullptr : &items[rng.below(u32(items.size()))];
}

bool replace_expr(EditSites& sites, const VariationConfig& config, Rng& rng) {
  ExprSite* site = pick(sites.exprs, rng);
  if (!site) return false;
  const Surroundings at = sites.at(site->scope);
  Expr fresh =
      guided_draw(config, rng, [&] { return random_expr(site->expr->type, at, config.generator, rng); });
  if (to_source(fresh) == to_source(*site->expr)) return false;
  *site->expr = std::move(fresh);
  return true;
}

bool mutate_statements(EditSites& sites, const VariationConfig& config, Rng& rng) {
  const RandomProgramConfig& gen = config.generator;
  const auto statements = [&](const Surroundings& at) {
    return guided_draw(config, rng, [&] { return random_statements(at, gen, rng); });
  };
  std::vector<StmtSite> removable, insertable;
  for (const StmtSite& s : sites.stmts) {
    if (s.removable) removable.push_back(s);
    if (s.insertable) insertable.push_back(s);
  }
  switch (rng.below(3)) {
    case 0: {  // replace a statement
      StmtSite* s = pick(removable, rng);
      if (!s) return false;
      Block fresh = statements(sites.at(s->scope));
      if (fresh.empty()) return false;
      Block& b = *s->block;
      b.erase(b.begin() + s->index);
      b.insert(b.begin() + s->index, std::make_move_iterator(fresh.begin()),
               std::make_move_iterator(fresh.end()));
      return true;
    }
    case 1: {  // insert statements
      StmtSite* s = pick(insertable, rng);
      if (!s) return false;
      Block fresh = statements(sites.at(s->scope));
      if (fresh.empty()) return false;
      s->block->insert(s->block->begin() + s->index, std::make_move_iterator(fresh.begin()),
                       std::make_move_iterator(fresh.end()));
      return true;
    }
    default: {  // replace a nested block's statements
      BlockSite* site = pick(sites.blocks, rng);
      if (!site) return false;
      Surroundings at = sites.at(site->scope);
      at.block_depth -= 1;  // random_block opens the block itself
      Block fresh = guided_draw(config, rng, [&] { return random_block(at, gen, rng); });
      Block& b = *site->block;
      b.erase(b.begin() + std::min<size_t>(site->keep, b.size()), b.end());
      b.insert(b.end(), std::make_move_iterator(fresh.begin()), std::make_move_iterator(fresh.end()));
      return true;
    }
  }
}

// Every statement of a program, with the index of its function.
void all_statements(const Block& b, u32 f, std::vector<std::pair<const Stmt*, u32>>& out) {
  for (const Stmt& s : b) {
    out.push_back({&s, f});
    for (const Block& inner : s.blocks) all_statements(inner, f, out);
  }
}

bool cross_expr(Tree& child, EditSites& sites, const Tree& donor, Rng& rng) {
  ExprSite* site = pick(sites.exprs, rng);
  if (!site) return false;
  std::vector<const Expr*> fitting;
  for (u32 f = 0; f < donor.functions.size(); ++f) {
    auto visit = [&](const Expr& e) {
      if (e.type != site->expr->type || is_empty_array(e)) return;
      if (Fit(child, sites, site->scope, donor, f).expr(e)) fitting.push_back(&e);
    };
    visit_stmt_exprs(donor.functions[f].body, visit);
  }
  if (fitting.empty()) return false;
  const Expr* chosen = fitting[rng.below(u32(fitting.size()))];
  if (to_source(*chosen) == to_source(*site->expr)) return false;
  *site->expr = *chosen;
  return true;
}

bool cross_statement(Tree& child, EditSites& sites, const Tree& donor, Rng& rng) {
  std::vector<StmtSite> places;
  bool replace = rng.bernoulli(0.5);
  for (const StmtSite& s : sites.stmts)
    if (replace ? s.removable : s.insertable) places.push_back(s);
  StmtSite* place = pick(places, rng);
  if (!place) return false;
  std::vector<std::pair<const Stmt*, u32>> statements;
  for (u32 f = 0; f < donor.functions.size(); ++f) all_statements(donor.functions[f].body, f, statements);
  std::vector<const Stmt*> fitting;
  for (const auto& [s, f] : statements)
    if (Fit(child, sites, place->scope, donor, f).stmt(*s)) fitting.push_back(s);
  if (fitting.empty()) return false;
  Stmt chosen = *fitting[rng.below(u32(fitting.size()))];
  Block& b = *place->block;
  if (replace) b.erase(b.begin() + place->index);
  b.insert(b.begin() + place->index, std::move(chosen));
  return true;
}

u32 depth_expr(const Expr& e) {
  u32 d = 0;
  for (const Expr& c : e.children) d = std::max(d, depth_expr(c));
  return d + 1;
}

u32 depth_block(const Block& b) {
  u32 d = 0;
  for (const Stmt& s : b) {
    u32 here = 0;
    for (const Expr& e : s.exprs) here = std::max(here, depth_expr(e));
    for (size_t k = 0; k < s.blocks.size(); ++k)  // else-if arm k nests k deeper
      here = std::max(here, 1 + u32(s.kind == StmtKind::If ? k : 0) + depth_block(s.blocks[k]));
    d = std::max(d, here + 1);
  }
  return d;
}

}  // namespace

// ---- public ---------------------------------------------------------------------------------

Surroundings EditSites::at(u32 scope) const {
  Surroundings s = functions[scope_function[scope]];
  const Surroundings& v = scopes[scope];
  s.variables = v.variables;
  s.loops = v.loops;
  s.block_depth = v.block_depth;
  s.multiplier = v.multiplier;
  return s;
}

EditSites find_edit_sites(Tree& p, const suites::Signature& signature, const RandomProgramConfig& generator) {
  i64 entry = function_index(p, signature.entry);
  return SiteFinder(p, generator).run(entry < 0 ? 0 : u32(entry));
}

u32 syntax_depth(const Tree& p) {
  u32 d = 0;
  for (const Function& f : p.functions) d = std::max(d, 1 + depth_block(f.body));
  return d;
}

bool has_entry(const Tree& p, const suites::Signature& signature) {
  const Function* f = p.find(signature.entry);
  return f && param_types(*f) == signature.params && f->results == signature.results;
}

Offspring subtree_mutation(const Tree& parent, const suites::Signature& signature,
                           const VariationConfig& config, Rng& rng) {
  check_parent(parent, signature, "subtree_mutation");
  return vary(parent, config, [&](Tree& child) {
    EditSites sites = find_edit_sites(child, signature, config.generator);
    if (rng.bernoulli(config.p_statement)) return mutate_statements(sites, config, rng);
    return replace_expr(sites, config, rng);
  });
}

Offspring point_mutation(const Tree& parent, const suites::Signature& signature,
                         const VariationConfig& config, Rng& rng) {
  check_parent(parent, signature, "point_mutation");
  return vary(parent, config, [&](Tree& child) {
    EditSites sites = find_edit_sites(child, signature, config.generator);
    if (sites.exprs.empty()) return false;
    for (int tries = 0; tries < 16; ++tries) {  // a node with something to change to
      ExprSite& site = sites.exprs[rng.below(u32(sites.exprs.size()))];
      if (point_change(*site.expr, child, sites, site.scope, config, rng)) return true;
    }
    return false;
  });
}

Offspring mutation(const Tree& parent, const suites::Signature& signature, const VariationConfig& config,
                   Rng& rng) {
  if (rng.bernoulli(config.p_point)) return point_mutation(parent, signature, config, rng);
  return subtree_mutation(parent, signature, config, rng);
}

Offspring crossover(const Tree& a, const Tree& b, const suites::Signature& signature,
                    const VariationConfig& config, Rng& rng) {
  check_parent(a, signature, "crossover");
  check_parent(b, signature, "crossover");
  return vary(a, config, [&](Tree& child) {
    EditSites sites = find_edit_sites(child, signature, config.generator);
    if (rng.bernoulli(config.p_statement)) return cross_statement(child, sites, b, rng);
    return cross_expr(child, sites, b, rng);
  });
}

}  // namespace gs::trees
