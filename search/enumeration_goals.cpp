// Goals of an enumeration and their case splits (search/enumeration_goals.h).
#include "search/enumeration_goals.h"

#include <algorithm>

#include "base/hash.h"
#include "pipeline/case_set.h"

namespace gs::search::enumeration {

u64 behaviour_of(std::span<const u64> output_hashes) {
  return fnv1a64(reinterpret_cast<const u8*>(output_hashes.data()), output_hashes.size_bytes());
}

Goals::Goals(const suites::Problem& problem, Grammar& grammar, const Bank& bank, const Writer& writer,
             const EnumerateSettings& settings)
    : grammar_(grammar), bank_(bank), writer_(writer), settings_(settings) {
  const std::vector<Type>& results = grammar_.signature().results;
  met_.assign(results.size(), std::nullopt);
  cases_ = u32(problem.train.size());
  for (GoalShape& shape : goal_shapes(problem)) {
    if (grammar_.index_of_type(shape.type) == kNone || shape.lines) continue;  // lines: the value bank's
    Goal goal;
    goal.result = shape.result;
    goal.type = shape.type;
    goal.whole = results.size() == 1 && shape.plain();
    for (const vm::Value& v : shape.outputs)
      goal.outputs.push_back(pipeline::output_hash(std::span<const vm::Value>(&v, 1)));
    goal.behaviour = behaviour_of(goal.outputs);
    goal.prefix = std::move(shape.prefix);
    goal.suffix = std::move(shape.suffix);
    goal.convert = shape.convert;
    goals_.push_back(std::move(goal));
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
