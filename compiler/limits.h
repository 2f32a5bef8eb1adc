// Compile-time bounds (docs/language.md §7). Exceeding one is a compile error naming it.
#pragma once

#include "base/hd.h"

namespace gs::compiler {

// Named variables (parameters and loop variables included) in scope at once in a function.
inline constexpr u32 kMaxVariables = 255;

// The range of each limit (the options of every command, docs/cli.md).
inline constexpr u32 kMaxSourceBytes = 1u << 24;  // 16 MiB
inline constexpr u32 kMinNodes = 16, kMaxNodes = 1u << 20;
inline constexpr u32 kMaxDepth = 255;

// The front end a source is written in: Syn (compiler/parser.h) or the typed-Python subset
// (compiler/python_parser.h, docs/python.md). Both build the same syntax tree.
enum class Language : u8 { Syn, Python };

struct CompileLimits {
  u32 max_source_bytes = 65536;
  u32 max_nodes = 16384;
  u32 max_depth = 64;  // at most 255
  u32 max_errors = 32;
  Language language = Language::Syn;  // not a limit: which front end reads the source
};

}  // namespace gs::compiler
