// The CPU batch lexer: pipeline/lex_stage.h's steps over a thread pool.
#include "pipeline/cpu_lexer.h"

#include <algorithm>
#include <atomic>

namespace gs::pipeline {

void HostLexedBatch::resize(const SourceBatch& s) {
  tokens.resize(token_capacity(s));
  token_count.resize(s.count);
  diagnostics.resize(u64(s.count) * kLexDiagnostics);
  diagnostic_count.resize(s.count);
  fallback.resize(s.count);
}

LexedBatch HostLexedBatch::view() {
  return {tokens.data(), token_count.data(), diagnostics.data(), diagnostic_count.data(), fallback.data()};
}

CpuBatchLexer::CpuBatchLexer(ThreadPool& pool, u64 block_bytes)
    : pool_(pool), block_bytes_(std::max<u64>(block_bytes, 1)) {}

namespace {
constexpr u64 kBlocksPerTask = 16;
}

// Step 2: the inclusive scan of the byte maps, applied to kGap. A block's total is its maps
// composed, which is a constant map when the block holds a program start (the start's map is
// constant): then only the DFA from the last start to the block's end needs running.
void CpuBatchLexer::scan_states(const SourceBatch& s, u64 begin, u64 end) {
  const u64 blocks = (end - begin + block_bytes_ - 1) / block_bytes_;
  block_maps_.resize(blocks);
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    for (u64 b = b0; b < b1; ++b) {
      const u64 lo = begin + b * block_bytes_, hi = std::min(end, lo + block_bytes_);
      u64 restart = hi;  // the block's last program start
      while (restart > lo && !(flags_[restart - 1] & kFirstByte)) --restart;
      if (restart > lo) {
        u8 last = 0;
        for (u64 i = restart - 1; i < hi; ++i)
          last = pack_step(step(packed_state(last), byte_window(s, flags_.data(), i)));
        block_maps_[b] = constant_map(last);
      } else {
        StateMap f = identity_map();
        for (u64 i = lo; i < hi; ++i) f = map_compose(f, byte_map(byte_window(s, flags_.data(), i)));
        block_maps_[b] = f;
      }
    }
  });
  u32 q = kGap;
  for (u64 b = 0; b < blocks; ++b) {  // block b's map now holds the state it starts in
    u32 after = packed_state(map_apply(block_maps_[b], q));
    block_maps_[b] = q;
    q = after;
  }
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    for (u64 b = b0; b < b1; ++b) {
      const u64 lo = begin + b * block_bytes_, hi = std::min(end, lo + block_bytes_);
      u32 state = u32(block_maps_[b]);
      for (u64 i = lo; i < hi; ++i) {
        const u8 packed = pack_step(step(state, byte_window(s, flags_.data(), i)));
        states_[i] = packed;
        state = packed_state(packed);
      }
    }
  });
}

// Step 3: each byte's counts, then their inclusive prefix sum.
void CpuBatchLexer::scan_counts(const SourceBatch& s, u64 begin, u64 end) {
  const u64 blocks = (end - begin + block_bytes_ - 1) / block_bytes_;
  const LexScratch x{flags_.data(), states_.data(), counts_.data()};
  block_counts_.resize(blocks);
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    for (u64 b = b0; b < b1; ++b) {
      const u64 lo = begin + b * block_bytes_, hi = std::min(end, lo + block_bytes_);
      u64 sum = 0;
      u32 p = program_of(s, lo);
      for (u64 i = lo; i < hi; ++i) {
        if (lex_event_at(x, i) != kNoEvent) sum += lex_count_byte(s, x, i, &p);  // (most bytes begin nothing)
        counts_[i] = sum;
      }
      block_counts_[b] = sum;
    }
  });
  u64 sum = 0;
  for (u64 b = 0; b < blocks; ++b) {  // now the counts before block b
    u64 total = block_counts_[b];
    block_counts_[b] = sum;
    sum += total;
  }
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    for (u64 b = b0; b < b1; ++b) {
      const u64 lo = begin + b * block_bytes_, hi = std::min(end, lo + block_bytes_);
      if (block_counts_[b] != 0)
        for (u64 i = lo; i < hi; ++i) counts_[i] += block_counts_[b];
    }
  });
}

u32 CpuBatchLexer::lex(const SourceBatch& s, const LexedBatch& out) {
  if (s.count == 0) return 0;
  const u64 begin = s.offsets[0], end = s.offsets[s.count];
  flags_.resize(end);
  states_.resize(end);
  counts_.resize(end);
  disagreed_.assign(s.count, 0);
  const u64 blocks = (end - begin + block_bytes_ - 1) / block_bytes_;
  // 1. flags
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    const u64 lo = begin + b0 * block_bytes_, hi = std::min(end, begin + b1 * block_bytes_);
    std::fill(flags_.begin() + lo, flags_.begin() + hi, u8(0));
  });
  pool_.parallel_for(s.count, 4096, [&](u64 p0, u64 p1, u32) {
    for (u64 p = p0; p < p1; ++p) lex_mark_program(s, flags_.data(), u32(p));
  });
  // 2, 3. states and counts
  if (end > begin) {
    scan_states(s, begin, end);
    scan_counts(s, begin, end);
  }
  // 4. tokens and diagnostics
  const LexScratch x{flags_.data(), states_.data(), counts_.data()};
  pool_.parallel_for(blocks, kBlocksPerTask, [&](u64 b0, u64 b1, u32) {
    const u64 lo = begin + b0 * block_bytes_, hi = std::min(end, begin + b1 * block_bytes_);
    u32 p = program_of(s, lo);
    for (u64 i = lo; i < hi; ++i)
      if (lex_event_at(x, i) != kNoEvent && !lex_write_byte(s, x, i, out, &p))
        std::atomic_ref<u8>(disagreed_[p]).store(1, std::memory_order_relaxed);
  });
  // 5. END tokens, counts, checks and fallbacks
  std::atomic<u32> fallbacks{0};
  pool_.parallel_for(s.count, 1024, [&](u64 p0, u64 p1, u32) {
    u32 mine = 0;
    for (u64 p = p0; p < p1; ++p) {
      bool agreed = lex_finish_program(s, x, u32(p), disagreed_[p] != 0, out);
      out.fallback[p] = agreed ? 0 : 1;
      mine += agreed ? 0 : 1;
    }
    fallbacks.fetch_add(mine, std::memory_order_relaxed);
  });
  return fallbacks.load();
}

}  // namespace gs::pipeline
