#include "pipeline/cpu_compiler.h"

namespace gs::pipeline {

CpuBatchCompiler::CpuBatchCompiler(ThreadPool& pool, const compiler::CompileLimits& limits)
    : pool_(pool), limits_(limits), workspaces_(pool.size()) {}

void CpuBatchCompiler::compile(const SourceBatch& s, BytecodeBatch& b, CompileResults& r,
                               const LexedBatch* lexed) {
  u64 longest = 0;
  for (u32 i = 0; i < s.count; ++i) longest = std::max(longest, s.offsets[i + 1] - s.offsets[i]);
  u64 words = batch_workspace_bytes(u32(std::min<u64>(longest, limits_.max_source_bytes)), limits_) / 8;
  pool_.parallel_for(s.count, 64, [&](u64 begin, u64 end, u32 worker) {
    std::vector<u64>& w = workspaces_[worker];
    if (w.size() < words) w.resize(words);
    u8* workspace = reinterpret_cast<u8*>(w.data());
    for (u64 i = begin; i < end; ++i) {
      if (lexed != nullptr)
        compile_stage_lexed(s, u32(i), lexed_program(s, *lexed, u32(i)), limits_, workspace, b, r);
      else
        compile_stage(s, u32(i), limits_, workspace, b, r);
    }
  });
}

}  // namespace gs::pipeline
