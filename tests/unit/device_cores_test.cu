// The compiler core, the verifier and the interpreter compiled for the GPU: one thread per
// program compiles it, verifies the bytecode and runs it, and everything must equal the CPU's
// result bit for bit. Without a CUDA device the test skips and says so. (The full batch
// pipeline and its backend-equivalence test belong to node/.)
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "compiler/compile_core.h"
#include "compiler/compiler.h"
#include "vm/interpreter.h"
#include "vm/runner.h"
#include "vm/verifier.h"

namespace gs {
namespace {

constexpr u32 kOutputCap = 1 << 14;
constexpr u32 kStackSlots = 512;
constexpr u32 kDepth = 32;
constexpr u32 kHeap = 1 << 14;

struct DeviceResult {
  u32 status;       // CompileStatus
  u32 size;         // container bytes
  u32 verified;     // 1 when the verifier accepted it
  u32 trap;
  u64 result;       // first result slot
  u64 instructions;
};

__global__ void compile_verify_run(const char* sources, const u32* offsets, u32 count, u8* workspaces,
                                   u64 workspace_stride, u8* outputs, u64* stacks, vm::Frame* frames, u8* heaps,
                                   u32* scratch, DeviceResult* results) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  DeviceResult& r = results[i];
  compiler::Workspace w;
  compiler::carve_workspace(workspaces + i * workspace_stride, sources + offsets[i], offsets[i + 1] - offsets[i],
                            compiler::CompileLimits{}, &w);
  u8* out = outputs + u64(i) * kOutputCap;
  r.status = u32(compiler::compile_core(w, out, kOutputCap, &r.size));
  if (r.status != u32(compiler::CompileStatus::OK)) return;
  vm::ProgramView view;
  u32 words = vm::verifier_scratch_words(vm::kMaxCodeWords);
  r.verified = vm::verify_program(out, r.size, scratch + u64(i) * words, words, &view).ok();
  if (!r.verified) return;
  vm::Machine m;
  m.stack = stacks + u64(i) * kStackSlots;
  m.stack_slots = kStackSlots;
  m.frames = frames + u64(i) * (kDepth + 1);
  m.max_depth = kDepth;
  m.heap.base = heaps + u64(i) * kHeap;
  m.heap.capacity = kHeap;
  m.fuel = 100000;
  vm::begin_execution(m);
  if (!vm::load_literals(view, m)) return;
  r.trap = u32(vm::execute(view, 0, m));
  r.result = m.stack[0];
  r.instructions = m.instructions;
}

bool have_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // "driver version is insufficient" on machines without a GPU
    return false;
  }
  return n > 0;
}

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

