// gpusynth eval-compiler --checkpoint CKPT [--programs N] [--samples K] [--temperature T] …
//
// Probabilistic verification, measured (docs/neural.md "Probabilistic verification"): K sampled
// candidates per held-out program, checked by execution against the traditional compiler; p,
// pass@k, K99 per curriculum level, throughput against the traditional compiler, and the
// routing history and a router fitted on it. Built into gpusynth-neural only
// (jobs/neural_relay.h).
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#include "neural/compiler_evaluation.h"

namespace gs::jobs {

int eval_compiler_command(const std::vector<std::string>& args) {
  neural::EvaluationOptions o;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("checkpoint,c", po::value(&o.checkpoint)->required(),
                                                    "the neural compiler (train-compiler's checkpoint.pt)")(
      "programs,n", bounded(&o.programs, 1, 1u << 20), "held-out programs, spread over the levels")(
      "levels", bounded(&o.levels, 1, 4), "curriculum levels of the programs (1..4)")(
      "samples,k", bounded(&o.samples, 1, 4096), "K: candidates sampled per program")(
      "temperature", bounded(&o.temperature, 0, 100), "sampling temperature")(
      "top-p", bounded(&o.top_p, 0.001, 1), "nucleus: sample from this much probability")(
      "inputs", bounded(&o.inputs, 1, 1u << 16), "random inputs each candidate is compared on")(
      "seed", at_least(&o.seed, 0), "seed of the programs, the samples and the inputs")(
      "device,d", defaulted(&o.device), "cpu or cuda")("threads", bounded(&o.threads, 0, max_threads()),
                                                       "torch threads (0: torch's default)")(
      "repetitions", bounded(&o.repetitions, 1, 1000),
      "timed passes of each compiler (best and median reported)")(
      "json", po::value(&o.json_path), "write everything measured to this JSON file")(
      "history", po::value(&o.history_path), "write the routing history (features, success within K) as TSV")(
      "router-out", po::value(&o.router_path), "write a router fitted on every program's history");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth eval-compiler --checkpoint CKPT [--programs N] [--samples K] [--temperature T] "
      "[--top-p P]\n"
      "                              [--inputs R] [--seed S] [--threads N] [--device cpu|cuda] [--json "
      "PATH]\n"
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

}  // namespace gs::jobs
