#include "neural/estimates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/rng.h"

namespace gs::neural {

double pass_at_k(u32 n, u32 c, u32 k) {
  if (k == 0 || n == 0 || c == 0) return 0;  // c == 0: never 1, even for a k > n out of contract
  if (c > n) c = n;
  if (n - c < k) return 1;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i), as a product for numerical safety.
  double miss = 1;
  for (u32 i = n - c + 1; i <= n; ++i) miss *= 1.0 - double(k) / double(i);
  return 1 - miss;
}

double paper_pass_at_k(double p, u32 k) { return 1 - std::pow(1 - p, double(k)); }

double k99(double p) {
  if (p >= 1) return 1;
  if (p <= 0) return std::numeric_limits<double>::infinity();
  return std::max(1.0, std::log(0.01) / std::log1p(-p));
}

BucketEstimate estimate(std::span<const u32> correct, u32 samples, std::span<const u32> ks, u64 seed,
                        u32 resamples) {
  BucketEstimate e;
  e.programs = u32(correct.size());
  e.samples = u64(samples) * correct.size();
  for (u32 c : correct) e.correct += std::min(c, samples);
  e.p = e.samples ? double(e.correct) / double(e.samples) : 0;
  e.k99 = k99(e.p);
  for (u32 k : ks) {
    double sum = 0;
    for (u32 c : correct) sum += pass_at_k(samples, c, k);
    e.ks.push_back(k);
    e.pass_at.push_back(correct.empty() ? 0 : sum / double(correct.size()));
    e.paper_pass_at.push_back(paper_pass_at_k(e.p, k));
  }
  if (correct.empty() || samples == 0 || resamples == 0) {
    e.p_ci = {e.p, e.p};
  } else {
    std::vector<double> ps;
    ps.reserve(resamples);
    Rng rng(seed, 0xb0075);
    for (u32 r = 0; r < resamples; ++r) {
      Rng draw = rng.derive(r);
      u64 hits = 0;
      for (size_t i = 0; i < correct.size(); ++i)
        hits += std::min(correct[draw.below(u32(correct.size()))], samples);
      ps.push_back(double(hits) / double(e.samples));
    }
    std::sort(ps.begin(), ps.end());
    e.p_ci = {ps[size_t(0.025 * (resamples - 1))], ps[size_t(0.975 * (resamples - 1) + 0.5)]};
  }
  // K99 falls as p rises: the high end of p gives the low end of K99.
  e.k99_ci = {k99(e.p_ci.high), k99(e.p_ci.low)};
  return e;
}

}  // namespace gs::neural
