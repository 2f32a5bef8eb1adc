#include "search/selection.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "base/hash.h"

namespace gs::search {

namespace {

// NaN is worse than everything and -0 equals 0, so equal scores compare (and hash) equal.
float canonical(float v) {
  if (std::isnan(v)) return -std::numeric_limits<float>::infinity();
  return v == 0 ? 0.0f : v;
}

void check_shape(const ScoreMatrix& s, u32 n, const char* who) {
  if (s.values.size() != u64(s.individuals) * s.cases)
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(s.values.size()) +
                                " scores do not make a " + std::to_string(s.individuals) + " x " +
                                std::to_string(s.cases) + " matrix");
  if (n > 0 && s.individuals == 0)
    throw std::invalid_argument(std::string(who) + ": selection from no individuals");
}

// Individuals with the same scores on the cases used can never be told apart by lexicase: they
// survive or fall together, and the final draw is uniform over individuals. So lexicase runs
// over the distinct score rows (classes) and draws an individual from the surviving classes in
// proportion to their sizes: the same distribution, at a cost that does not grow with copies
// (a GP population is full of them). Scores are stored case-major so a filtering step reads
// one contiguous column.
class Lexicase {
 public:
  Lexicase(const ScoreMatrix& s, std::span<const u32> cases) : cases_(u32(cases.size())) {
    std::unordered_map<u64, std::vector<u32>> by_hash;  // row hash -> classes
    std::vector<float> row(cases_);
    std::vector<float> rows;  // class-major while building
    class_of_.resize(s.individuals);
    for (u32 i = 0; i < s.individuals; ++i) {
      u64 h = kHashSeed;
      for (u32 c = 0; c < cases_; ++c) {
        row[c] = canonical(s.at(i, cases[c]));
        u32 bits;
        std::memcpy(&bits, &row[c], 4);
        h = mix_word(h, bits);
      }
      std::vector<u32>& same = by_hash[h];
      u32 k = 0;
      for (; k < same.size(); ++k)
        if (std::equal(row.begin(), row.end(), rows.begin() + i64(u64(same[k]) * cases_))) break;
      if (k == same.size()) {
        same.push_back(u32(size_.size()));
        rows.insert(rows.end(), row.begin(), row.end());
        size_.push_back(0);
      }
      class_of_[i] = same[k];
      ++size_[same[k]];
    }
    classes_ = u32(size_.size());
    column_.resize(u64(classes_) * cases_);
    for (u32 k = 0; k < classes_; ++k)
      for (u32 c = 0; c < cases_; ++c) column_[u64(c) * classes_ + k] = rows[u64(k) * cases_ + c];
    // Members of each class, contiguous, in individual order.
    start_.assign(classes_ + 1, 0);
    for (u32 k = 0; k < classes_; ++k) start_[k + 1] = start_[k] + size_[k];
    members_.resize(s.individuals);
    std::vector<u32> fill(start_.begin(), start_.end() - 1);
    for (u32 i = 0; i < s.individuals; ++i) members_[fill[class_of_[i]]++] = i;
    // The first case of a selection filters the whole population: its survivors (the classes
    // best on that case) are listed once here, so a selection costs what its pool shrinks to.
    top_start_.assign(1, 0);
    for (u32 c = 0; c < cases_; ++c) {
      const float* col = column_.data() + u64(c) * classes_;
      float best = *std::max_element(col, col + classes_);
      for (u32 k = 0; k < classes_; ++k)
        if (col[k] == best) top_.push_back(k);
      top_start_.push_back(u32(top_.size()));
    }
    order_.resize(cases_);
    std::iota(order_.begin(), order_.end(), 0u);
    pool_.reserve(classes_);
  }

  u32 select(Rng& rng) {
    pool_.resize(cases_ == 0 ? classes_ : 0);  // with cases, the first step fills the pool
    std::iota(pool_.begin(), pool_.end(), 0u);
    // A lazy Fisher-Yates shuffle: each step draws the next case among those not used yet, so
    // a selection that ends after a few cases pays for a few. order_ keeps its state between
    // selections; a partial shuffle of any permutation is still uniform.
    for (u32 j = 0; j < cases_ && (j == 0 || pool_.size() > 1); ++j) {
      std::swap(order_[j], order_[j + rng.below(cases_ - j)]);
      if (j == 0) {
        pool_.assign(top_.begin() + top_start_[order_[0]], top_.begin() + top_start_[order_[0] + 1]);
        continue;
      }
      const float* col = column_.data() + u64(order_[j]) * classes_;
      float best = -std::numeric_limits<float>::infinity();
      for (u32 k : pool_) best = std::max(best, col[k]);
      size_t kept = 0;
      for (u32 k : pool_)
        if (col[k] == best) pool_[kept++] = k;
      pool_.resize(kept);
    }
    u32 total = 0;
    for (u32 k : pool_) total += size_[k];
    u32 r = rng.below(total);
    for (u32 k : pool_) {
      if (r < size_[k]) return members_[start_[k] + r];
      r -= size_[k];
    }
    return members_[start_[pool_.back()]];  // not reached
  }

