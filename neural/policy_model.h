// The search policy's model (issue 22; docs/neural.md "The search policy"): from a problem's
// train cases, each a row of features (neural/policy_features.h), the probability that its
// answer uses each production and constant of the vocabulary (their keys, search/bank_grammar.h).
// Each case goes through a two-layer MLP; the rows are pooled (mean and max over the cases, so
// the number of cases does not matter); a hidden layer and one logit per key follow — DeepCoder's
// architecture (Balog et al. 2017) with BUSTLE-style properties for its encoder. Small enough to
// train in minutes on two CPU cores.
//
// A policy file is a torch::serialize archive: "meta" (a text: format, sizes, training state, the
// vocabulary one key a line) and "model" (the parameters). Written to PATH.tmp and renamed.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <optional>
#include <string>
#include <vector>

#include "base/hd.h"
#include "neural/policy_features.h"

namespace gs::neural {

inline constexpr i64 kPolicyFormat = 1;

struct PolicyMeta {
  i64 features = 0;  // per case
  i64 hidden = 128;
  std::vector<std::string> keys;  // the vocabulary: one output per key
  u64 step = 0;                   // optimizer steps taken
  u64 examples = 0;               // problems trained on
  double validation_loss = 0;     // at the last step, on the held-out problems
};

class PolicyNetImpl : public torch::nn::Module {
 public:
  PolicyNetImpl(i64 features, i64 hidden, i64 keys);
  // cases [B, C, F] (rows past a problem's cases are zeros), mask [B, C] (1 for a case, 0 for
  // none); the logits [B, keys].
  torch::Tensor forward(const torch::Tensor& cases, const torch::Tensor& mask);

 private:
  torch::nn::Linear case1_{nullptr}, case2_{nullptr}, joint_{nullptr}, out_{nullptr};
};
TORCH_MODULE(PolicyNet);

// The model's inputs for these problems: cases [B, kPolicyCases, kCaseFeatures] and mask.
std::pair<torch::Tensor, torch::Tensor> policy_batch(const std::vector<const PolicyInput*>& inputs);

// Saves; false with *error naming the file on failure.
bool save_policy(const std::string& path, const PolicyMeta& meta, PolicyNet& net, std::string* error);
// Loads a policy file; nullopt with *error naming the file and saying what is wrong.
std::optional<std::pair<PolicyMeta, PolicyNet>> load_policy_file(const std::string& path, std::string* error);

}  // namespace gs::neural
