// One pipeline call: a batch of Syn sources and a problem's tests in, every program's compile
// status, test results and reward out — compile → verify → execute → score, each stage on the
// chosen backend. The CPU backend runs the stages over a thread pool; the CUDA backend keeps
// everything in device memory on one stream and copies back only results (docs/pipeline.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/batch_compile.h"
#include "vm/batch.h"
#include "vm/limits.h"
#include "vm/test_set.h"

namespace gs::node {

enum class Device { Cpu, Cuda, Auto };

// "cpu", "cuda" or "auto".
std::optional<Device> parse_device(std::string_view text);
const char* device_name(Device d);

// True when this build has the CUDA backend and a CUDA device is present; else false and *why.
bool cuda_available(std::string* why);

// A batch of sources on the host: program i is text[offsets[i] .. offsets[i+1]).
struct Sources {
  std::string text;
  std::vector<u64> offsets{0};

  void add(std::string_view source) {
    text.append(source);
    offsets.push_back(text.size());
  }
  u32 count() const { return u32(offsets.size() - 1); }
  std::string_view source(u32 i) const { return std::string_view(text).substr(offsets[i], offsets[i + 1] - offsets[i]); }
  compiler::SourceBatch view() const { return {count(), text.data(), offsets.data()}; }
};

// The pipeline's run-time bounds: smaller than a single `gpusynth run`'s, since every
// concurrent execution needs its own heap and stack (docs/pipeline.md).
inline vm::Limits batch_limits() {
  vm::Limits l;
  l.fuel = 100'000;
  l.stack_slots = 1024;
  l.call_depth = 64;
  l.heap_bytes = 64u << 10;
  return l;
}

struct PipelineConfig {
  vm::Limits limits = batch_limits();  // fuel must stay below 2^32 (per-pair counts are u32)
  compiler::CompileLimits compile;
  vm::RewardWeights reward;
  u32 threads = 0;          // CPU backend: worker threads, 0 = one per hardware thread
  bool keep_pairs = true;   // return the per-pair results (else only per-program ones)
  // CUDA backend: run each program's tests on one warp (its lanes take the tests in turn) instead
  // of one thread per (program, test) pair. Same results; which is faster is measured by
  // bench/pipeline_bench (--warp-per-program). The CPU backend ignores it.
  bool warp_per_program = false;
  // CUDA backend: which of the visible GPUs, modulo their number — a distributed campaign gives
  // each rank its rank among the ranks on its node, so that they spread over the node's GPUs.
  u32 gpu = 0;
};

// Seconds per stage, measured by the backend (CUDA: events on its stream).
struct StageTimes {
  double upload = 0;    // sources and tests to the device (CUDA only)
  double compile = 0;
  double verify = 0;
  double execute = 0;
  double score = 0;
  double download = 0;  // results back to the host (CUDA only)
  double total = 0;
};

struct BatchResults {
  u32 programs = 0;
  u32 tests = 0;
  // Per program.
  std::vector<u8> status;  // vm::ProgramStatus
  std::vector<u32> bytecode_bytes;
  std::vector<u32> diagnostic_count;
  std::vector<compiler::Diagnostic> diagnostics;  // programs × compiler::kBatchDiagnostics
  std::vector<u32> tests_passed;
  std::vector<u64> instructions;
  std::vector<float> reward;
  std::vector<u64> bytecode_hash;  // vm::bytecode_hash of the container, 0 without one
  // Per (program, test) pair, index i * tests + k; empty unless keep_pairs.
  std::vector<u8> trap;
  std::vector<u8> pass;
  std::vector<u32> pair_instructions;
  std::vector<u64> output_hash;
  StageTimes times;
  u64 memory_bytes = 0;  // what the backend holds for this batch (device memory for CUDA)

  vm::ProgramStatus program_status(u32 i) const { return static_cast<vm::ProgramStatus>(status[i]); }
  std::span<const compiler::Diagnostic> kept_diagnostics(u32 i) const {
    u32 n = std::min(diagnostic_count[i], compiler::kBatchDiagnostics);
    return {diagnostics.data() + u64(i) * compiler::kBatchDiagnostics, n};
  }
};

class Pipeline {
 public:
  virtual ~Pipeline() = default;
  virtual const char* name() const = 0;
  // Runs the whole batch. Throws std::runtime_error with a clear message when the batch cannot
  // be run at all (does not fit device memory, a CUDA error); bad programs are results.
  virtual void run(const Sources& sources, const vm::TestSet& tests, BatchResults* out) = 0;
};

// The backend for d (Auto: CUDA when cuda_available(), else the CPU). Throws
// std::runtime_error saying why when CUDA is asked for and cannot be had.
std::unique_ptr<Pipeline> make_pipeline(Device d, const PipelineConfig& config);

}  // namespace gs::node
