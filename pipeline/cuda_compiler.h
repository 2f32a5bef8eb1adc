// The CUDA backend of the compile stage after the batch lexer (pipeline/cuda_lexer.h):
// pipeline/compile_stage.h's compile_stage_lexed — parse, check and code generation of the
// lexed tokens — in one GPU thread per program (grid-stride), each launched thread owning one
// workspace slice of a global scratch buffer, so the workspace grows with the threads launched,
// not with the batch.
// No CUDA header is needed to include this; the stream is a cudaStream_t passed as void*.
#pragma once

#include "pipeline/compile_stage.h"
#include "pipeline/lex_stage.h"

namespace gs::pipeline {

// Threads per block of the compile kernel.
inline constexpr u32 kCompileBlockThreads = 128;

// Device stack (cudaLimitStackSize) a compiling thread needs under these limits. The parser,
// checker and code generator recurse once per nesting level, at most l.max_depth deep;
// `ptxas -v` (nvcc 13, sm_90) gives at most ~620 bytes of frames per level (the parser's
// parse_expr → parse_binary → parse_unary → parse_postfix → parse_primary →
// parse_parenthesized chain, 552 bytes, plus right operands of binary operators) and ~700 bytes
// below the first level; this allows 768 per level and 4 KiB besides. Too small a stack is
// not a trap but a fault that ends the CUDA context, so the bound is generous.
inline u64 compile_stack_bytes(const compiler::CompileLimits& l) { return 4096 + u64(l.max_depth) * 768; }

// Threads of the compile kernel that `multiprocessors` multiprocessors of the current device
// run at once (its occupancy): launching more only makes them wait and costs workspaces.
// 0 when the runtime fails (the error is left for cudaGetLastError()).
u32 compile_resident_threads(u32 multiprocessors);

// Enqueues the compile stage on `stream`: fills b's slots, sizes, status and entry (0) and r for
// every program of s, exactly as CpuBatchCompiler does, from the tokens launch_lex left in
// lexed (enqueued before it on the same stream). Every pointer in the views is device memory. workspace:
// threads × workspace_stride bytes of device memory, 8-aligned, with workspace_stride a multiple of 8 and at
// least batch_workspace_bytes(longest source, limits). threads: the most threads to launch (at least 1; fewer
// run when there are fewer programs); launched thread j owns workspace slice j. The device's stack limit must
// be at least compile_stack_bytes(limits). Returns without waiting; a launch error is reported by the next
// cudaGetLastError(), as for any kernel.
void launch_compile(const SourceBatch& s, const LexedBatch& lexed, const BytecodeBatch& b,
                    const CompileResults& r, const compiler::CompileLimits& limits, u8* workspace,
                    u64 workspace_stride, u32 threads, void* stream);

}  // namespace gs::pipeline
