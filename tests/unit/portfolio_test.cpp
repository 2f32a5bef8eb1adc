// The portfolio generator (search/portfolio_generator.cpp): the enumeration for its first
// candidates, then GP; through the search loop's protocol by hand, through run_search, and from
// the command line on PSB1 problems GP alone does not solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "jobs/command.h"
#include "jobs/search_options.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "suites/cases.h"
#include "tests/unit/command_outcome.h"

namespace gs {
namespace {

std::unique_ptr<pipeline::Pipeline> cpu() { return pipeline::make_pipeline(pipeline::Device::Cpu, {}); }

// solve(a, b) = a * b * b + 3 on a small grid: beyond the enumeration's first few hundred
// candidates, while simpler ones pass some cases (3 = 1 + 2 passes those where a or b is 0).
suites::Problem hard_problem() {
  nlohmann::json j{{"name", "portfolio-test"},
                   {"signature", "fn solve(a: int, b: int) -> int"},
                   {"train", nlohmann::json::array()}};
  for (int a = -3; a <= 3; ++a)
    for (int b : {-5, 0, 2, 7}) j["train"].push_back({{"inputs", {a, b}}, {"outputs", {a * b * b + 3}}});
  std::string error;
  auto p = suites::parse_problem(j.dump(), "portfolio-test.json", &error);
  EXPECT_TRUE(p) << error;
  p->test = p->train;
  return *p;
}

search::GeneratorSettings settings(u64 enumerate_candidates) {
  search::GeneratorSettings s;
  s.portfolio.enumerate_candidates = enumerate_candidates;
  return s;
}

// One step of the loop: propose, run, observe.
struct Step {
  std::vector<search::Proposal> proposals;
  pipeline::BatchResults results;
};
Step step(search::Generator& g, const suites::Problem& p, pipeline::Pipeline& pipeline, u32 batch,
          u64 iteration, i64 first_id) {
  Step s;
  s.proposals = g.propose(batch, iteration);
  pipeline::Sources sources;
  for (const search::Proposal& q : s.proposals) sources.add(q.source);
  pipeline.run(sources, suites::problem_cases(p, suites::Split::Train), &s.results);
  g.observe(s.proposals, s.results, first_id);
  return s;
}

// The enumeration evaluates exactly its share (counted as candidates, none proposed on a problem
// it does not solve within it), then GP proposes: random programs, then children that name their
// parents.
TEST(Portfolio, EnumeratesItsShareThenGpBreeds) {
  const suites::Problem p = hard_problem();
  const u64 head = 1000;
  const u32 batch = 64;
  auto g = search::make_portfolio_generator(p, settings(head));
  EXPECT_EQ(g->kind(), search::GeneratorKind::Portfolio);
  auto pipeline = cpu();
  u64 evaluated = 0, it = 0;
  for (;; ++it) {
    Step s = step(*g, p, *pipeline, batch, it, 0);
    if (!s.proposals.empty()) {
      EXPECT_EQ(g->evaluated_internally(), 0u) << "GP's proposals";
      EXPECT_EQ(s.proposals[0].parents[0], -1);
      break;
    }
    ASSERT_GT(g->evaluated_internally(), 0u) << "an empty batch must have evaluated some";
    EXPECT_LE(g->evaluated_internally(), batch);
    evaluated += g->evaluated_internally();
  }
  EXPECT_EQ(evaluated, head);
  Step second = step(*g, p, *pipeline, batch, ++it, 0);
  EXPECT_TRUE(std::any_of(second.proposals.begin(), second.proposals.end(),
                          [](const search::Proposal& q) { return q.parents[0] >= 0; }));
}

// last-index-of-zero (PSB1): the enumeration's loop last_where_eq(xs, 0), after its lambda bodies.
TEST(Portfolio, CommandLineSolvesLastIndexOfZeroWithTheValueBanksLoop) {
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/last-index-of-zero.json";
  auto o = testing::run_command(jobs::search_command, {"--problem", problem, "-g", "portfolio", "--budget",
                                                       "30000", "-d", "cpu", "-q"});
  EXPECT_EQ(o.code, jobs::kExitOk) << o.err;
  EXPECT_NE(o.out.find("last-index-of-zero: solved"), std::string::npos) << o.out << o.err;
  EXPECT_NE(o.out.find("last_where_eq(xs, 0)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("(generalises)"), std::string::npos) << o.out;
}

TEST(Portfolio, IsDeterministicForASeed) {
  const suites::Problem p = hard_problem();
  search::SearchConfig config;
  config.batch = 200;
  config.budget.candidates = 3000;
  auto a = search::make_portfolio_generator(p, settings(1000));
  auto b = search::make_portfolio_generator(p, settings(1000));
  const search::SearchOutcome x = search::run_search(p, *a, *cpu(), config),
                              y = search::run_search(p, *b, *cpu(), config);
  EXPECT_EQ(x.candidates, y.candidates);
  EXPECT_EQ(x.best_source, y.best_source);
  EXPECT_EQ(x.solved, y.solved);
}

// replace-space-with-newline (PSB1) returns (str, int): GP alone solved it in none of 4 runs of
// 100,000 candidates (docs/results.md); the enumeration's head assembles the tuple.
TEST(Portfolio, CommandLineSolvesATupleProblem) {
  const std::string problem =
      std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/replace-space-with-newline.json";
  auto o =
      testing::run_command(jobs::search_command, {"--problem", problem, "-g", "portfolio", "--budget",
                                                  "60000", "--enumerate-first", "50000", "-d", "cpu", "-q"});
  EXPECT_EQ(o.code, jobs::kExitOk) << o.err;
  EXPECT_NE(o.out.find("replace-space-with-newline: solved"), std::string::npos) << o.out << o.err;
  EXPECT_NE(o.out.find("(generalises)"), std::string::npos) << o.out;
}

// mirror-image (PSB1): GP alone solved it in none of 4 runs of 100,000 candidates
// (docs/results.md); the portfolio's enumeration finds reverse(xs) == ys within its head.
TEST(Portfolio, CommandLineSolvesMirrorImage) {
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/mirror-image.json";
  auto o = testing::run_command(
      jobs::search_command, {"--problem", problem, "-g", "portfolio", "--budget", "3000", "--enumerate-first",
                             "2000", "--lambda-budget", "0", "-d", "cpu", "-q"});
  EXPECT_EQ(o.code, jobs::kExitOk) << o.err;
  EXPECT_NE(o.out.find("mirror-image: solved"), std::string::npos) << o.out << o.err;
}

// The lambda bodies are evaluated before the first batch and counted as candidates: at most half
// of a candidate budget, so a small budget is not overrun (at 50,000 bodies this search of 20,000
// evaluated 51,000).
TEST(Portfolio, TheLambdaBodiesTakeAtMostHalfTheBudget) {
  EXPECT_EQ(search::lambda_budget_within(50000, 20000), 10000u);
  EXPECT_EQ(search::lambda_budget_within(50000, 300000), 50000u);
  EXPECT_EQ(search::lambda_budget_within(50000, 0), 50000u);  // no candidate budget: time bounds it
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/double-letters.json";
  for (const char* generator : {"portfolio", "enumerate"}) {
    auto o =
        testing::run_command(jobs::search_command, {"--problem", problem, "-g", generator, "--budget",
                                                    "20000", "--lambda-budget", "50000", "-d", "cpu", "-q"});
    EXPECT_EQ(o.code, jobs::kExitFailed) << o.err;  // not solved
    EXPECT_NE(o.out.find("double-letters: not solved after 20000 candidates"), std::string::npos)
        << generator << ": " << o.out;
  }
}

// The enumeration's share is two thirds of a candidate budget, and without one (0: time or
// iterations bound the search) has no bound: the enumeration goes on until it ends (here at its
// largest size, before a * b * b + 3), evaluating what it evaluates alone, and GP has the rest.
TEST(Portfolio, WithoutABudgetTheEnumerationGoesOnUntilItEnds) {
  EXPECT_EQ(search::enumerate_share(300000), 200000u);  // PushGP's budget: 200,000, as before
  EXPECT_EQ(search::enumerate_share(3000), 2000u);
  EXPECT_EQ(search::enumerate_share(0), ~u64(0));
  EXPECT_EQ(search::enumerate_share(~u64(0)), ~u64(0) - ~u64(0) / 3);  // no overflow
  const suites::Problem p = hard_problem();
  search::GeneratorSettings s = settings(search::enumerate_share(0));
  s.enumerate.max_size = 3;
  const u32 batch = 64;
  auto alone = search::make_enumerate_generator(p, s.enumerate);
  u64 enumerated = 0;
  for (u64 it = 0; it < 10000; ++it) {
    const std::vector<search::Proposal> out = alone->propose(batch, it);
    if (out.empty() && alone->evaluated_internally() == 0) break;  // ended
    enumerated += alone->evaluated_internally();
  }
  ASSERT_GT(enumerated, 0u);
  auto g = search::make_portfolio_generator(p, s);
  auto pipeline = cpu();
  u64 evaluated = 0, it = 0;
  for (; it < 10000; ++it) {
    Step st = step(*g, p, *pipeline, batch, it, 0);
    if (!st.proposals.empty() && g->evaluated_internally() == 0) break;  // GP's first batch
    evaluated += g->evaluated_internally();
  }
  ASSERT_LT(it, 10000u) << "GP never took over";
  EXPECT_EQ(evaluated, enumerated);
}

// The settings that follow the candidate budget come from one place, search::fit_to_budget, which
// the command (with --body-goal-budget and --enumerate-first at auto) and Python's search share.
TEST(Portfolio, TheBudgetFitsItsSettingsInOnePlace) {
  for (u64 candidates : {u64(0), u64(1000), u64(20000), u64(300000), u64(3000000)}) {
    search::GeneratorSettings fitted;
    search::fit_to_budget(&fitted, candidates);
    EXPECT_EQ(fitted.enumerate.lambda_budget, search::lambda_budget_within(50000, candidates));
    EXPECT_EQ(fitted.enumerate.body_goal_budget, search::body_goals_within(candidates));
    EXPECT_EQ(fitted.portfolio.enumerate_candidates, search::enumerate_share(candidates));
    jobs::SearchOptions o;
    o.search.budget.candidates = candidates;
    o.search.budget.seconds = 60;
    std::string error;
    std::optional<search::GeneratorChoice> choice = jobs::generator_choice(o, &error);
    ASSERT_TRUE(choice) << error;
    EXPECT_EQ(choice->settings.enumerate.lambda_budget, fitted.enumerate.lambda_budget) << candidates;
    EXPECT_EQ(choice->settings.enumerate.body_goal_budget, fitted.enumerate.body_goal_budget) << candidates;
    EXPECT_EQ(choice->settings.portfolio.enumerate_candidates, fitted.portfolio.enumerate_candidates)
        << candidates;
  }
  EXPECT_EQ(search::body_goals_within(0), search::kUnboundedBodyGoals);
  EXPECT_EQ(search::body_goals_within(300000), 100000u);
  EXPECT_EQ(search::body_goals_within(3000000), 1000000u);
}

// --enumerate-first takes auto (the default: enumerate_share of --budget) or a number; anything
// else is a usage error that names it.
TEST(Portfolio, EnumerateFirstTakesAutoOrANumber) {
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/mirror-image.json";
  for (const char* bad : {"most", "-1", "", "2e5", "1000000000000000001"}) {
    auto o = testing::run_command(jobs::search_command, {"--problem", problem, "-g", "portfolio",
                                                         "--enumerate-first", bad, "-d", "cpu"});
    EXPECT_EQ(o.code, jobs::kExitUsage) << bad << ": " << o.out;
    EXPECT_NE(o.err.find("--enumerate-first takes auto or a number in [0, 1000000000000000000], not '" +
                         std::string(bad) + "'"),
              std::string::npos)
        << o.err;
  }
  auto o = testing::run_command(
      jobs::search_command, {"--problem", problem, "-g", "portfolio", "--budget", "3000", "--enumerate-first",
                             "auto", "--lambda-budget", "0", "-d", "cpu", "-q"});
  EXPECT_EQ(o.code, jobs::kExitOk) << o.err;
  EXPECT_NE(o.out.find("mirror-image: solved"), std::string::npos) << o.out << o.err;
}

}  // namespace
}  // namespace gs
