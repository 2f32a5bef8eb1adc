// The tiny model configuration the neural tests train and sample in seconds.
#pragma once

#include "neural/model_config.h"

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

}  // namespace gs::neural::testing
