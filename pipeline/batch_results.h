// What a pipeline call returns (docs/pipeline.md "Layout"): every result array of a batch,
// listed once. The table below generates BatchResults' host vectors and their sizing, the packed
// layout the CUDA backend gives them in device memory (and downloads in one copy), and the
// per-pair and per-program views the stages write through — so the CPU, CUDA and neural
// pipelines cannot size or place an array differently.
#pragma once

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "compiler/diagnostic.h"
#include "pipeline/batch.h"
#include "pipeline/compile_stage.h"

namespace gs::pipeline {

// How many elements a result array has, by what it is indexed by.
enum class PerWhat : u8 {
  Program,     // programs
  Diagnostic,  // programs × kBatchDiagnostics
  Pair,        // programs × cases: pair (i, k) at i × cases + k
  GradedPair,  // programs × cases when errors are graded, else none
};

// X(name, element type, PerWhat): per-program arrays first, then per-pair ones, so that the
// per-program results are one prefix of the packed layout (what comes back without pairs).
// clang-format off
#define GS_BATCH_RESULTS(X)                                                                                 \
  X(status, u8, Program)                         /* ProgramStatus */                                       \
  X(bytecode_bytes, u32, Program)                /* container bytes in the slot (0: none) */              \
  X(diagnostic_count, u32, Program)              /* all of a program's compile errors, kept or not */     \
  X(diagnostics, compiler::Diagnostic, Diagnostic) /* the first kBatchDiagnostics of them */              \
  X(syntax_nodes, u32, Program)                  /* its syntax tree's nodes, the program's size (0: none) */ \
  X(cases_passed, u32, Program)                                                                             \
  X(instructions, u64, Program)                  /* over all its cases */                                 \
  X(reward, float, Program)                                                                                 \
  X(bytecode_hash, u64, Program)                 /* bytecode_hash of the container, 0 without one */      \
  X(trap, u8, Pair)                              /* vm::Trap, or kNotRun */                                \
  X(pass, u8, Pair)                                                                                         \
  X(pair_instructions, u32, Pair)                                                                           \
  X(output_hash, u64, Pair)                      /* 0 on a trap */                                         \
  X(error, float, GradedPair)                    /* graded error (output_error.h): 0 on a pass, +inf on a trap */
// clang-format on

// The shape of a batch's results.
struct BatchShape {
  u32 programs = 0;
  u32 cases = 0;
  bool grade = false;  // the pairs' graded errors are computed
  u64 pairs() const { return u64(programs) * cases; }
  u64 count(PerWhat w) const {
    switch (w) {
      case PerWhat::Program: return programs;
      case PerWhat::Diagnostic: return u64(programs) * kBatchDiagnostics;
      case PerWhat::Pair: return pairs();
      case PerWhat::GradedPair: return grade ? pairs() : 0;
    }
    return 0;
  }
};

// Byte offsets of every result array packed into one buffer, each 8-aligned, in table order.
struct ResultLayout {
#define GS_X(name, type, per) u64 name = 0;
  GS_BATCH_RESULTS(GS_X)
#undef GS_X
  u64 programs_end = 0;  // the per-program arrays end here
  u64 bytes = 0;         // all of them end here
  bool graded = false;

  // The stages' views of the arrays in a buffer laid out so (device memory, for CUDA).
  PairResults pair_views(u8* base) const {
    return {reinterpret_cast<u8*>(base + trap), reinterpret_cast<u8*>(base + pass),
            reinterpret_cast<u32*>(base + pair_instructions), reinterpret_cast<u64*>(base + output_hash),
            graded ? reinterpret_cast<float*>(base + error) : nullptr};
  }
  ProgramResults program_views(u8* base) const {
    return {reinterpret_cast<u32*>(base + cases_passed), reinterpret_cast<u64*>(base + instructions),
            reinterpret_cast<float*>(base + reward), reinterpret_cast<u64*>(base + bytecode_hash)};
  }

  static ResultLayout of(const BatchShape& s) {
    ResultLayout l;
    u64 at = 0;
    bool in_pairs = false;
#define GS_X(name, type, per)                                                                \
  if (!in_pairs && (PerWhat::per == PerWhat::Pair || PerWhat::per == PerWhat::GradedPair)) { \
    in_pairs = true;                                                                         \
    l.programs_end = at;                                                                     \
  }                                                                                          \
  l.name = at;                                                                               \
  at += (s.count(PerWhat::per) * sizeof(type) + 7) & ~u64(7);
    GS_BATCH_RESULTS(GS_X)
#undef GS_X
    l.bytes = at;
    l.graded = s.grade;
    return l;
  }
};

// Seconds per stage, measured by the backend (CUDA: events on its stream).
struct StageTimes {
  double upload = 0;  // sources and cases to the device (CUDA only)
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

// A pipeline call's results on the host: one vector per array of the table. The per-pair ones
// are empty unless the pipeline keeps pairs (PipelineConfig::keep_pairs), `error` unless it
// grades them.
struct BatchResults {
  u32 programs = 0;
  u32 cases = 0;
#define GS_X(name, type, per) std::vector<type> name;
  GS_BATCH_RESULTS(GS_X)
#undef GS_X
  StageTimes times;
  NeuralCounts neural;
  u64 memory_bytes = 0;  // what the backend holds for this batch (device memory for CUDA)

  // Every array sized for `shape`, zero-filled; times and counts reset.
  void reset(const BatchShape& shape) {
    programs = shape.programs;
    cases = shape.cases;
#define GS_X(name, type, per) name.assign(shape.count(PerWhat::per), type{});
    GS_BATCH_RESULTS(GS_X)
#undef GS_X
    times = StageTimes{};
    neural = NeuralCounts{};
  }
  // Drops the per-pair arrays (a pipeline that does not keep them computed them to score).
  void drop_pairs() {
#define GS_X(name, type, per) \
  if (PerWhat::per == PerWhat::Pair || PerWhat::per == PerWhat::GradedPair) name.clear();
    GS_BATCH_RESULTS(GS_X)
#undef GS_X
  }
  // Fills the arrays from `packed`, laid out by `layout` for `shape`: the per-program arrays,
  // and the per-pair ones when with_pairs (else they are left empty).
  void unpack(const u8* packed, const ResultLayout& layout, const BatchShape& shape, bool with_pairs) {
    reset(shape);
#define GS_X(name, type, per)                                                                       \
  if (with_pairs || PerWhat::per == PerWhat::Program || PerWhat::per == PerWhat::Diagnostic)        \
    std::memcpy(static_cast<void*>(name.data()), packed + layout.name, name.size() * sizeof(type)); \
  else                                                                                              \
    name.clear();
    GS_BATCH_RESULTS(GS_X)
#undef GS_X
  }

  // Views of the arrays, for the stages to write through.
  PairResults pair_views() {
    return {trap.data(), pass.data(), pair_instructions.data(), output_hash.data(),
            error.empty() ? nullptr : error.data()};
  }
  ProgramResults program_views() {
    return {cases_passed.data(), instructions.data(), reward.data(), bytecode_hash.data()};
  }

  ProgramStatus program_status(u32 i) const { return static_cast<ProgramStatus>(status[i]); }
  std::span<const compiler::Diagnostic> kept_diagnostics(u32 i) const {
    u32 n = std::min(diagnostic_count[i], kBatchDiagnostics);
    return {diagnostics.data() + u64(i) * kBatchDiagnostics, n};
  }
};

}  // namespace gs::pipeline
