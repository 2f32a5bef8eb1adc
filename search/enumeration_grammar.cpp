// The grammar of an enumeration (search/enumeration_grammar.h).
#include "search/enumeration_grammar.h"

#include <algorithm>
#include <optional>

#include "pipeline/case_set.h"

namespace gs::search::enumeration {

Grammar::Grammar(const suites::Problem& problem, const EnumerateSettings& settings)
    : signature_(problem.signature), settings_(settings) {
  make_affixes(problem);
  make_types(problem);
  make_leaves(problem);
  make_contexts();
  make_rules();
}

void Grammar::make_affixes(const suites::Problem& problem) {
  for (u32 r = 0; r < signature_.results.size(); ++r) affixes_.push_back(output_affixes(problem, r));
}

void Grammar::add_type(Type t) {
  if (std::find(types_.begin(), types_.end(), t) == types_.end()) types_.push_back(t);
}

bool Grammar::has_type(Type t) const { return std::find(types_.begin(), types_.end(), t) != types_.end(); }

// The result type first (within a size, candidates go before probes), then int and bool, the
// parameters' types and their elements, [str] with str (split), and with lambdas the arrays
// that maps make.
void Grammar::make_types(const suites::Problem& problem) {
  for (Type t : signature_.results) {
    add_type(t);
    if (is_array(t)) add_type(element_of(t));
  }
  add_type(Type::Int);
  add_type(Type::Bool);
  std::vector<Type> named = signature_.params;
  for (Type t : signature_.results) named.push_back(t);
  for (const vm::Value& v : problem.constants) named.push_back(v.type);
  for (Type t : named) {
    if (is_array(t)) add_type(element_of(t));
    add_type(t);
  }
  if (has_type(Type::Str)) add_type(array_of(Type::Str));
  if (settings_.lambdas)
    for (Type t : map_results()) add_type(array_of(t));
  type_index_.fill(kNone);
  for (u32 i = 0; i < types_.size(); ++i) type_index_[u8(types_[i])] = i;
}

// What a map's body may return: the scalar types but bool (a filter's condition).
std::vector<Type> Grammar::map_results() const {
  std::vector<Type> out;
  for (Type t : {Type::Int, Type::Float, Type::Str})
    if (has_type(t)) out.push_back(t);
  return out;
}

// Parameters, small constants of the scalar types (not -1: that is -(1); no `[]`, whose type
// Syn cannot infer where it stands alone), and the string outputs that recur in the train
// cases (a problem that answers "small" or "large" needs those words).
void Grammar::make_leaves(const suites::Problem& problem) {
  for (u32 i = 0; i < signature_.params.size(); ++i)
    leaves_.push_back(trees::Expr::name(signature_.param_names[i], signature_.params[i]));
  for (i64 v : {0, 1, 2, 10}) leaves_.push_back(trees::Expr::int_lit(v));
  leaves_.push_back(trees::Expr::bool_lit(true));
  leaves_.push_back(trees::Expr::bool_lit(false));
  if (index_of_type(Type::Float) != kNone)
    for (double v : {0.0, 1.0, 0.5}) leaves_.push_back(trees::Expr::float_lit(v));
  if (index_of_type(Type::Str) != kNone) {
    std::vector<std::string> strings{"", " "};
    std::vector<std::pair<std::string, u32>> counts;
    bool lines = false;
    for (const suites::Case& c : problem.train)
      for (u32 r = 0; r < c.outputs.size(); ++r) {
        const vm::Value& v = c.outputs[r];
        if (v.type != Type::Str) continue;
        lines = lines || v.s.find('\n') != std::string::npos;
        // Outputs with a common prefix or suffix are assembled from a goal's (make_goals).
        if (v.s.size() > 40 || !affixes_[r].first.empty() || !affixes_[r].second.empty()) continue;
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == v.s; });
        if (it == counts.end())
          counts.push_back({v.s, 1});
        else
          ++it->second;
      }
    if (lines && settings_.lambdas) strings.push_back("\n");  // to join a map's strings into lines
    const u32 recurring = std::max<u32>(2, u32(problem.train.size() / 20));
    for (const auto& [text, n] : counts)
      if (n >= recurring && strings.size() < 8 &&
          std::find(strings.begin(), strings.end(), text) == strings.end())
        strings.push_back(text);
    for (const std::string& s : strings) leaves_.push_back(trees::Expr::str_lit(s));
  }
  // The problem's own constants (docs/problems.md), those not among the leaves already.
  for (const vm::Value& v : problem.constants)
    if (std::optional<trees::Expr> e = trees::literal_of(v)) add_leaf_once(std::move(*e));
  // With splits, thresholds: where the outputs step as an int parameter grows (small-or-large's
  // 1000 and 2000), those not among the leaves already.
  if (settings_.splits)
    for (i64 v : split_thresholds(problem)) add_leaf_once(trees::Expr::int_lit(v));
  for (u32 i = 0; i < leaves_.size(); ++i)
    rules_.push_back({Production::Leaf, 0, {}, {}, leaves_[i].type, false});
}

