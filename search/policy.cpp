#include "search/policy.h"

#include <cmath>
#include <stdexcept>

namespace gs::search {
namespace {

PolicyLoader g_loader = nullptr;

}  // namespace

u32 policy_cost(double p, double temperature) {
  if (!(p > 0)) return kMaxPolicyCost;  // 0 and NaN
  const double c = 1 + std::round(-std::log2(std::min(p, 1.0)) / temperature);
  return c >= kMaxPolicyCost ? kMaxPolicyCost : u32(std::max(c, 1.0));
}

void register_policy_loader(PolicyLoader load) { g_loader = load; }

std::shared_ptr<const Policy> load_policy(const std::string& path) {
  if (!g_loader)
    throw std::runtime_error("--policy " + path +
                             ": this program has no libtorch, so no search policy (gpusynth hands a "
                             "command line with --policy to gpusynth-neural, built with -DGPUSYNTH_TORCH=ON: "
                             "give --policy there rather than in a --config file; docs/neural.md)");
  return g_loader(path);
}

}  // namespace gs::search
