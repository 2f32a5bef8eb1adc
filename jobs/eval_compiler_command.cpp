// gpusynth eval-compiler --checkpoint CKPT [--programs N] [--samples K] [--temperature T] …
//
// Probabilistic verification, measured (docs/neural.md "Probabilistic verification"): K sampled
// candidates per held-out program, checked by execution against the traditional compiler; p,
// pass@k, K99 per curriculum level, throughput against the traditional compiler, and the
// routing history and a router fitted on it. A build without libtorch still has the command; it
// says how to get one.
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#ifdef GPUSYNTH_HAVE_TORCH
#include "neural/compiler_evaluation.h"
#endif

namespace gs::jobs {

#ifndef GPUSYNTH_HAVE_TORCH

int eval_compiler_command(const std::vector<std::string>&) {
  std::cerr << "gpusynth eval-compiler: this build has no libtorch: the neural compiler is not built.\n"
               "Install it (apt-get install libtorch-dev, or PyTorch's libtorch on a GPU machine) and configure\n"
               "with -DGPUSYNTH_TORCH=ON (the release preset does); see docs/neural.md.\n";
  return kExitUsage;
}

#else

int eval_compiler_command(const std::vector<std::string>& args) {
  neural::EvaluationOptions o;
  po::options_description visible("Options");
  visible.add_options()
      ("help,h", "show this help")
      ("checkpoint,c", po::value(&o.checkpoint)->required(), "the neural compiler (train-compiler's checkpoint.pt)")
      ("programs,n", po::value(&o.programs)->default_value(o.programs), "held-out programs, spread over the levels")
      ("levels", po::value(&o.levels)->default_value(o.levels), "curriculum levels of the programs (1..4)")
      ("samples,k", po::value(&o.samples)->default_value(o.samples), "K: candidates sampled per program")
      ("temperature", po::value(&o.temperature)->default_value(o.temperature, "0.8"), "sampling temperature")
      ("top-p", po::value(&o.top_p)->default_value(o.top_p, "0.95"), "nucleus: sample from this much probability")
      ("inputs", po::value(&o.inputs)->default_value(o.inputs), "random inputs each candidate is compared on")
      ("seed", po::value(&o.seed)->default_value(o.seed), "seed of the programs, the samples and the inputs")
      ("device,d", po::value(&o.device)->default_value(o.device), "cpu or cuda")
      ("threads", po::value(&o.threads)->default_value(o.threads), "torch threads (0: torch's default)")
      ("repetitions", po::value(&o.repetitions)->default_value(o.repetitions),
       "timed passes of each compiler (best and median reported)")
      ("json", po::value(&o.json_path), "write everything measured to this JSON file")
      ("history", po::value(&o.history_path), "write the routing history (features, success within K) as TSV")
      ("router-out", po::value(&o.router_path), "write a router fitted on every program's history");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth eval-compiler --checkpoint CKPT [--programs N] [--samples K] [--temperature T] [--top-p P]\n"
      "                              [--inputs R] [--seed S] [--threads N] [--device cpu|cuda] [--json PATH]\n"
      "                              [--history PATH] [--router-out PATH]\n"
      "Samples K bytecode candidates per held-out program from a neural compiler checkpoint, checks each by\n"
      "execution against the traditional compiler on R random inputs, and reports per curriculum level p\n"
      "(95% CI), pass@k measured beside the paper's 1-(1-p)^k, K99, greedy pass@1, the verdicts, the\n"
      "throughput against the traditional compiler and a fitted router's accuracy (docs/neural.md).";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  std::string error;
  neural::EvaluationResult r = neural::evaluate_compiler(o, std::cout, &error);
  if (r == neural::EvaluationResult::Ok) return kExitOk;
  std::cerr << "gpusynth eval-compiler: " << error << "\n";
  return r == neural::EvaluationResult::BadInput ? kExitUsage : kExitFailed;
}

#endif

}  // namespace gs::jobs
