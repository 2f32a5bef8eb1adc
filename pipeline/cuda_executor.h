// The CUDA backend of the verify, execute and score stages: pipeline/stages.h's verify_stage,
// execute_stage and score_stage in GPU threads (grid-stride loops), each launched thread
// owning one slice of a global scratch buffer (verifier scratch, or an execution's stack, heap
// and frames), so scratch grows with the threads launched, not with the batch. The machines
// have exactly the CPU executor's limits, so both backends give identical results.
// No CUDA header is needed to include this; the stream is a cudaStream_t passed as void*.
#pragma once

#include "pipeline/batch.h"
#include "pipeline/case_set.h"
#include "vm/limits.h"
#include "vm/machine.h"

namespace gs::pipeline {

// Threads per block of every executor kernel.
inline constexpr u32 kExecutorBlockThreads = 128;

// Scratch bytes of one verifying thread: kVerifierScratchWords words (pipeline/stages.h).
u64 verifier_scratch_bytes();

enum class ExecutorKernel : u8 { Verify, ExecutePairs, ExecuteWarps, Score };

// Threads of kernel k that `multiprocessors` multiprocessors of the current device run at once
// (its occupancy at kExecutorBlockThreads per block): launching more only makes them wait and
// costs scratch. 0 when the runtime fails (the error is left for cudaGetLastError()).
u32 resident_threads(ExecutorKernel k, u32 multiprocessors);

// The launchers below enqueue one stage on `stream` and return without waiting; a launch error
// is reported by the next cudaGetLastError(), as for any kernel. Every pointer, in the views
// too, is device memory. threads: the most threads to launch (at least 1; fewer run when the
// stage has less work); scratch holds that many slices of the stage's scratch bytes, and
// launched thread j owns slice j for the whole launch (grid-stride loops).

// Verify stage (as CpuExecutor::check): one thread per program; scratch: threads ×
// verifier_scratch_bytes().
void launch_verify(const BytecodeBatch& b, const CaseSetView& t, u8* scratch, u32 threads, void* stream);

// Execute stage (as CpuExecutor::execute), every (program, case) pair with limits.fuel.
// scratch: threads × vm::machine_bytes(limits). warp_per_program false: one thread per
// pair, pair p being program p / case_count on test p % case_count. true: one warp per program,
// its lanes taking the program's cases in turn, so a warp runs one bytecode; it uses whole
// warps of the threads (with fewer than 32 it runs one thread per pair). Which is faster has
// not been measured yet; the pipeline uses one thread per pair.
void launch_execute(const BytecodeBatch& b, const CaseSetView& t, const PairResults& out,
                    const vm::Limits& limits, u8* scratch, u32 threads, bool warp_per_program, void* stream);

// Score stage (as CpuExecutor::score): one thread per program; no scratch.
void launch_score(const BytecodeBatch& b, const CaseSetView& t, const PairResults& pairs,
                  const RewardWeights& w, u64 fuel, const ProgramResults& out, u32 threads, void* stream);

}  // namespace gs::pipeline
