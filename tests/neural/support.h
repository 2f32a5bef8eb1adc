// What the neural tests share: the tiny model configuration they train and sample in seconds,
// scratch directories, and a checkpoint of an untrained model made through train-compiler (so
// a test needs no torch headers to get one).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "neural/model_config.h"
#include "neural/train_compiler.h"

namespace gs::neural::testing {

inline ModelConfig tiny_config() {
  ModelConfig c;
  c.d_model = 64;
  c.heads = 4;
  c.encoder_layers = 1;
  c.decoder_layers = 1;
  c.ff = 128;
  c.max_source = 96;
  c.max_bytecode = 96;
  return c;
}

// An empty directory of its own for this process: TMP/gpusynth_neural_NAME_PID.
inline std::string temp_dir(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("gpusynth_neural_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// DIR/checkpoint.pt of a model of `model`'s sizes after one training step on `levels`
// curriculum levels — in effect untrained; false with *error when train-compiler fails.
inline bool write_untrained_checkpoint(const std::string& dir, const ModelConfig& model, u32 levels,
                                       std::string* error) {
  TrainOptions o;
  o.out_dir = dir;
  o.model = model;
  o.steps = 1;
  o.batch = 2;
  o.eval_every = 0;
  o.levels = levels;
  std::ostringstream log;
  return train_compiler(o, log, error) == TrainResult::Ok;
}

}  // namespace gs::neural::testing
