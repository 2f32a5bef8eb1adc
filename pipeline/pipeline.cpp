#include "pipeline/pipeline.h"

#include <stdexcept>

#include "pipeline/cpu_pipeline.h"
#if GPUSYNTH_HAVE_CUDA
#include "pipeline/cuda_pipeline.h"
#endif

namespace gs::pipeline {

std::optional<Device> parse_device(std::string_view text) {
  if (text == "cpu") return Device::Cpu;
  if (text == "cuda") return Device::Cuda;
  if (text == "auto") return Device::Auto;
  return std::nullopt;
}

const char* device_name(Device d) {
  switch (d) {
    case Device::Cpu: return "cpu";
    case Device::Cuda: return "cuda";
    case Device::Auto: return "auto";
  }
  return "?";
}

std::optional<CompileMode> parse_compile_mode(std::string_view text) {
  if (text == "traditional") return CompileMode::Traditional;
  if (text == "neural") return CompileMode::Neural;
  if (text == "hybrid") return CompileMode::Hybrid;
  return std::nullopt;
}

const char* compile_mode_name(CompileMode m) {
  switch (m) {
    case CompileMode::Traditional: return "traditional";
    case CompileMode::Neural: return "neural";
    case CompileMode::Hybrid: return "hybrid";
  }
  return "?";
}

#if !GPUSYNTH_HAVE_CUDA
int cuda_device_count(std::string* why) {
  if (why != nullptr) *why = "this build has no CUDA backend (configure with -DGPUSYNTH_CUDA=ON)";
  return 0;
}
#endif

bool cuda_available(std::string* why) { return cuda_device_count(why) > 0; }

Device resolve_device(Device d) {
  if (d != Device::Auto) return d;
  std::string why;
  return cuda_available(&why) ? Device::Cuda : Device::Cpu;
}

namespace {
NeuralPipelineFactory neural_factory = nullptr;
}  // namespace

void register_neural_pipeline(NeuralPipelineFactory make) { neural_factory = make; }

bool has_neural_pipeline() { return neural_factory != nullptr; }

std::unique_ptr<Pipeline> make_pipeline(Device d, const PipelineConfig& config) {
  if (const char* problem = vm::limits_problem(config.limits)) throw std::runtime_error(problem);
  if (config.limits.fuel >= (u64(1) << 32))
    throw std::runtime_error("fuel must be below 2^32 in a batch (got " + std::to_string(config.limits.fuel) +
                             ")");
  std::string why;
  if (config.neural.mode != CompileMode::Traditional) {
    const std::string mode = std::string("the ") + compile_mode_name(config.neural.mode) + " compile mode";
    if (neural_factory == nullptr)
      throw std::runtime_error(mode +
                               ": this program has no neural compiler (it is built with libtorch, "
                               "GPUSYNTH_TORCH=ON, and registered by neural::register_pipeline)");
    if (d == Device::Cuda)
      throw std::runtime_error(
          mode + " runs on the CPU backend in this version (the model itself may run on a GPU)");
    return neural_factory(config);
  }
  if (resolve_device(d) == Device::Cpu) return make_cpu_pipeline(config);
  if (!cuda_available(&why)) throw std::runtime_error("the CUDA backend cannot be had: " + why);
#if GPUSYNTH_HAVE_CUDA
  return make_cuda_pipeline(config);
#else
  throw std::runtime_error("the CUDA backend cannot be had: " + why);
#endif
}

}  // namespace gs::pipeline
