// Parent selection (search/selection.h) on hand-made score matrices whose lexicase and
// tournament probabilities can be worked out by hand.
#include "search/selection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "base/rng.h"
#include "pipeline/batch_results.h"
#include "search/generator.h"
#include "suites/problem.h"

namespace gs::search {
namespace {

ScoreMatrix matrix(const std::vector<float>& values, u32 individuals) {
  return {individuals, u32(values.size() / individuals), values};
}

std::vector<double> frequencies(const std::vector<u32>& picks, u32 individuals) {
  std::vector<double> f(individuals, 0.0);
  for (u32 p : picks) f[p] += 1.0 / double(picks.size());
  return f;
}

// Selections over many seeds (a few per seed), so the frequencies average over shuffles.
template <typename Select>
std::vector<double> frequencies_over_seeds(Select select, u32 individuals, u32 seeds = 400,
                                           u32 per_seed = 50) {
  std::vector<u32> all;
  for (u32 s = 0; s < seeds; ++s) {
    Rng rng(1234, s);
    std::vector<u32> picks = select(per_seed, rng);
    all.insert(all.end(), picks.begin(), picks.end());
  }
  return frequencies(all, individuals);
}

// Case 3 is passed by individual 0 alone, which fails every other case that all the others
// pass. Lexicase picks 0 exactly when case 3 comes first, so with probability 1/4.
const std::vector<float> kSpecialist = {
    0, 0, 0, 1,  //
    1, 1, 1, 0,  //
    1, 1, 1, 0,  //
    1, 1, 1, 0,  //
};

TEST(Lexicase, PicksTheSpecialistExactlyWhenItsCaseComesFirst) {
  ScoreMatrix m = matrix(kSpecialist, 4);
  // One case sampled: that case comes first (and last). Case 3 always gives the specialist,
  // any other case never does.
  u32 saw_case3 = 0;
  for (u64 seed = 0; seed < 200; ++seed) {
    Rng rng(7, seed);
    std::vector<u32> cases;
    std::vector<u32> picks = downsampled_lexicase_select(m, 0.25, 20, rng, &cases);
    ASSERT_EQ(cases.size(), 1u);
    for (u32 p : picks) EXPECT_EQ(p == 0, cases[0] == 3) << "picked " << p << " with case " << cases[0];
    saw_case3 += cases[0] == 3;
  }
  EXPECT_GT(saw_case3, 20u);
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return lexicase_select(m, n, rng); }, 4);
  EXPECT_NEAR(f[0], 0.25, 0.015);
  for (u32 k = 1; k < 4; ++k) EXPECT_NEAR(f[k], 0.25, 0.015);
}

TEST(Lexicase, NeverPicksAnIndividualDominatedOnEveryCase) {
  // 2 is below 1 everywhere; 3 equals 0 except on case 2, where it is worse (weakly dominated).
  const std::vector<float> scores = {
      1, 0, 1, 0, 1,  //
      0, 1, 0, 1, 1,  //
      0, 0, 0, 0, 0,  //
      1, 0, 0, 0, 1,  //
  };
  ScoreMatrix m = matrix(scores, 4);
  for (u64 seed = 0; seed < 100; ++seed) {
    Rng rng(3, seed);
    for (u32 p : lexicase_select(m, 50, rng)) {
      EXPECT_NE(p, 2u);
      EXPECT_NE(p, 3u);
    }
  }
}

// ind 0 and 1 are identical: [1,1,0]; ind 2 is [0,1,1]. Of the 6 case orders, the three that
// meet case 0 before case 2 end with {0, 1} (each then 1/2), the other three with {2}:
// P = (1/4, 1/4, 1/2).
TEST(Lexicase, MatchesExactProbabilitiesOnAThreeByThreeExample) {
  const std::vector<float> scores = {1, 1, 0, 1, 1, 0, 0, 1, 1};
  ScoreMatrix m = matrix(scores, 3);
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return lexicase_select(m, n, rng); }, 3);
  EXPECT_NEAR(f[0], 0.25, 0.015);
  EXPECT_NEAR(f[1], 0.25, 0.015);
  EXPECT_NEAR(f[2], 0.5, 0.015);
}

// Graded scores: ind 0 [3,1,2], ind 1 [3,2,0], ind 2 [1,2,2], ind 3 [3,1,2] (a copy of 0).
// Orders: c0c1c2 -> {1}; c0c2c1 -> {0,3}; c1c0c2 -> {1}; c1c2c0 -> {2}; c2c0c1 -> {0,3};
// c2c1c0 -> {2}: P = (1/6, 1/3, 1/3, 1/6).
TEST(Lexicase, TakesGradedScores) {
  const std::vector<float> scores = {3, 1, 2, 3, 2, 0, 1, 2, 2, 3, 1, 2};
  ScoreMatrix m = matrix(scores, 4);
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return lexicase_select(m, n, rng); }, 4);
  EXPECT_NEAR(f[0], 1.0 / 6, 0.015);
  EXPECT_NEAR(f[1], 1.0 / 3, 0.015);
  EXPECT_NEAR(f[2], 1.0 / 3, 0.015);
  EXPECT_NEAR(f[3], 1.0 / 6, 0.015);
}

