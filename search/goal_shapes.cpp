#include "search/goal_shapes.h"

#include <algorithm>
#include <optional>

namespace gs::search {

namespace {

// The longest prefix (or suffix) every string has.
std::string common_affix(const std::vector<std::string>& texts, bool suffix) {
  if (texts.empty()) return "";
  size_t n = texts[0].size();
  for (const std::string& t : texts) {
    size_t k = 0;
    while (k < n && k < t.size() &&
           (suffix ? t[t.size() - 1 - k] == texts[0][texts[0].size() - 1 - k] : t[k] == texts[0][k]))
      ++k;
    n = k;
  }
  return suffix ? texts[0].substr(texts[0].size() - n) : texts[0].substr(0, n);
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

}  // namespace

std::pair<std::string, std::string> output_affixes(const suites::Problem& problem, u32 r) {
  std::vector<std::string> texts;
  if (problem.signature.results[r] == Type::Str)
    for (const suites::Case& c : problem.train) texts.push_back(c.outputs[r].s);
  const std::string prefix = common_affix(texts, false);
  for (std::string& t : texts) t.erase(0, prefix.size());
  return {prefix, common_affix(texts, true)};
}

std::vector<GoalShape> goal_shapes(const suites::Problem& problem) {
  std::vector<GoalShape> out;
  const std::vector<Type>& results = problem.signature.results;
  for (u32 r = 0; r < results.size(); ++r) {
    std::vector<vm::Value> outputs;
    for (const suites::Case& c : problem.train) outputs.push_back(c.outputs[r]);
    out.push_back({r, results[r], "", "", nullptr, false, outputs});
    if (results[r] != Type::Str) continue;
    const auto [prefix, suffix] = output_affixes(problem, r);
    std::vector<vm::Value> rest, chars, ints;
    for (const vm::Value& v : outputs) {
      const std::string t = v.s.substr(prefix.size(), v.s.size() - prefix.size() - suffix.size());
      rest.push_back(vm::Value::of_str(t));
      if (t.size() == 1) chars.push_back(vm::Value::of_int(u8(t[0])));
      if (std::optional<i64> d = decimal(t)) ints.push_back(vm::Value::of_int(*d));
    }
    if (!prefix.empty() || !suffix.empty())
      out.push_back({r, Type::Str, prefix, suffix, nullptr, false, rest});
    if (chars.size() == outputs.size()) out.push_back({r, Type::Int, prefix, suffix, "chr", false, chars});
    if (ints.size() == outputs.size()) out.push_back({r, Type::Int, prefix, suffix, "str", false, ints});
    if (std::any_of(rest.begin(), rest.end(),
                    [](const vm::Value& v) { return v.s.find('\n') != std::string::npos; }))
      out.push_back({r, Type::StrArray, prefix, suffix, nullptr, true, rest});
  }
  return out;
}

}  // namespace gs::search