// A leaf, unless one of its type and source is there already.
void Grammar::add_leaf_once(trees::Expr e) {
  const std::string text = trees::to_source(e);
  if (std::none_of(leaves_.begin(), leaves_.end(),
                   [&](const trees::Expr& l) { return l.type == e.type && trees::to_source(l) == text; }))
    leaves_.push_back(std::move(e));
}

// A name no parameter has (nor any name taken before).
std::string Grammar::fresh(std::string base) {
  const auto taken = [&](const std::string& n) {
    return std::find(signature_.param_names.begin(), signature_.param_names.end(), n) !=
               signature_.param_names.end() ||
           std::find(names_.begin(), names_.end(), n) != names_.end();
  };
  while (taken(base)) base += '_';
  names_.push_back(base);
  return base;
}

// Context 0, the entry's body; with lambdas one context per element type of the sequence
// parameters (a string's elements are ints), and one range context: the indices of the
// sequence parameters, or where there are none 0..min(n, 64) for each int parameter n.
void Grammar::make_contexts() {
  Context entry;
  for (u32 t = 0; t < types_.size(); ++t) entry.types.push_back(t);
  contexts_.push_back(std::move(entry));
  for (const char* n : {"s_", "n_", "r_", "j_"}) helper_names_.push_back(fresh(n));
  if (!settings_.lambdas) return;
  const std::vector<Type>& params = signature_.params;
  const auto lambda = [&](std::string var, Type var_type, bool range, std::vector<u32> sources) {
    Context c{std::move(var), var_type, range, std::move(sources), {}};
    for (u32 t = 0; t < types_.size(); ++t)
      if (is_scalar(types_[t])) c.types.push_back(t);
    // The variable: a leaf of its context alone (rule i is still leaves_[i]).
    leaves_.push_back(trees::Expr::name(c.var, var_type));
    Rule leaf{Production::Leaf, 0, {}, {}, var_type, false};
    leaf.context = u32(contexts_.size());
    c.variable = u32(rules_.size());
    rules_.push_back(std::move(leaf));
    contexts_.push_back(std::move(c));
  };
  std::vector<Type> elements;
  for (Type t : params)
    if (is_array(t) || t == Type::Str) {
      const Type e = item_of(t);
      if (std::find(elements.begin(), elements.end(), e) == elements.end()) elements.push_back(e);
    }
  const std::string x = fresh("x"), i = fresh("i");
  for (Type e : elements) {
    std::vector<u32> sources;
    for (u32 p = 0; p < params.size(); ++p)
      if ((is_array(params[p]) || params[p] == Type::Str) && item_of(params[p]) == e) sources.push_back(p);
    lambda(x, e, false, std::move(sources));
  }
  std::vector<u32> sequences, ints;
  for (u32 p = 0; p < params.size(); ++p) {
    if (is_array(params[p]) || params[p] == Type::Str) sequences.push_back(p);
    if (params[p] == Type::Int) ints.push_back(p);
  }
  if (!sequences.empty()) {
    lambda(i, Type::Int, true, sequences);
    // Over the indices of two or more sequences, their elements there are leaves: xs[i] + ys[i]
    // is size 3. (Over one sequence's, s[i] is the element context's x.)
    contexts_.back().indexed = sequences.size() >= 2;
    if (contexts_.back().indexed)
      for (u32 p : sequences) {
        leaves_.push_back(trees::Expr::index(trees::Expr::name(signature_.param_names[p], params[p]),
                                             trees::Expr::name(i, Type::Int)));
        Rule leaf{Production::Leaf, 0, {}, {}, item_of(params[p]), false};
        leaf.context = u32(contexts_.size() - 1);
        rules_.push_back(std::move(leaf));
      }
  } else if (!ints.empty()) {
    lambda(i, Type::Int, true, std::move(ints));
  }
}

void Grammar::add_rule(Rule r) {
  if (index_of_type(r.result) == kNone) return;
  for (Type a : r.args)
    if (index_of_type(a) == kNone) return;
  rules_.push_back(std::move(r));
}

