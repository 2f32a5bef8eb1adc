// The backend-equivalence test (ggml's test-backend-ops, for the whole pipeline): the same
// batches through the CPU and the CUDA pipeline must give identical results — every program's
// status, diagnostics, bytecode size, tests passed, instructions and reward (bit for bit), and
// every (program, test) pair's trap, pass bit, instructions and output hash. The batches are
// the property generator's programs (trapping and looping ones included), the hand-made
// adversarial batch, and one batch larger than the GPU runs at once, so every kernel's
// grid-stride loop goes round. The CPU pipeline is held to the single-program path by
// pipeline_test, so this test ties the GPU to it too.
//
// Without a CUDA build or device it skips with the reason. Where a GPU is available, its log
// (ctest -R BackendEquivalence -V) goes under bench/results/ (docs/pipeline.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "pipeline/pipeline.h"
#include "tests/unit/equivalence.h"
#include "tests/unit/random_batches.h"

namespace gs {
namespace {

using testing::expect_same_bytes;
using testing::RandomBatch;

std::unique_ptr<pipeline::Pipeline> cuda_pipeline_or_skip_reason(const pipeline::PipelineConfig& config,
                                                                 std::string* why) {
  if (!pipeline::cuda_available(why)) return nullptr;
  return pipeline::make_pipeline(pipeline::Device::Cuda, config);
}

// Every result vector, compared as bytes (so rewards must match bit for bit).
void expect_identical(const pipeline::BatchResults& cpu, const pipeline::BatchResults& gpu) {
  ASSERT_EQ(cpu.programs, gpu.programs);
  ASSERT_EQ(cpu.cases, gpu.cases);
  const u32 tests = cpu.cases == 0 ? 1 : cpu.cases;
  expect_same_bytes(cpu.status, gpu.status, "status", 1);
  expect_same_bytes(cpu.bytecode_bytes, gpu.bytecode_bytes, "bytecode_bytes", 1);
  expect_same_bytes(cpu.diagnostic_count, gpu.diagnostic_count, "diagnostic_count", 1);
  expect_same_bytes(cpu.syntax_nodes, gpu.syntax_nodes, "syntax_nodes", 1);
  ASSERT_EQ(cpu.diagnostics.size(), gpu.diagnostics.size());
  for (size_t k = 0; k < cpu.diagnostics.size(); ++k) {
    const compiler::Diagnostic &c = cpu.diagnostics[k], &g = gpu.diagnostics[k];
    ASSERT_TRUE(testing::same_diagnostic(c, g)) << "diagnostic " << k % pipeline::kBatchDiagnostics
                                                << " of program " << k / pipeline::kBatchDiagnostics;
  }
  expect_same_bytes(cpu.cases_passed, gpu.cases_passed, "cases_passed", 1);
  expect_same_bytes(cpu.instructions, gpu.instructions, "instructions", 1);
  expect_same_bytes(cpu.reward, gpu.reward, "reward", 1);
  expect_same_bytes(cpu.bytecode_hash, gpu.bytecode_hash, "bytecode_hash", 1);
  expect_same_bytes(cpu.trap, gpu.trap, "trap", tests);
  expect_same_bytes(cpu.pass, gpu.pass, "pass", tests);
  expect_same_bytes(cpu.pair_instructions, gpu.pair_instructions, "pair_instructions", tests);
  expect_same_bytes(cpu.output_hash, gpu.output_hash, "output_hash", tests);
  expect_same_bytes(cpu.error, gpu.error, "error", tests);
}

void run_both(pipeline::Pipeline& cpu, pipeline::Pipeline& gpu, const pipeline::Sources& sources,
              const pipeline::CaseSet& tests, u64* pairs, u64* passes, u64* traps) {
  pipeline::BatchResults c, g;
  cpu.run(sources, tests, &c);
  gpu.run(sources, tests, &g);
  expect_identical(c, g);
  *pairs += c.trap.size();
  for (size_t p = 0; p < c.trap.size(); ++p) {
    *passes += c.pass[p];
    *traps += c.trap[p] != 0 && c.trap[p] != pipeline::kNotRun;
  }
}

TEST(BackendEquivalence, RandomBatchesGiveIdenticalResults) {
  pipeline::PipelineConfig config;
  config.grade = true;
  std::string why;
  auto gpu = cuda_pipeline_or_skip_reason(config, &why);
  if (!gpu) GTEST_SKIP() << "CUDA backend not run: " << why;
  auto cpu = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  u64 pairs = 0, passes = 0, traps = 0;
  auto batches = testing::random_batches(0xe9a1, 4000, 8, config.limits);
  for (const RandomBatch& b : batches) {
    SCOPED_TRACE("batch of " + std::to_string(b.sources.count()) + " programs");
    run_both(*cpu, *gpu, b.sources, *b.cases, &pairs, &passes, &traps);
    if (HasFatalFailure()) return;
  }
  RandomBatch adversarial = testing::adversarial_batch();
  run_both(*cpu, *gpu, adversarial.sources, *adversarial.cases, &pairs, &passes, &traps);
  std::printf(
      "[backend equivalence] %zu random batches + adversarial: %llu pairs, %llu passed, %llu trapped\n",
      batches.size(), (unsigned long long)pairs, (unsigned long long)passes, (unsigned long long)traps);
  EXPECT_GT(passes, 0u);
  EXPECT_GT(traps, 0u);
}

// More pairs than the device runs at once, and the device buffers grown between batches.
TEST(BackendEquivalence, BatchLargerThanTheGpuRunsAtOnce) {
  pipeline::PipelineConfig config;
  config.grade = true;
  std::string why;
  auto gpu = cuda_pipeline_or_skip_reason(config, &why);
  if (!gpu) GTEST_SKIP() << "CUDA backend not run: " << why;
  auto cpu = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  RandomBatch b = testing::adversarial_batch();
  pipeline::Sources many;
  for (u32 copy = 0; copy < 40000; ++copy) many.add(b.sources.source(copy % b.sources.count()));
  u64 pairs = 0, passes = 0, traps = 0;
  run_both(*cpu, *gpu, b.sources, *b.cases, &pairs, &passes, &traps);  // small first: buffers grow
  run_both(*cpu, *gpu, many, *b.cases, &pairs, &passes, &traps);
  std::printf("[backend equivalence] large batch: %u programs, %llu pairs\n", many.count(),
              (unsigned long long)pairs);
}

// One warp per program (PipelineConfig::warp_per_program) gives the same results as one thread
// per pair.
TEST(BackendEquivalence, WarpPerProgramGivesIdenticalResults) {
  pipeline::PipelineConfig config;
  config.grade = true;
  std::string why;
  auto gpu = cuda_pipeline_or_skip_reason(config, &why);
  if (!gpu) GTEST_SKIP() << "CUDA backend not run: " << why;
  config.warp_per_program = true;
  auto warps = pipeline::make_pipeline(pipeline::Device::Cuda, config);
  u64 pairs = 0, passes = 0, traps = 0;
  for (const RandomBatch& b : testing::random_batches(0x3a9, 1500, 40, config.limits)) {
    run_both(*gpu, *warps, b.sources, *b.cases, &pairs, &passes, &traps);
    if (HasFatalFailure()) return;
  }
  RandomBatch adversarial = testing::adversarial_batch();
  run_both(*gpu, *warps, adversarial.sources, *adversarial.cases, &pairs, &passes, &traps);
}

// Results of a batch must not depend on what ran before on the same pipeline (buffers reused).
TEST(BackendEquivalence, ReusedBuffersGiveTheSameResults) {
  pipeline::PipelineConfig config;
  std::string why;
  auto gpu = cuda_pipeline_or_skip_reason(config, &why);
  if (!gpu) GTEST_SKIP() << "CUDA backend not run: " << why;
  RandomBatch b = testing::adversarial_batch();
  auto batches = testing::random_batches(0x5eed, 300, 5, config.limits);
  pipeline::BatchResults first, again, between;
  gpu->run(b.sources, *b.cases, &first);
  for (const RandomBatch& other : batches) gpu->run(other.sources, *other.cases, &between);
  gpu->run(b.sources, *b.cases, &again);
  expect_identical(first, again);
}

}  // namespace
}  // namespace gs
