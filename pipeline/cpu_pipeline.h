// The CPU backend of pipeline/pipeline.h: each stage over one thread pool, results written straight
// into the host vectors of BatchResults (the batch views point at them). The neural and hybrid
// compile modes (neural/neural_pipeline.h) reuse it, replacing only the compile stage.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "pipeline/cpu_compiler.h"
#include "pipeline/cpu_executor.h"
#include "pipeline/cpu_lexer.h"
#include "pipeline/pipeline.h"

namespace gs::pipeline {

class CpuPipeline : public Pipeline {
 public:
  explicit CpuPipeline(const PipelineConfig& c);
  const char* name() const override { return "cpu"; }
  void run(const Sources& sources, const CaseSet& tests, BatchResults* out) override;

 protected:
  // Sizes *out and the bytecode slots for the batch (every program's status 0 = OK, no code).
  BytecodeBatch prepare(const Sources& sources, const CaseSetView& t, BatchResults* out);
  // The traditional compile stage into b.
  void compile(const Sources& sources, BytecodeBatch& b, BatchResults* out);
  // Verify, execute and score b; then the memory estimate and the total time since `start`.
  void finish(BytecodeBatch& b, const CaseSetView& t, BatchResults* out,
              std::chrono::steady_clock::time_point start);

  PipelineConfig config_;
  ThreadPool pool_;
  CpuBatchCompiler compiler_;
  CpuBatchLexer lexer_;
  HostLexedBatch lexed_;
  CpuExecutor executor_;

 private:
  std::vector<u64> bytecode_, offsets_;
  std::vector<u32> entry_;
};

std::unique_ptr<Pipeline> make_cpu_pipeline(const PipelineConfig& config);

}  // namespace gs::pipeline