TEST(Lexicase, NanIsWorseThanAnyScore) {
  const std::vector<float> scores = {NAN, -1e30f, NAN, NAN};  // 2 individuals x 2 cases
  Rng rng(1);
  for (u32 p : lexicase_select(matrix(scores, 2), 100, rng)) EXPECT_EQ(p, 0u);
}

TEST(Lexicase, IsUniformWithoutCases) {
  ScoreMatrix m{5, 0, {}};
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return lexicase_select(m, n, rng); }, 5);
  for (double x : f) EXPECT_NEAR(x, 0.2, 0.015);
}

TEST(DownsampledLexicase, UsesOnlyTheSampledCases) {
  // Individual k alone passes case k: the first sampled case decides.
  const u32 n = 10;
  std::vector<float> identity(n * n, 0.0f);
  for (u32 k = 0; k < n; ++k) identity[k * n + k] = 1;
  ScoreMatrix m = matrix(identity, n);
  std::vector<bool> ever_sampled(n, false);
  for (u64 seed = 0; seed < 50; ++seed) {
    Rng rng(11, seed);
    std::vector<u32> cases;
    std::vector<u32> picks = downsampled_lexicase_select(m, 0.3, 100, rng, &cases);
    ASSERT_EQ(cases.size(), 3u);
    EXPECT_TRUE(std::is_sorted(cases.begin(), cases.end()));
    for (u32 c : cases) ever_sampled[c] = true;
    std::vector<double> f = frequencies(picks, n);
    for (u32 k = 0; k < n; ++k) {
      bool sampled = std::find(cases.begin(), cases.end(), k) != cases.end();
      EXPECT_EQ(f[k] > 0, sampled) << "case " << k;  // 100 draws among 3: all sampled ones appear
    }
  }
  for (u32 k = 0; k < n; ++k) EXPECT_TRUE(ever_sampled[k]) << k;
}

TEST(DownsampledLexicase, RejectsAFractionOutsideZeroToOne) {
  std::vector<float> s = {1, 0};
  Rng rng(1);
  EXPECT_THROW(downsampled_lexicase_select(matrix(s, 1), 0.0, 1, rng), std::invalid_argument);
  EXPECT_THROW(downsampled_lexicase_select(matrix(s, 1), 1.5, 1, rng), std::invalid_argument);
}

TEST(Holdout, HoldsBackAFractionDrawnFromTheRng) {
  for (u32 cases : {2u, 5u, 8u, 20u}) {
    std::vector<u32> times_held(cases, 0);
    for (u64 seed = 0; seed < 200; ++seed) {
      const std::vector<u32> kept = cases_held_in(cases, 0.25, Rng(5, seed));
      EXPECT_EQ(kept.size(), cases - std::max<u32>(1, cases / 4)) << cases;
      EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
      EXPECT_TRUE(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
      EXPECT_LT(kept.back(), cases);
      EXPECT_EQ(kept, cases_held_in(cases, 0.25, Rng(5, seed)));  // the same rng, the same cases
      for (u32 c = 0, at = 0; c < cases; ++c)
        if (at < kept.size() && kept[at] == c)
          ++at;
        else
          ++times_held[c];
    }
    for (u32 c = 0; c < cases; ++c) EXPECT_GT(times_held[c], 0u) << "case " << c << " of " << cases;
  }
  EXPECT_EQ(cases_held_in(8, 0, Rng(1)).size(), 8u);  // none held back
  EXPECT_EQ(cases_held_in(1, 0.5, Rng(1)).size(), 1u);
  EXPECT_EQ(cases_held_in(3, 0.5, Rng(1)).size(), 2u);
}

// GP on a problem of 8 cases: program 0 passes every case selection sees, program 1 only the
// held-back ones. With the hold-out lexicase never picks program 1 (its cases are not looked
// at); without it, program 1 is a parent whenever one of its cases comes first.
TEST(Holdout, GpSelectsOnTheCasesHeldIn) {
  suites::Problem problem;
  std::string error;
  ASSERT_TRUE(suites::parse_signature("fn solve(x: int) -> int", &problem.signature, &error)) << error;
  const u32 cases = 8;
  for (double holdout : {0.25, 0.0}) {
    GeneratorSettings settings;
    settings.seed = 3;
    settings.gp.holdout = holdout;
    std::unique_ptr<Generator> gp = make_gp_generator(problem, settings);
    const std::vector<Proposal> population = gp->propose(2, 0);
    ASSERT_EQ(population.size(), 2u);
    const std::vector<u32> kept = cases_held_in(cases, 0.25, Rng(3).derive(~u64(1)));
    ASSERT_EQ(kept.size(), 6u);
    pipeline::BatchResults results;
    results.reset(pipeline::BatchShape{2, cases});
    for (u32 c = 0; c < cases; ++c) {
      const bool held_in = std::find(kept.begin(), kept.end(), c) != kept.end();
      results.pass[c] = held_in;
      results.pass[cases + c] = !held_in;
    }
    gp->observe(population, results, 100);
    u32 from_program_1 = 0;
    for (const Proposal& child : gp->propose(400, 1))
      for (i64 parent : child.parents) from_program_1 += parent == 101;
    if (holdout > 0)
      EXPECT_EQ(from_program_1, 0u);
    else
      EXPECT_GT(from_program_1, 20u);  // about a quarter of 400-600 parents
  }
}

TEST(Tournament, SizeOneIsUniform) {
  const std::vector<float> fitness = {5, 1, 3, 9};
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return tournament_select(fitness, 1, n, rng); }, 4);
  for (double x : f) EXPECT_NEAR(x, 0.25, 0.015);
}

