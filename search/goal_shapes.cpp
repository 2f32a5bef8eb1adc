#include "search/goal_shapes.h"

#include <algorithm>
#include <optional>

#include "search/bank_grammar.h"
#include "search/last_steps.h"

namespace gs::search {

namespace {

bool same(char a, char b) { return a == b; }
bool same(const vm::Value& a, const vm::Value& b) { return vm::identical(a, b); }

// The longest prefix (or suffix) every string (or list) has.
template <class Sequence>
Sequence common_affix(const std::vector<Sequence>& all, bool suffix) {
  if (all.empty()) return {};
  const Sequence& first = all[0];
  size_t n = first.size();
  for (const Sequence& t : all) {
    size_t k = 0;
    while (k < n && k < t.size() &&
           (suffix ? same(t[t.size() - 1 - k], first[first.size() - 1 - k]) : same(t[k], first[k])))
      ++k;
    n = k;
  }
  return suffix ? Sequence(first.end() - std::ptrdiff_t(n), first.end())
                : Sequence(first.begin(), first.begin() + std::ptrdiff_t(n));
}

// The int whose decimal digits t is, as str() writes them.
std::optional<i64> decimal(const std::string& t) {
  if (t.empty() || t.size() > 19) return std::nullopt;
  size_t k = t[0] == '-' ? 1 : 0;
  if (k == t.size() || (t[k] == '0' && t.size() > k + 1) || t == "-0") return std::nullopt;
  i64 v = 0;
  for (; k < t.size(); ++k) {
    if (t[k] < '0' || t[k] > '9') return std::nullopt;
    v = v * 10 + (t[k] - '0');
  }
  return t[0] == '-' ? -v : v;
}

// The [int] whose elements' decimal texts t's lines are ([] for no line), or none where a line
// is not one.
std::optional<vm::Value> lines_of_numbers(const std::string& t) {
  std::vector<vm::Value> items;
  for (size_t at = 0; !t.empty();) {
    const size_t end = std::min(t.find('\n', at), t.size());
    const std::optional<i64> d = decimal(t.substr(at, end - at));
    if (!d) return std::nullopt;
    items.push_back(vm::Value::of_int(*d));
    if (end == t.size()) break;
    at = end + 1;
  }
  return vm::Value::of_array(Type::Int, std::move(items));
}

// A list result's outputs taken apart (goal_shapes()): its elements, where every output has the
// same length, 1 to kMostElements; else `[$0] + $1`, `$0 + [$1]` and `[$0] + $1 + [$2]` where every
// output is long enough. Each part a goal of its own.
constexpr size_t kMostElements = 8;

void take_apart(u32 r, Type type, const std::vector<vm::Value>& outputs, std::vector<GoalShape>* out) {
  if (!is_array(type) || outputs.size() < 3) return;
  size_t shortest = outputs[0].items.size(), longest = shortest;
  for (const vm::Value& v : outputs) {
    shortest = std::min(shortest, v.items.size());
    longest = std::max(longest, v.items.size());
  }
  const Type element = element_of(type);
  // The parts of a layout: `firsts` elements, then the list between (if `middle`), then `lasts`
  // elements.
  auto layout = [&](size_t firsts, bool middle, size_t lasts) {
    std::string text;
    std::vector<GoalShape> parts;
    auto part = [&](Type t, auto of) {
      GoalShape g{r, t, {}, {}, nullptr, false, {}, {}, {}, 0};
      g.part = u32(parts.size());
      for (const vm::Value& v : outputs) g.outputs.push_back(of(v));
      parts.push_back(std::move(g));
    };
    std::string items;
    for (size_t i = 0; i < firsts; ++i) {
      items += (i ? ", $" : "$") + std::to_string(parts.size());
      part(element, [&](const vm::Value& v) { return v.items[i]; });
    }
    if (!items.empty()) text = "[" + items + "]";
    if (middle) {
      text += (text.empty() ? "$" : " + $") + std::to_string(parts.size());
      part(type, [&](const vm::Value& v) {
        return vm::Value::of_array(element, std::vector<vm::Value>(v.items.begin() + std::ptrdiff_t(firsts),
                                                                   v.items.end() - std::ptrdiff_t(lasts)));
      });
    }
    items.clear();
    for (size_t i = 0; i < lasts; ++i) {
      items += (i ? ", $" : "$") + std::to_string(parts.size());
      part(element, [&](const vm::Value& v) { return v.items[v.items.size() - lasts + i]; });
    }
    if (!items.empty()) text += " + [" + items + "]";
    for (GoalShape& g : parts) {
      g.layout = text;
      out->push_back(std::move(g));
    }
  };
  if (shortest == longest && shortest >= 1 && shortest <= kMostElements) {
    layout(shortest, false, 0);
  } else if (shortest >= 1) {
    layout(1, true, 0);
    layout(0, true, 1);
    if (shortest >= 2) layout(1, true, 1);
  }
}

// The lines goals of str result r whose texts between `prefix` and `suffix` are `texts`, where
// some of them has lines: their [str], and where every line is a number their [int], then those
// numbers taken apart as a list result is (digits' lines, whose last alone has a sign), each part
// with the whole's affixes, map_str and lines, written around the layout.
void add_lines_goals(u32 r, const vm::Value& prefix, const vm::Value& suffix,
                     const std::vector<vm::Value>& texts, std::vector<GoalShape>* out) {
  if (std::none_of(texts.begin(), texts.end(),
                   [](const vm::Value& v) { return v.s.find('\n') != std::string::npos; }))
    return;
  out->push_back({r, Type::StrArray, prefix, suffix, nullptr, true, texts, {}, {}, 0});
  std::vector<vm::Value> numbers;
  for (const vm::Value& v : texts) {
    std::optional<vm::Value> list = lines_of_numbers(v.s);
    if (!list) return;
    numbers.push_back(std::move(*list));
  }
  out->push_back({r, Type::IntArray, prefix, suffix, "map_str", true, numbers, {}, {}, 0});
  const size_t first = out->size();
  take_apart(r, Type::IntArray, numbers, out);
  for (size_t i = first; i < out->size(); ++i) {
    (*out)[i].prefix = prefix;
    (*out)[i].suffix = suffix;
    (*out)[i].convert = "map_str";
    (*out)[i].lines = true;
  }
}

// Where every text is one character, their bytes as ints (the goal chr() turns into them).
std::optional<std::vector<vm::Value>> single_chars(const std::vector<vm::Value>& texts) {
  std::vector<vm::Value> chars;
  for (const vm::Value& v : texts) {
    if (v.s.size() != 1) return std::nullopt;
    chars.push_back(vm::Value::of_int(u8(v.s[0])));
  }
  return chars;
}

// The goals of str result r whose outputs keep a str parameter's text, or part of it, at one
// end (capitalise: "Tree" from "tree" keeps `slice(s, 1, len(s))`): what comes before a kept end
// (of `slice(p, k, len(p))` with the least k of 0 to kMostCut, `$0 + p` at 0), then what comes
// after a kept beginning (`p + $0`, else `slice(p, 0, k)` with the greatest k of kMostCut to 1),
// each a goal whose last step writes the kept part beside the expression, and where every such
// rest is one character, also the int that chr() turns into it. A part kept on fewer than half
// the cases (an empty one, or a slice past the end) makes no goal.
constexpr i64 kMostCut = 3;

void add_kept_goals(const suites::Problem& problem, u32 r, const std::vector<vm::Value>& outputs,
                    std::vector<GoalShape>* out) {
  const Type I = Type::Int, S = Type::Str;
  const suites::Signature& sig = problem.signature;
  const std::string plus = bank::production_key("$0 + $1", {S, S}, S);
  for (u32 i = 0; i < sig.params.size(); ++i) {
    if (sig.params[i] != S) continue;
    const std::string& name = sig.param_names[i];
    // The rest of each output once kept(input) is cut from its end (or beginning), or none.
    const auto rests = [&](bool end, auto kept) -> std::optional<std::vector<vm::Value>> {
      std::vector<vm::Value> rest;
      size_t kept_somewhere = 0;
      for (size_t c = 0; c < outputs.size(); ++c) {
        const std::string& o = outputs[c].s;
        const std::string part = kept(problem.train[c].inputs[i].s);
        if (part.size() > o.size() || (end ? o.compare(o.size() - part.size(), part.size(), part) != 0
                                           : o.compare(0, part.size(), part) != 0))
          return std::nullopt;
        kept_somewhere += !part.empty();
        rest.push_back(vm::Value::of_str(end ? o.substr(0, o.size() - part.size()) : o.substr(part.size())));
      }
      if (2 * kept_somewhere < outputs.size()) return std::nullopt;
      return rest;
    };
    const auto add = [&](const std::string& text, std::vector<std::string> keys,
                         const std::vector<vm::Value>& rest) {
      keys.push_back(plus);
      GoalShape g{r, S, {}, {}, nullptr, false, rest, {}, {}, 0};
      g.step.text = text;
      g.step.keys = keys;
      out->push_back(g);
      std::optional<std::vector<vm::Value>> chars = single_chars(rest);
      if (!chars) return;
      // chr inside the step: the shape's convert would go around it.
      g.type = I;
      g.outputs = std::move(*chars);
      const size_t at = g.step.text.find("$0");
      g.step.text.replace(at, 2, "chr($0)");
      g.step.keys.push_back(bank::production_key("chr($0)", {I}, S));
      out->push_back(std::move(g));
    };
    const std::string slice = bank::production_key("slice($0, $1, $2)", {S, I, I}, S);
    const std::string length = bank::production_key("len($0)", {S}, I);
    for (i64 k = 0; k <= kMostCut; ++k) {
      const auto kept = [k](const std::string& t) { return t.substr(std::min<size_t>(size_t(k), t.size())); };
      if (std::optional<std::vector<vm::Value>> rest = rests(true, kept)) {
        if (k == 0)
          add("$0 + " + name, {}, *rest);
        else
          add("$0 + slice(" + name + ", " + std::to_string(k) + ", len(" + name + "))",
              {slice, length, bank::constant_key(vm::Value::of_int(k))}, *rest);
        break;
      }
    }
    if (std::optional<std::vector<vm::Value>> rest = rests(false, [](const std::string& t) { return t; })) {
      add(name + " + $0", {}, *rest);
      continue;
    }
    for (i64 k = kMostCut; k >= 1; --k) {
      const auto kept = [k](const std::string& t) { return t.substr(0, size_t(k)); };
      if (std::optional<std::vector<vm::Value>> rest = rests(false, kept)) {
        add("slice(" + name + ", 0, " + std::to_string(k) + ") + $0",
            {slice, bank::constant_key(vm::Value::of_int(0)), bank::constant_key(vm::Value::of_int(k))},
            *rest);
        break;
      }
    }
  }
}

}  // namespace

std::pair<vm::Value, vm::Value> output_affixes(const suites::Problem& problem, u32 r) {
  const Type type = problem.signature.results[r];
  if (type == Type::Str) {
    std::vector<std::string> texts;
    for (const suites::Case& c : problem.train) texts.push_back(c.outputs[r].s);
    const std::string prefix = common_affix(texts, false);
    for (std::string& t : texts) t.erase(0, prefix.size());
    return {vm::Value::of_str(prefix), vm::Value::of_str(common_affix(texts, true))};
  }
  if (!is_array(type) || problem.train.size() < 3) return {};
  std::vector<std::vector<vm::Value>> lists;
  for (const suites::Case& c : problem.train) lists.push_back(c.outputs[r].items);
  const std::vector<vm::Value> prefix = common_affix(lists, false);
  for (std::vector<vm::Value>& l : lists) l.erase(l.begin(), l.begin() + std::ptrdiff_t(prefix.size()));
  return {vm::Value::of_array(element_of(type), prefix),
          vm::Value::of_array(element_of(type), common_affix(lists, true))};
}

std::vector<GoalShape> goal_shapes(const suites::Problem& problem, u32 last_steps) {
  std::vector<GoalShape> out;
  const std::vector<Type>& results = problem.signature.results;
  for (u32 r = 0; r < results.size(); ++r) {
    std::vector<vm::Value> outputs;
    for (const suites::Case& c : problem.train) outputs.push_back(c.outputs[r]);
    const GoalShape plain{r, results[r], {}, {}, nullptr, false, outputs, {}, {}, 0};
    out.push_back(plain);
    for (GoalShape& g : last_step_goals(plain, problem, last_steps)) out.push_back(std::move(g));
    const auto [prefix, suffix] = output_affixes(problem, r);
    if (is_array(results[r]) && (GoalShape::has_affix(prefix) || GoalShape::has_affix(suffix))) {
      std::vector<vm::Value> rest;  // the lists between the affixes
      for (const vm::Value& v : outputs)
        rest.push_back(
            vm::Value::of_array(element_of(results[r]),
                                std::vector<vm::Value>(v.items.begin() + std::ptrdiff_t(prefix.items.size()),
                                                       v.items.end() - std::ptrdiff_t(suffix.items.size()))));
      out.push_back({r, results[r], prefix, suffix, nullptr, false, rest, {}, {}, 0});
    }
    take_apart(r, results[r], outputs, &out);
    if (results[r] != Type::Str) continue;
    std::vector<vm::Value> rest, ints;
    for (const vm::Value& v : outputs) {
      const std::string t = v.s.substr(prefix.s.size(), v.s.size() - prefix.s.size() - suffix.s.size());
      rest.push_back(vm::Value::of_str(t));
      if (std::optional<i64> d = decimal(t)) ints.push_back(vm::Value::of_int(*d));
    }
    if (GoalShape::has_affix(prefix) || GoalShape::has_affix(suffix))
      out.push_back({r, Type::Str, prefix, suffix, nullptr, false, rest, {}, {}, 0});
    if (std::optional<std::vector<vm::Value>> chars = single_chars(rest))
      out.push_back({r, Type::Int, prefix, suffix, "chr", false, std::move(*chars), {}, {}, 0});
    if (ints.size() == outputs.size())
      out.push_back({r, Type::Int, prefix, suffix, "str", false, ints, {}, {}, 0});
    add_lines_goals(r, prefix, suffix, rest, &out);
    // The lines of the outputs as they are, where the affixes are not whole lines: every output
    // of "1 to n, one per line" begins "1\n2", and between that and the rest no line is whole.
    if (GoalShape::has_affix(prefix) || GoalShape::has_affix(suffix))
      add_lines_goals(r, {}, {}, outputs, &out);
    add_kept_goals(problem, r, outputs, &out);
  }
  return out;
}

std::vector<std::string> shape_keys(const GoalShape& g) {
  const Type I = Type::Int, A = Type::IntArray, S = Type::Str;
  std::vector<std::string> keys;
  const auto add = [&](std::string k) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(std::move(k));
  };
  const std::string element = bank::production_key("[$0]", {I}, A);
  for (const vm::Value* affix : {&g.prefix, &g.suffix}) {
    if (!GoalShape::has_affix(*affix)) continue;
    add(bank::production_key("$0 + $1", {affix->type, affix->type}, affix->type));
    if (affix->type == S) add(bank::constant_key(*affix));
    for (const vm::Value& x : affix->items) {
      add(element);
      add(bank::constant_key(x));
    }
  }
  if (g.convert != nullptr && std::string(g.convert) != "map_str")
    add(bank::production_key(std::string(g.convert) + "($0)", {I}, S));
  if (g.lines) {
    add(bank::production_key("join($0, $1)", {Type::StrArray, S}, S));
    add(bank::constant_key(vm::Value::of_str("\n")));
  }
  for (const std::string& k : g.step.keys) add(k);
  if (!g.layout.empty()) {
    add(element);
    add(bank::production_key("$0 + $1", {A, A}, A));
  }
  return keys;
}

}  // namespace gs::search
