// GPU energy from NVML (the paper's energy model, §6: power × time), for benchmarks. NVML is
// opened at run time (dlopen of libnvidia-ml.so.1), so a benchmark built with it still runs on a
// machine without an NVIDIA driver — it then says why energy was not measured.
#pragma once

#include <optional>
#include <string>

namespace gs::bench {

class GpuEnergy {
 public:
  // Opens NVML and device `index`; check available() and why().
  explicit GpuEnergy(unsigned index = 0);
  ~GpuEnergy();
  GpuEnergy(const GpuEnergy&) = delete;
  GpuEnergy& operator=(const GpuEnergy&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& why() const { return why_; }  // when not available

  // The device's energy counter in joules since the driver loaded
  // (nvmlDeviceGetTotalEnergyConsumption, Volta and later); nullopt when it cannot be read.
  std::optional<double> joules() const;

 private:
  void* library_ = nullptr;
  void* device_ = nullptr;
  std::string why_;
  int (*energy_)(void*, unsigned long long*) = nullptr;
  int (*shutdown_)() = nullptr;
};

}  // namespace gs::bench
