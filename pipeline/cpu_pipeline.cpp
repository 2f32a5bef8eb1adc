#include "pipeline/cpu_pipeline.h"

#include <chrono>
#include "base/host.h"

namespace gs::pipeline {


CpuPipeline::CpuPipeline(const PipelineConfig& c)
    : config_(c), pool_(c.threads), compiler_(pool_, c.compile), executor_(pool_, c.limits) {}

BytecodeBatch CpuPipeline::prepare(const Sources& sources, const TestSetView& t, BatchResults* out) {
  const u32 n = sources.count();
  const u64 pairs = u64(n) * t.test_count;
  out->programs = n;
  out->tests = t.test_count;
  out->times = StageTimes{};
  out->neural = NeuralCounts{};

  offsets_.resize(n + 1);
  offsets_[0] = 0;
  for (u32 i = 0; i < n; ++i)
    offsets_[i + 1] = offsets_[i] + bytecode_slot_bytes(u32(std::min<u64>(
                                        sources.offsets[i + 1] - sources.offsets[i], 0xffffffffu)));
  bytecode_.resize(offsets_[n] / 8);
  out->status.assign(n, 0);
  out->bytecode_bytes.assign(n, 0);
  entry_.assign(n, 0);
  out->diagnostic_count.assign(n, 0);
  out->diagnostics.assign(u64(n) * kBatchDiagnostics, compiler::Diagnostic{});
  out->tests_passed.assign(n, 0);
  out->instructions.assign(n, 0);
  out->reward.assign(n, 0);
  out->bytecode_hash.assign(n, 0);
  out->trap.assign(pairs, 0);
  out->pass.assign(pairs, 0);
  out->pair_instructions.assign(pairs, 0);
  out->output_hash.assign(pairs, 0);
  out->error.assign(config_.grade ? pairs : 0, 0);
  return {n, reinterpret_cast<u8*>(bytecode_.data()), offsets_.data(), out->bytecode_bytes.data(),
          out->status.data(), entry_.data()};
}

void CpuPipeline::compile(const Sources& sources, BytecodeBatch& b, BatchResults* out) {
  auto t0 = std::chrono::steady_clock::now();
  CompileResults cr{out->diagnostics.data(), out->diagnostic_count.data()};
  compiler_.compile(sources.view(), b, cr);
  out->times.compile += seconds_since(t0);
}

void CpuPipeline::finish(BytecodeBatch& b, const TestSetView& t, BatchResults* out,
                         std::chrono::steady_clock::time_point start) {
  const u64 pairs = u64(b.count) * t.test_count;
  PairResults pr{out->trap.data(), out->pass.data(), out->pair_instructions.data(), out->output_hash.data(),
                     config_.grade ? out->error.data() : nullptr};
  ProgramResults programs{out->tests_passed.data(), out->instructions.data(), out->reward.data(),
                              out->bytecode_hash.data()};
  auto t0 = std::chrono::steady_clock::now();
  executor_.check(b, t);
  out->times.verify += seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  executor_.execute(b, t, pr);
  out->times.execute += seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  executor_.score(b, t, pr, config_.reward, programs);
  out->times.score += seconds_since(t0);
  if (!config_.keep_pairs) {
    out->trap.clear();
    out->pass.clear();
    out->pair_instructions.clear();
    out->output_hash.clear();
    out->error.clear();
  }
  out->memory_bytes = bytecode_.size() * 8 + offsets_.size() * 8 + pairs * (config_.grade ? 18 : 14) + u64(b.count) * 64 +
                      u64(pool_.size()) * (u64(config_.limits.heap_bytes) + config_.limits.stack_slots * 8);
  out->times.total = seconds_since(start);
}

void CpuPipeline::run(const Sources& sources, const TestSet& tests, BatchResults* out) {
  auto start = std::chrono::steady_clock::now();
  BytecodeBatch b = prepare(sources, tests.view(), out);
  compile(sources, b, out);
  finish(b, tests.view(), out, start);
}

std::unique_ptr<Pipeline> make_cpu_pipeline(const PipelineConfig& config) {
  return std::make_unique<CpuPipeline>(config);
}

}  // namespace gs::pipeline
