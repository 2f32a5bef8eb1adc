// Random programs: signatures, functions and statements (trees/random_statements.h).
#include "trees/random_statements.h"

#include <algorithm>

namespace gs::trees::random {

// ----  ----

Tree ProgramMaker::run() {
  // Risk varies by program, so some programs run long without a trap and others trap often.
  s_.risk = s_.cfg.p_risky * s_.pick({0.0, 0.0, 0.25, 0.5, 1.0, 2.0});
  plan_signatures();
  Tree p;
  for (size_t k = s_.sigs.size(); k-- > 0;) p.functions.push_back(gen_function(u32(k)));
  for (size_t k = p.functions.size(); k > 1; --k)
    std::swap(p.functions[k - 1], p.functions[s_.below(u32(k))]);
  return p;
}

void ProgramMaker::enter(const Surroundings& at) {
  s_.risk = s_.cfg.p_risky * s_.pick({0.0, 0.0, 0.25, 0.5, 1.0, 2.0});
  s_.hidden_builtins = at.hidden_builtins;
  s_.hidden_builtins.insert(s_.hidden_builtins.end(), s_.cfg.disabled_builtins.begin(),
                            s_.cfg.disabled_builtins.end());
  s_.sigs.assign(1, {});
  s_.sigs[0].results = at.results;
  s_.sigs[0].recursion = at.recursive ? Recursion::Bounded : Recursion::None;
  for (const Surroundings::Callee& c : at.callees) {
    Signature s{c.name, {}, c.results, c.recursive ? Recursion::Bounded : Recursion::None, c.cost};
    for (size_t k = 0; k < c.params.size(); ++k) s.params.push_back({"p" + std::to_string(k), c.params[k]});
    s_.sigs.push_back(std::move(s));
  }
  s_.current = 0;
  s_.scopes.assign(1, {});
  for (const Surroundings::Variable& v : at.variables)
    s_.declare({v.name, v.type, v.readonly, v.growing && is_sequence(v.type), v.param});
  s_.taken_names = at.taken_names;
  std::sort(s_.taken_names.begin(), s_.taken_names.end());
  s_.loops = at.loops;
  s_.block_depth = at.block_depth;
  s_.mult = std::max<u64>(at.multiplier, 1);
  s_.cost = at.cost;
  s_.budget = std::max(s_.cfg.cost_budget, at.cost + 1);
}

Expr ProgramMaker::make_expr(Type t) { return x_.expr(t, s_.depth()); }

Expr ProgramMaker::make_literal(Type t) { return x_.literal(t); }

Block ProgramMaker::make_statements() {
  Block b;
  for (int tries = 0; tries < 4 && b.empty(); ++tries) statement(b);
  return b;
}

Block ProgramMaker::make_block() { return statements(false); }

// ---- signatures ----

std::vector<Type> ProgramMaker::random_results(bool allow_unit) {
  if (allow_unit && s_.chance(s_.cfg.p_unit_helper)) return {};
  if (s_.cfg.tuples && s_.chance(s_.cfg.p_tuple_result)) {
    std::vector<Type> r(2 + s_.below(2));
    for (Type& t : r) t = s_.random_type();
    return r;
  }
  return {s_.random_type()};
}

void ProgramMaker::plan_signatures() {
  for (u32 b = 0; b < kBuiltinCount; ++b)
    for (const std::string& name : s_.cfg.disabled_builtins)
      if (name == builtin_name(Builtin(b))) s_.hidden_builtins.push_back(name);
  u32 helpers = s_.below(s_.cfg.max_helpers + 1);
  s_.sigs.resize(1 + helpers);
  for (u32 k = 0; k < s_.sigs.size(); ++k) {
    Signature& s = s_.sigs[k];
    s.name = k == 0 ? s_.cfg.entry : std::string("h").append(std::to_string(k));
    if (k > 0 && s_.chance(s_.cfg.p_builtin_named_helper)) {
      std::string name = kHideableBuiltins[s_.below(sizeof kHideableBuiltins / sizeof kHideableBuiltins[0])];
      if (!s_.hidden(name) && name != s_.cfg.entry) {
        s.name = name;  // hides the builtin in the whole program
        s_.hidden_builtins.push_back(name);
      }
    }
    if (k > 0 && s_.cfg.recursion && s_.chance(s_.cfg.p_recursive_helper)) {
      s.recursion = !s_.chance(s_.cfg.p_deep_recursion) ? Recursion::Bounded
                    : s_.chance(0.6)                    ? Recursion::Deep
                                                        : Recursion::Runaway;
      s.params.push_back({"d", Type::Int});
    }
    if (k == 0 && s_.cfg.fixed_entry) {
      for (size_t p = 0; p < s_.cfg.entry_params.size(); ++p)
        s.params.push_back({std::string("p").append(std::to_string(p)), s_.cfg.entry_params[p]});
      s.results = s_.cfg.entry_results;
      continue;
    }
    u32 params = s_.below(s_.cfg.max_params + 1 - u32(s.params.size()));
    for (u32 p = 0; p < params; ++p)
      s.params.push_back({std::string("p").append(std::to_string(p)), s_.random_type()});
    s.results = s.recursion != Recursion::None ? std::vector<Type>{s_.random_type()} : random_results(k > 0);
  }
}

// ---- functions ----

Function ProgramMaker::gen_function(u32 k) {
  Signature& s = s_.sigs[k];
  s_.current = k;
  s_.scopes.assign(1, {});
  s_.loops = 0;
  s_.mult = 1;
  s_.cost = 0;
  s_.next_name = 0;
  s_.safe_indexes.clear();
  u64 helper_budget = std::max<u64>(s_.cfg.cost_budget / 16, 200);
  s_.budget = k == 0 ? s_.cfg.cost_budget : helper_budget;
  if (s.recursion != Recursion::None) s_.budget = std::max<u64>(helper_budget / u64(depth_bound(s) + 1), 60);
  s_.self_result.clear();
  bool recursive = s.recursion != Recursion::None;
  for (size_t p = 0; p < s.params.size(); ++p)  // the depth is read-only: recursion stays bounded
    s_.declare({s.params[p].name, s.params[p].type, recursive && p == 0,
                recursive && is_sequence(s.params[p].type), true});
  s_.observe = k == 0 && !s_.cfg.fixed_entry && s_.chance(s_.cfg.p_observe_locals);
  Function f{s.name, s.params, s.results, {}};
  if (s.recursion != Recursion::None) {
    f.body = recursive_body();
    s.cost = s_.cost * u64(depth_bound(s) + 1);
  } else {
    s_.block_depth = 0;
    f.body = statements(true);
    if (s_.observe) {
      f.body.push_back(observe_locals());
      f.results = s.results;
    } else if (!s.results.empty() || s_.chance(0.3)) {
      f.body.push_back(return_statement());
    }
    s.cost = s_.cost + 1;
  }
  s_.observe = false;
  return f;
}

Stmt ProgramMaker::observe_locals() {
  Signature& s = s_.sigs[s_.current];
  std::vector<const Var*> unused, used;
  for (const Var& v : s_.scopes[0]) (v.used ? used : unused).push_back(&v);
  for (auto* list : {&unused, &used})
    for (size_t k = list->size(); k > 1; --k) std::swap((*list)[k - 1], (*list)[s_.below(u32(k))]);
  unused.insert(unused.end(), used.begin(), used.end());
  if (unused.size() > 8) unused.resize(1 + s_.below(8));
  s.results.clear();
  std::vector<Expr> values;
  for (const Var* v : unused) {
    s.results.push_back(v->type);
    values.push_back(Expr::name(v->name, v->type));
  }
  if (values.empty()) {
    s.results = {Type::Int};
    values.push_back(x_.int_expr(2));
  }
  return Stmt::ret(std::move(values));
}

i64 ProgramMaker::depth_bound(const Signature& s) {
  return s.recursion == Recursion::Bounded ? kBoundedDepth : kDeepDepth;
}

Block ProgramMaker::recursive_body() {
  Signature& s = s_.sigs[s_.current];
  s_.block_depth = 1;
  Block body, base;
  base.push_back(return_statement());
  Expr d = Expr::name("d", Type::Int);
  std::vector<Expr> cond;
  cond.push_back(s_.chance(0.5) ? Expr::binary(BinaryOp::Le, d, Expr::int_lit(0))
                                : Expr::binary(BinaryOp::Lt, d, Expr::int_lit(1)));
  std::vector<Block> blocks;
  blocks.push_back(std::move(base));
  body.push_back(Stmt::if_chain(std::move(cond), std::move(blocks)));
  append_statements(body, s_.below(3));
  std::string r = s_.fresh_name();
  Type t = s.results[0];
  body.push_back(Stmt::let(r, self_call()));
  s_.declare({r, t, false, is_sequence(t)});
  s_.self_result = r;
  append_statements(body, s_.below(2));
  body.push_back(return_statement());
  return body;
}

Expr ProgramMaker::self_call() {
  Signature& s = s_.sigs[s_.current];
  std::vector<Expr> args;
  Expr d = Expr::name("d", Type::Int);
  if (s.recursion == Recursion::Runaway) {
    args.push_back(s_.chance(0.5) ? d : Expr::binary(BinaryOp::Add, d, Expr::int_lit(1)));
  } else {
    switch (s_.below(3)) {
      case 0: args.push_back(Expr::binary(BinaryOp::Sub, d, Expr::int_lit(1))); break;
      case 1: args.push_back(Expr::binary(BinaryOp::Sub, d, Expr::int_lit(2))); break;
      default: args.push_back(Expr::binary(BinaryOp::Div, d, Expr::int_lit(2)));
    }
  }
  for (size_t k = 1; k < s.params.size(); ++k) {
    const Param& p = s.params[k];
    args.push_back(is_sequence(p.type) && s_.chance(0.5) ? x_.grown(p.name, p.type, 1)
                                                         : x_.untainted(p.type, 2));
  }
  s_.cost += 2 + args.size();
  return Expr::call(s.name, s.results[0], std::move(args));
}

// ---- statements ----

Block ProgramMaker::statements(bool top) {
  if (!top) s_.scopes.emplace_back();
  ++s_.block_depth;
  Block b;
  u32 most = std::max<u32>(1, s_.cfg.max_statements >> (s_.block_depth > 1 ? s_.block_depth - 1 : 0));
  append_statements(b, (top ? 2 : 1) + s_.below(most));
  if (!top) end_block(b);
  --s_.block_depth;
  if (!top) s_.scopes.pop_back();
  return b;
}

void ProgramMaker::end_block(Block& b) {
  if (s_.loops > 0 && s_.chance(0.2)) {
    b.push_back(Stmt::jump(s_.chance(0.5) ? StmtKind::Break : StmtKind::Continue));
  } else if (!s_.observe && s_.chance(0.07)) {
    b.push_back(return_statement());
  }
}

void ProgramMaker::append_statements(Block& b, u32 n) {
  for (u32 k = 0; k < n; ++k) statement(b);
}

void ProgramMaker::statement(Block& b) {
  bool nest = s_.block_depth < s_.cfg.max_block_depth;
  bool loop = nest && s_.cfg.loops && s_.loops < s_.cfg.max_loop_nesting &&
              s_.cost + s_.mult * s_.cfg.max_loop_iterations * 16 <= s_.budget;
  bool sequences = s_.cfg.arrays || s_.cfg.strings;
  auto assignable = s_.visible([](const Var& v) { return !v.readonly; });
  auto arrays = s_.visible([](const Var& v) { return is_array(v.type) && !v.readonly; });
  int k = s_.choose({30, assignable.empty() ? 0 : 14, arrays.empty() ? 0 : 8, nest ? 12 : 0, loop ? 7 : 0,
                     loop && sequences ? 5 : 0, loop ? 4 : 0, 5, s_.cfg.tuples ? 5 : 0, nest ? 2 : 0,
                     arrays.empty() ? 0 : 3});
  size_t before = b.size();
  switch (k) {
    case 0: let_statement(b); break;
    case 1: assign_statement(b, *assignable[s_.below(u32(assignable.size()))]); break;
    case 2: element_assign(b, *arrays[s_.below(u32(arrays.size()))]); break;
    case 3: if_statement(b); break;
    case 4: for_range(b); break;
    case 5: for_in(b); break;
    case 6: while_loop(b); break;
    case 7: call_statement(b); break;
    case 8: let_tuple(b); break;
    case 9: b.push_back(Stmt::block(statements(false))); break;
    default: alias_statements(b, *arrays[s_.below(u32(arrays.size()))]); break;
  }
  for (size_t s = before; s < b.size(); ++s) s_.cost += s_.mult * (1 + expr_nodes(b[s]));
}

u64 ProgramMaker::expr_nodes(const Expr& e) {
  u64 n = 1;
  for (const Expr& c : e.children) n += expr_nodes(c);
  return n;
}

u64 ProgramMaker::expr_nodes(const Stmt& s) {
  u64 n = 0;
  for (const Expr& e : s.exprs) n += expr_nodes(e);
  return n;
}

void ProgramMaker::let_statement(Block& b) {
  Type t = s_.random_type();
  s_.touched_tainted = s_.touched_sequence = false;
  Expr init = is_array(t) && s_.chance(0.15) ? Expr::array_lit(t, {}) : x_.expr(t, s_.depth());
  bool empty = init.kind == ExprKind::ArrayLit && init.children.empty();
  std::string name = s_.new_name();
  b.push_back(Stmt::let(name, std::move(init), empty || s_.chance(0.3) ? t : Type::Unit));
  bool tainted = s_.touched_tainted || (s_.growth_context() && s_.touched_sequence);
  s_.declare({name, t, false, is_sequence(t) && tainted});
}

void ProgramMaker::assign_statement(Block& b, Var& v) {
  std::string name = v.name;
  Type t = v.type;
  if (is_sequence(t) && s_.growth_context()) {
    v.tainted = true;
    b.push_back(
        Stmt::assign(name, s_.chance(0.5) ? x_.grown(name, t, s_.depth()) : x_.untainted(t, s_.depth())));
    return;
  }
  s_.touched_tainted = false;
  Expr value = is_array(t) && s_.chance(0.1) ? Expr::array_lit(t, {}) : x_.expr(t, s_.depth());
  if (is_sequence(t) && s_.touched_tainted) v.tainted = true;
  b.push_back(Stmt::assign(name, std::move(value)));
}

void ProgramMaker::element_assign(Block& b, Var& v) {
  std::string name = v.name;
  Type t = v.type;
  Expr at = x_.index_for(Expr::name(name, t), s_.depth() - 1);
  bool grows = t == Type::StrArray && s_.growth_context();  // an element could double each time
  if (grows) v.tainted = true;
  s_.touched_tainted = false;
  Expr value = grows ? x_.untainted(element_of(t), s_.depth()) : x_.expr(element_of(t), s_.depth());
  if (t == Type::StrArray && s_.touched_tainted) v.tainted = true;
  b.push_back(Stmt::element_assign(name, std::move(at), std::move(value)));
}

void ProgramMaker::alias_statements(Block& b, const Var& a) {
  std::string copy = s_.fresh_name();
  Type t = a.type;
  bool tainted = a.tainted;
  b.push_back(Stmt::let(copy, Expr::name(a.name, t)));
  s_.declare({copy, t, false, tainted || s_.growth_context()});
  element_assign(b, s_.scopes.back().back());
}

void ProgramMaker::if_statement(Block& b) {
  std::vector<Expr> conditions;
  std::vector<Block> blocks;
  u32 arms = 1 + (s_.chance(0.35) ? 1 + s_.below(2) : 0);
  for (u32 k = 0; k < arms; ++k) {
    conditions.push_back(x_.expr(Type::Bool, s_.depth()));
    blocks.push_back(statements(false));
  }
  if (s_.chance(0.5)) blocks.push_back(statements(false));
  b.push_back(Stmt::if_chain(std::move(conditions), std::move(blocks)));
}

std::string ProgramMaker::loop_variable() {
  if (s_.chance(s_.cfg.p_shadow)) {
    auto outer = s_.visible([&](const Var& v) { return !v.readonly; });
    if (!outer.empty()) return outer[s_.below(u32(outer.size()))]->name;
  }
  return s_.fresh_name();
}

Block ProgramMaker::loop_body(u64 iterations, Var var) {
  s_.mult *= std::max<u64>(iterations, 1);
  ++s_.loops;
  s_.scopes.emplace_back();
  if (!var.name.empty()) s_.declare(std::move(var));
  ++s_.block_depth;
  Block body;
  append_statements(body, 1 + s_.below(std::max<u32>(1, s_.cfg.max_statements / 2)));
  end_block(body);
  --s_.block_depth;
  s_.scopes.pop_back();
  --s_.loops;
  s_.mult /= std::max<u64>(iterations, 1);
  return body;
}

std::vector<Var*> ProgramMaker::loop_sequences() {
  if (s_.loops > 0) return {};
  return s_.visible([](const Var& v) { return is_sequence(v.type) && !v.tainted; });
}

void ProgramMaker::for_range(Block& b) {
  i64 most = i64(s_.cfg.max_loop_iterations);
  Expr lo = Expr::int_lit(0), hi = Expr::int_lit(0);
  u64 iterations = u64(most);
  std::string seq_name;
  auto seqs = loop_sequences();
  switch (s_.choose({4, seqs.empty() || !s_.has("len") ? 0 : 4, 2,
                     s_.has("min") && s_.has("len") && !seqs.empty() ? 2 : 0})) {
    case 0: {
      i64 l = s_.uniform(-3, 3);
      lo = Expr::int_lit(l);
      hi = Expr::int_lit(l + s_.uniform(-1, most));
      break;
    }
    case 1: {
      const Var* v = seqs[s_.below(u32(seqs.size()))];
      hi = Expr::call("len", Type::Int, {Expr::name(v->name, v->type)});
      seq_name = v->name;
      iterations = 16;
      break;
    }
    case 2:
      lo = Expr::binary(BinaryOp::Mod, x_.expr(Type::Int, 1), Expr::int_lit(most / 2 + 1));
      hi = Expr::binary(BinaryOp::Mod, x_.expr(Type::Int, 1), Expr::int_lit(most / 2 + 1));
      break;
    default: {
      const Var* v = seqs[s_.below(u32(seqs.size()))];
      lo = Expr::int_lit(s_.uniform(0, 1));
      hi = Expr::call(
          "min", Type::Int,
          {Expr::call("len", Type::Int, {Expr::name(v->name, v->type)}), Expr::int_lit(s_.uniform(0, most))});
    }
  }
  std::string var = loop_variable();
  if (!seq_name.empty()) s_.safe_indexes.push_back({var, seq_name});
  Block body = loop_body(iterations, {var, Type::Int});
  if (!seq_name.empty()) s_.safe_indexes.pop_back();
  b.push_back(Stmt::for_range(var, std::move(lo), std::move(hi), std::move(body)));
}

void ProgramMaker::for_in(Block& b) {
  auto seqs = loop_sequences();
  Expr seq = Expr::int_lit(0);
  u64 iterations = 16;
  if (s_.loops > 0) {  // slice(e, a, a + K): at most K elements whatever e is
    Type t = s_.random_sequence_type();
    i64 a = s_.uniform(-1, 2);
    if (s_.has("slice"))
      seq = Expr::call(
          "slice", t,
          {x_.untainted(t, 2), Expr::int_lit(a), Expr::int_lit(a + i64(s_.cfg.max_loop_iterations))});
    else
      seq = x_.literal(t);
    iterations = s_.cfg.max_loop_iterations;
  } else if (!seqs.empty() && s_.chance(0.7)) {
    const Var* v = seqs[s_.below(u32(seqs.size()))];
    seq = Expr::name(v->name, v->type);
  } else {
    Type t = s_.cfg.arrays ? s_.pick({Type::IntArray, Type::StrArray, Type::FloatArray, Type::BoolArray})
                           : Type::Str;
    if ((t == Type::StrArray || t == Type::Str) && !s_.cfg.strings) t = Type::IntArray;
    if (t == Type::FloatArray && !s_.cfg.floats) t = Type::IntArray;
    if (t == Type::Str && !s_.cfg.strings) t = Type::IntArray;
    seq = x_.untainted(t, 2);
  }
  Type element = item_of(seq.type);
  std::string var = loop_variable();
  Block body = loop_body(iterations, {var, element});
  b.push_back(Stmt::for_in(var, std::move(seq), std::move(body)));
}

void ProgramMaker::while_loop(Block& b) {
  std::string counter = s_.fresh_name();
  i64 bound = s_.uniform(0, i64(s_.cfg.max_loop_iterations));
  b.push_back(Stmt::let(counter, Expr::int_lit(0)));
  s_.declare({counter, Type::Int, true, false});
  Expr cond = Expr::binary(BinaryOp::Lt, Expr::name(counter, Type::Int), Expr::int_lit(bound));
  if (s_.chance(0.4)) cond = Expr::binary(BinaryOp::And, std::move(cond), x_.expr(Type::Bool, 2));
  Block body = loop_body(u64(bound), {});
  body.insert(body.begin(), Stmt::assign(counter, Expr::binary(BinaryOp::Add, Expr::name(counter, Type::Int),
                                                               Expr::int_lit(1))));
  b.push_back(Stmt::while_loop(std::move(cond), std::move(body)));
}

void ProgramMaker::call_statement(Block& b) {
  if (auto call = x_.user_call([](const Signature&) { return true; }, s_.depth())) {
    b.push_back(Stmt::call_stmt(std::move(*call)));
    return;
  }
  // A builtin whose value is dropped still runs, and still traps.
  Expr e = Expr::int_lit(0);
  switch (s_.below(4)) {
    case 0:
      if (s_.has("chr")) e = x_.chr(1);
      break;
    case 1:
      if (s_.cfg.strings && s_.has("parse_int")) e = x_.parse_int(1);
      break;
    case 2:
      if (s_.cfg.arrays) e = x_.array_expr(Type::IntArray, 2);
      break;
    default:
      if (s_.has("len")) e = x_.call1("len", Type::Int, x_.expr(s_.random_sequence_type(), 1));
  }
  if (e.kind == ExprKind::Call) b.push_back(Stmt::call_stmt(std::move(e)));
}

void ProgramMaker::let_tuple(Block& b) {
  auto call = x_.user_call([](const Signature& s) { return s.results.size() > 1; }, s_.depth());
  if (!call) return let_statement(b);
  const Signature& s = *s_.find_sig(call->text);
  std::vector<std::string> names;
  for (size_t k = 0; k < s.results.size(); ++k) names.push_back(s_.fresh_name());
  b.push_back(Stmt::let_tuple(names, std::move(*call)));
  for (size_t k = 0; k < names.size(); ++k)  // results may copy arguments, like a let
    s_.declare({names[k], s.results[k], false, s_.growth_context() && is_sequence(s.results[k])});
}

Stmt ProgramMaker::return_statement() {
  const Signature& s = s_.sigs[s_.current];
  if (s.results.empty()) return Stmt::ret({});
  if (s.results.size() > 1 && s_.chance(0.25)) {  // return g(x); with g's results the same
    if (auto call = x_.user_call([&](const Signature& g) { return g.results == s.results; }, s_.depth()))
      return Stmt::ret({std::move(*call)});
  }
  std::vector<Expr> values;
  for (Type t : s.results) values.push_back(return_value(t));
  return Stmt::ret(std::move(values));
}

Expr ProgramMaker::return_value(Type t) {
  if (s_.in_recursive() && is_sequence(t)) {
    auto r = s_.visible([&](const Var& v) { return v.name == s_.self_result && v.type == t; });
    if (!r.empty() && s_.chance(0.6)) return x_.grown(s_.self_result, t, s_.depth());
    return x_.untainted(t, s_.depth());
  }
  if (is_array(t) && s_.chance(0.1)) return Expr::array_lit(t, {});
  return x_.expr(t, s_.depth());
}

}  // namespace gs::trees::random
