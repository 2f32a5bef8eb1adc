// The CPU backend of the compile stage: pipeline/compile_stage.h's compile_program over a
// thread pool, each worker reusing one workspace.
#pragma once

#include <vector>

#include "pipeline/compile_stage.h"
#include "base/thread_pool.h"

namespace gs::pipeline {

class CpuBatchCompiler {
 public:
  CpuBatchCompiler(ThreadPool& pool, const compiler::CompileLimits& limits);
  // Fills b's slots, sizes, status and entry (0) and r for every program of s.
  void compile(const SourceBatch& s, BytecodeBatch& b, CompileResults& r);

 private:
  ThreadPool& pool_;
  compiler::CompileLimits limits_;
  std::vector<std::vector<u64>> workspaces_;  // per worker
};

}  // namespace gs::pipeline
