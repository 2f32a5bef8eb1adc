// One pipeline call: a batch of Syn sources and a problem's cases in, every program's compile
// status, test results and reward out — compile → verify → execute → score, each stage on the
// chosen backend. The CPU backend runs the stages over a thread pool; the CUDA backend keeps
// everything in device memory on one stream and copies back only results (docs/pipeline.md).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/batch.h"
#include "pipeline/batch_results.h"
#include "pipeline/case_set.h"
#include "pipeline/compile_stage.h"
#include "vm/limits.h"

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
// The device `d` means here: Auto is Cuda where cuda_available(), else Cpu.
Device resolve_device(Device d);

// A batch of sources on the host: program i is text[offsets[i] .. offsets[i+1]).
struct Sources {
  std::string text;
  std::vector<u64> offsets{0};

  void add(std::string_view source) {
    text.append(source);
    offsets.push_back(text.size());
  }
  u32 count() const { return u32(offsets.size() - 1); }
  std::string_view source(u32 i) const {
    return std::string_view(text).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
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
//                batch's cases and on random inputs; otherwise the traditional bytecode is run.
//                So a hybrid batch passes and fails exactly the cases a traditional one does.
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
  u32 random_inputs = 8;       // hybrid: random inputs of the differential check, besides the cases
  std::string device = "cpu";  // where the model runs
};

struct PipelineConfig {
  vm::Limits limits = batch_limits();  // fuel must stay below 2^32 (per-pair counts are u32)
  compiler::CompileLimits compile;
  RewardWeights reward;
  u32 threads = 0;         // CPU backend: worker threads, 0 = one per hardware thread
  bool keep_pairs = true;  // return the per-pair results (else only per-program ones)
  // Also compute each pair's graded error (BatchResults::error, pipeline/output_error.h), which lexicase
  // on errors needs; else `error` stays empty. Off by default: for a failing pair with string
  // results it costs up to 128 × 128 steps of edit distance.
  bool grade = false;
  // CPU backend: lex the whole batch first with the data-parallel batch lexer and compile from its
  // tokens, as the CUDA backend does, instead of lexing each program in its compile thread. Same
  // results (cases/unit/pipeline_test.cpp holds the two paths equal on random batches); off by
  // default because it is slower on a CPU (bench/pipeline_bench --batch-lexer, docs/pipeline.md).
  bool batch_lexer = false;
  // CUDA backend: run each program's cases on one warp (its lanes take the cases in turn) instead
  // of one thread per (program, case) pair. Same results; which is faster is measured by
  // bench/pipeline_bench (--warp-per-program). The CPU backend ignores it.
  bool warp_per_program = false;
  // CUDA backend: which of the visible GPUs, modulo their number — a distributed campaign gives
  // each rank its rank among the ranks on its node, so that they spread over the node's GPUs.
  u32 gpu = 0;
  NeuralCompileConfig neural;
};

class Pipeline {
 public:
  virtual ~Pipeline() = default;
  virtual const char* name() const = 0;
  // Runs the whole batch. Throws std::runtime_error with a clear message when the batch cannot
  // be run at all (does not fit device memory, a CUDA error); bad programs are results.
  virtual void run(const Sources& sources, const CaseSet& tests, BatchResults* out) = 0;

  // A wall-clock time after which the rest of a batch is not run: the (program, case) pairs not
  // yet begun are marked not run (trap not_run), as those of a program that did not compile, so
  // that a search's time budget (--seconds) binds within a batch, to about one execution past
  // it. The CPU backend checks it before each pair; the CUDA backend runs a batch whole (a
  // search checks the time between batches). None by default.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { deadline_ = deadline; }

 protected:
  std::optional<std::chrono::steady_clock::time_point> deadline_;
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
// Whether this program registered one.
bool has_neural_pipeline();

}  // namespace gs::pipeline
