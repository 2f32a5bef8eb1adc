// Runs one verified program on one input on the calling thread: the CPU reference for a single
// execution. It owns the value stack, frames and heap and reuses them from run to run.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "vm/heap.h"
#include "vm/limits.h"
#include "vm/machine.h"
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

// A test's arguments placed once: the heap bytes their arrays and strings occupy and the
// argument slots. Copying it back restores exactly what placing the Values made, with no
// conversion — an evaluation loop's (and the batch pipeline's) way to reset inputs.
struct InputImage {
  std::vector<u64> heap;  // heap_bytes / 8 words
  u32 heap_bytes = 0;
  std::vector<u64> slots;
};

class Runner {
 public:
  explicit Runner(const Limits& limits = {});

  // Runs function fn with args, which must match its parameter types (else
  // std::invalid_argument naming the argument).
  Outcome run(const Program& program, u32 fn, std::span<const Value> args);

  // The parts of run(): place_args() (false: they do not fit the heap), then execute(), which
  // returns the trap and leaves the results on the machine.
  bool place_args(const Program& program, u32 fn, std::span<const Value> args);
  Trap execute(const Program& program, u32 fn);

  // Places args once into *image (false: they do not fit); run_prepared() then starts from it.
  bool prepare(const Program& program, u32 fn, std::span<const Value> args, InputImage* image);
  Trap run_prepared(const Program& program, u32 fn, const InputImage& image);
  Machine& machine() { return machine_.get(); }
  const Limits& limits() const { return limits_; }

 private:
  bool place_values(const Program& program, u32 fn, std::span<const Value> args);

  Limits limits_;
  OwnedMachine machine_;
};

}  // namespace gs::vm
