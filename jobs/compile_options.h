// --compile traditional|neural|hybrid and the neural compiler's options, shared by `search`,
// `campaign` and `eval` (pipeline/pipeline.h CompileMode, docs/neural.md "Hybrid compilation").
#pragma once

#include <string>

#include "jobs/options.h"
#include "pipeline/pipeline.h"

namespace gs::jobs {

// --compile, --model, --router, --samples, --temperature, --top-p, --model-device into *n.
po::options_description compile_mode_options(pipeline::NeuralCompileConfig* n);

// False with a message when they do not fit together (neural or hybrid without --model).
bool check_compile_mode_options(const pipeline::NeuralCompileConfig& n, std::string* error);

}  // namespace gs::jobs
