// One program, source to bytecode container, with no allocation: the core the CPU batch
// compiler runs on worker threads and the GPU batch compiler runs in one thread per program.
//
//   lex -> parse -> check (+ fold) -> codegen (+ dead code, stack depths) -> thread jumps
//   -> container
//
// Errors from every pass before codegen are collected together; codegen runs only on a program
// without errors.
#pragma once

#include "compiler/checker.h"
#include "compiler/codegen.h"
#include "compiler/lexer.h"
#include "compiler/parser.h"
#include "compiler/peephole.h"
#include "compiler/python_parser.h"
#include "compiler/workspace.h"
#include "vm/bytecode.h"
#include "vm/verifier.h"

namespace gs::compiler {

enum class CompileStatus : u8 {
  OK,
  ERRORS,            // diagnostics in the workspace
  OUTPUT_TOO_SMALL,  // *out_len says how many bytes the container needs
};

// Diagnostics in source order (stable; "too many errors" stays last).
GS_HD inline void sort_diagnostics(Diagnostics& d) {
  u32 n = d.stopped ? d.count - 1 : d.count;
  for (u32 i = 1; i < n; ++i) {
    Diagnostic x = d.items[i];
    u32 j = i;
    for (; j > 0 && d.items[j - 1].pos > x.pos; --j) d.items[j] = d.items[j - 1];
    d.items[j] = x;
  }
}

GS_HD inline bool run_passes_unsorted(Workspace& w);
GS_HD inline bool run_passes_after_lex(Workspace& w);

// Runs the passes over a carved workspace (carve_workspace). True when bytecode was generated.
GS_HD inline bool run_passes(Workspace& w) {
  bool ok = run_passes_unsorted(w);
  sort_diagnostics(w.diagnostics);
  return ok;
}

// run_passes for a workspace whose w.tokens, w.token_count and w.diagnostics the caller has
// already filled with what lex() gives for w.source (the batch lexer, pipeline/lex_stage.h):
// the passes after the lexer, with the same result as run_passes. (Syn only: the batch lexer
// lexes Syn.) A source over the limit
// gives SOURCE_TOO_LARGE alone, as run_passes does, whatever was placed.
GS_HD inline bool run_passes_lexed(Workspace& w) {
  bool ok = false;
  if (w.source_len > w.limits.max_source_bytes) {
    w.diagnostics.count = 0;
    w.diagnostics.stopped = false;
    w.diagnostics.add(Code::SOURCE_TOO_LARGE, 0, 0, w.source_len, w.limits.max_source_bytes);
  } else {
    ok = run_passes_after_lex(w);
  }
  sort_diagnostics(w.diagnostics);
  return ok;
}

GS_HD inline bool run_passes_unsorted(Workspace& w) {
  Diagnostics& d = w.diagnostics;
  if (w.source_len > w.limits.max_source_bytes) {
    d.add(Code::SOURCE_TOO_LARGE, 0, 0, w.source_len, w.limits.max_source_bytes);
    return false;
  }
  if (w.limits.language == Language::Python)
    w.token_count = python_lex(w.source, w.source_len, w.tokens, w.token_cap, d);
  else
    w.token_count = lex(w.source, w.source_len, w.tokens, w.token_cap, d);
  return run_passes_after_lex(w);
}

// Everything after the lexer: parse -> check -> codegen, over the tokens in the workspace.
GS_HD inline bool run_passes_after_lex(Workspace& w) {
  Diagnostics& d = w.diagnostics;
  w.node_count = 1;  // node 0 is the "none" sentinel
  w.nodes[0] = Node{};
  u32 program;
  bool fatal;
  if (w.limits.language == Language::Python) {
    PythonParser parser(w);
    program = parser.parse_module();
    fatal = parser.fatal;
  } else {
    Parser parser{w};
    program = parser.parse_program();
    fatal = parser.fatal;
  }
  if (fatal || d.stopped || program == 0) return false;
  // Python: after a syntax error (often a construct outside the subset) the tree misses what
  // the checker would look for, so it would only add confusing errors
  if (w.limits.language == Language::Python && d.count > 0) return false;
  Checker checker(w);
  checker.verify_stage(program);
  if (d.count > 0) return false;

  Codegen gen(w);
  for (u32 fn = w.nodes[program].first; fn != 0 && !gen.overflow; fn = w.nodes[fn].next) {
    gen.function(fn);
    FunctionInfo& f = w.functions[w.nodes[fn].ref];
    if (gen.overflow) break;
    f.code_words = thread_jumps(w.code + f.code_start, f.code_words, w.scratch);
    w.code_count = f.code_start + f.code_words;
  }
  if (gen.overflow) return false;
  for (u32 i = 0; i < w.function_count; ++i) {
    const FunctionInfo& f = w.functions[i];
    if (f.max_stack > vm::kMaxFrameStack) {
      d.add(Code::STACK_TOO_DEEP, w.nodes[f.node].pos, w.nodes[f.node].len, vm::kMaxFrameStack);
      return false;
    }
  }
  return true;
}

GS_HD inline vm::Header container_header(const Workspace& w) {
  vm::Header h{};
  u32 magic = vm::kMagic;
  memcpy(h.magic, &magic, 4);
  h.version = vm::kBytecodeVersion;
  h.function_count = w.function_count;
  h.constant_count = w.constant_count;
  h.string_count = w.string_count;
  h.string_image_bytes = w.string_image_used;
  for (u32 i = 0; i < w.function_count; ++i) h.name_bytes += w.functions[i].name_len;
  h.code_words = w.code_count;
  h.total_bytes = u32(vm::layout_of(h).total);
  return h;
}

// Writes the container for a workspace the passes accepted into out (8-byte aligned).
GS_HD inline void write_container(const Workspace& w, const vm::Header& h, u8* out) {
  vm::Layout l = vm::layout_of(h);
  fill_bytes(out, 0, l.total);
  copy_bytes(out, &h, sizeof h);
  u32 name_offset = 0;
  for (u32 i = 0; i < w.function_count; ++i) {
    const FunctionInfo& f = w.functions[i];
    vm::FunctionRecord r{};
    r.code_start = f.code_start;
    r.code_words = f.code_words;
    r.name_offset = name_offset;
    r.name_length = u16(f.name_len);
    r.param_count = f.param_count;
    r.result_count = f.result_count;
    r.local_count = f.local_count;
    r.max_stack = f.max_stack;
    for (u32 k = 0; k < u32(f.param_count) + f.result_count; ++k) r.types[k] = f.types[k];
    copy_bytes(out + l.functions + u64(i) * sizeof r, &r, sizeof r);
    copy_bytes(out + l.names + name_offset, w.source + f.name_pos, f.name_len);
    name_offset += f.name_len;
  }
  copy_bytes(out + l.constants, w.constants, u64(w.constant_count) * 8);
  copy_bytes(out + l.string_offsets, w.string_offsets, u64(w.string_count) * 4);
  copy_bytes(out + l.string_image, w.string_image, w.string_image_used);
  copy_bytes(out + l.code, w.code, u64(w.code_count) * 4);
  u32 sum = vm::container_checksum(out, l.checksum);
  copy_bytes(out + l.checksum, &sum, 4);
}

// Writes the container of a workspace the passes accepted (passed) into out[0 .. out_cap).
GS_HD inline CompileStatus finish_container(const Workspace& w, bool passed, u8* out, u32 out_cap,
                                            u32* out_len) {
  *out_len = 0;
  if (!passed) return CompileStatus::ERRORS;
  vm::Header h = container_header(w);
  *out_len = h.total_bytes;
  if (h.total_bytes > out_cap) return CompileStatus::OUTPUT_TOO_SMALL;
  write_container(w, h, out);
  return CompileStatus::OK;
}

// Compiles w.source into out[0 .. out_cap). *out_len receives the container's size.
GS_HD inline CompileStatus compile_core(Workspace& w, u8* out, u32 out_cap, u32* out_len) {
  return finish_container(w, run_passes(w), out, out_cap, out_len);
}

// compile_core for a workspace already holding the source's tokens and lexical diagnostics
// (run_passes_lexed).
GS_HD inline CompileStatus compile_core_lexed(Workspace& w, u8* out, u32 out_cap, u32* out_len) {
  return finish_container(w, run_passes_lexed(w), out, out_cap, out_len);
}

}  // namespace gs::compiler
