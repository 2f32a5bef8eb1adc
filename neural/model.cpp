#include "neural/model.h"

#include <torch/nn/init.h>

#include <cmath>
#include <stdexcept>

#include "neural/vocabulary.h"

namespace gs::neural {
namespace {

// Large enough to zero a softmax weight, small enough that a fully masked row stays finite.
constexpr double kMasked = -1e9;

torch::Tensor residual_dropout(const torch::Tensor& x, double p, bool training) {
  return p > 0 ? torch::dropout(x, p, training) : x;
}

}  // namespace

// ---- attention --------------------------------------------------------------------------------

AttentionImpl::AttentionImpl(i64 d_model, i64 heads) : heads_(heads), head_dim_(d_model / heads) {
  query_ = register_module("query", torch::nn::Linear(d_model, d_model));
  key_ = register_module("key", torch::nn::Linear(d_model, d_model));
  value_ = register_module("value", torch::nn::Linear(d_model, d_model));
  out_ = register_module("out", torch::nn::Linear(d_model, d_model));
}

torch::Tensor AttentionImpl::split(const torch::Tensor& x) const {
  return x.view({x.size(0), x.size(1), heads_, head_dim_}).transpose(1, 2);
}

KeysValues AttentionImpl::project(const torch::Tensor& x) { return {split(key_(x)), split(value_(x))}; }

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const KeysValues& kv,
                                     const torch::Tensor& bias) {
  torch::Tensor q = split(query_(x));
  torch::Tensor scores = torch::matmul(q, kv.keys.transpose(-2, -1)) / std::sqrt(double(head_dim_));
  if (bias.defined()) scores = scores + bias;
  torch::Tensor mixed = torch::matmul(torch::softmax(scores, -1), kv.values);  // [B, H, T, hd]
  return out_(mixed.transpose(1, 2).reshape({x.size(0), x.size(1), heads_ * head_dim_}));
}

FeedForwardImpl::FeedForwardImpl(i64 d_model, i64 ff) {
  up_ = register_module("up", torch::nn::Linear(d_model, ff));
  down_ = register_module("down", torch::nn::Linear(ff, d_model));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) { return down_(torch::gelu(up_(x))); }

// ---- layers -----------------------------------------------------------------------------------

EncoderLayerImpl::EncoderLayerImpl(const ModelConfig& c) : dropout_(c.dropout) {
  norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
  norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
  attention_ = register_module("attention", Attention(c.d_model, c.heads));
  ff_ = register_module("ff", FeedForward(c.d_model, c.ff));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& pad_bias) {
  torch::Tensor h = norm1_(x);
  torch::Tensor y =
      x + residual_dropout(attention_(h, attention_->project(h), pad_bias), dropout_, is_training());
  return y + residual_dropout(ff_(norm2_(y)), dropout_, is_training());
}

DecoderLayerImpl::DecoderLayerImpl(const ModelConfig& c) : dropout_(c.dropout) {
  norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
  norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
  norm3_ = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.d_model})));
  self_ = register_module("self_attention", Attention(c.d_model, c.heads));
  cross_ = register_module("cross_attention", Attention(c.d_model, c.heads));
  ff_ = register_module("ff", FeedForward(c.d_model, c.ff));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor& x, KeysValues* self_kv,
                                        const torch::Tensor& self_bias, const KeysValues& memory_kv,
                                        const torch::Tensor& memory_bias, bool cache) {
  torch::Tensor h = norm1_(x);
  KeysValues kv = self_->project(h);
  if (cache && self_kv->keys.defined())
    kv = {torch::cat({self_kv->keys, kv.keys}, 2), torch::cat({self_kv->values, kv.values}, 2)};
  if (cache) *self_kv = kv;
  torch::Tensor y = x + residual_dropout(self_(h, kv, self_bias), dropout_, is_training());
  y = y + residual_dropout(cross_(norm2_(y), memory_kv, memory_bias), dropout_, is_training());
  return y + residual_dropout(ff_(norm3_(y)), dropout_, is_training());
}

// ---- the model --------------------------------------------------------------------------------

