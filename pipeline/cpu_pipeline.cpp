#include "pipeline/cpu_pipeline.h"

#include <chrono>

#include "base/host.h"

namespace gs::pipeline {

CpuPipeline::CpuPipeline(const PipelineConfig& c)
    : config_(c), pool_(c.threads), compiler_(pool_, c.compile), lexer_(pool_), executor_(pool_, c.limits) {}

BytecodeBatch CpuPipeline::prepare(const Sources& sources, const CaseSetView& t, BatchResults* out) {
  const u32 n = sources.count();
  out->reset({n, t.case_count, config_.grade});
  offsets_.resize(n + 1);
  fill_slot_offsets(sources.offsets.data(), n, offsets_.data());
  bytecode_.resize(offsets_[n] / 8);
  entry_.assign(n, 0);
  return {n,
          reinterpret_cast<u8*>(bytecode_.data()),
          offsets_.data(),
          out->bytecode_bytes.data(),
          out->status.data(),
          entry_.data()};
}

void CpuPipeline::compile(const Sources& sources, BytecodeBatch& b, BatchResults* out) {
  auto t0 = std::chrono::steady_clock::now();
  CompileResults cr{out->diagnostics.data(), out->diagnostic_count.data(), out->syntax_nodes.data()};
  const SourceBatch s = sources.view();
  if (config_.batch_lexer && config_.compile.language == compiler::Language::Syn && s.count > 0) {
    lexed_.resize(s);
    const LexedBatch lexed = lexed_.view();
    lexer_.lex(s, lexed);
    compiler_.compile(s, b, cr, &lexed);
  } else {
    compiler_.compile(s, b, cr);
  }
  out->times.compile += seconds_since(t0);
}

void CpuPipeline::finish(BytecodeBatch& b, const CaseSetView& t, BatchResults* out,
                         std::chrono::steady_clock::time_point start) {
  PairResults pr = out->pair_views();
  ProgramResults programs = out->program_views();
  auto t0 = std::chrono::steady_clock::now();
  executor_.verify(b, t);
  out->times.verify += seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  executor_.execute(b, t, pr, deadline_);
  out->times.execute += seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  executor_.score(b, t, pr, config_.reward, programs);
  out->times.score += seconds_since(t0);
  if (!config_.keep_pairs) out->drop_pairs();
  out->memory_bytes = bytecode_.size() * 8 + offsets_.size() * 8 + entry_.size() * 4 +
                      ResultLayout::of({b.count, t.case_count, config_.grade}).bytes +
                      u64(pool_.size()) * vm::machine_bytes(config_.limits);
  out->times.total = seconds_since(start);
}

void CpuPipeline::run(const Sources& sources, const CaseSet& tests, BatchResults* out) {
  auto start = std::chrono::steady_clock::now();
  BytecodeBatch b = prepare(sources, tests.view(), out);
  compile(sources, b, out);
  finish(b, tests.view(), out, start);
}

std::unique_ptr<Pipeline> make_cpu_pipeline(const PipelineConfig& config) {
  return std::make_unique<CpuPipeline>(config);
}

}  // namespace gs::pipeline
