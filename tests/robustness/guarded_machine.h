// An execution on buffers fenced by guard zones, checked after every run. The interpreter may
// write anywhere inside its value stack, frames and heap but nowhere else; a write past one of
// them lands in a guard and is reported here in any build, where AddressSanitizer reports it
// only in a sanitizer build (and a write that stays inside the Runner's allocation, but past
// the bytes an execution owns, not even there).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "vm/interpreter.h"
#include "vm/limits.h"
#include "vm/program.h"
#include "vm/value.h"

namespace gs::fuzz {

struct GuardedOutcome {
  vm::Trap trap = vm::Trap::NONE;
  u64 fuel_used = 0;
  u32 result_count = 0;
  std::string damage;  // empty when every guard is intact
};

class GuardedMachine {
 public:
  explicit GuardedMachine(const vm::Limits& limits)
      : limits_(limits),
        stack_(limits.stack_slots + 2 * kGuardWords),
        frames_(limits.call_depth + 1 + 2 * kGuardFrames),
        heap_((u64(limits.heap_bytes) + 7) / 8 + 2 * kGuardWords) {}

  // Places args as the Runner does and runs fn; a placement that does not fit the heap is
  // heap_exhausted, as from the Runner.
  GuardedOutcome run(const vm::Program& p, u32 fn, std::span<const vm::Value> args) {
    fill_guards();
    vm::Machine m = machine();
    GuardedOutcome out;
    vm::begin_execution(m);
    bool placed = args.size() <= m.stack_slots;
    for (size_t k = 0; placed && k < args.size(); ++k) placed = place(m.heap, args[k], &m.stack[k]);
    placed = placed && vm::load_literals(p.view(), m);
    if (!placed) {
      out.trap = vm::Trap::HEAP_EXHAUSTED;
    } else {
      m.fuel = limits_.fuel;
      out.trap = vm::execute(p.view(), fn, m);
      out.fuel_used = limits_.fuel - m.fuel;
      out.result_count = m.result_count;
    }
    out.damage = check_guards();
    return out;
  }

 private:
  static constexpr u32 kGuardWords = 64;
  static constexpr u32 kGuardFrames = 4;
  static constexpr u64 kPattern = 0xdeadbeefcafef00dull;

  vm::Machine machine() {
    vm::Machine m;
    m.stack = stack_.data() + kGuardWords;
    m.stack_slots = limits_.stack_slots;
    m.frames = frames_.data() + kGuardFrames;
    m.max_depth = limits_.call_depth;
    m.heap.base = reinterpret_cast<u8*>(heap_.data() + kGuardWords);
    m.heap.capacity = u32((heap_.size() - 2 * kGuardWords) * 8);
    return m;
  }

  void fill_guards() {
    for (u32 k = 0; k < kGuardWords; ++k) {
      stack_[k] = stack_[stack_.size() - 1 - k] = kPattern;
      heap_[k] = heap_[heap_.size() - 1 - k] = kPattern;
    }
    for (u32 k = 0; k < kGuardFrames; ++k) frames_[k] = frames_[frames_.size() - 1 - k] = guard_frame();
  }

  static vm::Frame guard_frame() {
    return {u32(kPattern), u32(kPattern >> 32), u32(kPattern), u32(kPattern >> 32)};
  }

  static bool same(const vm::Frame& a, const vm::Frame& b) {
    return a.function == b.function && a.return_pc == b.return_pc && a.base == b.base &&
           a.reserved == b.reserved;
  }

  std::string check_guards() const {
    std::string damage;
    for (u32 k = 0; k < kGuardWords; ++k) {
      if (stack_[k] != kPattern) damage += "stack underrun; ";
      if (stack_[stack_.size() - 1 - k] != kPattern) damage += "stack overrun; ";
      if (heap_[k] != kPattern) damage += "heap underrun; ";
      if (heap_[heap_.size() - 1 - k] != kPattern) damage += "heap overrun; ";
      if (!damage.empty()) return damage;
    }
    for (u32 k = 0; k < kGuardFrames; ++k) {
      if (!same(frames_[k], guard_frame())) damage += "frames underrun; ";
      if (!same(frames_[frames_.size() - 1 - k], guard_frame())) damage += "frames overrun; ";
      if (!damage.empty()) return damage;
    }
    return damage;
  }

  // A host value into the execution's memory, as vm::Runner places arguments.
  static bool place(vm::Heap& h, const vm::Value& v, u64* slot) {
    switch (v.type) {
      case Type::Int:
      case Type::Bool: *slot = u64(v.i); return true;
      case Type::Float: *slot = bits_of(v.f); return true;
      case Type::Str: {
        u32 ref;
        if (!h.new_string_from(reinterpret_cast<const u8*>(v.s.data()), u32(v.s.size()), &ref)) return false;
        *slot = ref;
        return true;
      }
      default: break;
    }
    // The Runner's layout exactly: the array first, then its elements' strings.
    u32 ref, n = u32(v.items.size());
    if (!h.new_array(n, n, &ref)) return false;
    for (u32 k = 0; k < n; ++k) {
      u64 element;
      if (!place(h, v.items[k], &element)) return false;
      h.slots(ref)[k] = element;
    }
    *slot = ref;
    return true;
  }

  vm::Limits limits_;
  std::vector<u64> stack_;
  std::vector<vm::Frame> frames_;
  std::vector<u64> heap_;
};

}  // namespace gs::fuzz
