// The neural and hybrid compile modes of the pipeline (pipeline/pipeline.h CompileMode,
// docs/neural.md "Hybrid compilation"): the CPU backend with its compile stage replaced.
// Built only with libtorch (GPUSYNTH_TORCH=ON).
#pragma once

#include <memory>

#include "neural/neural_compiler.h"
#include "neural/router.h"
#include "pipeline/pipeline.h"

namespace gs::neural {

// Makes pipeline::make_pipeline use make_neural_pipeline for the neural and hybrid modes.
void register_pipeline();

// config.neural.mode must be Neural or Hybrid. Throws std::runtime_error naming the file when
// the checkpoint or the router cannot be read.
std::unique_ptr<pipeline::Pipeline> make_neural_pipeline(const pipeline::PipelineConfig& config);
// The same around a given model and router (tests give it models that are wrong on purpose).
std::unique_ptr<pipeline::Pipeline> make_neural_pipeline(const pipeline::PipelineConfig& config,
                                                         std::unique_ptr<neural::NeuralCompiler> model,
                                                         neural::Router router);

}  // namespace gs::neural