void Grammar::make_rules() {
  for (Type t : {Type::Int, Type::Float})
    add_rule({Production::Unary, u8(trees::UnaryOp::Neg), {}, {t}, t, false});
  add_rule({Production::Unary, u8(trees::UnaryOp::Not), {}, {Type::Bool}, Type::Bool, false});
  for (Type t : types_) {
    const bool number = t == Type::Int || t == Type::Float;
    if (number || t == Type::Str || is_array(t))
      add_rule({Production::Binary, u8(trees::BinaryOp::Add), {}, {t, t}, t, number});
    if (number) {
      add_rule({Production::Binary, u8(trees::BinaryOp::Sub), {}, {t, t}, t, false});
      add_rule({Production::Binary, u8(trees::BinaryOp::Mul), {}, {t, t}, t, true});
      add_rule({Production::Binary, u8(trees::BinaryOp::Div), {}, {t, t}, t, false});
      add_rule({Production::Binary, u8(trees::BinaryOp::Mod), {}, {t, t}, t, false});
    }
    if (number || t == Type::Str)
      for (trees::BinaryOp op :
           {trees::BinaryOp::Lt, trees::BinaryOp::Le})  // > and >= are these with the operands swapped
        add_rule({Production::Binary, u8(op), {}, {t, t}, Type::Bool, false});
    add_rule({Production::Binary, u8(trees::BinaryOp::Eq), {}, {t, t}, Type::Bool, true});
    if (t != Type::Bool)
      add_rule({Production::Binary, u8(trees::BinaryOp::Ne), {}, {t, t}, Type::Bool, true});
    if (is_array(t)) add_rule({Production::Index, 0, {}, {t, Type::Int}, element_of(t), false});
    if (t == Type::Str) add_rule({Production::Index, 0, {}, {t, Type::Int}, Type::Int, false});
  }
  for (trees::BinaryOp op : {trees::BinaryOp::And, trees::BinaryOp::Or})
    add_rule({Production::Binary, u8(op), {}, {Type::Bool, Type::Bool}, Type::Bool, true});
  // Every builtin overload, found by trying the bank's types as arguments.
  std::vector<std::pair<std::string, u32>> builtins;
  for (u32 b = 0; b < trees::kBuiltinCount; ++b) {
    const std::string signature = trees::builtin_signature(trees::Builtin(b));
    const u32 arity = u32(std::count(signature.begin(), signature.end(), ',')) + 1;
    std::pair<std::string, u32> key{trees::builtin_name(trees::Builtin(b)), arity};
    if (std::find(builtins.begin(), builtins.end(), key) == builtins.end()) builtins.push_back(key);
  }
  const u32 n = u32(types_.size());
  for (const auto& [name, arity] : builtins) {
    u32 tuples = 1;
    for (u32 j = 0; j < arity; ++j) tuples *= n;
    for (u32 code = 0; code < tuples; ++code) {
      std::vector<Type> args;
      for (u32 j = 0, c = code; j < arity; ++j, c /= n) args.push_back(types_[c % n]);
      Type result;
      if (!trees::resolve_builtin(name, args, &result)) continue;
      // Conversions of a type to itself are the identity.
      if (arity == 1 && args[0] == result && (name == "int" || name == "float" || name == "str")) continue;
      const bool commutative = arity == 2 && args[0] == args[1] && (name == "min" || name == "max");
      add_rule({Production::Builtin, 0, name, args, result, commutative});
    }
  }
  if (settings_.choose)
    for (Type t : types_) add_rule({Production::Choose, 0, {}, {Type::Bool, t, t}, t, false});
  // The lambdas, in the entry's context: map and filter over every sequence type whose
  // elements a context's variable takes, map over 0..n.
  for (u32 c = 1; c < contexts_.size(); ++c) {
    const Context& ctx = contexts_[c];
    const auto lambda_rule = [&](Production kind, std::vector<Type> args, Type result) {
      Rule r{kind, 0, {}, std::move(args), result, false};
      r.context = 0;
      r.body = c;
      add_rule(std::move(r));
    };
    if (ctx.range) {
      for (Type u : map_results()) lambda_rule(Production::MapRange, {Type::Int, u}, array_of(u));
      continue;
    }
    for (Type s : types_) {
      if (!(is_array(s) || s == Type::Str) || item_of(s) != ctx.var_type) continue;
      for (Type u : map_results()) lambda_rule(Production::Map, {s, u}, array_of(u));
      lambda_rule(Production::Filter, {s, Type::Bool}, s);
    }
  }
  // Rules by context and result type, in rule order.
  by_result_.assign(contexts_.size(), std::vector<std::vector<u32>>(types_.size()));
  for (u32 c = 0; c < contexts_.size(); ++c)
    for (u32 r = 0; r < rules_.size(); ++r)
      if (rules_[r].context == kAnyContext || rules_[r].context == c)
        by_result_[c][index_of_type(rules_[r].result)].push_back(r);
}

}  // namespace gs::search::enumeration
