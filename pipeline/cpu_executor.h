// The CPU backend of the verify, execute and score stages: loops of pipeline/stages.h's functions
// over a thread pool, each worker with its own machine (stack, frames, heap) and verifier
// scratch. The reference the CUDA executor is compared with.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "base/thread_pool.h"
#include "pipeline/batch.h"
#include "pipeline/case_set.h"
#include "vm/limits.h"
#include "vm/machine.h"

namespace gs::pipeline {

class CpuExecutor {
 public:
  CpuExecutor(ThreadPool& pool, const vm::Limits& limits);

  // Verify stage: programs with status OK are verified and their entry found.
  void verify(BytecodeBatch& b, const CaseSetView& t);
  // Execute stage: every (program, case) pair; once `deadline` has passed, the pairs not yet
  // begun are skipped (skip_stage: not run).
  void execute(const BytecodeBatch& b, const CaseSetView& t, PairResults& out,
               std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
  // Score stage: cases passed, instructions and reward per program.
  void score(const BytecodeBatch& b, const CaseSetView& t, const PairResults& pairs, const RewardWeights& w,
             ProgramResults& out);

 private:
  struct Worker {
    explicit Worker(const vm::Limits& limits) : machine(limits) {}
    vm::OwnedMachine machine;
    std::vector<u32> scratch;
  };
  ThreadPool& pool_;
  vm::Limits limits_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace gs::pipeline
