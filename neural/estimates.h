// The paper's quantities for probabilistic verification (§4.3, docs/neural.md "Verification"),
// estimated from n samples per program of which c were correct:
//   p       the chance that one sample is correct: (sum of c) / (sum of n) over a bucket;
//   pass@K  the chance that at least one of K samples is correct. Measured per program with the
//           unbiased estimator 1 - C(n-c, K) / C(n, K) (Chen et al. 2021), averaged over the
//           bucket; set beside the paper's 1 - (1 - p)^K, which assumes every program of the
//           bucket has the same p (it overstates pass@K when some programs are hard);
//   K99     samples needed for 99 % confidence: ln 0.01 / ln(1 - p).
// Confidence intervals come from a bootstrap over programs (samples of one program are not
// independent of each other), with a seeded generator: the same data, the same interval.
#pragma once

#include <span>
#include <vector>

#include "base/hd.h"

namespace gs::neural {

// Unbiased pass@k from n samples with c correct (k <= n; 1 when c > n - k).
double pass_at_k(u32 n, u32 c, u32 k);
// The paper's 1 - (1 - p)^k.
double paper_pass_at_k(double p, u32 k);
// ln 0.01 / ln(1 - p): 1 when p == 1, +infinity when p == 0.
double k99(double p);

struct Interval {
  double low = 0, high = 0;
};

struct BucketEstimate {
  u32 programs = 0;
  u64 samples = 0, correct = 0;
  double p = 0;
  Interval p_ci;                               // 95 %, bootstrap over programs
  double k99 = 0;                              // of p
  Interval k99_ci;                             // of the interval's ends
  std::vector<u32> ks;                         // the K of each pass_at entry
  std::vector<double> pass_at, paper_pass_at;  // measured (unbiased, mean over programs), paper's formula
};

// correct[i]: correct samples of program i, each of `samples` draws; ks must not exceed samples.
BucketEstimate estimate(std::span<const u32> correct, u32 samples, std::span<const u32> ks, u64 seed = 0,
                        u32 resamples = 1000);

}  // namespace gs::neural
