// The compile kernel and its launcher (pipeline/cuda_compiler.h).
#include <cuda_runtime.h>

#include "pipeline/cuda_compiler.h"

namespace gs::pipeline {

namespace {

// `workers` threads take part (those beyond it return at once); thread w compiles programs
// w, w + workers, … in workspace slice w.
__global__ void compile_kernel(SourceBatch s, LexedBatch lexed, BytecodeBatch b, CompileResults r,
                               compiler::CompileLimits limits, u8* workspace, u64 workspace_stride,
                               u64 workers) {
  const u64 w = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w >= workers) return;
  u8* mine = workspace + w * workspace_stride;
  for (u64 i = w; i < s.count; i += workers)
    compile_stage_lexed(s, u32(i), lexed_program(s, lexed, u32(i)), limits, mine, b, r);
}

}  // namespace

u32 compile_resident_threads(u32 multiprocessors) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, compile_kernel, kCompileBlockThreads, 0) !=
      cudaSuccess)
    return 0;
  return u32(blocks) * multiprocessors * kCompileBlockThreads;
}

void launch_compile(const SourceBatch& s, const LexedBatch& lexed, const BytecodeBatch& b,
                    const CompileResults& r, const compiler::CompileLimits& limits, u8* workspace,
                    u64 workspace_stride, u32 threads, void* stream) {
  const u64 workers = threads < s.count ? threads : s.count;
  if (workers == 0) return;
  const u64 blocks = (workers + kCompileBlockThreads - 1) / kCompileBlockThreads;
  compile_kernel<<<unsigned(blocks), kCompileBlockThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      s, lexed, b, r, limits, workspace, workspace_stride, workers);
}

}  // namespace gs::pipeline
