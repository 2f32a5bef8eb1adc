// The compile stage of the batch pipeline for one program, as host+device code: the CPU batch
// compiler (compiler/cpu_batch_compiler.h) and the CUDA kernel (compiler/cuda_batch_compiler.cu)
// call it, each with a workspace of its own, for every program of a batch.
#pragma once

#include "compiler/compile_core.h"
#include "vm/batch.h"

namespace gs::compiler {

// Diagnostics kept per program in a batch (the first ones in source order; the count says
// how many there were).
inline constexpr u32 kBatchDiagnostics = 4;

// A batch of sources: program i is text[offsets[i] .. offsets[i+1]).
struct SourceBatch {
  u32 count = 0;
  const char* text = nullptr;
  const u64* offsets = nullptr;  // count + 1
};

struct CompileResults {
  Diagnostic* diagnostics = nullptr;  // count × kBatchDiagnostics
  u32* diagnostic_count = nullptr;    // all of a program's diagnostics, kept or not
};

// Workspace bytes that can compile any source of the batch (longest is its longest source).
GS_HD inline u64 batch_workspace_bytes(u32 longest, const CompileLimits& l) {
  u32 n = longest < l.max_source_bytes ? longest : l.max_source_bytes;
  return (workspace_bytes(n, l) + 7) & ~u64(7);
}

// Compiles program i into its bytecode slot. workspace: batch_workspace_bytes() bytes, 8-aligned.
GS_HD inline void compile_program(const SourceBatch& s, u32 i, const CompileLimits& l, u8* workspace,
                                  vm::BytecodeBatch& b, CompileResults& r) {
  u64 len = s.offsets[i + 1] - s.offsets[i];
  Diagnostic* kept = r.diagnostics + u64(i) * kBatchDiagnostics;
  b.sizes[i] = 0;
  b.entry[i] = 0;
  r.diagnostic_count[i] = 0;
  if (len > l.max_source_bytes) {  // (the workspace only holds sources up to the limit)
    kept[0] = {Code::SOURCE_TOO_LARGE, 0, 0, u32(len > 0xffffffffu ? 0xffffffffu : len), l.max_source_bytes};
    r.diagnostic_count[i] = 1;
    b.status[i] = u8(vm::ProgramStatus::COMPILE_ERROR);
    return;
  }
  Workspace w;
  carve_workspace(workspace, s.text + s.offsets[i], u32(len), l, &w);
  u32 size = 0;
  u8* slot = b.bytes + b.offsets[i];
  u64 cap = b.offsets[i + 1] - b.offsets[i];
  CompileStatus status = compile_core(w, slot, u32(cap > 0xffffffffu ? 0xffffffffu : cap), &size);
  if (status == CompileStatus::OK) {
    b.sizes[i] = size;
    b.status[i] = u8(vm::ProgramStatus::OK);
  } else if (status == CompileStatus::OUTPUT_TOO_SMALL) {
    b.status[i] = u8(vm::ProgramStatus::BYTECODE_TOO_LARGE);
  } else {
    b.status[i] = u8(vm::ProgramStatus::COMPILE_ERROR);
    u32 n = w.diagnostics.count;
    r.diagnostic_count[i] = n;
    for (u32 k = 0; k < n && k < kBatchDiagnostics; ++k) kept[k] = w.diagnostics.items[k];
  }
}

}  // namespace gs::compiler
