// Compile-time bounds (docs/language.md §7). Exceeding one is a compile error naming it.
#pragma once

#include "base/hd.h"

namespace gs::compiler {

// Named variables (parameters and loop variables included) in scope at once in a function.
inline constexpr u32 kMaxVariables = 255;

struct CompileLimits {
  u32 max_source_bytes = 65536;
  u32 max_nodes = 16384;
  u32 max_depth = 64;  // at most 255
  u32 max_errors = 32;
};

}  // namespace gs::compiler
