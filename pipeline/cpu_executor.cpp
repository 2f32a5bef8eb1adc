#include "pipeline/cpu_executor.h"

#include "pipeline/stages.h"

namespace gs::pipeline {

CpuExecutor::CpuExecutor(ThreadPool& pool, const vm::Limits& limits) : pool_(pool), limits_(limits) {
  for (u32 w = 0; w < pool.size(); ++w) workers_.push_back(std::make_unique<Worker>(limits));
}

void CpuExecutor::verify(BytecodeBatch& b, const CaseSetView& t) {
  pool_.parallel_for(b.count, 256, [&](u64 begin, u64 end, u32 worker) {
    std::vector<u32>& scratch = workers_[worker]->scratch;
    if (scratch.empty()) scratch.resize(kVerifierScratchWords);
    for (u64 i = begin; i < end; ++i) verify_stage(b, u32(i), t, scratch.data());
  });
}

void CpuExecutor::execute(const BytecodeBatch& b, const CaseSetView& t, PairResults& out,
                          std::optional<std::chrono::steady_clock::time_point> deadline) {
  // One program's cases on one worker: its bytecode stays in that core's cache.
  pool_.parallel_for(b.count, 16, [&](u64 begin, u64 end, u32 worker) {
    vm::Machine& m = workers_[worker]->machine.get();
    for (u64 i = begin; i < end; ++i)
      for (u32 k = 0; k < t.case_count; ++k) {
        if (deadline && std::chrono::steady_clock::now() >= *deadline)
          skip_stage(u32(i), t, k, out);
        else
          execute_stage(b, u32(i), t, k, m, limits_.fuel, out);
      }
  });
}

void CpuExecutor::score(const BytecodeBatch& b, const CaseSetView& t, const PairResults& pairs,
                        const RewardWeights& w, ProgramResults& out) {
  pool_.parallel_for(b.count, 1024, [&](u64 begin, u64 end, u32) {
    for (u64 i = begin; i < end; ++i) score_stage(b, u32(i), t, pairs, w, limits_.fuel, out);
  });
}

}  // namespace gs::pipeline
