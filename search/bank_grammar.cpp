#include "search/bank_grammar.h"

#include <algorithm>

#include "search/bank_loops.h"
#include "trees/syntax.h"

namespace gs::search::bank {

namespace {

const Type I = Type::Int, B = Type::Bool, A = Type::IntArray, S = Type::Str, F = Type::Float,
           SA = Type::StrArray, FA = Type::FloatArray;

// Where a production of the grammar traps, over its operands (Production::traps_when): an index
// out of range, an empty list's max, min, first, last or pop, an int divided by 0, n < 0 copies,
// a byte out of range.
std::string trap_condition(const Production& p) {
  if (p.choose || !p.helper.empty()) return "";
  const std::string& t = p.text;
  if ((t == "$0 / $1" || t == "$0 % $1") && p.result == I) return "$1 == 0";
  if (t == "$0[$1]") return "$1 < 0 || len($0) <= $1";
  if (t == "$0[0]" || t == "$0[len($0) - 1]" || t == "pop($0)") return "len($0) == 0";
  if ((t == "max($0)" || t == "min($0)") && is_array(p.operands[0])) return "len($0) == 0";
  if (t == "array($0, $1)") return "$0 < 0";
  if (t == "chr($0)") return "$0 < 0 || 255 < $0";
  return "";
}

}  // namespace

std::set<Type> grammar_types(std::span<const Type> used) {
  std::set<Type> types = {I, B};
  types.insert(used.begin(), used.end());
  for (Type t : std::set<Type>(types))  // the elements of the arrays (a lambda's x)
    if (is_array(t)) types.insert(element_of(t));
  if (types.count(S)) types.insert(SA);  // split and join
  return types;
}

std::set<Type> grammar_types(const suites::Problem& problem) {
  std::vector<Type> used = problem.signature.results;
  used.insert(used.end(), problem.signature.params.begin(), problem.signature.params.end());
  for (const vm::Value& c : problem.constants)  // a table of the problem's, say
    if (trees::literal_of(c)) used.push_back(c.type);
  return grammar_types(used);
}

std::vector<vm::Value> small_constants(const std::set<Type>& types) {
  std::vector<vm::Value> constants = {vm::Value::of_int(0), vm::Value::of_int(1), vm::Value::of_int(2),
                                      vm::Value::of_bool(true), vm::Value::of_bool(false)};
  if (types.count(S))
    for (const char* s : {"", " "}) constants.push_back(vm::Value::of_str(s));
  return constants;
}

std::vector<Production> grammar(const std::set<Type>& types, bool loops, bool choose, bool list_forms) {
  std::vector<Production> p;
  auto add = [&](std::vector<Type> args, Type result, const char* text) {
    for (Type t : args)
      if (!types.count(t)) return;
    if (types.count(result)) p.push_back(operation_production(std::move(args), result, text));
  };
  for (const char* op : {"$0 + $1", "$0 - $1", "$0 * $1", "$0 / $1", "$0 % $1", "min($0, $1)", "max($0, $1)"})
    add({I, I}, I, op);
  for (Type t : {B, A, F, SA, FA}) add({t, t}, B, "$0 == $1");
  add({S, S}, B, "$0 < $1");
  add({I}, I, "-$0");
  add({I}, I, "abs($0)");
  for (const char* op : {"$0 < $1", "$0 <= $1", "$0 == $1"}) add({I, I}, B, op);
  add({B}, B, "!$0");
  for (const char* op : {"len($0)", "sum($0)", "max($0)", "min($0)"}) add({A}, I, op);
  add({A, I}, I, "$0[$1]");
  add({A}, I, "$0[0]");            // the first element (DeepCoder's head), one node
  add({A}, I, "$0[len($0) - 1]");  // the last element (DeepCoder's last), one node
  add({A, I}, I, "index_of($0, $1)");
  add({A, I}, B, "contains($0, $1)");
  for (const char* op : {"sort($0)", "reverse($0)", "pop($0)"}) add({A}, A, op);
  add({A, I}, A, "push($0, $1)");
  add({A, A}, A, "$0 + $1");
  add({I}, A, "[$0]");
  add({A, I}, A, "slice($0, 0, $1)");        // the first n
  add({A, I}, A, "slice($0, $1, len($0))");  // all but the first n
  add({A, I, I}, A, "slice($0, $1, $2)");
  add({A, I}, A, "slice($0, len($0) - $1, len($0))");               // the last n
  add({A, I}, A, "slice($0, 0, len($0) - $1)");                     // all but the last n
  add({A, I}, A, "slice($0, 0, $1) + slice($0, $1 + 1, len($0))");  // without element i
  add({A, I}, A,
      "slice($0, 0, index_of($0, $1)) + slice($0, index_of($0, $1) + 1, len($0))");  // the first v gone
  add({A, I, I}, A, "slice($0, 0, $1) + [$2] + slice($0, $1, len($0))");      // v inserted before element i
  add({A, I, I}, A, "slice($0, 0, $1) + [$2] + slice($0, $1 + 1, len($0))");  // element i replaced by v
  add({S}, I, "len($0)");
  add({S, I}, I, "$0[$1]");
  add({S, S}, S, "$0 + $1");
  add({S, S}, B, "contains($0, $1)");
  add({S, S}, I, "index_of($0, $1)");
  add({S, S}, B, "$0 == $1");
  add({I}, S, "str($0)");
  add({I}, S, "chr($0)");
  add({S}, I, "parse_int($0)");
  add({S}, S, "reverse($0)");
  add({S, I, I}, S, "slice($0, $1, $2)");
  for (const char* op : {"$0 + $1", "$0 - $1", "$0 * $1", "$0 / $1"}) add({F, F}, F, op);
  add({F, F}, B, "$0 < $1");
  add({I}, F, "float($0)");
  add({F}, I, "int($0)");
  for (const char* op : {"sqrt($0)", "floor($0)", "abs($0)"}) add({F}, F, op);
  add({FA}, I, "len($0)");
  for (const char* op : {"sum($0)", "max($0)", "min($0)"}) add({FA}, F, op);
  add({FA, I}, F, "$0[$1]");
  add({S, S}, SA, "split($0, $1)");
  add({SA, S}, S, "join($0, $1)");
  add({SA}, I, "len($0)");
  add({SA, I}, S, "$0[$1]");
  add({SA, S}, B, "contains($0, $1)");
  for (const char* op : {"sort($0)", "reverse($0)"}) add({SA}, SA, op);
  add({I, S}, SA, "array($0, $1)");  // n copies of s: join(array(n, s), "") repeats it
  if (loops)
    for (Production& loop : loop_productions(types)) p.push_back(std::move(loop));
  if (choose)
    for (Type t : types) p.push_back(choose_production(t));
  if (!list_forms) std::erase_if(p, list_language_form);
  for (Production& q : p) q.traps_when = trap_condition(q);
  return p;
}

bool body_production(const Production& p) {
  const auto starts = [&](const char* prefix) { return p.text.rfind(prefix, 0) == 0; };
  if (p.result == Type::IntArray)
    return p.text == "[$0]" || starts("push(") || starts("repeat(") || starts("range_to(") ||
           starts("range_by(");
  if (p.result != Type::Int && p.result != Type::Bool && p.result != Type::Str) return false;
  if (p.choose || p.helper.empty()) return true;  // an operator, a builtin, a choose
  return starts("digits_") || starts("count_where_") || starts("first_where_") || starts("last_where_");
}

bool list_language_form(const Production& p) {
  static const std::set<std::string> kForms = {"$0[0]",
                                               "map_inc($0)",
                                               "map_dec($0)",
                                               "map_double($0)",
                                               "map_half($0)",
                                               "map_triple($0)",
                                               "map_third($0)",
                                               "map_quadruple($0)",
                                               "map_quarter($0)",
                                               "filter_positive($0)",
                                               "filter_negative($0)",
                                               "filter_even($0)",
                                               "filter_odd($0)",
                                               "count_where_positive($0)",
                                               "count_where_negative($0)",
                                               "count_where_even($0)",
                                               "count_where_odd($0)",
                                               "scanl1_add($0)",
                                               "scanl1_sub($0)",
                                               "scanl1_max($0)",
                                               "scanl1_min($0)"};
  return p.operands.size() == 1 && p.operands[0] == A && kForms.count(p.text) > 0;
}

bool list_language_function(const Production& p) {
  // The rest of DeepCoder's functions as the grammar spells them: last, access, maximum, minimum,
  // sum, sort, reverse, take, drop, map by negation and square, zipwith.
  static const std::set<std::string> kFunctions = {
      "$0[len($0) - 1]", "$0[$1]",           "max($0)",
      "min($0)",         "sum($0)",          "sort($0)",
      "reverse($0)",     "slice($0, 0, $1)", "slice($0, $1, len($0))",
      "map_negate($0)",  "map_square($0)",   "zip_add($0, $1)",
      "zip_sub($0, $1)", "zip_mul($0, $1)",  "zip_max($0, $1)",
      "zip_min($0, $1)"};
  const bool over_lists =
      std::all_of(p.operands.begin(), p.operands.end(), [](Type t) { return t == A || t == I; });
  return list_language_form(p) || (over_lists && p.operands[0] == A && kFunctions.count(p.text) > 0);
}

std::vector<Production> list_language(const std::set<Type>& types) {
  std::vector<Production> p = grammar(types, true, false, true);
  std::erase_if(p, [](const Production& q) { return !list_language_function(q); });
  for (Production& q : p) q.cost = kListLanguageCost;
  return p;
}

std::string production_key(const Production& p) { return production_key(p.text, p.operands, p.result); }

std::string constant_key(const vm::Value& constant) {
  return trees::to_source(*trees::literal_of(constant)) + " () -> " + type_name(constant.type);
}

std::string form_key(const std::string& form, Type sequence, Type body, Type result) {
  return form + "($0, x -> " + type_name(body) + ") (" + type_name(sequence) + ") -> " + type_name(result);
}

std::optional<std::string> node_key(const trees::Expr& node) {
  using K = trees::ExprKind;
  switch (node.kind) {
    case K::IntLit:
    case K::FloatLit:
    case K::BoolLit:
    case K::StrLit: return trees::to_source(node) + " () -> " + type_name(node.type);
    case K::Name: return std::nullopt;
    case K::Call:
      if (!trees::is_builtin_name(node.text)) return std::nullopt;
      break;
    case K::ArrayLit:
      if (node.children.size() != 1) return std::nullopt;
      break;
    default: break;
  }
  trees::Expr shape;  // the node over operands $0, $1, …: the production's text
  shape.kind = node.kind;
  shape.type = node.type;
  shape.op = node.op;
  shape.text = node.text;
  std::vector<Type> operands;
  for (size_t i = 0; i < node.children.size(); ++i) {
    operands.push_back(node.children[i].type);
    shape.children.push_back(trees::Expr::name("$" + std::to_string(i), node.children[i].type));
  }
  return production_key(trees::to_source(shape), operands, node.type);
}

std::vector<std::pair<std::string, vm::Value>> body_constants(std::span<const vm::Value> constants) {
  const auto literal = [](const vm::Value& c) { return trees::to_source(*trees::literal_of(c)); };
  std::vector<std::pair<std::string, vm::Value>> out;
  for (i64 c : {0, 1, 2, 3, 10}) out.emplace_back(literal(vm::Value::of_int(c)), vm::Value::of_int(c));
  for (const vm::Value& c : constants)
    if ((c.type == Type::Int && (c.i < 0 || c.i > 3) && c.i != 10) ||
        (c.type != Type::Int && c.type != Type::Bool))
      out.emplace_back(literal(c), c);
  return out;
}

std::vector<Production> body_grammar(const std::set<Type>& types, bool choose, bool list_forms) {
  std::vector<Production> body;
  for (Production& p : grammar(types, true, choose, list_forms))
    if (body_production(p)) {
      if (!p.helper.empty() && !p.choose) p.cost = kBodyLoopCost;
      body.push_back(std::move(p));
    }
  return body;
}

}  // namespace gs::search::bank
