// gpusynth: the command-line front door. `gpusynth COMMAND --help` documents each command.
// Compiled twice: into gpusynth, and with libtorch into gpusynth-neural (jobs/neural_relay.h).
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "jobs/build_info.h"
#include "jobs/command.h"
#include "jobs/neural_relay.h"
#if GPUSYNTH_HAVE_TORCH
#include "neural/learned_policy.h"
#include "neural/neural_pipeline.h"
#endif

namespace gs::jobs {
namespace {

#if GPUSYNTH_HAVE_TORCH
#define GS_NEURAL(run) run, true
#else
#define GPUSYNTH_HAVE_TORCH 0
// Never called: main() hands these commands to gpusynth-neural first.
#define GS_NEURAL(run) nullptr, true
#endif

constexpr Command kCommands[] = {
    {"compile", "compile a Syn program to bytecode", compile_command},
    {"run", "run a function of a program on JSON arguments", run_command},
    {"eval", "compile, run and test a file of candidate programs on a problem", eval_command},
    {"search", "search for a program that passes a problem's cases", search_command},
    {"campaign", "search every problem of a suite, with records", campaign_command},
    {"import-psb", "turn PSB-style JSON Lines and a signature into a problem file", import_psb_command},
    {"trace", "summarise, list solutions of, or export a run's records", trace_command},
    {"policy-data", "make problems for training the search policy, labelled with what their answers use",
     policy_data_command},
    {"train-compiler", "train the neural compiler on random programs (needs libtorch)",
     GS_NEURAL(train_compiler_command)},
    {"selfplay", "fine-tune the neural compiler by RL on verified, cheaper bytecode (needs libtorch)",
     GS_NEURAL(selfplay_command)},
    {"train-policy", "train the search policy on a file policy-data made (needs libtorch)",
     GS_NEURAL(train_policy_command)},
    {"eval-compiler", "measure a neural compiler checkpoint by sampling and verification (needs libtorch)",
     GS_NEURAL(eval_compiler_command)},
};
#undef GS_NEURAL

void version(std::ostream& out) {
  out << "gpusynth " << GPUSYNTH_VERSION << (GPUSYNTH_HAVE_TORCH ? " (gpusynth-neural)" : "") << "\n"
      << "commit: " << GPUSYNTH_GIT_COMMIT << "\n"
      << "cuda:   " << GPUSYNTH_BUILD_CUDA << "\n"
      << "mpi:    " << GPUSYNTH_BUILD_MPI << "\n"
      << "nccl:   " << GPUSYNTH_BUILD_NCCL << "\n"
      << "torch:  " << GPUSYNTH_BUILD_TORCH << "\n";
}

void usage(std::ostream& out) {
  out << "usage: gpusynth COMMAND [options]    (gpusynth COMMAND --help for its options)\n\ncommands:\n";
  for (const Command& c : kCommands) {
    std::string name = c.name;
    out << "  " << name << std::string(name.size() < 16 ? 16 - name.size() : 1, ' ') << c.summary << "\n";
  }
  out << "\ndocs: docs/cli.md, docs/language.md, docs/bytecode.md\n";
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return kExitUsage;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return kExitOk;
  }
  if (name == "--version") {
    version(std::cout);
    return kExitOk;
  }
  for (const Command& c : kCommands)
    if (name == c.name && c.run != nullptr) return c.run(std::vector<std::string>(argv + 2, argv + argc));
  std::cerr << "gpusynth: unknown command '" << name << "'\n\n";
  usage(std::cerr);
  return kExitUsage;
}

}  // namespace
}  // namespace gs::jobs

int main(int argc, char** argv) {
#if GPUSYNTH_HAVE_TORCH
  gs::neural::register_pipeline();
  gs::neural::register_policy();
#else
  if (gs::jobs::needs_neural_binary(std::span(argv + 1, argv + argc), gs::jobs::kCommands))
    return gs::jobs::relay_to_neural_binary(argc, argv);
#endif
  try {
    return gs::jobs::dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpusynth: " << e.what() << "\n";
    return gs::jobs::kExitUsage;
  }
}
