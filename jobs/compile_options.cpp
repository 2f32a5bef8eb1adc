#include "jobs/compile_options.h"

namespace gs::jobs {

po::options_description compile_mode_options(pipeline::NeuralCompileConfig* n) {
  po::options_description d("Compilation (docs/neural.md)");
  d.add_options()
      ("compile", po::value<std::string>()->default_value("traditional")->notifier([n](const std::string& text) {
         auto mode = pipeline::parse_compile_mode(text);
         if (!mode) throw po::validation_error(po::validation_error::invalid_option_value, "compile", text);
         n->mode = *mode;
       }), "traditional, neural (the model alone: correct with probability p) or hybrid (the router picks; only verified neural bytecode is used)")
      ("model", po::value(&n->checkpoint), "neural and hybrid: the neural compiler's checkpoint (train-compiler or selfplay)")
      ("router", po::value(&n->router), "hybrid: a router file (eval-compiler --router-out); default: try every program on the model")
      ("samples", po::value(&n->samples)->default_value(n->samples), "neural and hybrid: candidates sampled per program (K)")
      ("temperature", po::value(&n->temperature)->default_value(n->temperature), "sampling temperature (0: greedy, one candidate)")
      ("top-p", po::value(&n->top_p)->default_value(n->top_p), "nucleus sampling: the smallest set of tokens with this probability")
      ("model-device", po::value(&n->device)->default_value(n->device), "where the model runs: cpu or cuda");
  return d;
}

bool check_compile_mode_options(const pipeline::NeuralCompileConfig& n, std::string* error) {
  if (n.mode == pipeline::CompileMode::Traditional) return true;
  const std::string mode = std::string("--compile ") + pipeline::compile_mode_name(n.mode);
  if (n.checkpoint.empty()) {
    *error = mode + " needs --model CHECKPOINT";
    return false;
  }
  if (n.samples == 0) {
    *error = "--samples must be at least 1";
    return false;
  }
  if (!(n.top_p > 0 && n.top_p <= 1)) {
    *error = "--top-p must be in (0, 1]";
    return false;
  }
  return true;
}

}  // namespace gs::jobs
