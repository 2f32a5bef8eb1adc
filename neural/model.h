// The neural compiler: a transformer encoder-decoder (Vaswani et al. 2017, pre-LayerNorm) from
// source tokens to bytecode tokens (docs/neural.md "Model"), written on the libtorch C++ API
// subset that both Debian's libtorch 1.13 and PyTorch 2.x accept. Attention is written out here
// rather than taken from torch::nn::Transformer so that decoding can keep each layer's keys and
// values (one new token per step costs one row, not the whole prefix) and so that the same code
// means the same thing on both versions.
//
// Tensors are batch-first: source [B, S] and bytecode [B, T] token ids, PAD (0) after the end.
// One embedding table serves both sides and the output layer (tied weights).
//
// Submodule names become attribute names in the checkpoint archive (a TorchScript module), which
// its loader parses: Python keywords such as `in` or `self` must not be used as names.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "neural/model_config.h"

namespace gs::neural {

// Keys and values of one attention, split into heads: [B, H, S, head_dim].
struct KeysValues {
  torch::Tensor keys, values;
};

class AttentionImpl : public torch::nn::Module {
 public:
  AttentionImpl(i64 d_model, i64 heads);
  KeysValues project(const torch::Tensor& x);  // x [B, S, D]
  // Queries from x [B, T, D] against kv; bias (added to the scores, broadcast to [B, H, T, S]):
  // 0 where attending is allowed, a large negative number where not; undefined for none.
  torch::Tensor forward(const torch::Tensor& x, const KeysValues& kv, const torch::Tensor& bias);

 private:
  torch::Tensor split(const torch::Tensor& x) const;
  i64 heads_, head_dim_;
  torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, out_{nullptr};
};
TORCH_MODULE(Attention);

class FeedForwardImpl : public torch::nn::Module {
 public:
  FeedForwardImpl(i64 d_model, i64 ff);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Linear up_{nullptr}, down_{nullptr};
};
TORCH_MODULE(FeedForward);

class EncoderLayerImpl : public torch::nn::Module {
 public:
  EncoderLayerImpl(const ModelConfig& c);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& pad_bias);

 private:
  double dropout_;
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
  Attention attention_{nullptr};
  FeedForward ff_{nullptr};
};
TORCH_MODULE(EncoderLayer);

class DecoderLayerImpl : public torch::nn::Module {
 public:
  DecoderLayerImpl(const ModelConfig& c);
  // self_kv: this layer's keys/values of the positions so far (the new rows are appended when
  // `cache` is true, i.e. when decoding step by step).
  torch::Tensor forward(const torch::Tensor& x, KeysValues* self_kv, const torch::Tensor& self_bias,
                        const KeysValues& memory_kv, const torch::Tensor& memory_bias, bool cache);
  KeysValues memory_keys_values(const torch::Tensor& memory) { return cross_->project(memory); }

 private:
  double dropout_;
  torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr}, norm3_{nullptr};
  Attention self_{nullptr}, cross_{nullptr};
  FeedForward ff_{nullptr};
};
TORCH_MODULE(DecoderLayer);

class Seq2SeqImpl : public torch::nn::Module {
 public:
  explicit Seq2SeqImpl(ModelConfig config);
  const ModelConfig& config() const { return config_; }

  // Teacher forcing: logits [B, T, V] for every position of the decoder input [B, T].
  torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& decoder_input);

  // Step-by-step decoding: start() encodes the sources once; each step() takes the last token of
  // every row [B] and returns the next token's logits [B, V].
  struct Decoding {
    torch::Tensor memory_bias;
    std::vector<KeysValues> memory_kv, self_kv;  // per decoder layer
    i64 position = 0;
  };
  Decoding start(const torch::Tensor& source);
  torch::Tensor step(Decoding& d, const torch::Tensor& tokens);
  // Keeps only these rows (a [B'] tensor of row indices, in the order wanted) of a decoding:
  // the rows that finished drop out of every later step.
  void keep_rows(Decoding& d, const torch::Tensor& rows) const;

 private:
  torch::Tensor encode(const torch::Tensor& source, torch::Tensor* pad_bias);
  torch::Tensor embed(const torch::Tensor& ids, const torch::Tensor& positions);
  torch::Tensor logits(const torch::Tensor& x);

  ModelConfig config_;
  torch::nn::Embedding tokens_{nullptr};
  torch::Tensor positions_;  // sinusoidal table [max(max_source, max_bytecode), D], a buffer
  std::vector<EncoderLayer> encoder_;
  std::vector<DecoderLayer> decoder_;
  torch::nn::LayerNorm encoder_norm_{nullptr}, decoder_norm_{nullptr};
};
TORCH_MODULE(Seq2Seq);

// The number of trainable parameters.
i64 parameter_count(Seq2Seq& model);

}  // namespace gs::neural
