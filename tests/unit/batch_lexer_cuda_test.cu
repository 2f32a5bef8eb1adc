// The CUDA batch lexer (pipeline/cuda_lexer.h) against the CPU batch lexer, which
// tests/unit/batch_lexer_test.cpp holds against lex(): the same tokens, counts, kept diagnostics
// and fallback flags for every program of a batch of test programs, mutations, random bytes and
// edge cases. Without a CUDA device the test skips and says so (the build is still checked).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "pipeline/cpu_lexer.h"
#include "pipeline/cuda_lexer.h"
#include "pipeline/pipeline.h"

namespace gs {
namespace {

using compiler::Diagnostic;
using compiler::Token;
using pipeline::HostLexedBatch;
using pipeline::kLexDiagnostics;

bool have_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // "driver version is insufficient" on machines without a GPU
    return false;
  }
  return n > 0;
}

#define CUDA_OK(call)                                                              \
  do {                                                                             \
    cudaError_t error_ = cudaError_t(call);                                        \
    ASSERT_EQ(error_, cudaSuccess) << #call << ": " << cudaGetErrorString(error_); \
  } while (0)

using Batch = pipeline::Sources;

Batch corpus() {
  std::vector<std::string> sources;
  for (const char* dir : {"/tests/programs", "/docs/examples"})
    for (const auto& e :
         std::filesystem::recursive_directory_iterator(std::string(GPUSYNTH_SOURCE_DIR) + dir))
      if (e.is_regular_file() && e.path().extension() == ".syn") {
        std::ifstream in(e.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        sources.push_back(ss.str());
      }
  std::sort(sources.begin(), sources.end());
  const char* pieces[] = {"\"", "\\",  "\\x4", "//", "\n",   "0x",  "1e+", ".",
                          "..", ">>>", "->",   "@",  "\x80", "1.5", "\"a"};
  std::mt19937_64 rng(2025);
  Batch b;
  b.add("");
  for (const std::string& s : sources) b.add(s);
  for (u32 k = 0; k < 20000; ++k) {
    std::string s = sources[rng() % sources.size()];
    for (u32 e = 0, edits = 1 + rng() % 4; e < edits; ++e) {
      u64 at = rng() % (s.size() + 1);
      switch (rng() % 4) {
        case 0: s.insert(at, pieces[rng() % (sizeof pieces / sizeof *pieces)]); break;
        case 1: s.insert(at, 1, char(rng() % 256)); break;
        case 2: s.resize(at); break;
        default:
          if (at < s.size()) s.erase(at, 1);
          break;
      }
    }
    b.add(s);
  }
  for (u32 k = 0; k < 2000; ++k) {
    std::string s;
    for (u32 n = rng() % 48; n > 0; --n) s += char(rng() % 256);
    b.add(s);
  }
  b.add("");
  b.add(std::string(100000, 'a'));
  b.add("\"" + std::string(100000, 'x'));
  b.add(std::string(70000, ' ') + "fn");
  b.add("// comment at the end");
  b.add("\"\\");
  return b;
}

TEST(BatchLexerCuda, MatchesTheCpuBackend) {
  if (!have_device())
    GTEST_SKIP() << "no CUDA device on this machine: the GPU run is skipped (build checked)";
  Batch b = corpus();
  const pipeline::SourceBatch host = b.view();
  const u64 text_bytes = b.text.size();

  ThreadPool pool(2);
  HostLexedBatch cpu;
  cpu.resize(host);
  pipeline::CpuBatchLexer cpu_lexer(pool);
  const u32 cpu_fallbacks = cpu_lexer.lex(host, cpu.view());

  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  char* d_text;
  u64* d_offsets;
  CUDA_OK(cudaMalloc(&d_text, text_bytes + 1));
  CUDA_OK(cudaMalloc(&d_offsets, b.offsets.size() * 8));
  CUDA_OK(cudaMemcpy(d_text, b.text.data(), text_bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_offsets, b.offsets.data(), b.offsets.size() * 8, cudaMemcpyHostToDevice));
  const pipeline::SourceBatch device{host.count, d_text, d_offsets};

  pipeline::LexedBatch out;
  const u64 tokens = pipeline::token_capacity(host);
  CUDA_OK(cudaMalloc(&out.tokens, tokens * sizeof(Token)));
  CUDA_OK(cudaMalloc(&out.token_count, host.count * 4ull));
  CUDA_OK(cudaMalloc(&out.diagnostics, u64(host.count) * kLexDiagnostics * sizeof(Diagnostic)));
  CUDA_OK(cudaMalloc(&out.diagnostic_count, host.count * 4ull));
  CUDA_OK(cudaMalloc(&out.fallback, host.count));
  u64 scratch_bytes = 0;
  CUDA_OK(pipeline::lex_scratch_bytes(text_bytes, host.count, &scratch_bytes));
  void* scratch;
  CUDA_OK(cudaMalloc(&scratch, scratch_bytes));

  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  CUDA_OK(cudaEventRecord(start, stream));
  CUDA_OK(pipeline::launch_lex(device, text_bytes, out, scratch, scratch_bytes, stream));
  CUDA_OK(cudaEventRecord(stop, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  float ms = 0;
  CUDA_OK(cudaEventElapsedTime(&ms, start, stop));

  HostLexedBatch gpu;
  gpu.resize(host);
  CUDA_OK(cudaMemcpy(gpu.tokens.data(), out.tokens, tokens * sizeof(Token), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(gpu.token_count.data(), out.token_count, host.count * 4ull, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(gpu.diagnostics.data(), out.diagnostics, gpu.diagnostics.size() * sizeof(Diagnostic),
                     cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(gpu.diagnostic_count.data(), out.diagnostic_count, host.count * 4ull,
                     cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(gpu.fallback.data(), out.fallback, host.count, cudaMemcpyDeviceToHost));

  u32 gpu_fallbacks = 0;
  for (u32 i = 0; i < host.count; ++i) {
    SCOPED_TRACE("program " + std::to_string(i));
    gpu_fallbacks += gpu.fallback[i];
    ASSERT_EQ(gpu.fallback[i], cpu.fallback[i]);
    ASSERT_EQ(gpu.token_count[i], cpu.token_count[i]);
    const u64 slot = pipeline::token_slot(host, i);
    for (u32 k = 0; k < cpu.token_count[i]; ++k) {
      const Token &g = gpu.tokens[slot + k], &c = cpu.tokens[slot + k];
      ASSERT_TRUE(g.pos == c.pos && g.len == c.len && g.kind == c.kind) << "token " << k;
    }
    ASSERT_EQ(gpu.diagnostic_count[i], cpu.diagnostic_count[i]);
    for (u32 k = 0; k < cpu.diagnostic_count[i] && k < kLexDiagnostics; ++k) {
      const Diagnostic &g = gpu.diagnostics[u64(i) * kLexDiagnostics + k],
                       &c = cpu.diagnostics[u64(i) * kLexDiagnostics + k];
      ASSERT_TRUE(g.code == c.code && g.pos == c.pos && g.len == c.len && g.a == c.a && g.b == c.b)
          << "diagnostic " << k;
    }
  }
  std::printf("[batch lexer cuda] %u programs, %llu bytes: %.3f ms (%.0f MB/s), %u fallbacks (CPU %u)\n",
              host.count, (unsigned long long)text_bytes, ms, text_bytes / (ms * 1e3), gpu_fallbacks,
              cpu_fallbacks);
  EXPECT_EQ(gpu_fallbacks, 0u);

  // A batch of empty programs only (no text: no scans, END tokens only).
  Batch empties;
  for (int k = 0; k < 3; ++k) empties.add("");
  u64* d_empty_offsets;
  CUDA_OK(cudaMalloc(&d_empty_offsets, empties.offsets.size() * 8));
  CUDA_OK(cudaMemcpy(d_empty_offsets, empties.offsets.data(), empties.offsets.size() * 8,
                     cudaMemcpyHostToDevice));
  const pipeline::SourceBatch device_empties{3, d_text, d_empty_offsets};
  CUDA_OK(pipeline::launch_lex(device_empties, 0, out, scratch, scratch_bytes, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<u32> counts(3);
  CUDA_OK(cudaMemcpy(counts.data(), out.token_count, 12, cudaMemcpyDeviceToHost));
  EXPECT_EQ(counts, std::vector<u32>({1, 1, 1}));

  for (void* p :
       {(void*)d_text, (void*)d_offsets, (void*)d_empty_offsets, (void*)out.tokens, (void*)out.token_count,
        (void*)out.diagnostics, (void*)out.diagnostic_count, (void*)out.fallback, scratch})
    cudaFree(p);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace gs
