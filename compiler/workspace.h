// All the memory one compilation uses, carved from one caller-provided buffer whose size
// follows from the source length (workspace_bytes). A CPU worker reuses one buffer; a GPU
// thread gets a slice of a global scratch array. No pass allocates.
#pragma once

#include "compiler/ast.h"
#include "compiler/diagnostic.h"
#include "compiler/limits.h"
#include "compiler/token.h"
#include "vm/bytecode.h"
#include "vm/verifier.h"

namespace gs::compiler {

// A variable in scope (the checker's symbol table: a small stack searched from the top).
struct Local {
  u32 pos, len, hash;
  u16 slot;
  Type type;
  u8 scope;
  // Python (compiler/checker.h "aliasing"): the list may be another name's too; where it is
  // first changed in place (mutated_len 0: never).
  u8 shared, param;
  u32 mutated_pos, mutated_len;
};

// An enclosing loop while checking and generating code.
struct Loop {
  u32 node;
  u32 continue_target;  // instruction index, or kNoTarget: patch list in continue_list
  u32 continue_list;    // unpatched jumps (see codegen.h "patch lists")
  u32 break_list;
  u8 has_break;
};
inline constexpr u32 kNoTarget = 0xffffffffu;

struct Workspace {
  CompileLimits limits;
  const char* source = nullptr;
  u32 source_len = 0;

  Token* tokens = nullptr;
  u32 token_cap = 0, token_count = 0;
  Node* nodes = nullptr;
  u32 node_cap = 0, node_count = 0;
  FunctionInfo* functions = nullptr;
  u32 function_cap = 0, function_count = 0;
  u16* function_table = nullptr;  // open addressing: function index + 1, 0 = empty
  u32 function_table_size = 0;    // a power of two
  Local* locals = nullptr;
  u32 local_cap = 0, local_count = 0;
  Loop* loops = nullptr;
  u32 loop_cap = 0, loop_count = 0;
  u64* constants = nullptr;
  u32 constant_cap = 0, constant_count = 0;
  u8* string_image = nullptr;
  u32 string_image_cap = 0, string_image_used = 0;
  u32* string_offsets = nullptr;
  u32 string_cap = 0, string_count = 0;
  u32* code = nullptr;
  u32 code_cap = 0, code_count = 0;
  u32* scratch = nullptr;  // for the verifier's stack analysis
  u32 scratch_words = 0;
  Diagnostic* diagnostic_items = nullptr;
  Diagnostics diagnostics;
};

struct WorkspaceSizes {
  u32 tokens, nodes, functions, function_table, locals, loops, constants, string_image, strings, code,
      scratch, diagnostics;
};

GS_HD inline u32 min_u32(u64 a, u64 b) { return u32(a < b ? a : b); }

GS_HD inline WorkspaceSizes workspace_sizes(u32 source_len, const CompileLimits& l) {
  WorkspaceSizes s{};
  s.tokens = source_len + 2;
  if (l.language == Language::Python)
    s.tokens = 2 * source_len + 2;  // NEWLINE, INDENT, DEDENT (python_lexer.h)
  s.nodes = min_u32(l.max_nodes + 1, 4 * u64(s.tokens) + 16);
  s.functions = min_u32(vm::kMaxFunctions, s.tokens / 6 + 1);
  s.function_table = 8;
  while (s.function_table < 2 * s.functions) s.function_table *= 2;
  s.locals = kMaxVariables + 1;
  s.loops = l.max_depth + 1;
  s.constants = min_u32(vm::kMaxConstants, s.tokens);
  s.string_image = 3 * source_len + 64;
  s.strings = min_u32(vm::kMaxStrings, source_len / 2 + 1);
  s.code = min_u32(vm::kMaxCodeWords, 16 * u64(s.nodes) + 16);
  s.scratch = vm::verifier_scratch_words(s.code);
  s.diagnostics = l.max_errors + 1;
  return s;
}

GS_HD inline u64 workspace_bytes(u32 source_len, const CompileLimits& l) {
  WorkspaceSizes s = workspace_sizes(source_len, l);
  return align8(s.tokens * sizeof(Token)) + u64(s.nodes) * sizeof(Node) +
         align8(s.functions * sizeof(FunctionInfo)) + align8(s.function_table * 2) +
         align8(s.locals * sizeof(Local)) + align8(s.loops * sizeof(Loop)) + u64(s.constants) * 8 +
         align8(s.string_image) + align8(s.strings * 4) + u64(s.code) * 4 + u64(s.scratch) * 4 +
         align8(s.diagnostics * sizeof(Diagnostic)) + 64;
}

// Lays the arrays out in buffer (8-aligned, workspace_bytes long) and resets all counts.
GS_HD inline void carve_workspace(u8* buffer, const char* source, u32 source_len, const CompileLimits& l,
                                  Workspace* w) {
  WorkspaceSizes s = workspace_sizes(source_len, l);
  u8* p = buffer;
  auto take = [&p](u64 bytes) {
    u8* at = p;
    p += (bytes + 7) & ~u64(7);
    return at;
  };
  *w = Workspace{};
  w->limits = l;
  w->source = source;
  w->source_len = source_len;
  w->tokens = reinterpret_cast<Token*>(take(u64(s.tokens) * sizeof(Token)));
  w->token_cap = s.tokens;
  w->nodes = reinterpret_cast<Node*>(take(u64(s.nodes) * sizeof(Node)));
  w->node_cap = s.nodes;
  w->functions = reinterpret_cast<FunctionInfo*>(take(u64(s.functions) * sizeof(FunctionInfo)));
  w->function_cap = s.functions;
  w->function_table = reinterpret_cast<u16*>(take(u64(s.function_table) * 2));
  w->function_table_size = s.function_table;
  w->locals = reinterpret_cast<Local*>(take(u64(s.locals) * sizeof(Local)));
  w->local_cap = s.locals;
  w->loops = reinterpret_cast<Loop*>(take(u64(s.loops) * sizeof(Loop)));
  w->loop_cap = s.loops;
  w->constants = reinterpret_cast<u64*>(take(u64(s.constants) * 8));
  w->constant_cap = s.constants;
  w->string_image = take(s.string_image);
  w->string_image_cap = s.string_image;
  w->string_offsets = reinterpret_cast<u32*>(take(u64(s.strings) * 4));
  w->string_cap = s.strings;
  w->code = reinterpret_cast<u32*>(take(u64(s.code) * 4));
  w->code_cap = s.code;
  w->scratch = reinterpret_cast<u32*>(take(u64(s.scratch) * 4));
  w->scratch_words = s.scratch;
  w->diagnostic_items = reinterpret_cast<Diagnostic*>(take(u64(s.diagnostics) * sizeof(Diagnostic)));
  w->diagnostics.items = w->diagnostic_items;
  w->diagnostics.cap = s.diagnostics;
}

}  // namespace gs::compiler
