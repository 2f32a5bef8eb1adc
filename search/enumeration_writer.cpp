// Writing banked expressions out as programs (search/enumeration_writer.h).
#include "search/enumeration_writer.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace gs::search::enumeration {

namespace {

// "choose_int", "choose_list_str": the helper function that makes choose() an expression.
std::string choose_name(Type t) {
  std::string s = "choose_";
  for (char c : trees::type_source(t)) {
    if (c == '[')
      s += "list_";
    else if (c != ']')
      s += c;
  }
  return s;
}

trees::Expr zero_of(Type t) {
  switch (t) {
    case Type::Int: return trees::Expr::int_lit(0);
    case Type::Float: return trees::Expr::float_lit(0.0);
    case Type::Str: return trees::Expr::str_lit("");
    default: return trees::Expr::bool_lit(false);
  }
}

}  // namespace

std::vector<trees::Expr> Writer::parameter_names() const {
  std::vector<trees::Expr> out;
  for (u32 i = 0; i < grammar_.signature().params.size(); ++i)
    out.push_back(trees::Expr::name(grammar_.signature().param_names[i], grammar_.signature().params[i]));
  return out;
}

// A lambda written out as a helper function that takes the sequence (a range: its length)
// and the entry's parameters, added to h; the call of it on `over`.
//   map:    fn map_k(s_: S, …) -> [U] { let r_ = array(len(s_), 0);
//                                       for j_ in 0..len(s_) { let x = s_[j_]; r_[j_] = body; } return r_; }
//   range:  fn map_k(n_: int, …) -> [U] { let r_ = array(max(n_, 0), 0); for i in 0..n_ { r_[i] = body; }
//   return r_; } filter: fn filter_k(s_: S, …) -> S { let r_: S = []; for x in s_ { if body { r_ = push(r_,
//   x); } } return r_; }
//           (a string: let r_ = ""; … r_ = r_ + chr(x);)
trees::Expr Writer::lambda_call(Production kind, const Context& ctx, Type over_type, trees::Expr over,
                                trees::Expr body, Helpers* h) const {
  const std::string& s = grammar_.helper_names()[0];
  const std::string& n = grammar_.helper_names()[1];
  const std::string& r = grammar_.helper_names()[2];
  const std::string& j = grammar_.helper_names()[3];
  const Type u = body.type;
  const Type result = kind == Production::Filter ? over_type : array_of(u);
  trees::Function f;
  f.name =
      std::string(kind == Production::Filter ? "filter_" : "map_") + std::to_string(h->functions.size() + 1);
  f.params.push_back({kind == Production::MapRange ? n : s, over_type});
  for (u32 i = 0; i < grammar_.signature().params.size(); ++i)
    f.params.push_back({grammar_.signature().param_names[i], grammar_.signature().params[i]});
  f.results = {result};
  const auto name = [](const std::string& v, Type t) { return trees::Expr::name(v, t); };
  if (kind == Production::Map) {
    trees::Expr length = trees::Expr::call("len", Type::Int, {name(s, over_type)});
    f.body.push_back(trees::Stmt::let(r, trees::Expr::call("array", result, {length, zero_of(u)})));
    trees::Block loop;
    loop.push_back(trees::Stmt::let(ctx.var, trees::Expr::index(name(s, over_type), name(j, Type::Int))));
    loop.push_back(trees::Stmt::element_assign(r, name(j, Type::Int), std::move(body)));
    f.body.push_back(trees::Stmt::for_range(j, trees::Expr::int_lit(0), std::move(length), std::move(loop)));
  } else if (kind == Production::MapRange) {
    trees::Expr count = trees::Expr::call("max", Type::Int, {name(n, Type::Int), trees::Expr::int_lit(0)});
    f.body.push_back(trees::Stmt::let(r, trees::Expr::call("array", result, {std::move(count), zero_of(u)})));
    trees::Block loop;
    loop.push_back(trees::Stmt::element_assign(r, name(ctx.var, Type::Int), std::move(body)));
    f.body.push_back(
        trees::Stmt::for_range(ctx.var, trees::Expr::int_lit(0), name(n, Type::Int), std::move(loop)));
  } else {
    const bool text = over_type == Type::Str;
    f.body.push_back(text ? trees::Stmt::let(r, trees::Expr::str_lit(""))
                          : trees::Stmt::let(r, trees::Expr::array_lit(result, {}), result));
    trees::Expr kept =
        text ? trees::Expr::binary(trees::BinaryOp::Add, name(r, result),
                                   trees::Expr::call("chr", Type::Str, {name(ctx.var, ctx.var_type)}))
             : trees::Expr::call("push", result, {name(r, result), name(ctx.var, ctx.var_type)});
    trees::Block keep;
    keep.push_back(trees::Stmt::assign(r, std::move(kept)));
    trees::Block loop;
    loop.push_back(trees::Stmt::if_chain({std::move(body)}, {std::move(keep)}));
    f.body.push_back(trees::Stmt::for_in(ctx.var, name(s, over_type), std::move(loop)));
  }
  f.body.push_back(trees::Stmt::ret({name(r, result)}));
  std::vector<trees::Expr> args{std::move(over)};
  for (trees::Expr& p : parameter_names()) args.push_back(std::move(p));
  trees::Expr call = trees::Expr::call(f.name, result, std::move(args));
  h->functions.push_back(std::move(f));
  return call;
}

