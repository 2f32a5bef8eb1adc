// The CUDA backend of pipeline/pipeline.h (built when GPUSYNTH_CUDA is on): everything stays in
// device memory on one stream; only the results come back, through pinned buffers.
#pragma once

#include <memory>
#include <string>

#include "pipeline/pipeline.h"

namespace gs::pipeline {

std::unique_ptr<Pipeline> make_cuda_pipeline(const PipelineConfig& config);

}  // namespace gs::pipeline
