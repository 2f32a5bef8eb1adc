// Case splits (search/case_split.h): a decision list found is right on every case; one is found
// whenever a planted list over the given terms and predicates exists (with room for the greedy
// construction's branches); branches hold at least min_cases; bad shapes are refused.
#include "search/case_split.h"

#include <gtest/gtest.h>

#include <random>

namespace gs::search {
namespace {

// The term the list picks for case k.
u32 pick(const DecisionList& list, std::span<const CaseMask> predicates, u32 k) {
  for (const Branch& b : list.branches)
    if (has_case(predicates[b.predicate], k) == b.when) return b.term;
  return list.otherwise;
}

void expect_right(u32 cases, const DecisionList& list, std::span<const CaseMask> terms,
                  std::span<const CaseMask> predicates) {
  for (u32 k = 0; k < cases; ++k) EXPECT_TRUE(has_case(terms[pick(list, predicates, k)], k)) << "case " << k;
}

// small-or-large on n = 0..29 with thresholds at 10 and 20: terms "small", "", "large" and a
// useless one; predicates n < 10, n < 20, n even.
TEST(CaseSplit, StepsOfOneParameter) {
  const u32 cases = 30;
  std::vector<CaseMask> terms(4, case_mask(cases)), predicates(3, case_mask(cases));
  for (u32 n = 0; n < cases; ++n) {
    add_case(&terms[n < 10 ? 0 : n < 20 ? 1 : 2], n);
    if (n == 5) add_case(&terms[3], n);
    if (n < 10) add_case(&predicates[0], n);
    if (n < 20) add_case(&predicates[1], n);
    if (n % 2 == 0) add_case(&predicates[2], n);
  }
  const std::optional<DecisionList> list = split_cases(cases, terms, predicates, {4, 2});
  ASSERT_TRUE(list);
  EXPECT_EQ(list->branches.size(), 2u);
  expect_right(cases, *list, terms, predicates);
  // No third predicate needed, and the even/odd one is of no use.
  for (const Branch& b : list->branches) EXPECT_NE(b.predicate, 2u);
  // One branch is not enough.
  EXPECT_FALSE(split_cases(cases, terms, predicates, {1, 2}));
  // Without the predicates there is nothing to split on.
  EXPECT_FALSE(split_cases(cases, terms, std::span<const CaseMask>(predicates).subspan(2), {4, 2}));
}

// A term right on every case is the whole list.
TEST(CaseSplit, ATermRightEverywhereNeedsNoBranch) {
  std::vector<CaseMask> terms(2, case_mask(70)), predicates;
  for (u32 k = 0; k < 70; ++k) add_case(&terms[1], k);
  const std::optional<DecisionList> list = split_cases(70, terms, predicates, {});
  ASSERT_TRUE(list);
  EXPECT_TRUE(list->branches.empty());
  EXPECT_EQ(list->otherwise, 1u);
}

// A single stray case gets no branch of its own when branches must hold two.
TEST(CaseSplit, NoBranchForAStrayCase) {
  const u32 cases = 20;
  std::vector<CaseMask> terms(2, case_mask(cases)), predicates(1, case_mask(cases));
  for (u32 k = 0; k < cases; ++k) add_case(&terms[k == 7 ? 1 : 0], k);
  add_case(&predicates[0], 7);  // holds on the stray case alone
  EXPECT_TRUE(split_cases(cases, terms, predicates, {4, 1}));
  EXPECT_FALSE(split_cases(cases, terms, predicates, {4, 2}));
}

// Random problems with a planted decision list: the terms are right where the planted list uses
// them (and at random elsewhere), the predicates are the planted ones among random others. A list
// is always found (the planted one, restricted to the cases still open, always has a branch to
// take), and every list found is right on every case.
TEST(CaseSplit, FindsAListWhereAPlantedOneExists) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const u32 cases = 1 + u32(rng() % 150);
    const u32 n_terms = 1 + u32(rng() % 6), n_predicates = 1 + u32(rng() % 10), depth = u32(rng() % 4);
    std::vector<CaseMask> terms(n_terms, case_mask(cases)), predicates(n_predicates, case_mask(cases));
    for (CaseMask& p : predicates)
      for (u32 k = 0; k < cases; ++k)
        if (rng() % 2) add_case(&p, k);
    DecisionList planted;
    for (u32 d = 0; d < depth; ++d)
      planted.branches.push_back({u32(rng() % n_predicates), rng() % 2 == 0, u32(rng() % n_terms)});
    planted.otherwise = u32(rng() % n_terms);
    for (u32 k = 0; k < cases; ++k) {
      add_case(&terms[pick(planted, predicates, k)], k);
      for (CaseMask& t : terms)
        if (rng() % 5 == 0) add_case(&t, k);
    }
    const std::optional<DecisionList> list = split_cases(cases, terms, predicates, {cases, 1});
    ASSERT_TRUE(list) << "trial " << trial;
    expect_right(cases, *list, terms, predicates);
    // With a bound on branches, whatever is found is still right.
    if (const auto bounded = split_cases(cases, terms, predicates, {depth, 2})) {
      EXPECT_LE(bounded->branches.size(), depth);
      expect_right(cases, *bounded, terms, predicates);
    }
  }
}

TEST(CaseSplit, RefusesCaseSetsOfTheWrongSize) {
  std::vector<CaseMask> terms{case_mask(10)}, predicates{case_mask(100)};
  EXPECT_THROW(split_cases(10, terms, predicates, {}), std::invalid_argument);
  EXPECT_THROW(split_cases(100, terms, predicates, {}), std::invalid_argument);
}

// A decision list written out: its expressions in append_expressions' order (each branch's
// predicate and term, then the last term), a negated branch's condition under !( ), and `at`
// moved past the list's expressions only.
TEST(CaseSplit, ADecisionListIsWrittenAsAFunctionOfIfs) {
  DecisionList list{{Branch{7, true, 3}, Branch{8, false, 4}}, 5};
  std::vector<u32> ids = {1};
  append_expressions(list, &ids);
  EXPECT_EQ(ids, (std::vector<u32>{1, 7, 3, 8, 4, 5}));
  const std::vector<std::string> expressions = {"x",     "n < 2",     "1",    "n % 2 == 0",
                                                "n / 2", "3 * n + 1", "after"};
  size_t at = 1;
  EXPECT_EQ(
      decision_function("step", "n: int", "int", list, expressions, &at),
      "fn step(n: int) -> int {\n  if n < 2 {\n    return 1;\n  }\n  if !(n % 2 == 0) {\n    return n / 2;\n"
      "  }\n  return 3 * n + 1;\n}\n");
  EXPECT_EQ(at, 6u);
  at = 5;
  EXPECT_EQ(decision_function("f", "", "str", DecisionList{{}, 0}, expressions, &at),
            "fn f() -> str {\n  return 3 * n + 1;\n}\n");
  EXPECT_EQ(at, 6u);
}

}  // namespace
}  // namespace gs::search
