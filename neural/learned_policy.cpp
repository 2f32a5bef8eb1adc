#include "neural/learned_policy.h"

#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/types.h>  // first: the optimizer headers use Tensor
#include <torch/utils.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "neural/flat_parameters.h"
#include "neural/policy_model.h"

namespace gs::neural {
namespace {

class LearnedPolicy final : public search::Policy {
 public:
  // `learnt`: steps taken since the policy was read from `path` (a campaign's learner).
  LearnedPolicy(std::string path, PolicyMeta meta, PolicyNet net, u64 learnt = 0)
      : path_(std::move(path)), meta_(std::move(meta)), net_(std::move(net)), learnt_(learnt) {
    for (size_t k = 0; k < meta_.keys.size(); ++k) index_.emplace(meta_.keys[k], k);
  }

  std::vector<double> probabilities(const suites::Problem& problem,
                                    std::span<const std::string> keys) const override {
    const PolicyInput input = policy_input(problem);
    torch::Tensor p;
    {
      std::lock_guard lock(mutex_);  // a campaign's problems may ask from several threads
      torch::NoGradGuard no_grad;
      auto [cases, mask] = policy_batch({&input});
      p = torch::sigmoid(net_->forward(cases, mask)).contiguous();
    }
    const float* q = p.data_ptr<float>();
    std::vector<double> out(keys.size(), -1), known;
    for (size_t i = 0; i < keys.size(); ++i)
      if (auto it = index_.find(keys[i]); it != index_.end()) known.push_back(out[i] = q[it->second]);
    double median = 0.5;
    if (!known.empty()) {
      std::nth_element(known.begin(), known.begin() + i64(known.size() / 2), known.end());
      median = known[known.size() / 2];
    }
    for (double& x : out)
      if (x < 0) x = median;
    return out;
  }

  std::string describe() const override {
    return path_ + " (step " + std::to_string(meta_.step) + ", " + std::to_string(meta_.keys.size()) +
           " keys" + (learnt_ ? ", the last " + std::to_string(learnt_) + " learnt in this campaign" : "") +
           ")";
  }

 private:
  std::string path_;
  PolicyMeta meta_;
  mutable PolicyNet net_;
  u64 learnt_;
  std::unordered_map<std::string, size_t> index_;
  mutable std::mutex mutex_;
};

// A copy of a model's weights, so that a policy handed to a search stays as it was.
PolicyNet copy_of(const PolicyMeta& meta, PolicyNet& net) {
  PolicyNet copy(meta.features, meta.hidden, i64(meta.keys.size()));
  torch::NoGradGuard no_grad;
  const std::vector<torch::Tensor> from = net->parameters(), to = copy->parameters();
  for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
  copy->eval();
  return copy;
}

class Learner final : public search::PolicyLearner {
 public:
  Learner(std::string path, PolicyMeta meta, PolicyNet net, const search::LearnSettings& settings)
      : path_(std::move(path)),
        meta_(std::move(meta)),
        net_(std::move(net)),
        settings_(settings),
        first_step_(meta_.step),
        adam_(net_->parameters(), torch::optim::AdamOptions(settings.learning_rate)) {
    for (size_t k = 0; k < meta_.keys.size(); ++k) index_.emplace(meta_.keys[k], i64(k));
    net_->train();
    start_ = copy_of(meta_, net_);
  }

  std::shared_ptr<const search::Policy> policy() const override {
    return std::make_shared<LearnedPolicy>(path_, meta_, copy_of(meta_, net_), meta_.step - first_step_);
  }
  u64 step() const override { return meta_.step; }
  size_t examples() const override { return examples_.size(); }

  void add_example(const suites::Problem& problem, std::span<const std::string> uses) override {
    if (problem.train.empty()) return;
    std::vector<i64> known;
    for (const std::string& u : uses)
      if (auto it = index_.find(u); it != index_.end()) known.push_back(it->second);
    Example e{policy_input(problem), std::move(known), {}};
    // The target: the answer's keys, drawn toward what the policy said before learning.
    torch::NoGradGuard no_grad;
    auto [cases, mask] = policy_batch({&e.input});
    e.target = (1 - settings_.label_weight) * torch::sigmoid(start_(cases, mask))[0];
    for (i64 k : e.uses) e.target[k] += settings_.label_weight;
    examples_.push_back(std::move(e));
  }

