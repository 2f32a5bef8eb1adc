// The CPU backend of the batch lexer (pipeline/lex_stage.h): the same per-byte and per-program
// steps as the CUDA backend, run over a thread pool, with each prefix scan done in blocks
// (block totals in parallel, a short sequential pass over the blocks, then each block again).
#pragma once

#include <vector>

#include "base/thread_pool.h"
#include "pipeline/lex_stage.h"

namespace gs::pipeline {

// Host arrays a LexedBatch points into, sized for a batch.
struct HostLexedBatch {
  std::vector<compiler::Token> tokens;
  std::vector<u32> token_count;
  std::vector<compiler::Diagnostic> diagnostics;
  std::vector<u32> diagnostic_count;
  std::vector<u8> fallback;

  void resize(const SourceBatch& s);
  LexedBatch view();
};

class CpuBatchLexer {
 public:
  // block_bytes: the bytes a worker takes at a time in each pass (small values are for cases:
  // they make blocks begin inside programs, so the scans must carry states across them).
  explicit CpuBatchLexer(ThreadPool& pool, u64 block_bytes = u64(1) << 16);

  // Lexes every program of s into out (host arrays sized as HostLexedBatch::resize does): the
  // tokens and diagnostics lex() gives for each program. Returns how many programs fell back to
  // lex() because the data-parallel lexer disagreed with it (out.fallback marks them).
  u32 lex(const SourceBatch& s, const LexedBatch& out);

 private:
  // Block b covers text [begin + b·block_bytes_, ...) of [begin, end).
  void scan_states(const SourceBatch& s, u64 begin, u64 end);
  void scan_counts(const SourceBatch& s, u64 begin, u64 end);

  ThreadPool& pool_;
  u64 block_bytes_;
  std::vector<u8> flags_, states_, disagreed_;
  std::vector<u64> counts_;
  std::vector<StateMap> block_maps_;
  std::vector<u64> block_counts_;
};

}  // namespace gs::pipeline
