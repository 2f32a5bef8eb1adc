// Runs one verified program on one input on the calling thread: the CPU reference for a single
// execution. It owns the value stack, frames and heap and reuses them from run to run.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/limits.h"
#include "vm/program.h"
#include "vm/trap.h"
#include "vm/value.h"

namespace gs::vm {

struct Outcome {
  Trap trap = Trap::NONE;
  std::vector<Value> results;  // empty unless trap is NONE
  u64 instructions = 0;        // bytecode instructions executed
  u64 fuel_used = 0;           // instructions plus the builtins' per-element work
};

class Runner {
 public:
  explicit Runner(const Limits& limits = {});

  // Runs function fn with args, which must match its parameter types (else
  // std::invalid_argument naming the argument).
  Outcome run(const Program& program, u32 fn, std::span<const Value> args);

  // The fast path used by benchmarks: arguments already placed by place_args(); returns the
  // trap and leaves results on the machine.
  bool place_args(const Program& program, u32 fn, std::span<const Value> args);
  Trap execute(const Program& program, u32 fn);
  Machine& machine() { return machine_; }
  const Limits& limits() const { return limits_; }

 private:
  bool place(const Value& v, u64* slot);
  bool read(Type t, u64 slot, Value* out);

  Limits limits_;
  std::vector<u64> stack_;
  std::vector<Frame> frames_;
  std::vector<u64> heap_;
  Machine machine_;
};

}  // namespace gs::vm