Seq2SeqImpl::Seq2SeqImpl(ModelConfig config) : config_(config) {
  if (config_.vocab == 0) config_.vocab = Vocabulary::get().size();
  if (std::string why = config_.problem(); !why.empty())
    throw std::invalid_argument("model configuration: " + why);
  const i64 d = config_.d_model;
  tokens_ = register_module("tokens", torch::nn::Embedding(config_.vocab, d));
  // Scaled so that the tied output layer starts with logits of about unit size.
  {
    torch::NoGradGuard no_grad;
    tokens_->weight.normal_(0, 1.0 / std::sqrt(double(d)));
  }
  // Sinusoidal positions (sin and cos of each frequency side by side).
  i64 rows = std::max(config_.max_source, config_.max_bytecode);
  torch::Tensor pos = torch::arange(rows, torch::kFloat).unsqueeze(1);
  torch::Tensor rate = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / double(d)));
  torch::Tensor table = torch::stack({torch::sin(pos * rate), torch::cos(pos * rate)}, 2).reshape({rows, d});
  positions_ = register_buffer("positions", table);

  for (i64 i = 0; i < config_.encoder_layers; ++i)
    encoder_.push_back(register_module("encoder" + std::to_string(i), EncoderLayer(config_)));
  for (i64 i = 0; i < config_.decoder_layers; ++i)
    decoder_.push_back(register_module("decoder" + std::to_string(i), DecoderLayer(config_)));
  encoder_norm_ = register_module("encoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
  decoder_norm_ = register_module("decoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
}

torch::Tensor Seq2SeqImpl::embed(const torch::Tensor& ids, const torch::Tensor& positions) {
  return tokens_->forward(ids) * std::sqrt(double(config_.d_model)) + positions_.index_select(0, positions);
}

torch::Tensor Seq2SeqImpl::logits(const torch::Tensor& x) {
  return torch::matmul(decoder_norm_(x), tokens_->weight.t());
}

torch::Tensor Seq2SeqImpl::encode(const torch::Tensor& source, torch::Tensor* pad_bias) {
  if (source.size(1) > config_.max_source)
    throw std::invalid_argument("source of " + std::to_string(source.size(1)) +
                                " tokens exceeds max_source " + std::to_string(config_.max_source));
  // [B, 1, 1, S]: PAD keys are never attended to.
  *pad_bias = source.eq(i64(Special::PAD)).to(torch::kFloat).mul(kMasked).unsqueeze(1).unsqueeze(1);
  torch::Tensor positions = torch::arange(source.size(1), source.options().dtype(torch::kLong));
  torch::Tensor x = residual_dropout(embed(source, positions), config_.dropout, is_training());
  for (EncoderLayer& layer : encoder_) x = layer(x, *pad_bias);
  return encoder_norm_(x);
}

torch::Tensor Seq2SeqImpl::forward(const torch::Tensor& source, const torch::Tensor& decoder_input) {
  const i64 t = decoder_input.size(1);
  if (t > config_.max_bytecode)
    throw std::invalid_argument("bytecode of " + std::to_string(t) + " tokens exceeds max_bytecode " +
                                std::to_string(config_.max_bytecode));
  torch::Tensor memory_bias;
  torch::Tensor memory = encode(source, &memory_bias);
  // [1, 1, T, T]: position i sees positions 0..i.
  torch::Tensor causal = torch::ones({t, t}, memory.options()).triu(1).mul(kMasked).unsqueeze(0).unsqueeze(0);
  torch::Tensor positions = torch::arange(t, decoder_input.options().dtype(torch::kLong));
  torch::Tensor x = residual_dropout(embed(decoder_input, positions), config_.dropout, is_training());
  for (DecoderLayer& layer : decoder_) {
    KeysValues unused;
    x = layer(x, &unused, causal, layer->memory_keys_values(memory), memory_bias, false);
  }
  return logits(x);
}

Seq2SeqImpl::Decoding Seq2SeqImpl::start(const torch::Tensor& source) {
  Decoding d;
  torch::Tensor memory = encode(source, &d.memory_bias);
  for (DecoderLayer& layer : decoder_) d.memory_kv.push_back(layer->memory_keys_values(memory));
  d.self_kv.resize(decoder_.size());
  return d;
}

torch::Tensor Seq2SeqImpl::step(Decoding& d, const torch::Tensor& tokens) {
  if (d.position >= config_.max_bytecode)
    throw std::invalid_argument("decoding past max_bytecode " + std::to_string(config_.max_bytecode));
  torch::Tensor position = torch::full({1}, d.position, tokens.options().dtype(torch::kLong));
  torch::Tensor x = embed(tokens.unsqueeze(1), position);  // [B, 1, D]
  for (size_t i = 0; i < decoder_.size(); ++i)
    x = decoder_[i](x, &d.self_kv[i], torch::Tensor(), d.memory_kv[i], d.memory_bias, true);
  ++d.position;
  return logits(x).squeeze(1);
}

void Seq2SeqImpl::keep_rows(Decoding& d, const torch::Tensor& rows) const {
  const torch::Tensor index = rows.to(d.memory_bias.device(), torch::kLong);
  d.memory_bias = d.memory_bias.index_select(0, index);
  for (std::vector<KeysValues>* caches : {&d.memory_kv, &d.self_kv})
    for (KeysValues& kv : *caches)
      if (kv.keys.defined()) kv = {kv.keys.index_select(0, index), kv.values.index_select(0, index)};
}

i64 parameter_count(Seq2Seq& model) {
  i64 n = 0;
  for (const torch::Tensor& p : model->parameters()) n += p.numel();
  return n;
}

}  // namespace gs::neural