TEST(DeviceCores, CompileVerifyAndRunMatchTheCpu) {
  if (!have_device()) GTEST_SKIP() << "no CUDA device on this machine: the GPU run is skipped (build checked)";
  std::vector<std::string> programs = {
      "fn solve() -> int { let s = 0; for i in 0..100 { s = s + i * i; } return s; }",
      "fn solve() -> int { return 7 / (3 - 3); }",
      "fn solve() -> float { let x = 2.0; return sqrt(x) * 1.5e3 + float(len(\"abc\")); }",
      "fn solve() -> int { let xs = [5, 3, 9, 1]; xs = sort(xs); let t = 0; for x in xs { t = t * 10 + x; } return t; }",
      "fn solve() -> int { return f(20); } fn f(n: int) -> int { if n < 2 { return n; } return f(n - 1) + f(n - 2); }",
      "fn solve() -> int { return g(1); } fn g(n: int) -> int { return g(n + 1); }",
      "fn solve() -> int { let s = join(split(\"a b  c\", \"\"), \"-\"); return len(s) * 100 + index_of(s, \"c\"); }",
      "fn solve() -> int { while true { } }",
      "fn solve() -> int { return 1 +; }",
  };
  std::string joined;
  std::vector<u32> offsets = {0};
  u64 stride = 0;
  for (const std::string& p : programs) {
    joined += p;
    offsets.push_back(u32(joined.size()));
    stride = std::max<u64>(stride, (compiler::workspace_bytes(u32(p.size()), {}) + 7) & ~u64(7));
  }
  u32 n = u32(programs.size());
  u32 words = vm::verifier_scratch_words(vm::kMaxCodeWords);
  char* d_sources;
  u32* d_offsets;
  u8 *d_workspaces, *d_outputs, *d_heaps;
  u64* d_stacks;
  vm::Frame* d_frames;
  u32* d_scratch;
  DeviceResult* d_results;
  CUDA_OK(cudaMalloc(&d_sources, joined.size()));
  CUDA_OK(cudaMalloc(&d_offsets, offsets.size() * 4));
  CUDA_OK(cudaMalloc(&d_workspaces, stride * n));
  CUDA_OK(cudaMalloc(&d_outputs, u64(kOutputCap) * n));
  CUDA_OK(cudaMalloc(&d_stacks, u64(kStackSlots) * 8 * n));
  CUDA_OK(cudaMalloc(&d_frames, sizeof(vm::Frame) * (kDepth + 1) * n));
  CUDA_OK(cudaMalloc(&d_heaps, u64(kHeap) * n));
  CUDA_OK(cudaMalloc(&d_scratch, u64(words) * 4 * n));
  CUDA_OK(cudaMalloc(&d_results, sizeof(DeviceResult) * n));
  CUDA_OK(cudaMemset(d_results, 0, sizeof(DeviceResult) * n));
  CUDA_OK(cudaMemcpy(d_sources, joined.data(), joined.size(), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d_offsets, offsets.data(), offsets.size() * 4, cudaMemcpyHostToDevice));
  CUDA_OK(cudaDeviceSetLimit(cudaLimitStackSize, 32 * 1024));
  compile_verify_run<<<1, 32>>>(d_sources, d_offsets, n, d_workspaces, stride, d_outputs, d_stacks, d_frames, d_heaps,
                                d_scratch, d_results);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<DeviceResult> results(n);
  std::vector<u8> outputs(u64(kOutputCap) * n);
  CUDA_OK(cudaMemcpy(results.data(), d_results, sizeof(DeviceResult) * n, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(outputs.data(), d_outputs, outputs.size(), cudaMemcpyDeviceToHost));

  vm::Limits limits;
  limits.stack_slots = kStackSlots;
  limits.call_depth = kDepth;
  limits.heap_bytes = kHeap;
  limits.fuel = 100000;
  vm::Runner runner(limits);
  for (u32 i = 0; i < n; ++i) {
    SCOPED_TRACE(programs[i]);
    compiler::Output cpu = compiler::compile(programs[i]);
    ASSERT_EQ(cpu.ok(), results[i].status == u32(compiler::CompileStatus::OK));
    if (!cpu.ok()) continue;
    ASSERT_EQ(cpu.bytecode.size(), results[i].size);
    EXPECT_EQ(0, std::memcmp(cpu.bytecode.data(), outputs.data() + u64(i) * kOutputCap, cpu.bytecode.size()));
    ASSERT_TRUE(results[i].verified);
    auto program = vm::Program::load(cpu.bytecode);
    ASSERT_TRUE(program);
    ASSERT_TRUE(runner.place_args(*program, 0, {}));
    vm::Trap trap = runner.execute(*program, 0);
    EXPECT_EQ(u32(trap), results[i].trap);
    EXPECT_EQ(runner.machine().instructions, results[i].instructions);
    if (trap == vm::Trap::NONE) EXPECT_EQ(runner.machine().stack[0], results[i].result);
  }
  for (void* p : {(void*)d_sources, (void*)d_offsets, (void*)d_workspaces, (void*)d_outputs, (void*)d_stacks,
                  (void*)d_frames, (void*)d_heaps, (void*)d_scratch, (void*)d_results})
    cudaFree(p);
}

}  // namespace
}  // namespace gs
