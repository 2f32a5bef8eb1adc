// Run-time bounds of one execution (docs/language.md §7). Exceeding one is a trap.
#pragma once

#include "base/hd.h"

namespace gs::vm {

struct Limits {
  u64 fuel = 1'000'000;       // instructions, plus one per element a sequence builtin touches
  u32 stack_slots = 4096;     // 8-byte value slots shared by all frames
  u32 call_depth = 64;        // the entry call counts as one
  u32 heap_bytes = 1u << 20;  // arrays, strings and the program's string literals
};

}  // namespace gs::vm
