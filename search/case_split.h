// Case splits: an answer assembled as a decision list — `if p1 { t1 } else if p2 { t2 } … else
// { tn }` — from expressions each right on only some of the train cases (terms) and conditions
// (predicates), in the manner of EUSolver's divide-and-conquer unification (Alur, Radhakrishna &
// Udupa, TACAS 2017), with a greedy decision list where EUSolver learns a decision tree.
//
// Everything is sets of train cases: a term by the cases it is right on, a predicate by the
// cases it holds on. The list is built greedily: each branch takes the (predicate, polarity,
// term) that covers the most of the cases still open with the term right on all of them, and
// the list ends with a term right on every case left. The first found among equals wins, so a
// caller that lists smaller expressions first gets the smaller answer.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "base/types.h"

namespace gs::search {

// A set of train cases as a mask, a bit per case: case k is bit k % 64 of word k / 64.
using CaseMask = std::vector<u64>;

CaseMask case_mask(u32 cases);  // the empty set of that many cases
inline void add_case(CaseMask* set, u32 k) { (*set)[k / 64] |= u64(1) << (k % 64); }
inline bool has_case(const CaseMask& set, u32 k) { return (set[k / 64] >> (k % 64)) & 1; }
bool is_subset(const CaseMask& a, const CaseMask& b);  // every case of a is in b (sets of one size)

// One branch of a list: where `predicate` is `when`, `term`.
struct Branch {
  u32 predicate = 0;
  bool when = true;
  u32 term = 0;
};

struct DecisionList {
  std::vector<Branch> branches;  // tried in order
  u32 otherwise = 0;             // the term where no branch applies
};

struct SplitLimits {
  u32 max_branches = 4;  // conditions in the list
  u32 min_cases = 1;     // cases each branch, and the rest, must hold: no branch for a stray case
};

// A decision list over `cases` train cases that is right on every one: terms[t] are the cases
// term t is right on, predicates[p] those predicate p holds on (each CaseMask of case_mask(cases)'s
// size). None when the greedy construction finds none within the limits. Indices in the list are
// into terms and predicates.
std::optional<DecisionList> split_cases(u32 cases, std::span<const CaseMask> terms,
                                        std::span<const CaseMask> predicates, SplitLimits limits);

}  // namespace gs::search
