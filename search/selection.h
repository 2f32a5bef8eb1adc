// Parent selection: lexicase (Spector; Helmuth, Spector & Matheson 2015), down-sampled lexicase
// (Hernandez et al. 2019) and tournament selection on a scalar fitness.
//
// Lexicase judges individuals case by case instead of by a total: for each selection the cases
// are shuffled, the pool starts as the whole population and each case in turn keeps only the
// individuals best on it; the survivors after the last case (or the one left) are drawn from
// uniformly. A specialist that alone solves a hard case is thus picked whenever that case comes
// first. Scores are per (individual, case), higher is better: pass bits (0/1, from the batch
// pipeline's `pass`) or negated graded errors (its `error`). No epsilon: equal means equal.
//
// Every function takes the caller's Rng (base/rng.h) and makes n selections in one call: the
// same seed, stream and inputs give the same indices.
#pragma once

#include <span>
#include <vector>

#include "base/rng.h"
#include "base/types.h"

namespace gs::search {

// Row-major scores: score(i, c) = values[i * cases + c]. NaN counts as worse than any number.
struct ScoreMatrix {
  u32 individuals = 0;
  u32 cases = 0;
  std::span<const float> values;

  float at(u32 individual, u32 c) const { return values[u64(individual) * cases + c]; }
};

// Pass bits (programs × tests, as pipeline::BatchResults::pass) as scores 0 / 1.
std::vector<float> pass_scores(std::span<const u8> pass);

// Graded errors (programs × tests, as pipeline::BatchResults::error; lower is better, +inf for a
// trap) as scores: their negation.
std::vector<float> error_scores(std::span<const float> error);

// n lexicase selections (indices of individuals) over all cases. With no cases every
// individual survives, so selection is uniform. Throws std::invalid_argument when the matrix
// is empty or its values do not match its shape.
std::vector<u32> lexicase_select(const ScoreMatrix& scores, u32 n, Rng& rng);

// Down-sampled lexicase: one random subset of max(1, round(fraction * cases)) cases, drawn once
// for all n selections (a generation), then lexicase on those cases only. fraction in (0, 1].
// When sampled_cases is given it receives the subset (ascending).
std::vector<u32> downsampled_lexicase_select(const ScoreMatrix& scores, double fraction, u32 n, Rng& rng,
                                             std::vector<u32>* sampled_cases = nullptr);

// The cases selection may see when a fraction `holdout` of them (one at least, all but one at
// most; none when holdout is 0 or there is one case) is held back, drawn by rng: the others,
// ascending. A program that passes the held-back cases has passed cases nothing selected it for.
std::vector<u32> cases_held_in(u32 cases, double holdout, Rng rng);

// n tournaments: each draws `size` distinct individuals uniformly and keeps the fittest (the
// first drawn among equals; NaN loses). size 1 is uniform selection, size = population always
// returns a best individual. size is clamped to [1, population].
std::vector<u32> tournament_select(std::span<const float> fitness, u32 size, u32 n, Rng& rng);

}  // namespace gs::search
