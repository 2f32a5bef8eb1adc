// The CPU backend of node/pipeline.h: each stage over one thread pool, results written straight
// into the host vectors of BatchResults (the batch views point at them).
#pragma once

#include <memory>

#include "node/pipeline.h"

namespace gs::node {

std::unique_ptr<Pipeline> make_cpu_pipeline(const PipelineConfig& config);

}  // namespace gs::node
