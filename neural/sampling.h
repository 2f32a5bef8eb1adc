// Decoding the neural compiler: greedy, and K samples per program with temperature and nucleus
// (top-p) sampling (paper §4: K candidates, verified by execution). The draws come from the
// project's Philox generator keyed by (seed, stream, program, sample), not from torch's, so
// samples are the same for a seed whatever the batch composition or device.
//
// The results are token sequences (BOS ... EOS; EOS missing when max_length cut them) and, via
// decode_candidates, bytecode containers — what verification, the hybrid router and RL
// consume (neural/neural_pipeline.cpp).
#pragma once

#include <torch/types.h>

#include <span>
#include <string>
#include <vector>

#include "neural/bytecode_tokenizer.h"
#include "neural/model.h"
#include "neural/vocabulary.h"

namespace gs::neural {

struct SamplingOptions {
  u32 samples = 1;           // K per source
  double temperature = 1.0;  // <= 0: greedy (argmax)
  double top_p = 1.0;        // nucleus: the smallest set of tokens holding this probability
  u64 seed = 0;
  u64 stream = 0;        // e.g. a problem or iteration number
  u32 max_length = 0;    // tokens per sequence, BOS included; 0: the model's max_bytecode
  u32 batch_rows = 256;  // rows decoded at once (sources x samples)
  // Drop a row from the batch (and its caches) once it has ended with EOS, so that the rows
  // still decoding do not pay for it. The same sequences either way; false is the reference
  // the tests compare with.
  bool compact = true;
};

// For each source (ids ending with EOS), options.samples sequences: result[i][k].
std::vector<std::vector<TokenSeq>> sample(Seq2Seq& model, const std::vector<TokenSeq>& sources,
                                          const SamplingOptions& options, torch::Device device);
// The most likely token at every step (one sequence per source).
std::vector<TokenSeq> greedy(Seq2Seq& model, const std::vector<TokenSeq>& sources, torch::Device device,
                             u32 max_length = 0, bool compact = true);

// Each sequence decoded to a verified container, or the reason it is none.
std::vector<DecodedBytecode> decode_candidates(std::span<const TokenSeq> sequences,
                                               std::span<const std::string> function_names);

// Sources padded with PAD into one [B, S] tensor of longs.
torch::Tensor pad_batch(const std::vector<TokenSeq>& rows, torch::Device device);

}  // namespace gs::neural
