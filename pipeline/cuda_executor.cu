// The verify, execute and score kernels and their launchers (pipeline/cuda_executor.h).
#include <cuda_runtime.h>

#include "pipeline/cuda_executor.h"
#include "pipeline/stages.h"

namespace gs::pipeline {

namespace {

constexpr u64 kVerifierScratchBytes = u64(kVerifierScratchWords) * sizeof(u32);
constexpr u32 kWarpLanes = 32;
static_assert(kExecutorBlockThreads % kWarpLanes == 0, "a block holds whole warps");

__device__ u64 thread_index() { return u64(blockIdx.x) * blockDim.x + threadIdx.x; }

// In every kernel, `workers` threads take part (those beyond it return at once), each with
// slice thread_index() of the scratch, and thread w takes work items w, w + workers, ….

__global__ void verify_kernel(BytecodeBatch b, CaseSetView t, u8* scratch, u64 workers) {
  const u64 w = thread_index();
  if (w >= workers) return;
  u32* mine = reinterpret_cast<u32*>(scratch + w * kVerifierScratchBytes);
  for (u64 i = w; i < b.count; i += workers) verify_stage(b, u32(i), t, mine);
}

// One work item per (program, case) pair.
__global__ void execute_pairs_kernel(BytecodeBatch b, CaseSetView t, PairResults out, vm::Limits limits,
                                     u8* scratch, u64 workers) {
  const u64 w = thread_index();
  if (w >= workers) return;
  vm::Machine m = vm::machine_over(scratch + w * vm::machine_bytes(limits), limits);
  const u64 pairs = u64(b.count) * t.case_count;
  for (u64 pair = w; pair < pairs; pair += workers)
    execute_stage(b, u32(pair / t.case_count), t, u32(pair % t.case_count), m, limits.fuel, out);
}

// One work item per program for each warp (workers is a multiple of kWarpLanes): lane l of the
// warp runs the program's cases l, l + 32, ….
__global__ void execute_warps_kernel(BytecodeBatch b, CaseSetView t, PairResults out, vm::Limits limits,
                                     u8* scratch, u64 workers) {
  const u64 w = thread_index();
  if (w >= workers) return;
  vm::Machine m = vm::machine_over(scratch + w * vm::machine_bytes(limits), limits);
  const u64 warps = workers / kWarpLanes;
  const u32 lane = u32(w % kWarpLanes);
  for (u64 i = w / kWarpLanes; i < b.count; i += warps)
    for (u32 k = lane; k < t.case_count; k += kWarpLanes) execute_stage(b, u32(i), t, k, m, limits.fuel, out);
}

__global__ void score_kernel(BytecodeBatch b, CaseSetView t, PairResults pairs, RewardWeights weights,
                             u64 fuel, ProgramResults out, u64 workers) {
  const u64 w = thread_index();
  if (w >= workers) return;
  for (u64 i = w; i < b.count; i += workers) score_stage(b, u32(i), t, pairs, weights, fuel, out);
}

unsigned blocks_for(u64 workers) {
  return unsigned((workers + kExecutorBlockThreads - 1) / kExecutorBlockThreads);
}

template <class Kernel>
u32 resident_threads_of(Kernel kernel, u32 multiprocessors) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kExecutorBlockThreads, 0) != cudaSuccess)
    return 0;
  return u32(blocks) * multiprocessors * kExecutorBlockThreads;
}

}  // namespace

u64 verifier_scratch_bytes() { return kVerifierScratchBytes; }

u32 resident_threads(ExecutorKernel k, u32 multiprocessors) {
  switch (k) {
    case ExecutorKernel::Verify: return resident_threads_of(verify_kernel, multiprocessors);
    case ExecutorKernel::ExecutePairs: return resident_threads_of(execute_pairs_kernel, multiprocessors);
    case ExecutorKernel::ExecuteWarps: return resident_threads_of(execute_warps_kernel, multiprocessors);
    case ExecutorKernel::Score: return resident_threads_of(score_kernel, multiprocessors);
  }
  return 0;
}

void launch_verify(const BytecodeBatch& b, const CaseSetView& t, u8* scratch, u32 threads, void* stream) {
  const u64 workers = threads < b.count ? threads : b.count;
  if (workers == 0) return;
  verify_kernel<<<blocks_for(workers), kExecutorBlockThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      b, t, scratch, workers);
}

void launch_execute(const BytecodeBatch& b, const CaseSetView& t, const PairResults& out,
                    const vm::Limits& limits, u8* scratch, u32 threads, bool warp_per_program, void* stream) {
  const u64 pairs = u64(b.count) * t.case_count;
  auto s = static_cast<cudaStream_t>(stream);
  if (warp_per_program && threads >= kWarpLanes) {
    const u64 whole_warps = threads / kWarpLanes * kWarpLanes;
    const u64 needed = u64(b.count) * kWarpLanes;
    const u64 workers = pairs == 0 ? 0 : whole_warps < needed ? whole_warps : needed;
    if (workers == 0) return;
    execute_warps_kernel<<<blocks_for(workers), kExecutorBlockThreads, 0, s>>>(b, t, out, limits, scratch,
                                                                               workers);
  } else {
    const u64 workers = threads < pairs ? threads : pairs;
    if (workers == 0) return;
    execute_pairs_kernel<<<blocks_for(workers), kExecutorBlockThreads, 0, s>>>(b, t, out, limits, scratch,
                                                                               workers);
  }
}

void launch_score(const BytecodeBatch& b, const CaseSetView& t, const PairResults& pairs,
                  const RewardWeights& w, u64 fuel, const ProgramResults& out, u32 threads, void* stream) {
  const u64 workers = threads < b.count ? threads : b.count;
  if (workers == 0) return;
  score_kernel<<<blocks_for(workers), kExecutorBlockThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      b, t, pairs, w, fuel, out, workers);
}

}  // namespace gs::pipeline