  void align(const Sum& sum, bool root) override {
    const torch::Tensor weights = flat_parameters(*net_).contiguous();
    std::vector<float> buffer(weights.data_ptr<float>(), weights.data_ptr<float>() + weights.numel());
    // The step too, in 20-bit halves (a float holds integers to 2^24 exactly).
    buffer.push_back(float(meta_.step & 0xFFFFF));
    buffer.push_back(float(meta_.step >> 20));
    if (!root) std::fill(buffer.begin(), buffer.end(), 0.f);  // x + 0 is x: rank 0's weights exactly
    sum(buffer.data(), buffer.size());
    meta_.step = u64(buffer[buffer.size() - 2]) | (u64(buffer.back()) << 20);
    first_step_ = meta_.step;
    set_parameters(*net_, torch::from_blob(buffer.data(), {weights.numel()}, torch::kFloat32));
    start_ = copy_of(meta_, net_);  // rank 0's weights: the targets' prior
  }

  Learnt learn(const Sum& sum) override {
    Learnt out;
    const i64 keys = i64(meta_.keys.size());
    for (u32 s = 0; s < settings_.steps; ++s) {
      adam_.zero_grad();
      double loss = 0;
      if (!examples_.empty()) {
        std::vector<const PolicyInput*> inputs;
        std::vector<torch::Tensor> targets;
        for (const Example& e : examples_) {
          inputs.push_back(&e.input);
          targets.push_back(e.target);
        }
        const torch::Tensor target = torch::stack(targets);
        auto [cases, mask] = policy_batch(inputs);
        // Summed over the examples, averaged over the keys: divided by every rank's examples below.
        const torch::Tensor l =
            torch::nn::functional::binary_cross_entropy_with_logits(
                net_(cases, mask), target,
                torch::nn::functional::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kSum)) /
            double(keys);
        l.backward();
        loss = l.item<double>();
      }
      const torch::Tensor gradients = flat_gradients(*net_).contiguous();
      std::vector<float> buffer(gradients.data_ptr<float>(), gradients.data_ptr<float>() + gradients.numel());
      buffer.push_back(float(loss));
      buffer.push_back(float(examples_.size()));
      sum(buffer.data(), buffer.size());
      const double total = buffer.back();
      if (total == 0) return out;
      if (s == 0) out = {buffer[buffer.size() - 2] / total, u64(total)};
      set_gradients(*net_, torch::from_blob(buffer.data(), {gradients.numel()}, torch::kFloat32) / total);
      adam_.step();
      ++meta_.step;
    }
    return out;
  }

  void save(const std::string& path) const override {
    PolicyMeta meta = meta_;
    meta.examples = examples_.size();
    std::string error;
    if (!save_policy(path, meta, net_, &error)) throw std::runtime_error(error);
  }

 private:
  struct Example {
    PolicyInput input;
    std::vector<i64> uses;  // vocabulary indices
    torch::Tensor
        target;  // [keys]: LearnSettings::label_weight of 1 for a key used, the rest what the start said
  };
  std::string path_;
  PolicyMeta meta_;
  mutable PolicyNet net_;
  PolicyNet start_{nullptr};  // the weights before learning: the targets' prior
  search::LearnSettings settings_;
  u64 first_step_;  // when read
  torch::optim::Adam adam_;
  std::unordered_map<std::string, i64> index_;
  std::vector<Example> examples_;
};

}  // namespace

std::unique_ptr<search::PolicyLearner> load_policy_learner(const std::string& path,
                                                           const search::LearnSettings& settings) {
  std::string error;
  auto loaded = load_policy_file(path, &error);
  if (!loaded) throw std::runtime_error("--policy " + error);
  return std::make_unique<Learner>(path, std::move(loaded->first), std::move(loaded->second), settings);
}

std::shared_ptr<const search::Policy> load_learned_policy(const std::string& path) {
  std::string error;
  auto loaded = load_policy_file(path, &error);
  if (!loaded) throw std::runtime_error("--policy " + error);
  return std::make_shared<LearnedPolicy>(path, std::move(loaded->first), std::move(loaded->second));
}

void register_policy() {
  search::register_policy_loader(&load_learned_policy);
  search::register_policy_learner_loader(&load_policy_learner);
}

}  // namespace gs::neural