TEST(Tournament, SizeOfThePopulationAlwaysPicksTheBest) {
  const std::vector<float> fitness = {5, 1, NAN, 9, 3};
  Rng rng(2);
  for (u32 p : tournament_select(fitness, 5, 200, rng)) EXPECT_EQ(p, 3u);
  for (u32 p : tournament_select(fitness, 99, 20, rng)) EXPECT_EQ(p, 3u);  // clamped to 5
  const std::vector<float> tied = {9, 1, 9};
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& r) { return tournament_select(tied, 3, n, r); }, 3);
  EXPECT_EQ(f[1], 0.0);
  EXPECT_NEAR(f[0], 0.5, 0.02);
}

// Size 2 of 3 distinct entrants: the worst wins never, the middle one when drawn with the
// worst (1/3 of pairs), the best otherwise (2/3).
TEST(Tournament, SizeTwoDrawsDistinctEntrants) {
  const std::vector<float> fitness = {1, 2, 3};
  std::vector<double> f =
      frequencies_over_seeds([&](u32 n, Rng& rng) { return tournament_select(fitness, 2, n, rng); }, 3);
  EXPECT_EQ(f[0], 0.0);
  EXPECT_NEAR(f[1], 1.0 / 3, 0.015);
  EXPECT_NEAR(f[2], 2.0 / 3, 0.015);
}

TEST(Selection, IsDeterministicForASeed) {
  std::vector<float> scores(30 * 20);
  Rng fill(99);
  for (float& s : scores) s = float(fill.below(3));
  ScoreMatrix m = matrix(scores, 30);
  std::vector<float> fitness(scores.begin(), scores.begin() + 30);
  auto run = [&](u64 stream) {
    Rng rng(5, stream);
    std::vector<u32> out = lexicase_select(m, 40, rng);
    std::vector<u32> d = downsampled_lexicase_select(m, 0.2, 40, rng);
    std::vector<u32> t = tournament_select(fitness, 4, 40, rng);
    out.insert(out.end(), d.begin(), d.end());
    out.insert(out.end(), t.begin(), t.end());
    return out;
  };
  EXPECT_EQ(run(1), run(1));
  EXPECT_NE(run(1), run(2));
}

TEST(Selection, RejectsBadShapes) {
  std::vector<float> s = {1, 0, 1};
  Rng rng(1);
  EXPECT_THROW(lexicase_select(ScoreMatrix{2, 2, s}, 1, rng), std::invalid_argument);
  EXPECT_THROW(lexicase_select(ScoreMatrix{0, 0, {}}, 1, rng), std::invalid_argument);
  EXPECT_THROW(tournament_select({}, 2, 1, rng), std::invalid_argument);
  EXPECT_TRUE(lexicase_select(ScoreMatrix{0, 0, {}}, 0, rng).empty());
}

TEST(Selection, PassBitsBecomeScores) {
  const std::vector<u8> pass = {1, 0, 0, 1};
  EXPECT_EQ(pass_scores(pass), (std::vector<float>{1, 0, 0, 1}));
}

// On graded errors lexicase keeps the nearer of two programs that both fail a case — what pass
// bits cannot tell apart — and a trap (+inf) loses to any finite error.
TEST(Selection, ErrorsRankFailingIndividuals) {
  const float inf = INFINITY;
  // Three individuals, two cases; none passes case 1, individual 1 comes nearest on it; on case
  // 0, individual 2 traps.
  const std::vector<float> error = {0,   50,  //
                                    0,   3,   //
                                    inf, 9};
  const std::vector<float> scores = error_scores(error);
  EXPECT_EQ(scores, (std::vector<float>{-0.0f, -50, -0.0f, -3, -inf, -9}));
  Rng rng(7);
  for (u32 pick : lexicase_select(ScoreMatrix{3, 2, scores}, 200, rng)) EXPECT_EQ(pick, 1u);
  // The same population on pass bits: individuals 0 and 1 tie on every case.
  const std::vector<u8> pass = {1, 0, 1, 0, 0, 0};
  const std::vector<float> bits = pass_scores(pass);
  u32 zero = 0, one = 0;
  for (u32 pick : lexicase_select(ScoreMatrix{3, 2, bits}, 200, rng)) {
    EXPECT_NE(pick, 2u);
    (pick == 0 ? zero : one) += 1;
  }
  EXPECT_GT(zero, 50u);
  EXPECT_GT(one, 50u);
}

}  // namespace
}  // namespace gs::search
