// The search policy (issue 22; docs/search.md "Guided enumeration"): what a trained model says of
// a problem — for each production and constant of the value bank's grammar, named by its key
// (search/bank_grammar.h), the probability that the problem's answer uses it — and the cost the
// weighted enumeration gives each (search/bank_enumerator.h): about -log2 p, so the productions
// the model expects come first. The model lives in neural/ (libtorch), above this library: a
// program built with it registers a loader here (neural::register_policy) and `--policy FILE`
// loads through it. Without one, asking for a policy says that this build has no libtorch.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "suites/problem.h"

namespace gs::search {

class Policy {
 public:
  virtual ~Policy() = default;
  // For each key, the probability (0 < p < 1) that the problem's answer uses it, judged from its
  // signature and train cases; keys in order.
  virtual std::vector<double> probabilities(const suites::Problem& problem,
                                            std::span<const std::string> keys) const = 0;
  // What it is, for logs and records: its file and training step.
  virtual std::string describe() const = 0;
};

// The cost a policy gives a production or constant of probability p: 1 + round(-log2(p) / t), at
// most kMaxPolicyCost (unguided, every one costs 1). At temperature t = 1 that is the information
// content of the choice, Probe's and HEAP's cost; the model's probabilities are not calibrated on
// problems unlike its training data, though (on listfunctions it gives 0.001 to productions an
// answer needs), and a higher t flattens them into a few bands, DeepCoder's "sort and add": at
// the default 6, p above 1/8 costs 1, down to 1/512 costs 2, below that 3 or more
// (docs/results.md "Guided enumeration" measures 1, 2, 3, 4 and 6).
inline constexpr u32 kMaxPolicyCost = 10;
u32 policy_cost(double p, double temperature);

using PolicyLoader = std::shared_ptr<const Policy> (*)(const std::string& path);
void register_policy_loader(PolicyLoader load);
// The policy in the file at `path`; throws std::runtime_error naming the file when it cannot be
// read, or saying that this build has no libtorch when nothing registered a loader.
std::shared_ptr<const Policy> load_policy(const std::string& path);

}  // namespace gs::search
