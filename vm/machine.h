// An execution's memory, laid out the same way wherever it lives — a CPU worker's buffer, a
// GPU thread's slice of scratch, a Runner's own: the value stack, then the heap (rounded up to 8
// bytes), then the call frames (the entry call's and call_depth more). The one place that turns
// Limits into a Machine.
#pragma once

#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>

#include "vm/heap.h"
#include "vm/limits.h"

namespace gs::vm {

// Bytes of one execution's memory under limits l (a multiple of 8).
GS_HD inline u64 machine_bytes(const Limits& l) {
  return u64(l.stack_slots) * 8 + ((u64(l.heap_bytes) + 7) & ~u64(7)) +
         (u64(l.call_depth) + 1) * sizeof(Frame);
}

// A machine over `memory` (8-aligned, machine_bytes(l) bytes), its limits set, nothing else.
GS_HD inline Machine machine_over(u8* memory, const Limits& l) {
  const u64 heap_bytes = (u64(l.heap_bytes) + 7) & ~u64(7);
  Machine m;
  m.stack = reinterpret_cast<u64*>(memory);
  m.stack_slots = l.stack_slots;
  m.heap.base = memory + u64(l.stack_slots) * 8;
  m.heap.capacity = u32(heap_bytes);
  m.frames = reinterpret_cast<Frame*>(m.heap.base + heap_bytes);
  m.max_depth = l.call_depth;
  return m;
}

// A machine with its memory on the host heap (a CPU worker, a Runner, a value bank's case). The
// memory is zeroed by calloc, which for a large block maps fresh pages that the system provides
// only when touched: a 16 MiB heap of which a program uses 2 KB costs 2 KB, so many machines
// with large limits can be held at once.
class OwnedMachine {
 public:
  // Throws std::invalid_argument for limits outside their ranges (vm/limits.h), std::bad_alloc
  // when the memory cannot be had.
  explicit OwnedMachine(const Limits& l)
      : memory_(allocate(l)), machine_(machine_over(static_cast<u8*>(memory_.get()), l)) {}
  OwnedMachine(const OwnedMachine&) = delete;
  OwnedMachine& operator=(const OwnedMachine&) = delete;
  Machine& get() { return machine_; }

 private:
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  static std::unique_ptr<void, Free> allocate(const Limits& l) {
    if (const char* problem = limits_problem(l)) throw std::invalid_argument(problem);
    void* p = std::calloc(machine_bytes(l) / 8, 8);  // 16-aligned: the layout needs 8
    if (p == nullptr) throw std::bad_alloc();
    return std::unique_ptr<void, Free>(p);
  }
  std::unique_ptr<void, Free> memory_;
  Machine machine_;
};

}  // namespace gs::vm
