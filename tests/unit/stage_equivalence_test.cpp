// The per-stage equivalence test: each CUDA stage — lex, compile, verify, execute (both
// layouts), score — is given exactly the CPU backend's input to that stage and must write
// exactly the CPU backend's output, so a difference names the stage where it begins instead of
// surfacing downstream (backend_equivalence_test compares whole runs). The batches are the
// property generator's random programs, the adversarial batch (loops, heap bombs, deep
// recursion, traps, compile errors) and programs nested to the compiler's depth limit and past
// it, which decide whether the compile kernel's stack (compile_stack_bytes) suffices.
//
// Without a CUDA device the test skips and says so (the build is still checked).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "pipeline/cpu_compiler.h"
#include "pipeline/cpu_executor.h"
#include "pipeline/cpu_lexer.h"
#include "pipeline/cuda_compiler.h"
#include "pipeline/cuda_executor.h"
#include "pipeline/cuda_lexer.h"
#include "tests/unit/equivalence.h"
#include "tests/unit/random_batches.h"

namespace gs {
namespace {

using namespace pipeline;

void cuda_require(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define CUDA_REQUIRE(call) cuda_require(cudaError_t(call), #call)

// One device array, freed on scope exit.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(u64 count) : count_(count) {
    CUDA_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<u64>(count, 1) * sizeof(T)));
    CUDA_REQUIRE(cudaMemset(data_, 0, std::max<u64>(count, 1) * sizeof(T)));
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) {
    CUDA_REQUIRE(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    CUDA_REQUIRE(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* data_ = nullptr;
  u64 count_ = 0;
};

// The case set's arrays on the device and a view of them.
struct DeviceCases {
  explicit DeviceCases(const CaseSet& c)
      : input_heap(c.input_heap()),
        input_offsets(c.input_offsets()),
        input_slots(c.input_slots()),
        expected_heap(c.expected_heap()),
        expected_offsets(c.expected_offsets()),
        expected_slots(c.expected_slots()),
        view(c.view()) {
    view.input_heap = input_heap.get();
    view.input_offsets = input_offsets.get();
    view.input_slots = input_slots.get();
    view.expected_heap = expected_heap.get();
    view.expected_offsets = expected_offsets.get();
    view.expected_slots = expected_slots.get();
  }
  DeviceArray<u64> input_heap;
  DeviceArray<u32> input_offsets;
  DeviceArray<u64> input_slots;
  DeviceArray<u64> expected_heap;
  DeviceArray<u32> expected_offsets;
  DeviceArray<u64> expected_slots;
  CaseSetView view;
};

// What the CPU backend holds after each stage: the lexer's output, the bytecode slots, the
// status after compiling (before verify changes it) and the entries, and every result array as a
// pipeline returns them (results.status is the status after verify).
struct CpuStages {
  HostLexedBatch lexed;
  std::vector<u64> slots, code;  // code: the bytecode slots, as words
  std::vector<u8> compiled_status;
  std::vector<u32> entry;
  BatchResults results;
};

CpuStages run_cpu(ThreadPool& pool, const Sources& sources, const CaseSetView& t, const PipelineConfig& c) {
  const SourceBatch s = sources.view();
  const u32 n = s.count;
  CpuStages r;
  r.lexed.resize(s);
  const LexedBatch lexed = r.lexed.view();
  CpuBatchLexer(pool).lex(s, lexed);
  r.slots.resize(n + 1);
  fill_slot_offsets(sources.offsets.data(), n, r.slots.data());
  r.code.assign(r.slots[n] / 8, 0);
  r.entry.assign(n, 0);
  BatchResults& out = r.results;
  out.reset({n, t.case_count, true});
  BytecodeBatch b{n,
                  reinterpret_cast<u8*>(r.code.data()),
                  r.slots.data(),
                  out.bytecode_bytes.data(),
                  out.status.data(),
                  r.entry.data()};
  CompileResults cr{out.diagnostics.data(), out.diagnostic_count.data(), out.syntax_nodes.data()};
  CpuBatchCompiler(pool, c.compile).compile(s, b, cr, &lexed);
  r.compiled_status = out.status;

  CpuExecutor executor(pool, c.limits);
  executor.verify(b, t);
  PairResults pairs = out.pair_views();
  ProgramResults programs = out.program_views();
  executor.execute(b, t, pairs);
  executor.score(b, t, pairs, c.reward, programs);
  return r;
}

// A stage's array against the CPU's (tests/unit/equivalence.h).
template <class T>
void expect_same(const char* stage, const char* what, const std::vector<T>& cpu, const std::vector<T>& gpu,
                 u32 per_program) {
  testing::expect_same_bytes(cpu, gpu, std::string(stage) + " stage: " + what, per_program);
}

struct Launch {
  u32 multiprocessors = 0;
  cudaStream_t stream = nullptr;
};

// Waits for the stage just launched; a launch or kernel error ends the test with its message.
void finish(const Launch& L) {
  CUDA_REQUIRE(cudaGetLastError());
  CUDA_REQUIRE(cudaStreamSynchronize(L.stream));
}

// Each stage on the GPU from the CPU's input to it.
void compare_stages(const Launch& L, ThreadPool& pool, const Sources& sources, const CaseSet& cases,
                    const PipelineConfig& c, const char* name) {
  SCOPED_TRACE(std::string("batch ") + name + " (" + std::to_string(sources.count()) + " programs)");
  const CpuStages cpu = run_cpu(pool, sources, cases.view(), c);
  const SourceBatch host = sources.view();
  const u32 n = host.count;
  const u32 case_count = cases.view().case_count;
  const u64 pairs = u64(n) * case_count;
  void* stream = L.stream;

  DeviceArray<char> text(std::vector<char>(sources.text.begin(), sources.text.end()));
  DeviceArray<u64> source_offsets(sources.offsets);
  const SourceBatch s{n, text.get(), source_offsets.get()};
  DeviceCases t(cases);

  // Each stage in a lambda: a failed assertion ends its stage only, so one run reports every
  // stage that differs (each takes the CPU's input, not the GPU's previous stage's output).
  // Lex.
  [&] {
    const u64 tokens = token_capacity(host);
    DeviceArray<compiler::Token> d_tokens(tokens);
    DeviceArray<u32> d_count(n), d_diag_count(n);
    DeviceArray<compiler::Diagnostic> d_diags(u64(n) * kLexDiagnostics);
    DeviceArray<u8> d_fallback(n);
    u64 scratch_bytes = 0;
    CUDA_REQUIRE(lex_scratch_bytes(sources.text.size(), n, &scratch_bytes));
    DeviceArray<u8> scratch(scratch_bytes);
    const LexedBatch out{d_tokens.get(), d_count.get(), d_diags.get(), d_diag_count.get(), d_fallback.get()};
    CUDA_REQUIRE(launch_lex(s, sources.text.size(), out, scratch.get(), scratch_bytes, stream));
    CUDA_REQUIRE(cudaStreamSynchronize(L.stream));
    const std::vector<u32> count = d_count.download();
    const std::vector<compiler::Token> tok = d_tokens.download();
    expect_same("lex", "token_count", cpu.lexed.token_count, count, 1);
    expect_same("lex", "fallback", cpu.lexed.fallback, d_fallback.download(), 1);
    expect_same("lex", "diagnostic_count", cpu.lexed.diagnostic_count, d_diag_count.download(), 1);
    const std::vector<compiler::Diagnostic> diags = d_diags.download();
    for (u32 i = 0; i < n; ++i) {
      const u64 slot = token_slot(host, i);
      for (u32 k = 0; k < cpu.lexed.token_count[i]; ++k) {
        const compiler::Token &g = tok[slot + k], &h = cpu.lexed.tokens[slot + k];
        ASSERT_TRUE(g.pos == h.pos && g.len == h.len && g.kind == h.kind)
            << "lex stage: token " << k << " of program " << i;
      }
      for (u32 k = 0; k < cpu.lexed.diagnostic_count[i] && k < kLexDiagnostics; ++k)
        ASSERT_TRUE(testing::same_diagnostic(diags[u64(i) * kLexDiagnostics + k],
                                             cpu.lexed.diagnostics[u64(i) * kLexDiagnostics + k]))
            << "lex stage: diagnostic " << k << " of program " << i;
    }
  }();

  // Compile, from the CPU lexer's tokens.
  DeviceArray<u64> slots(cpu.slots);
  [&] {
    DeviceArray<compiler::Token> d_tokens(cpu.lexed.tokens);
    DeviceArray<u32> d_count(cpu.lexed.token_count), d_diag_count(cpu.lexed.diagnostic_count);
    DeviceArray<compiler::Diagnostic> d_diags(cpu.lexed.diagnostics);
    DeviceArray<u8> d_fallback(cpu.lexed.fallback);
    const LexedBatch lexed{d_tokens.get(), d_count.get(), d_diags.get(), d_diag_count.get(),
                           d_fallback.get()};
    DeviceArray<u64> code(cpu.code.size());
    DeviceArray<u32> sizes(n), entry(n), diag_count(n), nodes(n);
    DeviceArray<u8> status(n);
    DeviceArray<compiler::Diagnostic> diags(u64(n) * kBatchDiagnostics);
    const BytecodeBatch b{
        n, reinterpret_cast<u8*>(code.get()), slots.get(), sizes.get(), status.get(), entry.get()};
    const CompileResults r{diags.get(), diag_count.get(), nodes.get()};
    u64 longest = 0;
    for (u32 i = 0; i < n; ++i) longest = std::max(longest, sources.offsets[i + 1] - sources.offsets[i]);
    const u64 stride = (batch_workspace_bytes(u32(longest), c.compile) + 7) & ~u64(7);
    const u32 threads =
        std::max<u32>(1, std::min<u32>({n, compile_resident_threads(L.multiprocessors), 8192}));
    DeviceArray<u8> workspace(u64(threads) * stride);
    launch_compile(s, lexed, b, r, c.compile, workspace.get(), stride, threads, stream);
    finish(L);
    expect_same("compile", "status", cpu.compiled_status, status.download(), 1);
    expect_same("compile", "bytecode_bytes", cpu.results.bytecode_bytes, sizes.download(), 1);
    expect_same("compile", "diagnostic_count", cpu.results.diagnostic_count, diag_count.download(), 1);
    expect_same("compile", "syntax_nodes", cpu.results.syntax_nodes, nodes.download(), 1);
    const std::vector<compiler::Diagnostic> g_diags = diags.download();
    for (size_t k = 0; k < g_diags.size(); ++k)
      ASSERT_TRUE(testing::same_diagnostic(g_diags[k], cpu.results.diagnostics[k]))
          << "compile stage: diagnostic " << k % kBatchDiagnostics << " of program " << k / kBatchDiagnostics;
    const std::vector<u64> g_code = code.download();
    for (u32 i = 0; i < n; ++i)
      ASSERT_EQ(std::memcmp(reinterpret_cast<const u8*>(g_code.data()) + cpu.slots[i],
                            reinterpret_cast<const u8*>(cpu.code.data()) + cpu.slots[i],
                            cpu.results.bytecode_bytes[i]),
                0)
          << "compile stage: the bytecode of program " << i << " differs";
  }();

  // Verify, execute and score, each from the CPU's output of the stage before.
  DeviceArray<u64> code(cpu.code);
  DeviceArray<u32> sizes(cpu.results.bytecode_bytes);
  [&] {
    DeviceArray<u8> status(cpu.compiled_status);
    DeviceArray<u32> entry(n);
    const BytecodeBatch b{
        n, reinterpret_cast<u8*>(code.get()), slots.get(), sizes.get(), status.get(), entry.get()};
    const u32 threads = std::max<u32>(
        1, std::min<u32>({n, resident_threads(ExecutorKernel::Verify, L.multiprocessors), 8192}));
    DeviceArray<u8> scratch(u64(threads) * verifier_scratch_bytes());
    launch_verify(b, t.view, scratch.get(), threads, stream);
    finish(L);
    expect_same("verify", "status", cpu.results.status, status.download(), 1);
    std::vector<u32> g_entry = entry.download(), c_entry = cpu.entry;
    for (u32 i = 0; i < n; ++i)
      if (cpu.results.status[i] != u8(ProgramStatus::OK)) g_entry[i] = c_entry[i] = 0;  // unused
    expect_same("verify", "entry", c_entry, g_entry, 1);
  }();
  DeviceArray<u8> status(cpu.results.status);
  DeviceArray<u32> entry(cpu.entry);
  const BytecodeBatch b{n,          reinterpret_cast<u8*>(code.get()), slots.get(), sizes.get(), status.get(),
                        entry.get()};
  for (bool warps : {false, true})
    [&] {
      const char* stage = warps ? "execute (warp per program)" : "execute (thread per pair)";
      DeviceArray<u8> trap(pairs), pass(pairs);
      DeviceArray<u32> instructions(pairs);
      DeviceArray<u64> hash(pairs);
      DeviceArray<float> error(pairs);
      const PairResults out{trap.get(), pass.get(), instructions.get(), hash.get(), error.get()};
      const u64 work = warps ? u64(n) * 32 : pairs;
      const u32 resident = resident_threads(
          warps ? ExecutorKernel::ExecuteWarps : ExecutorKernel::ExecutePairs, L.multiprocessors);
      const u32 threads = u32(std::max<u64>(1, std::min<u64>({work, resident, 16384})));
      DeviceArray<u8> scratch(u64(threads) * vm::machine_bytes(c.limits));
      launch_execute(b, t.view, out, c.limits, scratch.get(), threads, warps, stream);
      finish(L);
      expect_same(stage, "trap", cpu.results.trap, trap.download(), case_count);
      expect_same(stage, "pass", cpu.results.pass, pass.download(), case_count);
      expect_same(stage, "instructions", cpu.results.pair_instructions, instructions.download(), case_count);
      expect_same(stage, "output_hash", cpu.results.output_hash, hash.download(), case_count);
      expect_same(stage, "error", cpu.results.error, error.download(), case_count);
    }();
  [&] {
    DeviceArray<u8> trap(cpu.results.trap), pass(cpu.results.pass);
    DeviceArray<u32> instructions(cpu.results.pair_instructions);
    DeviceArray<u64> hash(cpu.results.output_hash);
    DeviceArray<float> error(cpu.results.error);
    const PairResults in{trap.get(), pass.get(), instructions.get(), hash.get(), error.get()};
    DeviceArray<u32> passed(n);
    DeviceArray<u64> total(n), bytecode_hash(n);
    DeviceArray<float> reward(n);
    const ProgramResults out{passed.get(), total.get(), reward.get(), bytecode_hash.get()};
    const u32 threads =
        std::max<u32>(1, std::min<u32>(n, resident_threads(ExecutorKernel::Score, L.multiprocessors)));
    launch_score(b, t.view, in, c.reward, c.limits.fuel, out, threads, stream);
    finish(L);
    expect_same("score", "cases_passed", cpu.results.cases_passed, passed.download(), 1);
    expect_same("score", "instructions", cpu.results.instructions, total.download(), 1);
    expect_same("score", "reward", cpu.results.reward, reward.download(), 1);
    expect_same("score", "bytecode_hash", cpu.results.bytecode_hash, bytecode_hash.download(), 1);
  }();
}

// Programs nested `depth` levels deep in expressions and in blocks, around the compiler's limit.
testing::RandomBatch nested_batch(u32 limit) {
  testing::RandomBatch b;
  b.params = {Type::Int};
  b.results = {Type::Int};
  for (u32 depth : {limit / 2, limit - 2, limit - 1, limit, limit + 1, limit + 40, 4 * limit}) {
    b.sources.add("fn solve(n: int) -> int { return " + std::string(depth, '(') + "n" +
                  std::string(depth, ')') + "; }");
    std::string blocks = "fn solve(n: int) -> int { ";
    for (u32 k = 0; k < depth; ++k) blocks += "if n > " + std::to_string(k) + " { ";
    blocks += "n = n + 1; ";
    for (u32 k = 0; k < depth; ++k) blocks += "} ";
    b.sources.add(blocks + "return n; }");
    std::string sum = "fn solve(n: int) -> int { return n";
    for (u32 k = 0; k < depth; ++k) sum += " - (1";
    b.sources.add(sum + std::string(depth, ')') + "; }");
  }
  for (i64 n : {0, 3, 100}) {
    b.inputs.push_back({vm::Value::of_int(n)});
    b.outputs.push_back({vm::Value::of_int(n)});
  }
  b.make_cases();
  return b;
}

TEST(StageEquivalence, EachCudaStageMatchesTheCpuStage) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    GTEST_SKIP() << "no CUDA device on this machine: the GPU run is skipped (build checked)";
  }
  PipelineConfig config;
  config.grade = true;
  Launch L;
  int sms = 0;
  CUDA_REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  L.multiprocessors = u32(sms);
  size_t free_before = 0, free_after = 0, total = 0;
  CUDA_REQUIRE(cudaFree(nullptr));  // the context, before measuring what the stack limit takes
  CUDA_REQUIRE(cudaMemGetInfo(&free_before, &total));
  CUDA_REQUIRE(cudaDeviceSetLimit(cudaLimitStackSize, compile_stack_bytes(config.compile)));
  CUDA_REQUIRE(cudaMemGetInfo(&free_after, &total));
  std::printf(
      "[stage equivalence] stack limit %llu bytes per thread (max_depth %u): %.1f MiB of device memory\n",
      (unsigned long long)compile_stack_bytes(config.compile), config.compile.max_depth,
      (double(free_before) - double(free_after)) / 1048576.0);
  CUDA_REQUIRE(cudaStreamCreate(&L.stream));
  ThreadPool pool;
  u32 batches = 0;
  // GPUSYNTH_STAGE_PROGRAMS: fewer random programs (for runs under compute-sanitizer).
  const char* programs_env = std::getenv("GPUSYNTH_STAGE_PROGRAMS");
  const u32 programs = programs_env != nullptr ? u32(std::strtoul(programs_env, nullptr, 10)) : 3000;
  for (const testing::RandomBatch& b : testing::random_batches(0x57a6e, programs, 8, config.limits)) {
    compare_stages(L, pool, b.sources, *b.cases, config, "random");
    if (HasFatalFailure()) return;
    ++batches;
  }
  testing::RandomBatch adversarial = testing::adversarial_batch();
  compare_stages(L, pool, adversarial.sources, *adversarial.cases, config, "adversarial");
  if (HasFatalFailure()) return;
  testing::RandomBatch nested = nested_batch(config.compile.max_depth);
  compare_stages(L, pool, nested.sources, *nested.cases, config, "nested to the depth limit");
  if (HasFatalFailure()) return;
  // The deepest nesting the compile stage allows (255), with the stack that limit asks for.
  config.compile.max_depth = 255;
  CUDA_REQUIRE(cudaMemGetInfo(&free_before, &total));
  const cudaError_t deep = cudaDeviceSetLimit(cudaLimitStackSize, compile_stack_bytes(config.compile));
  if (deep != cudaSuccess) {  // a GPU with less memory than that stack needs: say so, not a failure
    cudaGetLastError();
    std::printf(
        "[stage equivalence] %u random batches, adversarial, nested to limit 64: every stage identical; "
        "a stack of %llu bytes per thread (max_depth 255) cannot be had: %s\n",
        batches, (unsigned long long)compile_stack_bytes(config.compile), cudaGetErrorString(deep));
    cudaStreamDestroy(L.stream);
    return;
  }
  CUDA_REQUIRE(cudaMemGetInfo(&free_after, &total));
  std::printf("[stage equivalence] stack limit %llu bytes per thread (max_depth 255): %.1f MiB more\n",
              (unsigned long long)compile_stack_bytes(config.compile),
              (double(free_before) - double(free_after)) / 1048576.0);
  testing::RandomBatch deepest = nested_batch(255);
  compare_stages(L, pool, deepest.sources, *deepest.cases, config, "nested to depth 255");
  std::printf(
      "[stage equivalence] %u random batches, adversarial, nested (limits 64 and 255): every stage %s\n",
      batches, HasFailure() ? "compared (differences above)" : "identical");
  cudaStreamDestroy(L.stream);
}

}  // namespace
}  // namespace gs
