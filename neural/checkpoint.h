// Checkpoints of the neural compiler's training (docs/neural.md "Checkpoints"): one file, a
// torch::serialize archive holding
//   "meta"       a text: format, vocabulary fingerprint, model config, training state
//   "model"      the model's parameters and buffers (Module::save)
//   "optimizer"  Adam's state (Optimizer::save), absent in a model-only file
// Written to PATH.tmp and renamed, so an interrupted save never leaves a torn checkpoint.
#pragma once

#include <torch/optim/optimizer.h>

#include <optional>
#include <string>

#include "neural/model.h"
#include "neural/model_config.h"

namespace gs::neural {

inline constexpr i64 kCheckpointFormat = 1;

// What a checkpoint says besides the tensors.
struct CheckpointMeta {
  ModelConfig model;
  u64 step = 0;         // optimizer steps taken
  u64 total_steps = 0;  // of the run it belongs to
  u64 seed = 0;
  u32 batch = 0;
  double learning_rate = 0;
  u64 examples = 0;  // training examples consumed (the data stream's position)
};

// Saves model (and optimizer when not null); false with *error naming the file on failure.
bool save_checkpoint(const std::string& path, const CheckpointMeta& meta, Seq2Seq& model,
                     torch::optim::Optimizer* optimizer, std::string* error);
// Reads only the meta (to build a model of the right shape before load_checkpoint).
std::optional<CheckpointMeta> read_checkpoint_meta(const std::string& path, std::string* error);
// Loads the tensors into a model of meta.model's shape (and optimizer when not null).
bool load_checkpoint(const std::string& path, Seq2Seq& model, torch::optim::Optimizer* optimizer,
                     std::string* error);

}  // namespace gs::neural
