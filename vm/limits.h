// Run-time bounds of one execution (docs/language.md §7). Exceeding one is a trap.
#pragma once

#include "base/hd.h"

namespace gs::vm {

// The range of each limit (the options of every command, docs/cli.md): within them one execution's
// memory stays under ~264 MiB and no size computation overflows.
// (A heap of 0 bytes or a stack of one slot is legal: what does not fit traps.)
inline constexpr u64 kMaxFuel = u64(1) << 40;
inline constexpr u32 kMinStackSlots = 1, kMaxStackSlots = 1u << 20;  // 8 MiB
inline constexpr u32 kMaxCallDepth = 4096;
inline constexpr u32 kMinHeapBytes = 0, kMaxHeapBytes = 1u << 28;  // 256 MiB

struct Limits {
  u64 fuel = 1'000'000;       // instructions, plus one per element a sequence builtin touches
  u32 stack_slots = 4096;     // 8-byte value slots shared by all frames
  u32 call_depth = 64;        // the entry call counts as one
  u32 heap_bytes = 1u << 20;  // arrays, strings and the program's string literals
};

// Null when every limit of l is within its range above, else which one is not.
inline const char* limits_problem(const Limits& l) {
  if (l.fuel < 1 || l.fuel > kMaxFuel) return "fuel must be in [1, 2^40]";
  if (l.stack_slots < kMinStackSlots || l.stack_slots > kMaxStackSlots)
    return "stack must be in [1, 2^20] slots";
  if (l.call_depth < 1 || l.call_depth > kMaxCallDepth) return "call depth must be in [1, 4096]";
  if (l.heap_bytes > kMaxHeapBytes) return "heap must be in [0, 2^28] bytes";
  return nullptr;
}

}  // namespace gs::vm
