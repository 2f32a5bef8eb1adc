#include "search/case_split.h"

#include <bit>
#include <stdexcept>

namespace gs::search {

namespace {

u32 count(const CaseMask& s) {
  u32 n = 0;
  for (u64 w : s) n += u32(std::popcount(w));
  return n;
}

}  // namespace

CaseMask case_mask(u32 cases) { return CaseMask((cases + 63) / 64, 0); }

bool is_subset(const CaseMask& a, const CaseMask& b) {
  for (size_t w = 0; w < a.size(); ++w)
    if (a[w] & ~b[w]) return false;
  return true;
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

}  // namespace gs::search
