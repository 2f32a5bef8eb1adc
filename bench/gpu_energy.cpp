#include "bench/gpu_energy.h"

#include <dlfcn.h>

namespace gs::bench {

namespace {
constexpr int kNvmlSuccess = 0;
}

GpuEnergy::GpuEnergy(unsigned index) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    const char* e = dlerror();
    why_ = std::string("NVML not available: ") + (e ? e : "libnvidia-ml.so.1 not found");
    return;
  }
  auto init = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlInit_v2"));
  auto handle = reinterpret_cast<int (*)(unsigned, void**)>(dlsym(library_, "nvmlDeviceGetHandleByIndex_v2"));
  energy_ = reinterpret_cast<int (*)(void*, unsigned long long*)>(
      dlsym(library_, "nvmlDeviceGetTotalEnergyConsumption"));
  shutdown_ = reinterpret_cast<int (*)()>(dlsym(library_, "nvmlShutdown"));
  if (!init || !handle || !energy_ || !shutdown_) {
    why_ = "NVML lacks nvmlInit_v2, nvmlDeviceGetHandleByIndex_v2 or nvmlDeviceGetTotalEnergyConsumption";
    return;
  }
  if (int e = init(); e != kNvmlSuccess) {
    why_ = "nvmlInit_v2 failed (NVML error " + std::to_string(e) + ")";
    shutdown_ = nullptr;
    return;
  }
  void* device = nullptr;
  if (int e = handle(index, &device); e != kNvmlSuccess) {
    why_ = "no NVML device " + std::to_string(index) + " (NVML error " + std::to_string(e) + ")";
    return;
  }
  unsigned long long mj = 0;
  if (int e = energy_(device, &mj); e != kNvmlSuccess) {
    why_ = "the device has no energy counter (NVML error " + std::to_string(e) + ")";
    return;
  }
  device_ = device;
}

GpuEnergy::~GpuEnergy() {
  if (shutdown_) shutdown_();
  if (library_) dlclose(library_);
}

std::optional<double> GpuEnergy::joules() const {
  unsigned long long mj = 0;
  if (!device_ || energy_(device_, &mj) != kNvmlSuccess) return std::nullopt;
  return double(mj) / 1000.0;
}

}  // namespace gs::bench