 private:
  u32 cases_;
  u32 classes_ = 0;
  std::vector<u32> class_of_, size_, start_, members_;
  std::vector<float> column_;         // cases × classes
  std::vector<u32> top_, top_start_;  // per case, the classes best on it
  std::vector<u32> order_, pool_;
};

std::vector<u32> run_lexicase(const ScoreMatrix& s, std::span<const u32> cases, u32 n, Rng& rng) {
  std::vector<u32> out;
  if (n == 0) return out;
  Lexicase lexicase(s, cases);
  out.reserve(n);
  for (u32 k = 0; k < n; ++k) out.push_back(lexicase.select(rng));
  return out;
}

bool fitter(float a, float b) { return !std::isnan(a) && (std::isnan(b) || a > b); }

}  // namespace

std::vector<float> pass_scores(std::span<const u8> pass) {
  std::vector<float> out(pass.size());
  for (size_t k = 0; k < pass.size(); ++k) out[k] = pass[k] ? 1.0f : 0.0f;
  return out;
}

std::vector<float> error_scores(std::span<const float> error) {
  std::vector<float> out(error.size());
  for (size_t k = 0; k < error.size(); ++k) out[k] = -error[k];
  return out;
}

std::vector<u32> cases_held_in(u32 cases, double holdout, Rng rng) {
  std::vector<u32> all(cases);
  std::iota(all.begin(), all.end(), 0u);
  if (holdout <= 0 || cases < 2) return all;
  const u32 held = std::clamp<u32>(u32(holdout * cases), 1, cases - 1);
  for (u32 k = 0; k < held; ++k)  // a partial Fisher-Yates shuffle: the first `held` are held back
    std::swap(all[k], all[k + rng.below(cases - k)]);
  std::vector<u32> kept(all.begin() + held, all.end());
  std::sort(kept.begin(), kept.end());
  return kept;
}

std::vector<u32> lexicase_select(const ScoreMatrix& scores, u32 n, Rng& rng) {
  check_shape(scores, n, "lexicase_select");
  std::vector<u32> cases(scores.cases);
  std::iota(cases.begin(), cases.end(), 0u);
  return run_lexicase(scores, cases, n, rng);
}

std::vector<u32> downsampled_lexicase_select(const ScoreMatrix& scores, double fraction, u32 n, Rng& rng,
                                             std::vector<u32>* sampled_cases) {
  check_shape(scores, n, "downsampled_lexicase_select");
  if (!(fraction > 0 && fraction <= 1))
    throw std::invalid_argument("downsampled_lexicase_select: fraction " + std::to_string(fraction) +
                                " is not in (0, 1]");
  std::vector<u32> all(scores.cases);
  std::iota(all.begin(), all.end(), 0u);
  u32 m = scores.cases == 0 ? 0 : std::max<u32>(1, u32(std::lround(fraction * scores.cases)));
  m = std::min(m, scores.cases);
  for (u32 j = 0; j < m; ++j) std::swap(all[j], all[j + rng.below(scores.cases - j)]);
  all.resize(m);
  std::sort(all.begin(), all.end());
  if (sampled_cases) *sampled_cases = all;
  return run_lexicase(scores, all, n, rng);
}

std::vector<u32> tournament_select(std::span<const float> fitness, u32 size, u32 n, Rng& rng) {
  std::vector<u32> out;
  if (n == 0) return out;
  if (fitness.empty()) throw std::invalid_argument("tournament_select: selection from no individuals");
  u32 pop = u32(fitness.size());
  size = std::clamp<u32>(size, 1, pop);
  std::vector<u32> order(pop);
  std::iota(order.begin(), order.end(), 0u);
  out.reserve(n);
  for (u32 t = 0; t < n; ++t) {
    // The first `size` places of a partial Fisher-Yates shuffle: distinct, uniform entrants.
    u32 best = 0;
    for (u32 j = 0; j < size; ++j) {
      std::swap(order[j], order[j + rng.below(pop - j)]);
      if (j == 0 || fitter(fitness[order[j]], fitness[best])) best = order[j];
    }
    out.push_back(best);
  }
  return out;
}

}  // namespace gs::search
