#include "jobs/compile_options.h"

#include "jobs/neural_relay.h"

namespace gs::jobs {

po::options_description compile_mode_options(pipeline::NeuralCompileConfig* n) {
  po::options_description d("Compilation (docs/neural.md)");
  d.add_options()(
      "compile",
      po::value<std::string>()->default_value("traditional")->notifier([n](const std::string& text) {
        auto mode = pipeline::parse_compile_mode(text);
        if (!mode) throw po::validation_error(po::validation_error::invalid_option_value, "compile", text);
        n->mode = *mode;
      }),
      "traditional, neural (the model alone: correct with probability p) or hybrid (the router picks; only "
      "verified neural bytecode is used)")(
      "model", po::value(&n->checkpoint),
      "neural and hybrid: the neural compiler's checkpoint (train-compiler or selfplay)")(
      "router", po::value(&n->router),
      "hybrid: a router file (eval-compiler --router-out); default: try every program on the model")(
      "samples", bounded(&n->samples, 1, 1024), "neural and hybrid: candidates sampled per program (K)")(
      "temperature", bounded(&n->temperature, 0, 100), "sampling temperature (0: greedy, one candidate)")(
      "top-p", bounded(&n->top_p, 0.001, 1),
      "nucleus sampling: the smallest set of tokens with this probability")(
      "model-device", defaulted(&n->device), "where the model runs: cpu or cuda");
  return d;
}

bool check_compile_mode_options(const pipeline::NeuralCompileConfig& n, std::string* error) {
  if (n.mode == pipeline::CompileMode::Traditional) return true;
  const std::string mode = std::string("--compile ") + pipeline::compile_mode_name(n.mode);
  if (!pipeline::has_neural_pipeline()) {
    // gpusynth hands a command line with --compile neural|hybrid to gpusynth-neural before it
    // starts (jobs/neural_relay.h); a mode set in a --config file is only seen here.
    *error = mode + " needs the neural compiler: " +
             (neural_binary_path().empty()
                  ? "this build has no libtorch (configure with -DGPUSYNTH_TORCH=ON, docs/neural.md)"
                  : "give --compile on the command line, or run gpusynth-neural with the same options");
    return false;
  }
  if (n.checkpoint.empty()) {
    *error = mode + " needs --model CHECKPOINT";
    return false;
  }
  return true;
}

}  // namespace gs::jobs
