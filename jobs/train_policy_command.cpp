// gpusynth train-policy --data DATA.jsonl -o POLICY.pt [--steps N] [--batch B] [--hidden H] …
//
// Trains the search policy (neural/policy_training.h) on a file gpusynth policy-data wrote; the
// policy file it writes is what `search --policy` and `campaign --policy` read. Built into
// gpusynth-neural only (jobs/neural_relay.h).
#include <filesystem>
#include <iostream>

#include "jobs/command.h"
#include "jobs/options.h"
#include "neural/policy_training.h"

namespace gs::jobs {

int train_policy_command(const std::vector<std::string>& args) {
  neural::PolicyTrainConfig c;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")(
      "data", po::value(&c.data)->required()->composing(),
      "a policy data file (gpusynth policy-data); give it again for more files, read together")(
      "init", po::value(&c.init),
      "go on from this policy file: its weights, width and vocabulary (a campaign's solutions, "
      "policy-data --from-run, teach it more)")("output,o", po::value(&c.output)->required(),
                                                "the policy file to write")(
      "steps", bounded(&c.steps, 1, 100000000), "optimizer steps")(
      "batch", bounded(&c.batch, 1, 1u << 16), "problems per step")("hidden", bounded(&c.hidden, 4, 4096),
                                                                    "width of the model's layers")(
      "lr", bounded(&c.learning_rate, 0, 10), "Adam learning rate")(
      "validation", bounded(&c.validation, 0, 0.5), "fraction of the problems held out to report on")(
      "seed", at_least(&c.seed, 0), "seed of the initial weights and the batches")(
      "threads", bounded(&c.threads, 0, max_threads()), "torch threads (0: torch's default)")(
      "log-every", at_least(&c.log_every, 0), "a progress line every N steps (0: only the last)");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth train-policy --data DATA.jsonl [--data MORE.jsonl] -o POLICY.pt [--init POLICY0.pt]\n"
      "                             [--steps N] [--batch B] [--hidden H]\n"
      "Trains the search policy: from a problem's train cases, the probability that its answer uses each\n"
      "production and constant of the enumeration's grammar, learnt from the problems gpusynth policy-data\n"
      "makes. `search --policy POLICY.pt` orders the enumeration by it (docs/neural.md, docs/search.md).";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  if (std::filesystem::is_directory(c.output)) {
    std::cerr << "gpusynth train-policy: " << c.output << " is a directory; -o names the policy file\n";
    return kExitUsage;
  }
  std::string error;
  const neural::TrainResult r = neural::train_policy(c, std::cout, &error);
  if (r == neural::TrainResult::Ok) return kExitOk;
  std::cerr << "gpusynth train-policy: " << error << "\n";
  return r == neural::TrainResult::BadInput ? kExitUsage : kExitFailed;
}

}  // namespace gs::jobs
