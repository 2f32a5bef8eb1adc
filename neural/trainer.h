// The training step and the held-out evaluation of the neural compiler (teacher forcing,
// cross-entropy over the bytecode tokens, Adam), with the state a checkpoint holds.
#pragma once

#include <torch/optim/adam.h>

#include <memory>
#include <string>
#include <vector>

#include "neural/checkpoint.h"
#include "neural/data.h"
#include "neural/model.h"

namespace gs::neural {

struct StepStats {
  double loss = 0;            // mean cross-entropy per target token
  double token_accuracy = 0;  // share of target tokens the teacher-forced argmax got right
  u32 tokens = 0;
};

struct EvalStats {
  u32 programs = 0;
  double exact_match = 0;               // greedy decode == the compiler's bytecode tokens
  double verifier_pass = 0;             // greedy decode is a container the verifier accepts
  double loss = 0, token_accuracy = 0;  // teacher-forced, as in training
};

// "cpu" or "cuda" as a torch device; false with *error when it is neither or CUDA cannot be had.
bool pick_device(const std::string& name, torch::Device* device, std::string* error);

class Trainer {
 public:
  // A fresh model of `config`.
  Trainer(const ModelConfig& config, double learning_rate, torch::Device device);
  // Continues from a checkpoint (model, optimizer, step); nullptr with *error on failure.
  static std::unique_ptr<Trainer> resume(const std::string& path, torch::Device device, CheckpointMeta* meta,
                                         std::string* error);

  // One optimizer step on a batch at learning rate lr (clip: gradient norm bound, 0 none).
  StepStats step(const std::vector<Example>& batch, double lr, double clip = 1.0);
  // Teacher-forced loss and accuracy of a batch, without training.
  StepStats measure(const std::vector<Example>& batch);
  EvalStats evaluate(const std::vector<Example>& set);

  bool save(const std::string& path, CheckpointMeta meta, std::string* error);

  u64 steps_taken() const { return steps_; }
  Seq2Seq& model() { return model_; }
  torch::optim::Adam& optimizer() { return *optimizer_; }
  torch::Device device() const { return device_; }

 private:
  StepStats forward(const std::vector<Example>& batch, torch::Tensor* loss);

  torch::Device device_;
  Seq2Seq model_{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer_;
  u64 steps_ = 0;
};

}  // namespace gs::neural
