// What both libFuzzer targets need to run a verified program: an execution's memory under
// small bounds, sized exactly so that AddressSanitizer sees any access past it, and arguments
// of the entry's parameter types taken from the fuzzer's bytes. Calls the interpreter core
// (vm/interpreter.h) directly, so its code is compiled — and coverage-instrumented — in the
// fuzz target itself rather than taken from the uninstrumented library.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "vm/interpreter.h"

namespace gs::fuzzing {

// Stops the fuzzer on a violated property, so libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "gpusynth fuzz: %s\n", what);
  std::abort();
}

class FuzzMachine {
 public:
  FuzzMachine() : stack_(kStackSlots), frames_(kCallDepth + 1) {}

  // Runs function fn of a verified program on arguments made from seed bytes.
  vm::Trap run(const vm::ProgramView& p, u32 fn, const u8* seed, size_t seed_size) {
    heap_.assign(kHeapBytes / 8, 0);  // a fresh allocation each run: ASan sees its exact end
    vm::Machine m;
    m.stack = stack_.data();
    m.stack_slots = kStackSlots;
    m.frames = frames_.data();
    m.max_depth = kCallDepth;
    m.heap.base = reinterpret_cast<u8*>(heap_.data());
    m.heap.capacity = kHeapBytes;
    vm::begin_execution(m);
    const vm::FunctionRecord& f = p.functions[fn];
    for (u32 k = 0; k < f.param_count && k < kStackSlots; ++k) {
      u64 bits = k < seed_size ? seed[k] : k;
      if (!place(m.heap, f.param_type(k), bits, &m.stack[k])) return vm::Trap::HEAP_EXHAUSTED;
    }
    if (!vm::load_literals(p, m)) return vm::Trap::HEAP_EXHAUSTED;
    m.fuel = kFuel;
    vm::Trap t = vm::execute(p, fn, m);
    if (u32(t) >= vm::kTrapCount) fail("trap code out of range");
    return t;
  }

 private:
  static constexpr u32 kStackSlots = 512, kCallDepth = 16, kHeapBytes = 16u << 10;
  static constexpr u64 kFuel = 5000;

  // A small value of type t: an int or float from bits, a string of (bits % 4) bytes, an array
  // of (bits % 4) elements.
  static bool place(vm::Heap& h, Type t, u64 bits, u64* slot) {
    if (!is_heap_type(t)) {
      *slot = t == Type::Float ? bits_of(double(bits) / 4) : (t == Type::Bool ? bits & 1 : bits - 3);
      return true;
    }
    u32 n = u32(bits % 4), ref;
    if (t == Type::Str) {
      const u8 text[4] = {'a', ',', ' ', u8(bits)};
      if (!h.new_string_from(text, n, &ref)) return false;
    } else {
      u64 items[4];
      for (u32 k = 0; k < n; ++k)
        if (!place(h, element_of(t), bits + k, &items[k])) return false;
      if (!h.new_array(n, n, &ref)) return false;
      copy_bytes(h.slots(ref), items, u64(n) * 8);
    }
    *slot = ref;
    return true;
  }

  std::vector<u64> stack_;
  std::vector<vm::Frame> frames_;
  std::vector<u64> heap_;
};

}  // namespace gs::fuzzing
