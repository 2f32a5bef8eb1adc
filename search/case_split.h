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

#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"
#include "suites/problem.h"

namespace gs::search {

// A set of train cases as a mask, a bit per case: case k is bit k % 64 of word k / 64.
using CaseMask = std::vector<u64>;

CaseMask case_mask(u32 cases);  // the empty set of that many cases
// *set made the empty set of that many cases in the memory it has (a mask filled again and again).
inline void clear_cases(CaseMask* set, u32 cases) { set->assign((cases + 63) / 64, 0); }
inline void add_case(CaseMask* set, u32 k) { (*set)[k / 64] |= u64(1) << (k % 64); }
inline bool has_case(const CaseMask& set, u32 k) { return (set[k / 64] >> (k % 64)) & 1; }
bool is_subset(const CaseMask& a, const CaseMask& b);  // every case of a is in b (sets of one size)

// Each branch of a case split, and the rest, must hold 5 % of the train cases and at least 5:
// no branch for a stray case, and fewer than 10 cases do not split (a decision list would fit
// them by chance).
inline u32 split_min_cases(u32 cases) { return std::max<u32>(5, cases / 20); }

// For each int parameter that alone decides the train outputs, in at most four steps of at least
// split_min_cases() cases each: the values at which they change (small-or-large's 1000 and 2000),
// constants for a case split's conditions.
std::vector<i64> split_thresholds(const suites::Problem& problem);

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

// The terms of one case split as an enumeration finds them, smallest first: an expression right
// on some cases is kept unless a kept term is right on all of those; the kept terms it is right on
// more than are dropped (the first found among equals stays, so the smaller). At most `max`.
class SplitTerms {
 public:
  explicit SplitTerms(u32 max = 32) : max_(max) {}
  // Expression `id`, right on the cases of `right`: whether it was kept.
  bool add(u32 id, const CaseMask& right);
  bool full() const { return ids_.size() >= max_; }
  const std::vector<u32>& ids() const { return ids_; }
  const std::vector<CaseMask>& cases() const { return cases_; }

 private:
  u32 max_;
  std::vector<u32> ids_;
  std::vector<CaseMask> cases_;
};

// The conditions of case splits as an enumeration finds them (its bool expressions that trap on
// no case), and when a split is worth trying again: a try costs terms × conditions, so it waits
// for new terms or an eighth more conditions than at the last try.
class SplitConditions {
 public:
  void add(u32 id, CaseMask holds) {
    ids_.push_back(id);
    cases_.push_back(std::move(holds));
  }
  const std::vector<u32>& ids() const { return ids_; }
  const std::vector<CaseMask>& cases() const { return cases_; }
  // Whether to try now, given that the terms changed since the last try or not; a yes counts as
  // a try.
  bool due(bool terms_changed);

 private:
  std::vector<u32> ids_;
  std::vector<CaseMask> cases_;
  size_t next_ = 1;
};

// A decision list over `cases` train cases that is right on every one: terms[t] are the cases
// term t is right on, predicates[p] those predicate p holds on (each CaseMask of case_mask(cases)'s
// size). None when the greedy construction finds none within the limits. Indices in the list are
// into terms and predicates.
std::optional<DecisionList> split_cases(u32 cases, std::span<const CaseMask> terms,
                                        std::span<const CaseMask> predicates, SplitLimits limits);
// A decision list over `terms` and the smallest of `conditions` that split the cases: the
// conditions up to the smallest size first, then up to the next, ... (a larger condition that
// covers more cases would be taken over a smaller one, and fit the train cases by chance more
// often). The conditions come in order of size, size(id) giving an id's; the list holds ids.
std::optional<DecisionList> split_by_size(u32 cases, const SplitTerms& terms,
                                          const SplitConditions& conditions,
                                          const std::function<u32(u32)>& size, SplitLimits limits);
// The expressions a list is written from, appended to *ids in order: each branch's predicate and
// term, then the last term.
void append_expressions(const DecisionList& list, std::vector<u32>* ids);
// The list as a Syn function `fn NAME(PARAMETERS) -> RESULT` whose `if`s take its branches (a
// term runs only where its branch is taken), its expressions' source expressions[*at], … in
// append_expressions' order; *at is moved past them.
std::string decision_function(const std::string& name, const std::string& parameters,
                              const std::string& result, const DecisionList& list,
                              std::span<const std::string> expressions, size_t* at);
// A list's indices replaced by the ids they index: term t by term_ids[t], predicate p by
// predicate_ids[p].
DecisionList with_ids(DecisionList list, std::span<const u32> term_ids, std::span<const u32> predicate_ids);

}  // namespace gs::search
