#include "neural/learned_policy.h"

#include <torch/types.h>
#include <torch/utils.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "neural/policy_model.h"

namespace gs::neural {
namespace {

class LearnedPolicy final : public search::Policy {
 public:
  LearnedPolicy(std::string path, PolicyMeta meta, PolicyNet net)
      : path_(std::move(path)), meta_(std::move(meta)), net_(std::move(net)) {
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
           " keys)";
  }

 private:
  std::string path_;
  PolicyMeta meta_;
  mutable PolicyNet net_;
  std::unordered_map<std::string, size_t> index_;
  mutable std::mutex mutex_;
};

}  // namespace

std::shared_ptr<const search::Policy> load_learned_policy(const std::string& path) {
  std::string error;
  auto loaded = load_policy_file(path, &error);
  if (!loaded) throw std::runtime_error("--policy " + error);
  return std::make_shared<LearnedPolicy>(path, std::move(loaded->first), std::move(loaded->second));
}

void register_policy() { search::register_policy_loader(&load_learned_policy); }

}  // namespace gs::neural
