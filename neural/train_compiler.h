// Supervised training of the neural compiler, as `gpusynth train-compiler` runs it
// (docs/neural.md "Training"). This header holds no torch types, so the command line compiles
// without torch headers; neural/trainer.h is the torch-level interface.
#pragma once

#include <iosfwd>
#include <string>

#include "neural/data.h"
#include "neural/model_config.h"

namespace gs::neural {

struct TrainOptions {
  std::string out_dir;  // checkpoint.pt (latest) and progress.tsv go here
  std::string resume;   // a checkpoint to continue from; empty: a fresh model
  ModelConfig model;    // ignored when resuming (the checkpoint's own is used)
  u64 steps = 2000;     // total optimizer steps of the run (a resumed run continues to it)
  u32 batch = 32;       // examples per step
  u64 seed = 1;
  double learning_rate = 1e-3;
  u32 warmup = 100;            // steps of linear learning-rate warm-up
  double clip = 1.0;           // gradient norm clip; 0: none
  std::string device = "cpu";  // "cpu" or "cuda"
  u32 threads = 0;             // torch intra-op threads; 0: torch's default
  u32 log_every = 50;          // a progress line every so many steps
  u32 eval_every = 500;        // a held-out evaluation every so many steps (and at the end); 0: none
  u32 eval_programs = 64;      // size of the held-out set
  u32 checkpoint_every = 500;  // and at the end
  u32 levels = kCurriculumLevels;
};

enum class TrainResult : u8 {
  Ok,
  BadInput,  // bad options, an unreadable or mismatched checkpoint, a missing device: nothing ran
  Failed,    // training started and stopped on an error (the last checkpoint stays)
};

// Runs (or resumes) the training; progress lines on `log`. On failure *error says why, naming
// the file where one is at fault.
TrainResult train_compiler(const TrainOptions& options, std::ostream& log, std::string* error);

}  // namespace gs::neural
