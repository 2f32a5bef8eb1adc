// The batch lexer's kernels and launcher (pipeline/cuda_lexer.h). The kernels are thin
// loops around pipeline/lex_stage.h's steps, which the CPU backend runs too.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cub/device/device_scan.cuh>

#include "pipeline/cuda_lexer.h"

namespace gs::pipeline {

namespace {

// Scratch layout: flags, states, counts (per byte), disagreed (per program), CUB's storage.
struct ScratchLayout {
  u64 flags, states, counts, disagreed, cub, total;
};

constexpr u64 align256(u64 n) { return (n + 255) & ~u64(255); }

ScratchLayout layout_for(u64 text_bytes, u32 count, u64 cub_bytes) {
  ScratchLayout l{};
  l.flags = 0;
  l.states = l.flags + align256(text_bytes);
  l.counts = l.states + align256(text_bytes);
  l.disagreed = l.counts + align256(text_bytes * 8);
  l.cub = l.disagreed + align256(u64(count) * 4);
  l.total = l.cub + align256(cub_bytes);
  return l;
}

// The DFA scan's input: byte i's transition map.
struct ByteMapAt {
  SourceBatch s;
  const u8* flags;
  __host__ __device__ StateMap operator()(u64 i) const { return lex_byte_map(s, flags, i); }
};

// The DFA scan's output: the state after the byte, from the lexer's start state.
struct StateFromGap {
  __host__ __device__ u8 operator()(StateMap f) const { return u8(map_apply(f, kGap)); }
};

using MapInput = thrust::transform_iterator<ByteMapAt, thrust::counting_iterator<u64>, StateMap>;
using StateOutput = thrust::transform_output_iterator<StateFromGap, u8*>;

// The two scans, each called once with temp null to size CUB's storage and once to run (u32
// item counts: a batch is below 4 GiB, and CUB's kernels are faster with 32-bit offsets).
cudaError_t scan_states(void* temp, size_t& temp_bytes, const SourceBatch& s, const u8* flags, u8* states,
                        u64 text_bytes, cudaStream_t stream) {
  MapInput in(thrust::counting_iterator<u64>(0), ByteMapAt{s, flags});
  StateOutput out(states, StateFromGap{});
  return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, ComposeStateMaps{}, u32(text_bytes),
                                        stream);
}

cudaError_t scan_counts(void* temp, size_t& temp_bytes, u64* counts, u64 text_bytes, cudaStream_t stream) {
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, counts, counts, u32(text_bytes), stream);
}

__global__ void mark_kernel(SourceBatch s, u8* flags) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 p = u64(blockIdx.x) * blockDim.x + threadIdx.x; p < s.count; p += stride)
    lex_mark_program(s, flags, u32(p));
}

__global__ void count_kernel(SourceBatch s, LexScratch x, u64 text_bytes) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x; i < text_bytes; i += stride) {
    u32 p = 0;
    x.counts[i] = lex_count_byte(s, x, i, &p);
  }
}

__global__ void write_kernel(SourceBatch s, LexScratch x, u64 text_bytes, LexedBatch out, u32* disagreed) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 i = u64(blockIdx.x) * blockDim.x + threadIdx.x; i < text_bytes; i += stride) {
    u32 p = 0;
    if (!lex_write_byte(s, x, i, out, &p)) atomicOr(disagreed + p, 1u);
  }
}

__global__ void finish_kernel(SourceBatch s, LexScratch x, LexedBatch out, const u32* disagreed) {
  const u64 stride = u64(gridDim.x) * blockDim.x;
  for (u64 p = u64(blockIdx.x) * blockDim.x + threadIdx.x; p < s.count; p += stride)
    out.fallback[p] = lex_finish_program(s, x, u32(p), disagreed[p] != 0, out) ? 0 : 1;
}

// Blocks for n items, one per thread, capped (the kernels loop over what is left).
unsigned blocks_for(u64 n) {
  const u64 blocks = (n + kLexBlockThreads - 1) / kLexBlockThreads;
  return unsigned(blocks < (u64(1) << 20) ? (blocks > 0 ? blocks : 1) : (u64(1) << 20));
}

u64 cub_bytes_needed(u64 text_bytes, cudaError_t* error) {
  if (text_bytes == 0) return 0;
  size_t a = 0, b = 0;
  const SourceBatch none{};
  *error = scan_states(nullptr, a, none, nullptr, nullptr, text_bytes, nullptr);
  if (*error == cudaSuccess) *error = scan_counts(nullptr, b, nullptr, text_bytes, nullptr);
  return a > b ? a : b;
}

}  // namespace

int lex_scratch_bytes(u64 text_bytes, u32 count, u64* bytes) {
  *bytes = 0;
  if (text_bytes >= (u64(1) << 32)) return int(cudaErrorInvalidValue);
  cudaError_t error = cudaSuccess;
  const u64 cub = cub_bytes_needed(text_bytes, &error);
  *bytes = layout_for(text_bytes, count, cub).total;
  return int(error);
}

int launch_lex(const SourceBatch& s, u64 text_bytes, const LexedBatch& out, void* scratch, u64 scratch_bytes,
               void* stream_handle) {
  if (s.count == 0) return int(cudaSuccess);
  if (text_bytes >= (u64(1) << 32)) return int(cudaErrorInvalidValue);
  cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
  cudaError_t error = cudaSuccess;
  const u64 cub = cub_bytes_needed(text_bytes, &error);
  if (error != cudaSuccess) return int(error);
  const ScratchLayout l = layout_for(text_bytes, s.count, cub);
  if (scratch_bytes < l.total) return int(cudaErrorInvalidValue);
  u8* base = static_cast<u8*>(scratch);
  const LexScratch x{base + l.flags, base + l.states, reinterpret_cast<u64*>(base + l.counts)};
  u32* disagreed = reinterpret_cast<u32*>(base + l.disagreed);
  void* temp = base + l.cub;
  size_t temp_bytes = cub;

  if (text_bytes > 0 && (error = cudaMemsetAsync(x.flags, 0, text_bytes, stream)) != cudaSuccess)
    return int(error);
  if ((error = cudaMemsetAsync(disagreed, 0, u64(s.count) * 4, stream)) != cudaSuccess) return int(error);
  if (text_bytes > 0) {
    mark_kernel<<<blocks_for(s.count), kLexBlockThreads, 0, stream>>>(s, x.flags);
    if ((error = cudaGetLastError()) != cudaSuccess) return int(error);
    if ((error = scan_states(temp, temp_bytes, s, x.flags, x.states, text_bytes, stream)) != cudaSuccess)
      return int(error);
    count_kernel<<<blocks_for(text_bytes), kLexBlockThreads, 0, stream>>>(s, x, text_bytes);
    if ((error = cudaGetLastError()) != cudaSuccess) return int(error);
    temp_bytes = cub;
    if ((error = scan_counts(temp, temp_bytes, x.counts, text_bytes, stream)) != cudaSuccess)
      return int(error);
    write_kernel<<<blocks_for(text_bytes), kLexBlockThreads, 0, stream>>>(s, x, text_bytes, out, disagreed);
    if ((error = cudaGetLastError()) != cudaSuccess) return int(error);
  }
  finish_kernel<<<blocks_for(s.count), kLexBlockThreads, 0, stream>>>(s, x, out, disagreed);
  return int(cudaGetLastError());
}

}  // namespace gs::pipeline
