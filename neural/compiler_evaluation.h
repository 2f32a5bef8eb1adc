// Probabilistic verification, measured (paper §4.3, docs/neural.md "Probabilistic
// verification"), as `gpusynth eval-compiler` runs it: a checkpoint samples K bytecode candidates
// for each of N held-out programs; each candidate is checked against the traditional compiler's
// bytecode on random inputs (neural/verification.h); the estimates of neural/estimates.h are
// reported per curriculum level, beside greedy pass@1, the verdicts, the throughput of neural
// against traditional compilation, and a router fitted on the outcome (neural/router.h).
// This header holds no torch types, so the command line compiles without torch headers.
#pragma once

#include <iosfwd>
#include <string>

#include "neural/data.h"

namespace gs::neural {

struct EvaluationOptions {
  std::string checkpoint;      // written by train-compiler (or selfplay)
  std::string device = "cpu";  // "cpu" or "cuda"
  u32 programs = 64;           // held-out programs, spread evenly over the levels
  u32 levels = kCurriculumLevels;
  u32 samples = 16;  // K candidates per program
  // 0.8 / 0.95: K samples from the unmodified distribution (1.0) hold many near-duplicates of
  // bad tails; greedy (0) gives K copies of one candidate. Slightly sharpened and with the
  // nucleus cut, candidates stay diverse yet mostly well-formed (docs/neural.md).
  double temperature = 0.8;
  double top_p = 0.95;
  u32 inputs = 16;           // random inputs per program that candidates are compared on
  u64 seed = 1;              // of the held-out programs, the samples and the inputs
  u32 threads = 0;           // torch intra-op threads; 0: torch's default
  u32 repetitions = 3;       // timed passes of each compiler for the throughput
  std::string json_path;     // everything measured, as JSON; empty: none
  std::string history_path;  // routing history (neural::write_history); empty: none
  std::string router_path;   // a router fitted on all programs; empty: none
};

enum class EvaluationResult : u8 {
  Ok,
  BadInput,  // bad options, an unreadable checkpoint or output path, a missing device: nothing ran
  Failed,    // the evaluation started and stopped on an error
};

// Runs the evaluation: progress lines and then the table on `log`, files as options say. On
// failure *error says why, naming the file where one is at fault.
EvaluationResult evaluate_compiler(const EvaluationOptions& options, std::ostream& log, std::string* error);

}  // namespace gs::neural
