// Training the search policy (issue 22; docs/neural.md "The search policy") on a policy data file
// (gpusynth policy-data, search/policy_data.h): each line a problem and the keys of the
// productions and constants its answer uses; the model learns, key by key, whether the answer
// uses it (binary cross-entropy, Adam). The vocabulary is the keys the data holds. A slice of
// the problems is held out and the loss on it reported as training goes, beside the bits a
// used key costs under the model (-log2 p, what the enumeration's costs come from) and under the
// keys' base rates (what a policy that ignores the problem could do). Torch-free interface.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "base/hd.h"
#include "neural/train_compiler.h"

namespace gs::neural {

struct PolicyTrainConfig {
  std::vector<std::string> data;  // policy data files, read together
  std::string output;             // the policy file to write
  // A policy file to go on from (its weights, width and vocabulary; keys of the data outside its
  // vocabulary are left out): a campaign's solutions (policy-data --from-run) teach a trained
  // policy more. Empty: fresh weights, the data's keys.
  std::string init;
  u64 steps = 3000;
  u32 batch = 128;
  i64 hidden = 128;
  double learning_rate = 1e-3;
  double validation = 0.05;  // the fraction of the problems held out
  u64 seed = 1;
  u32 log_every = 250;  // steps between progress lines (0: none)
  u32 threads = 0;      // torch's threads (0: torch's default)
};

// Trains, with progress lines on `log`, and writes config.output. BadInput when the data file
// cannot be read (*error names its line), Failed when the output cannot be written.
TrainResult train_policy(const PolicyTrainConfig& config, std::ostream& log, std::string* error);

}  // namespace gs::neural
