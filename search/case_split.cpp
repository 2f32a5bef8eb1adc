#include "search/case_split.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "pipeline/case_set.h"

namespace gs::search {

namespace {

u32 count(const CaseMask& s) {
  u32 n = 0;
  for (u64 w : s) n += u32(std::popcount(w));
  return n;
}

}  // namespace

CaseMask case_mask(u32 cases) {
  CaseMask set;
  clear_cases(&set, cases);
  return set;
}

bool is_subset(const CaseMask& a, const CaseMask& b) {
  for (size_t w = 0; w < a.size(); ++w)
    if (a[w] & ~b[w]) return false;
  return true;
}

bool SplitTerms::add(u32 id, const CaseMask& right) {
  if (full() || count(right) == 0) return false;
  for (const CaseMask& t : cases_)
    if (is_subset(right, t)) return false;
  for (size_t j = ids_.size(); j-- > 0;)
    if (is_subset(cases_[j], right)) {
      ids_.erase(ids_.begin() + ptrdiff_t(j));
      cases_.erase(cases_.begin() + ptrdiff_t(j));
    }
  ids_.push_back(id);
  cases_.push_back(right);  // copied only here: most terms are not kept
  return true;
}

bool SplitConditions::due(bool terms_changed) {
  if (!terms_changed && ids_.size() < next_) return false;
  next_ = ids_.size() + ids_.size() / 8 + 1;
  return true;
}

DecisionList with_ids(DecisionList list, std::span<const u32> term_ids, std::span<const u32> predicate_ids) {
  for (Branch& b : list.branches) {
    b.predicate = predicate_ids[b.predicate];
    b.term = term_ids[b.term];
  }
  list.otherwise = term_ids[list.otherwise];
  return list;
}

std::optional<DecisionList> split_cases(u32 cases, std::span<const CaseMask> terms,
                                        std::span<const CaseMask> predicates, SplitLimits limits) {
  const size_t words = (cases + 63) / 64;
  for (const CaseMask& s : terms)
    if (s.size() != words) throw std::invalid_argument("split_cases: a term's case set has the wrong size");
  for (const CaseMask& s : predicates)
    if (s.size() != words)
      throw std::invalid_argument("split_cases: a predicate's case set has the wrong size");
  CaseMask open = case_mask(cases);
  for (u32 k = 0; k < cases; ++k) add_case(&open, k);
  DecisionList list;
  CaseMask covered(words);
  while (true) {
    for (u32 t = 0; t < terms.size(); ++t)
      if (is_subset(open, terms[t])) {
        list.otherwise = t;
        return list;
      }
    if (list.branches.size() >= limits.max_branches) return std::nullopt;
    const u32 left = count(open);
    u32 best_count = 0;
    Branch best;
    CaseMask best_covered;
    for (u32 p = 0; p < predicates.size(); ++p)
      for (bool when : {true, false}) {
        for (size_t w = 0; w < words; ++w)
          covered[w] = open[w] & (when ? predicates[p][w] : ~predicates[p][w]);
        const u32 n = count(covered);
        if (n <= best_count || n < limits.min_cases || left - n < limits.min_cases) continue;
        for (u32 t = 0; t < terms.size(); ++t)
          if (is_subset(covered, terms[t])) {
            best_count = n;
            best = {p, when, t};
            best_covered = covered;
            break;
          }
      }
    if (best_count == 0) return std::nullopt;
    list.branches.push_back(best);
    for (size_t w = 0; w < words; ++w) open[w] &= ~best_covered[w];
  }
}

// The first value of each step after the first: decision-tree learners take their split points
// the same way; PushGP draws such numbers as random constants.
std::vector<i64> split_thresholds(const suites::Problem& problem) {
  std::vector<i64> out;
  const u32 least = split_min_cases(u32(problem.train.size()));
  for (u32 p = 0; p < problem.signature.params.size(); ++p) {
    if (problem.signature.params[p] != Type::Int) continue;
    std::vector<std::pair<i64, u64>> points;  // the parameter's value, the outputs' hash
    for (const suites::Case& c : problem.train)
      points.push_back({c.inputs[p].i, pipeline::output_hash(c.outputs)});
    std::sort(points.begin(), points.end());
    std::vector<i64> steps;
    bool fits = true;
    u32 step_cases = 1;
    for (size_t k = 1; k < points.size() && fits; ++k, ++step_cases) {
      if (points[k].second == points[k - 1].second) continue;
      if (points[k].first == points[k - 1].first || step_cases < least)
        fits = false;  // one value, two outputs; a stray step
      steps.push_back(points[k].first);
      step_cases = 0;
    }
    if (fits && step_cases >= least && steps.size() <= 3) out.insert(out.end(), steps.begin(), steps.end());
  }
  return out;
}

std::optional<DecisionList> split_by_size(u32 cases, const SplitTerms& terms,
                                          const SplitConditions& conditions,
                                          const std::function<u32(u32)>& size, SplitLimits limits) {
  const std::vector<u32>& ids = conditions.ids();
  if (terms.ids().size() < 2) return std::nullopt;
  for (u32 end = 0; end < ids.size();) {
    const u32 below = size(ids[end]);
    while (end < ids.size() && size(ids[end]) <= below) ++end;
    if (std::optional<DecisionList> list =
            split_cases(cases, terms.cases(), std::span(conditions.cases()).first(end), limits))
      return with_ids(std::move(*list), terms.ids(), ids);
  }
  return std::nullopt;
}

void append_expressions(const DecisionList& list, std::vector<u32>* ids) {
  for (const Branch& b : list.branches) {
    ids->push_back(b.predicate);
    ids->push_back(b.term);
  }
  ids->push_back(list.otherwise);
}

std::string decision_function(const std::string& name, const std::string& parameters,
                              const std::string& result, const DecisionList& list,
                              std::span<const std::string> expressions, size_t* at) {
  std::string f = "fn " + name + "(" + parameters + ") -> " + result + " {\n";
  for (const Branch& b : list.branches) {
    const std::string& condition = expressions[(*at)++];
    f += "  if " + (b.when ? condition : "!(" + condition + ")") + " {\n    return " + expressions[(*at)++] +
         ";\n  }\n";
  }
  return f + "  return " + expressions[(*at)++] + ";\n}\n";
}

}  // namespace gs::search
