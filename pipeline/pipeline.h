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

#include "pipeline/compile_stage.h"
#include "pipeline/batch.h"
#include "vm/limits.h"
#include "pipeline/case_set.h"

namespace gs::pipeline {

enum class Device { Cpu, Cuda, Auto };

// "cpu", "cuda" or "auto".
std::optional<Device> parse_device(std::string_view text);
const char* device_name(Device d);

// The CUDA devices this process can use: 0, with *why saying what the runtime reported (no
// driver, no device) or that this build has no CUDA backend. The one such count in the project.
int cuda_device_count(std::string* why = nullptr);
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
  SourceBatch view() const { return {count(), text.data(), offsets.data()}; }
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

// How sources become bytecode (docs/neural.md "Hybrid compilation"):
//   traditional  the compiler (compiler/), on the pipeline's backend;
//   neural       the neural compiler alone: of its K samples the first the bytecode verifier
//                accepts is run — correct only with the probability the model has (p(c));
//   hybrid       the router sends a program to the neural compiler first, and a sample is used
//                only when it behaves exactly as the traditional compiler's bytecode on the
//                batch's tests and on random inputs; otherwise the traditional bytecode is run.
//                So a hybrid batch passes and fails exactly the tests a traditional one does.
// neural and hybrid need a build with libtorch and run on the CPU backend.
enum class CompileMode { Traditional, Neural, Hybrid };
std::optional<CompileMode> parse_compile_mode(std::string_view text);  // "traditional", "neural", "hybrid"
const char* compile_mode_name(CompileMode m);

struct NeuralCompileConfig {
  CompileMode mode = CompileMode::Traditional;
  std::string checkpoint;  // the neural compiler (train-compiler or selfplay)
  std::string router;      // a router file (eval-compiler --router-out); empty: every program goes neural
  u32 samples = 4;         // K per program
  double temperature = 0.8;
  double top_p = 0.95;
  u64 seed = 1;
  u32 random_inputs = 8;  // hybrid: random inputs of the differential check, besides the tests
  std::string device = "cpu";  // where the model runs
};

struct PipelineConfig {
  vm::Limits limits = batch_limits();  // fuel must stay below 2^32 (per-pair counts are u32)
  compiler::CompileLimits compile;
  RewardWeights reward;
  u32 threads = 0;          // CPU backend: worker threads, 0 = one per hardware thread
  bool keep_pairs = true;   // return the per-pair results (else only per-program ones)
  // Also compute each pair's graded error (BatchResults::error, pipeline/output_error.h), which lexicase
  // on errors needs; else `error` stays empty. Off by default: for a failing pair with string
  // results it costs up to 128 × 128 steps of edit distance.
  bool grade = false;
  // CUDA backend: run each program's tests on one warp (its lanes take the tests in turn) instead
  // of one thread per (program, test) pair. Same results; which is faster is measured by
  // bench/pipeline_bench (--warp-per-program). The CPU backend ignores it.
  bool warp_per_program = false;
  // CUDA backend: which of the visible GPUs, modulo their number — a distributed campaign gives
  // each rank its rank among the ranks on its node, so that they spread over the node's GPUs.
  u32 gpu = 0;
  NeuralCompileConfig neural;
};

// Seconds per stage, measured by the backend (CUDA: events on its stream).
struct StageTimes {
  double upload = 0;    // sources and tests to the device (CUDA only)
  double compile = 0;
  double verify = 0;
  double execute = 0;
  double score = 0;
  double download = 0;  // results back to the host (CUDA only)
  double route = 0;     // hybrid: the router's features and scores
  double neural = 0;    // neural and hybrid: sampling and decoding the model's candidates
  double check = 0;     // hybrid: running candidates against the traditional bytecode
  double total = 0;
};

// What the neural compiler did in a batch (all zero in traditional mode).
struct NeuralCounts {
  u32 routed = 0;    // programs sent to the neural compiler
  u32 accepted = 0;  // of those, run with a neural sample's bytecode
  u64 samples = 0;   // candidates decoded
  u64 valid = 0;     // candidates the bytecode verifier accepted
};

struct BatchResults {
  u32 programs = 0;
  u32 tests = 0;
  // Per program.
  std::vector<u8> status;  // ProgramStatus
  std::vector<u32> bytecode_bytes;
  std::vector<u32> diagnostic_count;
  std::vector<compiler::Diagnostic> diagnostics;  // programs × kBatchDiagnostics
  std::vector<u32> tests_passed;
  std::vector<u64> instructions;
  std::vector<float> reward;
  std::vector<u64> bytecode_hash;  // bytecode_hash of the container, 0 without one
  // Per (program, test) pair, index i * tests + k; empty unless keep_pairs.
  std::vector<u8> trap;
  std::vector<u8> pass;
  std::vector<u32> pair_instructions;
  std::vector<u64> output_hash;
  std::vector<float> error;  // graded error (pipeline/output_error.h): 0 on a pass, +inf on a trap; empty unless grade
  StageTimes times;
  NeuralCounts neural;
  u64 memory_bytes = 0;  // what the backend holds for this batch (device memory for CUDA)

  ProgramStatus program_status(u32 i) const { return static_cast<ProgramStatus>(status[i]); }
  std::span<const compiler::Diagnostic> kept_diagnostics(u32 i) const {
    u32 n = std::min(diagnostic_count[i], kBatchDiagnostics);
    return {diagnostics.data() + u64(i) * kBatchDiagnostics, n};
  }
};

class Pipeline {
 public:
  virtual ~Pipeline() = default;
  virtual const char* name() const = 0;
  // Runs the whole batch. Throws std::runtime_error with a clear message when the batch cannot
  // be run at all (does not fit device memory, a CUDA error); bad programs are results.
  virtual void run(const Sources& sources, const TestSet& tests, BatchResults* out) = 0;
};

// The backend for d (Auto: CUDA when cuda_available(), else the CPU); for the neural and hybrid
// compile modes, the factory neural/ registered. Throws std::runtime_error saying why when CUDA
// or the neural compiler is asked for and cannot be had.
std::unique_ptr<Pipeline> make_pipeline(Device d, const PipelineConfig& config);

// The neural and hybrid compile modes live in neural/ (libtorch), above this library: a program
// built with it registers their factory here (neural::register_pipeline) before making
// pipelines. Without one, asking for those modes says that this build has no libtorch.
using NeuralPipelineFactory = std::unique_ptr<Pipeline> (*)(const PipelineConfig& config);
void register_neural_pipeline(NeuralPipelineFactory make);

}  // namespace gs::pipeline
