// The CUDA backend of node/pipeline.h (built when GPUSYNTH_CUDA is on): everything stays in
// device memory on one stream; only the results come back, through pinned buffers.
#pragma once

#include <memory>
#include <string>

#include "node/pipeline.h"

namespace gs::node {

// The number of CUDA devices, or 0 with *why saying what the runtime reported.
int cuda_device_count(std::string* why);

std::unique_ptr<Pipeline> make_cuda_pipeline(const PipelineConfig& config);

}  // namespace gs::node
