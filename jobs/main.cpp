// gpusynth: the command-line front door. `gpusynth COMMAND --help` documents each command.
#include <iostream>
#include <string>
#include <vector>

#include "jobs/command.h"
#if GPUSYNTH_HAVE_TORCH
#include "neural/neural_pipeline.h"
#endif

namespace gs::jobs {
namespace {

constexpr Command kCommands[] = {
    {"compile", "compile a Syn program to bytecode", compile_command},
    {"run", "run a function of a program on JSON arguments", run_command},
    {"eval", "compile, run and test a file of candidate programs on a problem", eval_command},
    {"search", "search for a program that passes a problem's cases", search_command},
    {"campaign", "search every problem of a suite, with records", campaign_command},
    {"import-psb", "turn PSB-style JSON Lines and a signature into a problem file", import_psb_command},
    {"trace", "summarise, list solutions of, or export a run's records", trace_command},
    {"train-compiler", "train the neural compiler on random programs (needs libtorch)", train_compiler_command},
    {"selfplay", "fine-tune the neural compiler by RL on verified, cheaper bytecode (needs libtorch)", selfplay_command},
    {"eval-compiler", "measure a neural compiler checkpoint by sampling and verification (needs libtorch)",
     eval_compiler_command},
};

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
    std::cout << "gpusynth " << GPUSYNTH_VERSION << "\n";
    return kExitOk;
  }
  for (const Command& c : kCommands)
    if (name == c.name) return c.run(std::vector<std::string>(argv + 2, argv + argc));
  std::cerr << "gpusynth: unknown command '" << name << "'\n\n";
  usage(std::cerr);
  return kExitUsage;
}

}  // namespace
}  // namespace gs::jobs

int main(int argc, char** argv) {
#if GPUSYNTH_HAVE_TORCH
  gs::neural::register_pipeline();
#endif
  try {
    return gs::jobs::dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "gpusynth: " << e.what() << "\n";
    return gs::jobs::kExitUsage;
  }
}
