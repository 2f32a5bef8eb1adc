// Goals of an enumeration and their case splits (search/enumeration_goals.h).
#include "search/enumeration_goals.h"

#include <algorithm>

#include "base/hash.h"
#include "pipeline/case_set.h"

namespace gs::search::enumeration {

namespace {

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

u64 behaviour_of(std::span<const u64> output_hashes) {
  return fnv1a64(reinterpret_cast<const u8*>(output_hashes.data()), output_hashes.size_bytes());
}

Goals::Goals(const suites::Problem& problem, Grammar& grammar, const Bank& bank, const Writer& writer,
             const EnumerateSettings& settings)
    : grammar_(grammar), bank_(bank), writer_(writer), settings_(settings) {
  const std::vector<Type>& results = grammar_.signature().results;
  met_.assign(results.size(), std::nullopt);
  cases_ = u32(problem.train.size());
  const auto add = [&](u32 r, Type type, std::string prefix, std::string suffix, const char* convert,
                       const std::vector<vm::Value>& outputs) {
    if (grammar_.index_of_type(type) == kNone) return;
    Goal goal;
    goal.result = r;
    goal.type = type;
    goal.prefix = std::move(prefix);
    goal.suffix = std::move(suffix);
    goal.convert = convert;
    for (const vm::Value& v : outputs)
      goal.outputs.push_back(pipeline::output_hash(std::span<const vm::Value>(&v, 1)));
    goal.behaviour = behaviour_of(goal.outputs);
    goal.whole = results.size() == 1 && goal.prefix.empty() && goal.suffix.empty() && !convert;
    goals_.push_back(std::move(goal));
  };
  for (u32 r = 0; r < results.size(); ++r) {
    std::vector<vm::Value> outputs;
    for (const suites::Case& c : problem.train) outputs.push_back(c.outputs[r]);
    add(r, results[r], "", "", nullptr, outputs);
    if (results[r] != Type::Str) continue;
    const auto& [prefix, suffix] = grammar_.affixes(r);
    std::vector<vm::Value> rest, chars, ints;
    for (const vm::Value& v : outputs) {
      const std::string t = v.s.substr(prefix.size(), v.s.size() - prefix.size() - suffix.size());
      rest.push_back(vm::Value::of_str(t));
      if (t.size() == 1) chars.push_back(vm::Value::of_int(u8(t[0])));
      if (std::optional<i64> v = decimal(t)) ints.push_back(vm::Value::of_int(*v));
    }
    if (!prefix.empty() || !suffix.empty()) add(r, Type::Str, prefix, suffix, nullptr, rest);
    if (chars.size() == outputs.size()) add(r, Type::Int, prefix, suffix, "chr", chars);
    if (ints.size() == outputs.size()) add(r, Type::Int, prefix, suffix, "str", ints);
  }
  // Within a size, the entry's context enumerates the goals' types first.
  grammar.put_first([&](Type t) {
    return std::any_of(goals_.begin(), goals_.end(), [&](const Goal& g) { return !g.whole && g.type == t; });
  });
  const vm::Value yes = vm::Value::of_bool(true);
  true_hash_ = pipeline::output_hash(std::span<const vm::Value>(&yes, 1));
}

void Goals::reached(u32 id, u64 behaviour, std::span<const u64> outputs) {
  if (goals_.empty() || bank_.entry(id).context != 0) return;
  const Type type = bank_.entry(id).type;
  bool met = false;
  for (u32 g = 0; g < goals_.size(); ++g) {
    Goal& goal = goals_[g];
    if (goal.type != type || met_[goal.result]) continue;
    if (goal.behaviour == behaviour) {
      if (goal.whole) continue;  // the candidate itself
      met_[goal.result] = Met{g, {{}, id}};
      met = true;
    } else if (settings_.splits && outputs.size() == cases_) {
      add_term(&goal, id, outputs);
    }
  }
  if (settings_.splits && type == Type::Bool && outputs.size() == cases_) {
    CaseMask holds = case_mask(cases_);
    for (u32 k = 0; k < cases_; ++k)
      if (outputs[k] == true_hash_) add_case(&holds, k);
    conditions_.add(id, std::move(holds));
  }
  if (met) assemble();
}

// An expression right on some of the goal's cases as a term of its case split.
void Goals::add_term(Goal* goal, u32 id, std::span<const u64> outputs) {
  CaseMask right = case_mask(cases_);
  for (u32 k = 0; k < cases_; ++k)
    if (outputs[k] == goal->outputs[k]) add_case(&right, k);
  terms_changed_ = goal->terms.add(id, std::move(right)) || terms_changed_;
}

void Goals::split() {
  if (!settings_.splits) return;
  if (!conditions_.due(terms_changed_)) return;
  terms_changed_ = false;
  const SplitLimits limits{4, split_min_cases(cases_)};
  bool met = false;
  for (u32 g = 0; g < goals_.size(); ++g) {
    const Goal& goal = goals_[g];
    if (met_[goal.result] || goal.terms.ids().size() < 2) continue;
    std::optional<DecisionList> list = split_cases(cases_, goal.terms.cases(), conditions_.cases(), limits);
    if (!list) continue;
    met_[goal.result] = Met{g, with_ids(std::move(*list), goal.terms.ids(), conditions_.ids())};
    met = true;
  }
  if (met) assemble();
}

// Once every result has its goal met: the program that returns them, a candidate to propose.
void Goals::assemble() {
  if (std::find(met_.begin(), met_.end(), std::nullopt) != met_.end()) return;
  Helpers h;
  std::vector<trees::Expr> parts;
  for (const std::optional<Met>& m : met_) {
    const Goal& goal = goals_[m->goal];
    trees::Expr e = writer_.expr_of(bank_.entry(m->list.otherwise).node, &h);
    for (size_t j = m->list.branches.size(); j-- > 0;) {
      const Branch& b = m->list.branches[j];
      trees::Expr term = writer_.expr_of(bank_.entry(b.term).node, &h);
      std::vector<trees::Expr> args;
      args.push_back(writer_.expr_of(bank_.entry(b.predicate).node, &h));
      if (b.when) {  // predicate ? term : the rest
        args.push_back(std::move(term));
        args.push_back(std::move(e));
      } else {  // predicate ? the rest : term
        args.push_back(std::move(e));
        args.push_back(std::move(term));
      }
      e = Writer::choose_call(std::move(args), &h);
    }
    if (goal.convert) e = trees::Expr::call(goal.convert, Type::Str, {std::move(e)});
    if (!goal.prefix.empty())
      e = trees::Expr::binary(trees::BinaryOp::Add, trees::Expr::str_lit(goal.prefix), std::move(e));
    if (!goal.suffix.empty())
      e = trees::Expr::binary(trees::BinaryOp::Add, std::move(e), trees::Expr::str_lit(goal.suffix));
    parts.push_back(std::move(e));
  }
  assembled_.push_back(writer_.program_with(std::move(parts), std::move(h)));
}

std::vector<trees::Tree> Goals::take_assembled() {
  std::vector<trees::Tree> out = std::move(assembled_);
  assembled_.clear();
  return out;
}

}  // namespace gs::search::enumeration
