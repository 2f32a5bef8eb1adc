// The CPU backend of the compile stage: pipeline/compile_stage.h's compile_stage over a
// thread pool, each worker reusing one workspace — lexing each program itself, or taking the
// tokens the batch lexer made for the whole batch (compile_stage_lexed, as the CUDA kernel).
#pragma once

#include <vector>

#include "base/thread_pool.h"
#include "pipeline/compile_stage.h"
#include "pipeline/lex_stage.h"

namespace gs::pipeline {

class CpuBatchCompiler {
 public:
  CpuBatchCompiler(ThreadPool& pool, const compiler::CompileLimits& limits);
  // Fills b's slots, sizes, status and entry (0) and r for every program of s; from the batch
  // lexer's output when `lexed` is given (pipeline/cpu_lexer.h), else lexing each program.
  void compile(const SourceBatch& s, BytecodeBatch& b, CompileResults& r, const LexedBatch* lexed = nullptr);

 private:
  ThreadPool& pool_;
  compiler::CompileLimits limits_;
  std::vector<std::vector<u64>> workspaces_;  // per worker
};

}  // namespace gs::pipeline
