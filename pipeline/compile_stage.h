// The compile stage of the batch pipeline for one program, as host+device code: the CPU batch
// compiler (pipeline/cpu_compiler.h) and the CUDA kernel (pipeline/cuda_compiler.cu)
// call it, each with a workspace of its own, for every program of a batch.
#pragma once

#include "compiler/compile_core.h"
#include "pipeline/batch.h"

namespace gs::pipeline {

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
  compiler::Diagnostic* diagnostics = nullptr;  // count × kBatchDiagnostics
  u32* diagnostic_count = nullptr;              // all of a program's diagnostics, kept or not
  // The program's size: its syntax tree's nodes when it compiled (its bytecode may still be
  // too large for the slot), else 0.
  u32* syntax_nodes = nullptr;
};

// Workspace bytes that can compile any source of the batch (longest is its longest source).
GS_HD inline u64 batch_workspace_bytes(u32 longest, const compiler::CompileLimits& l) {
  u32 n = longest < l.max_source_bytes ? longest : l.max_source_bytes;
  return (compiler::workspace_bytes(n, l) + 7) & ~u64(7);
}

// One program's tokens and lexical diagnostics, made beforehand by the batch lexer
// (pipeline/lex_stage.h): what lex() gives for its source.
struct LexedProgram {
  const compiler::Token* tokens = nullptr;  // token_count of them, the last one END
  u32 token_count = 0;
  const compiler::Diagnostic* diagnostics = nullptr;  // the first diagnostics_kept of them
  u32 diagnostic_count = 0;                           // lex() reports this many
  u32 diagnostics_kept = 0;
};

// Puts a program's pre-lexed tokens and diagnostics into a freshly carved workspace, as lex()
// would have. False (nothing placed) when they are incomplete (diagnostics not all kept) or do
// not fit: the caller lexes instead.
GS_HD inline bool place_lexed(const LexedProgram& lexed, compiler::Workspace& w) {
  if (lexed.diagnostic_count > lexed.diagnostics_kept || lexed.token_count > w.token_cap ||
      lexed.token_count == 0)
    return false;
  copy_bytes(w.tokens, lexed.tokens, u64(lexed.token_count) * sizeof(compiler::Token));
  w.token_count = lexed.token_count;
  for (u32 k = 0; k < lexed.diagnostic_count; ++k) {
    const compiler::Diagnostic& d = lexed.diagnostics[k];
    w.diagnostics.add(d.code, d.pos, d.len, d.a, d.b);  // the same adds lex() made, in order
  }
  return true;
}

// compile_stage (kPreLexed false: lexed is unused) and compile_stage_lexed.
template <bool kPreLexed>
GS_HD inline void compile_stage_from(const SourceBatch& s, u32 i, const LexedProgram* lexed,
                                     const compiler::CompileLimits& l, u8* workspace, BytecodeBatch& b,
                                     CompileResults& r) {
  u64 len = s.offsets[i + 1] - s.offsets[i];
  compiler::Diagnostic* kept = r.diagnostics + u64(i) * kBatchDiagnostics;
  b.sizes[i] = 0;
  b.entry[i] = 0;
  r.diagnostic_count[i] = 0;
  r.syntax_nodes[i] = 0;
  if (len > l.max_source_bytes) {  // (the workspace only holds sources up to the limit)
    kept[0] = {compiler::Code::SOURCE_TOO_LARGE, 0, 0, u32(len > 0xffffffffu ? 0xffffffffu : len),
               l.max_source_bytes};
    r.diagnostic_count[i] = 1;
    b.status[i] = u8(ProgramStatus::COMPILE_ERROR);
    return;
  }
  compiler::Workspace w;
  compiler::carve_workspace(workspace, s.text + s.offsets[i], u32(len), l, &w);
  u32 size = 0;
  u8* slot = b.bytes + b.offsets[i];
  u64 cap = b.offsets[i + 1] - b.offsets[i];
  u32 out_cap = u32(cap > 0xffffffffu ? 0xffffffffu : cap);
  compiler::CompileStatus status;
  if constexpr (kPreLexed) {  // (the batch lexer lexes Syn: a Python source is lexed here)
    status = l.language == compiler::Language::Syn && place_lexed(*lexed, w)
                 ? compiler::compile_core_lexed(w, slot, out_cap, &size)
                 : compiler::compile_core(w, slot, out_cap, &size);
  } else {
    status = compiler::compile_core(w, slot, out_cap, &size);
  }
  if (status != compiler::CompileStatus::ERRORS) r.syntax_nodes[i] = w.node_count - 1;  // less the sentinel
  if (status == compiler::CompileStatus::OK) {
    b.sizes[i] = size;
    b.status[i] = u8(ProgramStatus::OK);
  } else if (status == compiler::CompileStatus::OUTPUT_TOO_SMALL) {
    b.status[i] = u8(ProgramStatus::BYTECODE_TOO_LARGE);
  } else {
    b.status[i] = u8(ProgramStatus::COMPILE_ERROR);
    u32 n = w.diagnostics.count;
    r.diagnostic_count[i] = n;
    for (u32 k = 0; k < n && k < kBatchDiagnostics; ++k) kept[k] = w.diagnostics.items[k];
  }
}

// Compiles program i into its bytecode slot. workspace: batch_workspace_bytes() bytes, 8-aligned.
GS_HD inline void compile_stage(const SourceBatch& s, u32 i, const compiler::CompileLimits& l, u8* workspace,
                                BytecodeBatch& b, CompileResults& r) {
  compile_stage_from<false>(s, i, nullptr, l, workspace, b, r);
}

// compile_stage for a program the batch lexer has lexed already: its tokens and lexical
// diagnostics are copied into the workspace instead of lexing (the result is the same). Falls
// back to lexing when the batch lexer did not keep all of the program's diagnostics.
GS_HD inline void compile_stage_lexed(const SourceBatch& s, u32 i, const LexedProgram& lexed,
                                      const compiler::CompileLimits& l, u8* workspace, BytecodeBatch& b,
                                      CompileResults& r) {
  compile_stage_from<true>(s, i, &lexed, l, workspace, b, r);
}

}  // namespace gs::pipeline
