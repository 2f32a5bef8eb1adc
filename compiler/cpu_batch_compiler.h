// The CPU backend of the compile stage: compiler/batch_compile.h's compile_program over a
// thread pool, each worker reusing one workspace.
#pragma once

#include <vector>

#include "compiler/batch_compile.h"
#include "vm/thread_pool.h"

namespace gs::compiler {

class CpuBatchCompiler {
 public:
  CpuBatchCompiler(vm::ThreadPool& pool, const CompileLimits& limits);
  // Fills b's slots, sizes, status and entry (0) and r for every program of s.
  void compile(const SourceBatch& s, vm::BytecodeBatch& b, CompileResults& r);

 private:
  vm::ThreadPool& pool_;
  CompileLimits limits_;
  std::vector<std::vector<u64>> workspaces_;  // per worker
};

}  // namespace gs::compiler
