#include "vm/runner.h"

#include <stdexcept>

#include "vm/interpreter.h"
#include "vm/place.h"

namespace gs::vm {

Runner::Runner(const Limits& limits)
    : limits_(limits),
      stack_(limits.stack_slots),
      frames_(limits.call_depth + 1),
      heap_((u64(limits.heap_bytes) + 7) / 8) {
  machine_.stack = stack_.data();
  machine_.stack_slots = limits.stack_slots;
  machine_.frames = frames_.data();
  machine_.max_depth = limits.call_depth;
  machine_.heap.base = reinterpret_cast<u8*>(heap_.data());
  machine_.heap.capacity = u32(heap_.size() * 8);
}

bool Runner::place_values(const Program& program, u32 fn, std::span<const Value> args) {
  const FunctionRecord& f = program.function(fn);
  if (args.size() != f.param_count)
    throw std::invalid_argument(std::string(program.function_name(fn)) + " takes " +
                                std::to_string(f.param_count) + " arguments, got " +
                                std::to_string(args.size()));
  for (u32 k = 0; k < f.param_count; ++k)
    if (!has_type(args[k], f.param_type(k)))
      throw std::invalid_argument("argument " + std::to_string(k + 1) + ": expected " +
                                  type_name(f.param_type(k)) + ", got " + type_name(args[k].type));
  begin_execution(machine_);
  if (args.size() > machine_.stack_slots) return false;
  for (u32 k = 0; k < f.param_count; ++k)
    if (!place_value(machine_.heap, args[k], &machine_.stack[k])) return false;
  return true;
}

bool Runner::place_args(const Program& program, u32 fn, std::span<const Value> args) {
  return place_values(program, fn, args) && load_literals(program.view(), machine_);
}

bool Runner::prepare(const Program& program, u32 fn, std::span<const Value> args, InputImage* image) {
  if (!place_values(program, fn, args)) return false;
  image->heap_bytes = machine_.heap.used;
  image->heap.assign(heap_.begin(), heap_.begin() + machine_.heap.used / 8);
  image->slots.assign(machine_.stack, machine_.stack + args.size());
  return true;
}

Trap Runner::run_prepared(const Program& program, u32 fn, const InputImage& image) {
  begin_execution(machine_);
  if (image.heap_bytes > machine_.heap.capacity || image.slots.size() > machine_.stack_slots)
    return Trap::HEAP_EXHAUSTED;
  copy_bytes(machine_.heap.base, image.heap.data(), image.heap_bytes);
  machine_.heap.used = image.heap_bytes;
  copy_bytes(machine_.stack, image.slots.data(), image.slots.size() * 8);
  if (!load_literals(program.view(), machine_)) return Trap::HEAP_EXHAUSTED;
  return execute(program, fn);
}

Trap Runner::execute(const Program& program, u32 fn) {
  machine_.fuel = limits_.fuel;
  return vm::execute(program.view(), fn, machine_);
}

Outcome Runner::run(const Program& program, u32 fn, std::span<const Value> args) {
  Outcome out;
  if (!place_args(program, fn, args)) {
    out.trap = Trap::HEAP_EXHAUSTED;
    return out;
  }
  out.trap = execute(program, fn);
  out.instructions = machine_.instructions;
  out.fuel_used = limits_.fuel - machine_.fuel;
  if (out.trap != Trap::NONE) return out;
  const FunctionRecord& f = program.function(fn);
  out.results.resize(machine_.result_count);
  for (u32 k = 0; k < machine_.result_count; ++k) {
    if (!read_value(machine_.heap, f.result_type(k), machine_.stack[k], &out.results[k])) {
      out.results.clear();
      out.trap = Trap::BAD_REFERENCE;
      return out;
    }
  }
  return out;
}

}  // namespace gs::vm
