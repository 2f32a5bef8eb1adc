// The neural compiler's sizes, without torch (the command line and checkpoints read it).
#pragma once

#include <string>

#include "base/hd.h"

namespace gs::neural {

// Defaults train on a 2-core CPU in minutes (docs/neural.md "Model").
struct ModelConfig {
  i64 vocab = 0;  // 0: the vocabulary's size (Vocabulary::get().size())
  i64 d_model = 128;
  i64 heads = 4;
  i64 encoder_layers = 2;
  i64 decoder_layers = 2;
  i64 ff = 256;            // the feed-forward layer's width
  i64 max_source = 160;    // tokens, EOS included
  i64 max_bytecode = 256;  // tokens, BOS and EOS included
  double dropout = 0.0;

  // "d_model=128 heads=4 ..." one key=value per field, and back; false with *error on a bad text.
  std::string to_text() const;
  bool from_text(const std::string& text, std::string* error);
  // Why this configuration cannot be built ("d_model must be a multiple of heads"), or "".
  std::string problem() const;
};

}  // namespace gs::neural