// choose_T(c, a, b) for args {c, a, b}, its helper noted in h.
trees::Expr Writer::choose_call(std::vector<trees::Expr> args, Helpers* h) {
  const Type t = args[1].type;
  if (std::find(h->chosen.begin(), h->chosen.end(), t) == h->chosen.end()) h->chosen.push_back(t);
  return trees::Expr::call(choose_name(t), t, std::move(args));
}

trees::Expr Writer::expr_of(const Node& n, Helpers* h) const {
  const Rule& r = grammar_.rules()[n.rule];
  if (r.kind == Production::Leaf) return grammar_.leaves()[n.rule];
  std::vector<trees::Expr> args;
  for (u32 j = 0; j < r.args.size(); ++j) args.push_back(expr_of(bank_.entry(n.child[j]).node, h));
  switch (r.kind) {
    case Production::Unary: return trees::Expr::unary(trees::UnaryOp(r.op), std::move(args[0]));
    case Production::Binary:
      return trees::Expr::binary(trees::BinaryOp(r.op), std::move(args[0]), std::move(args[1]));
    case Production::Index: return trees::Expr::index(std::move(args[0]), std::move(args[1]));
    case Production::Builtin: return trees::Expr::call(r.callee, r.result, std::move(args));
    case Production::Choose: return choose_call(std::move(args), h);
    case Production::Map:
    case Production::MapRange:
    case Production::Filter:
      return lambda_call(r.kind, grammar_.contexts()[r.body], r.args[0], std::move(args[0]),
                         std::move(args[1]), h);
    case Production::Leaf: break;
  }
  throw std::logic_error("enumeration: unknown production");
}

// fn <entry>(<params>) -> T { return e; } (several results: -> (T, U) { return e, f; }) and
// the helpers the expressions call.
trees::Tree Writer::program_with(std::vector<trees::Expr> results, Helpers h) const {
  trees::Tree p;
  trees::Function entry;
  entry.name = grammar_.signature().entry;
  for (u32 i = 0; i < grammar_.signature().params.size(); ++i)
    entry.params.push_back({grammar_.signature().param_names[i], grammar_.signature().params[i]});
  for (const trees::Expr& e : results) entry.results.push_back(e.type);
  entry.body.push_back(trees::Stmt::ret(std::move(results)));
  p.functions.push_back(std::move(entry));
  for (trees::Function& f : h.functions) p.functions.push_back(std::move(f));
  for (Type t : h.chosen) {
    // fn choose_T(c: bool, a: T, b: T) -> T { if c { return a; } return b; }
    trees::Function f;
    f.name = choose_name(t);
    f.params = {{"c", Type::Bool}, {"a", t}, {"b", t}};
    f.results = {t};
    trees::Block then;
    then.push_back(trees::Stmt::ret({trees::Expr::name("a", t)}));
    f.body.push_back(trees::Stmt::if_chain({trees::Expr::name("c", Type::Bool)}, {std::move(then)}));
    f.body.push_back(trees::Stmt::ret({trees::Expr::name("b", t)}));
    p.functions.push_back(std::move(f));
  }
  return p;
}

trees::Tree Writer::program_of(const Node& n) const {
  Helpers h;
  std::vector<trees::Expr> e;
  e.push_back(expr_of(n, &h));
  return program_with(std::move(e), std::move(h));
}

// A lambda body's probe: the body mapped over each source of its context's values, the maps
// concatenated — map_1(xs, …) + map_2(ys, …), or map_1(len(xs), …) + …, map_1(min(n, 64), …).
trees::Tree Writer::probe_of(const Node& n, u32 context) const {
  const Context& ctx = grammar_.contexts()[context];
  Helpers h;
  std::optional<trees::Expr> all;
  for (u32 p : ctx.sources) {
    const Type t = grammar_.signature().params[p];
    trees::Expr param = trees::Expr::name(grammar_.signature().param_names[p], t);
    trees::Expr over =
        !ctx.range ? std::move(param)
        : t == Type::Int
            ? trees::Expr::call("min", Type::Int, {std::move(param), trees::Expr::int_lit(kRangeProbe)})
            : trees::Expr::call("len", Type::Int, {std::move(param)});
    trees::Expr body = expr_of(n, &h);
    trees::Expr mapped = lambda_call(ctx.range ? Production::MapRange : Production::Map, ctx,
                                     ctx.range ? Type::Int : t, std::move(over), std::move(body), &h);
    all = all ? trees::Expr::binary(trees::BinaryOp::Add, std::move(*all), std::move(mapped))
              : std::move(mapped);
  }
  std::vector<trees::Expr> e;
  e.push_back(std::move(*all));
  return program_with(std::move(e), std::move(h));
}

}  // namespace gs::search::enumeration
