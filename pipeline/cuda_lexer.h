// The CUDA backend of the batch lexer (pipeline/lex_stage.h): one thread per byte of the
// batch for the per-byte steps, one per program for the per-program ones, and CUB's device-wide
// scans for the two prefix scans (the DFA's map composition, the token/diagnostic counts).
// No CUDA header is needed to include this; the stream is a cudaStream_t passed as void*, and an
// int result is a cudaError_t (0 = cudaSuccess).
#pragma once

#include "pipeline/lex_stage.h"

namespace gs::pipeline {

// Threads per block of the lexer's kernels.
inline constexpr u32 kLexBlockThreads = 256;

// *bytes receives the device scratch launch_lex needs for `count` programs in text_bytes =
// offsets[count] bytes of text (about 10 bytes per text byte, plus CUB's temporary storage).
// Asks CUB, so it needs a CUDA device; returns the error if CUB reports one.
int lex_scratch_bytes(u64 text_bytes, u32 count, u64* bytes);

// Enqueues the batch lexer on `stream`: fills out for every program of s, exactly as
// CpuBatchLexer does (out.fallback marks the programs lexed again by lex()). Every pointer in s
// and out is device memory, out's arrays sized as HostLexedBatch::resize sizes them;
// text_bytes is s.offsets[count] (known on the host), below 4 GiB. scratch: scratch_bytes of
// device memory, 256-aligned, at least lex_scratch_bytes(). Returns without waiting: 0, or the
// error of the first call that could not be enqueued (cudaErrorInvalidValue for a batch too
// large or scratch too small).
int launch_lex(const SourceBatch& s, u64 text_bytes, const LexedBatch& out, void* scratch, u64 scratch_bytes,
               void* stream);

}  // namespace gs::pipeline
