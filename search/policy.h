// The search policy (issue 22; docs/search.md "Guided enumeration"): what a trained model says of
// a problem — for each production and constant of the value bank's grammar, named by its key
// (search/bank_grammar.h), the probability that the problem's answer uses it — and the cost the
// weighted enumeration gives each (search/bank_enumerator.h): about -log2 p, so the productions
// the model expects come first. The model lives in neural/ (libtorch), above this library: a
// program built with it registers a loader here (neural::register_policy) and `--policy FILE`
// loads through it. Without one, asking for a policy says that this build has no libtorch.
#pragma once

#include <functional>
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

// A policy that learns while a campaign runs (issue 22; docs/search.md "Learning during a
// campaign"): each solved problem's train cases and the keys its answer uses become an example,
// and learn() takes full-batch gradient steps over every example so far. Data-parallel: each rank
// holds the examples it solved, and each step's gradient (with the number of examples) is summed
// over the ranks by `sum`, so every rank takes the same step and keeps the same weights.
struct LearnSettings {
  u32 steps = 20;  // gradient steps a learn() takes
  double learning_rate = 3e-4;
  // An example's target for a key: label_weight when its answer uses the key, plus (1 -
  // label_weight) times the probability the policy gave the key before learning. So a key the
  // solved answers never use falls by at most -log2(1 - label_weight) bits however long it
  // learns, and the policy keeps what self-play taught it for the problems it has not solved (at
  // 1, bare labels, listfunctions fell from 72 to 62 of 150; at 0.5 to 69; at 0.25 it stayed at
  // 72: docs/results.md).
  double label_weight = 0.25;
};
class PolicyLearner {
 public:
  // Adds `count` floats in place across the ranks (the identity on one rank). Every rank calls it
  // the same number of times with the same count.
  using Sum = std::function<void(float* data, size_t count)>;

  virtual ~PolicyLearner() = default;
  // The policy as its weights are now (a snapshot: learning later does not change it).
  virtual std::shared_ptr<const Policy> policy() const = 0;
  // Optimizer steps the weights have taken since training began: the version of the policy.
  virtual u64 step() const = 0;
  virtual void add_example(const suites::Problem& problem, std::span<const std::string> uses) = 0;
  virtual size_t examples() const = 0;  // on this rank
  // Makes every rank's weights and step rank 0's (`root` is whether this is rank 0); the steps
  // learnt in this campaign count from here.
  virtual void align(const Sum& sum, bool root) = 0;
  // settings.steps gradient steps over the examples of all ranks; the mean loss per example and
  // key before the first, and the examples of all ranks. No examples anywhere: no step.
  struct Learnt {
    double loss = 0;
    u64 examples = 0;
  };
  virtual Learnt learn(const Sum& sum) = 0;
  // Writes the policy file (PATH.tmp, renamed); throws std::runtime_error naming the file.
  virtual void save(const std::string& path) const = 0;
};

using PolicyLearnerLoader = std::unique_ptr<PolicyLearner> (*)(const std::string& path,
                                                               const LearnSettings& settings);
void register_policy_learner_loader(PolicyLearnerLoader load);
// A learner starting from the policy file at `path`; throws like load_policy.
std::unique_ptr<PolicyLearner> load_policy_learner(const std::string& path, const LearnSettings& settings);

}  // namespace gs::search
