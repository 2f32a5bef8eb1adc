// The neural compiler as a compiler: a trained checkpoint that turns Syn sources into K bytecode
// candidates each (paper §4), for probabilistic verification, the hybrid router and self-play.
// This header holds no torch types, so pipeline users and jobs/ include it without torch headers; the
// model lives behind it (neural_compiler.cpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "neural/bytecode_tokenizer.h"
#include "neural/model_config.h"

namespace gs::neural {

struct CompileSampling {
  u32 samples = 1;           // K candidates per source
  double temperature = 0.0;  // <= 0: greedy (every candidate is then the same; use samples = 1)
  double top_p = 0.95;
  u64 seed = 0;
  u64 stream = 0;  // e.g. an iteration number: candidate k of source i is keyed by (seed, stream, i, k)
};

// One source's candidates. An empty candidate (its error says why) is one the decoder could not
// turn into a verified container — or every candidate, when the source itself could not be
// encoded (too long for the model, too many names).
struct Candidates {
  std::vector<DecodedBytecode> samples;
  std::string source_error;  // why the source was not given to the model, or ""
};

class NeuralCompiler {
 public:
  virtual ~NeuralCompiler() = default;
  // A checkpoint written by train-compiler or selfplay, on "cpu" or "cuda"; nullptr with
  // *error (naming the file) when it cannot be read or the device cannot be had.
  static std::unique_ptr<NeuralCompiler> load(const std::string& checkpoint, const std::string& device,
                                              std::string* error);
  virtual const ModelConfig& config() const = 0;
  // Candidates for each source (batched on the model: sources x samples rows at a time).
  virtual std::vector<Candidates> compile(const std::vector<std::string_view>& sources,
                                          const CompileSampling& sampling) = 0;
};

}  // namespace gs::neural
