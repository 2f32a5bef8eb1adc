// The enumeration on a sample of the train cases (search/case_sample.h): a false answer on the
// sample brings the cases it fails into it and the enumeration starts again, so that the answer
// the sample hid is found; a sample that tells the answers apart changes nothing but the cost.
#include "search/case_sample.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "search/search_loop.h"

namespace gs::search {
namespace {

// fn solve(x: int) -> int over these xs, with f's outputs: train first, then test.
suites::Problem problem(const std::vector<i64>& train, const std::vector<i64>& test,
                        const std::function<i64(i64)>& f) {
  nlohmann::json j{{"name", "case-sample"},
                   {"signature", "fn solve(x: int) -> int"},
                   {"train", nlohmann::json::array()},
                   {"test", nlohmann::json::array()}};
  for (i64 x : train) j["train"].push_back({{"inputs", {x}}, {"outputs", {f(x)}}});
  for (i64 x : test) j["test"].push_back({{"inputs", {x}}, {"outputs", {f(x)}}});
  std::string error;
  std::optional<suites::Problem> p = suites::parse_problem(j.dump(), "case-sample.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

SearchOutcome search(const suites::Problem& p, u32 sample) {
  EnumerateSettings settings;
  settings.sample_cases = sample;
  SearchConfig config;
  config.batch = 200;
  config.budget.candidates = 100000;
  auto g = make_enumerate_generator(p, settings);
  return run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
}

std::vector<i64> xs(i64 first, i64 count, i64 step) {
  std::vector<i64> out;
  for (i64 k = 0; k < count; ++k) out.push_back(first + k * step % 97);
  return out;
}

// x % 7 on 40 cases, those a sample of 5 takes (0, 1, 2, then 3 and 21) below 7: on them x itself
// is the answer, and x % 7, alike there, is not banked beside it; the cases x fails join the
// sample and x % 7 is found (7 is written fold_range_squares(2, 2), the sum of 1 and 4, as on all
// the cases).
TEST(CaseSample, AFalseAnswerBringsTheCasesItFailsIntoTheSample) {
  std::vector<i64> train;
  for (i64 k = 0; k < 40; ++k) train.push_back(k % 5);
  for (const auto& [at, x] : {std::pair<i64, i64>{7, 10}, {13, 23}, {29, 45}, {34, 61}})
    train[size_t(at)] = x;
  const auto f = [](i64 x) { return x % 7; };
  const suites::Problem p = problem(train, xs(200, 20, 31), f);
  const SearchOutcome sampled = search(p, 5);
  ASSERT_TRUE(sampled.solved) << sampled.best_source;
  EXPECT_TRUE(sampled.generalises) << sampled.solution;
  EXPECT_NE(sampled.solution.find("return x % "), std::string::npos) << sampled.solution;  // 7 is no leaf
  const SearchOutcome whole = search(p, 0);
  ASSERT_TRUE(whole.solved);
  EXPECT_EQ(whole.solution, sampled.solution);
  EXPECT_GT(sampled.candidates, whole.candidates) << "the enumeration started again after the false answer";
}

// 3 * x + 1 on 60 cases: a sample of 10 finds what all of them find, in as many candidates.
TEST(CaseSample, ARepresentativeSampleChangesOnlyTheCost) {
  const auto f = [](i64 x) { return 3 * x + 1; };
  const suites::Problem p = problem(xs(-30, 60, 7), xs(100, 10, 3), f);
  const SearchOutcome sampled = search(p, 10), whole = search(p, 0);
  ASSERT_TRUE(sampled.solved && whole.solved);
  EXPECT_EQ(sampled.solution, whole.solution);
  EXPECT_EQ(sampled.candidates, whole.candidates);
}

// What an enumeration said before a restart replaced it is said still, with the sample it had: a
// bank given no memory fills in its first batch, which proposes x, false outside the sample.
TEST(CaseSample, KeepsTheNotesOfTheEnumerationsItRestarted) {
  std::vector<i64> train;
  for (i64 k = 0; k < 40; ++k) train.push_back(k < 30 ? k % 5 : k);
  const suites::Problem p = problem(train, {}, [](i64 x) { return x % 7; });
  EnumerateSettings none;
  none.memory = 0;
  auto g = make_sampled_generator(
      p, 5, [&](const suites::Problem& s) { return make_enumerate_generator(s, none); });
  SearchConfig config;
  config.batch = 200;
  config.budget.candidates = 100000;
  const SearchOutcome r = run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_EQ(r.notes[0].rfind(
                "over 5 sampled cases, before a restart: the value bank filled --bank-memory (0 MiB)", 0),
            0u)
      << r.notes[0];
  EXPECT_EQ(r.notes[1].rfind("the value bank filled --bank-memory (0 MiB)", 0), 0u) << r.notes[1];
}

TEST(CaseSample, NeedsACase) {
  const suites::Problem p = problem({1, 2}, {}, [](i64 x) { return x; });
  EXPECT_THROW(
      make_sampled_generator(p, 0, [&](const suites::Problem& s) { return make_enumerate_generator(s, {}); }),
      std::invalid_argument);
}

}  // namespace
}  // namespace gs::search
