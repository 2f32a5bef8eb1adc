#include "search/policy.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gs::search {
namespace {

PolicyLoader g_loader = nullptr;
PolicyLearnerLoader g_learner_loader = nullptr;

[[noreturn]] void no_libtorch(const std::string& path) {
  throw std::runtime_error("--policy " + path +
                           ": this program has no libtorch, so no search policy (gpusynth hands a "
                           "command line with --policy to gpusynth-neural, built with -DGPUSYNTH_TORCH=ON; "
                           "docs/neural.md)");
}

}  // namespace

u32 policy_cost(double p, double temperature) {
  if (!(p > 0)) return kMaxPolicyCost;  // 0 and NaN
  const double c = 1 + std::round(-std::log2(std::min(p, 1.0)) / temperature);
  return c >= kMaxPolicyCost ? kMaxPolicyCost : u32(std::max(c, 1.0));
}

void register_policy_loader(PolicyLoader load) { g_loader = load; }

std::shared_ptr<const Policy> load_policy(const std::string& path) {
  if (!g_loader) no_libtorch(path);
  return g_loader(path);
}

void register_policy_learner_loader(PolicyLearnerLoader load) { g_learner_loader = load; }

std::unique_ptr<PolicyLearner> load_policy_learner(const std::string& path, const LearnSettings& settings) {
  if (!g_learner_loader) no_libtorch(path);
  return g_learner_loader(path, settings);
}

}  // namespace gs::search
