// The neural and hybrid compile modes of the pipeline (node/pipeline.h CompileMode,
// docs/neural.md "Hybrid compilation"): the CPU backend with its compile stage replaced.
// Built only with libtorch (GPUSYNTH_TORCH=ON).
#pragma once

#include <memory>

#include "neural/neural_compiler.h"
#include "neural/router.h"
#include "node/pipeline.h"

namespace gs::node {

// config.neural.mode must be Neural or Hybrid. Throws std::runtime_error naming the file when
// the checkpoint or the router cannot be read.
std::unique_ptr<Pipeline> make_neural_pipeline(const PipelineConfig& config);
// The same around a given model and router (tests give it models that are wrong on purpose).
std::unique_ptr<Pipeline> make_neural_pipeline(const PipelineConfig& config,
                                               std::unique_ptr<neural::NeuralCompiler> model, neural::Router router);

}  // namespace gs::node
