#include "search/last_steps.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "search/bank_enumerator.h"
#include "search/bank_grammar.h"
#include "search/bank_loops.h"

namespace gs::search {

namespace {

using List = std::vector<i64>;
// A step's inverse on one output list, of train case k: the list that goes into it, or none.
using Inverse = std::function<std::optional<List>(const List&, u32 k)>;

std::optional<List> reversed(const List& out, u32) { return List(out.rbegin(), out.rend()); }
std::optional<List> unchanged(const List& out, u32) { return out; }

std::optional<List> differences(const List& out, u32) {  // scan_add(d, 0) == out
  List d(out.size());
  for (size_t j = 0; j < out.size(); ++j)
    if (__builtin_sub_overflow(out[j], j ? out[j - 1] : 0, &d[j])) return std::nullopt;
  return d;
}

// An elementwise step's inverse: an element going in from the element out and the step's other
// operand there (a constant, an int parameter, a list parameter's element), or none.
using Undo = std::optional<i64> (*)(i64 out, i64 other);
std::optional<i64> less(i64 out, i64 other) {  // e + other
  i64 e = 0;
  return __builtin_sub_overflow(out, other, &e) ? std::nullopt : std::optional(e);
}
std::optional<i64> more(i64 out, i64 other) {  // e - other
  i64 e = 0;
  return __builtin_add_overflow(out, other, &e) ? std::nullopt : std::optional(e);
}
std::optional<i64> from(i64 out, i64 other) { return less(other, out); }  // other - e
std::optional<i64> over(i64 out, i64 other) {                             // e * other
  if (other == 0 || (other == -1 && out == INT64_MIN) || out % other != 0) return std::nullopt;
  return out / other;
}

// The other operand by case: one value for every element, or (a zip's) a list.
struct Other {
  std::vector<List> lists;  // by case: the elements, or one value for them all
  bool per_element = false;
};

Inverse elementwise(Undo undo, Other other) {
  return [undo, other = std::move(other)](const List& out, u32 k) -> std::optional<List> {
    const List& o = other.lists[k];
    if (other.per_element ? o.size() < out.size() : o.size() != 1) return std::nullopt;
    List d(out.size());
    for (size_t j = 0; j < out.size(); ++j) {
      std::optional<i64> e = undo(out[j], o[other.per_element ? j : 0]);
      if (!e) return std::nullopt;
      d[j] = *e;
    }
    return d;
  };
}

// One step: its Syn, the loop whose helper it calls, and its inverse on an output list.
struct Step {
  std::string text;
  const char* loop = nullptr;
  enum Kind : u8 { Order, Sort, Scan, Map, Zip } kind = Map;  // Map: the same for every element
  Inverse inverse;
  std::vector<std::string> keys;  // the productions and constants it is written with (LastStep::keys)
  bool permutation() const { return kind == Sort; }
};

// The steps over a problem's train inputs: those of every list, then the zips with its [int]
// parameters and the maps by its int ones (zip_add(e, ys), map_sub(e, n)).
std::vector<Step> steps(const suites::Problem& problem) {
  const Type A = Type::IntArray;
  const std::string reverse = bank::production_key("reverse($0)", {A}, A),
                    sort = bank::production_key("sort($0)", {A}, A);
  const auto key = [](i64 c) { return bank::constant_key(vm::Value::of_int(c)); };
  std::vector<Step> s = {{"reverse($0)", nullptr, Step::Order, reversed, {reverse}},
                         {"sort($0)", nullptr, Step::Sort, unchanged, {sort}},
                         {"reverse(sort($0))", nullptr, Step::Sort, unchanged, {reverse, sort}},
                         {"scan_add($0, 0)", "scan_add", Step::Scan, differences, {key(0)}}};
  const u32 n = u32(problem.train.size());
  auto constant = [&](i64 c) { return Other{std::vector<List>(n, List{c}), false}; };
  for (i64 k : {2, 3, 4})
    s.push_back({"map_mul($0, " + std::to_string(k) + ")",
                 "map_mul",
                 Step::Map,
                 elementwise(over, constant(k)),
                 {key(k)}});
  s.push_back({"map_negate($0)", "map_negate", Step::Map, elementwise(from, constant(0)), {}});
  s.push_back({"map_add($0, 1)", "map_add", Step::Map, elementwise(less, constant(1)), {key(1)}});
  s.push_back({"map_sub($0, 1)", "map_sub", Step::Map, elementwise(more, constant(1)), {key(1)}});
  const suites::Signature& sig = problem.signature;
  for (u32 i = 0; i < sig.params.size(); ++i) {
    if (sig.params[i] != Type::IntArray && sig.params[i] != Type::Int) continue;
    Other other{{}, sig.params[i] == Type::IntArray};
    for (const suites::Case& c : problem.train) {
      List l;
      if (other.per_element)
        for (const vm::Value& x : c.inputs[i].items) l.push_back(x.i);
      else
        l.push_back(c.inputs[i].i);
      other.lists.push_back(std::move(l));
    }
    const std::string& p = sig.param_names[i];
    const std::string form = other.per_element ? "zip_" : "map_";
    const Step::Kind kind = other.per_element ? Step::Zip : Step::Map;
    auto add = [&](const std::string& text, const char* op, Undo undo) {
      s.push_back({text, nullptr, kind, elementwise(undo, other), {}});
      s.back().loop = op;
    };
    add(form + "add($0, " + p + ")", other.per_element ? "zip_add" : "map_add", less);
    add(form + "sub($0, " + p + ")", other.per_element ? "zip_sub" : "map_sub", more);
    add(form + "mul($0, " + p + ")", other.per_element ? "zip_mul" : "map_mul", over);
    if (other.per_element) add("zip_sub(" + p + ", $0)", "zip_sub", from);
  }
  for (Step& step : s)
    if (step.loop != nullptr) step.keys.insert(step.keys.begin(), bank::loop_key(step.loop));
  return s;
}

bool sorted_up(const List& l) { return std::is_sorted(l.begin(), l.end()); }
bool sorted_down(const List& l) { return std::is_sorted(l.rbegin(), l.rend()); }
bool varied(const List& l) {
  return std::adjacent_find(l.begin(), l.end(), std::not_equal_to<>()) != l.end();
}

// The lists going into `step` where `lists` come out of it (and of the outer steps, `outer`), or
// none: where it has no inverse, or one that changes nothing, or where it would repeat or undo
// the step it goes into (reverse twice, two maps of ±1), or sort what is already any order.
std::optional<std::vector<List>> inverse(const Step& step, const std::vector<List>& lists, const Step* outer,
                                         bool permutation) {
  if (outer != nullptr) {
    if (permutation && step.kind != Step::Map)
      return std::nullopt;  // only the same map of every element inside a sort
    if (step.kind == Step::Sort && outer->kind == Step::Order)
      return std::nullopt;  // reverse(reverse(sort(e)))
    if (step.text == outer->text && step.kind != Step::Scan) return std::nullopt;
    if ((step.text == "reverse($0)" && outer->permutation()) ||
        (step.loop != nullptr && outer->loop != nullptr &&
         (std::string(step.loop) == "map_add" || std::string(step.loop) == "map_sub") &&
         (std::string(outer->loop) == "map_add" || std::string(outer->loop) == "map_sub")))
      return std::nullopt;
  }
  if (step.kind == Step::Sort) {
    const bool up = step.text == "sort($0)";
    if (!std::any_of(lists.begin(), lists.end(), varied) ||
        !std::all_of(lists.begin(), lists.end(), up ? sorted_up : sorted_down))
      return std::nullopt;
    return lists;
  }
  std::vector<List> in;
  bool changes = false;
  for (u32 k = 0; k < lists.size(); ++k) {
    std::optional<List> i = step.inverse(lists[k], k);
    const List& l = lists[k];
    if (!i) return std::nullopt;
    changes = changes || *i != l;
    in.push_back(std::move(*i));
  }
  if (!changes) return std::nullopt;
  return in;
}

}  // namespace

std::vector<GoalShape> last_step_goals(const GoalShape& goal, const suites::Problem& problem, u32 depth) {
  std::vector<GoalShape> out;
  if (goal.type != Type::IntArray || !goal.plain() || depth == 0) return out;
  std::vector<List> lists;
  for (const vm::Value& v : goal.outputs) {
    List l;
    for (const vm::Value& x : v.items) l.push_back(x.i);
    lists.push_back(std::move(l));
  }
  if (std::all_of(lists.begin(), lists.end(), [](const List& l) { return l.empty(); })) return out;
  const std::vector<Step> all = steps(problem);
  std::set<std::pair<std::vector<List>, bool>> seen = {{lists, false}};  // goals alike once
  // The goals of one more step inside each of the last level's (the steps so far around $0),
  // level by level, so that a goal alike to a shorter one is the shorter.
  struct Level {
    std::vector<List> lists;
    const Step* outer = nullptr;
    LastStep so_far;
  };
  std::vector<Level> level = {{lists, nullptr, {}}};
  for (u32 d = 0; d < depth; ++d) {
    std::vector<Level> next_level;
    for (const Level& at : level)
      for (const Step& step : all) {
        std::optional<std::vector<List>> next = inverse(step, at.lists, at.outer, at.so_far.permutation);
        if (!next) continue;
        LastStep s = at.so_far;
        s.text = s.text.empty() ? step.text : bank::substitute(s.text, {&step.text});
        s.permutation = s.permutation || step.permutation();
        for (const std::string& k : step.keys)
          if (std::find(s.keys.begin(), s.keys.end(), k) == s.keys.end()) s.keys.push_back(k);
        if (step.loop != nullptr) {
          std::string helper = bank::loop_helper(step.loop);
          if (std::find(s.helpers.begin(), s.helpers.end(), helper) == s.helpers.end())
            s.helpers.push_back(std::move(helper));
        }
        if (!seen.insert({*next, s.permutation}).second) continue;
        GoalShape g = goal;
        g.outputs.clear();
        for (const List& l : *next) {
          std::vector<vm::Value> items;
          for (i64 x : l) items.push_back(vm::Value::of_int(x));
          g.outputs.push_back(vm::Value::of_array(Type::Int, std::move(items)));
        }
        g.step = s;
        out.push_back(std::move(g));
        next_level.push_back({std::move(*next), &step, std::move(s)});
      }
    level = std::move(next_level);
  }
  return out;
}

}  // namespace gs::search
