#include "vm/runner.h"

#include <stdexcept>

#include "vm/interpreter.h"
#include "vm/place.h"

namespace gs::vm {

Runner::Runner(const Limits& limits) : limits_(limits), machine_(limits) {}

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
  begin_execution(machine());
  if (args.size() > machine().stack_slots) return false;
  for (u32 k = 0; k < f.param_count; ++k)
    if (!place_value(machine().heap, args[k], &machine().stack[k])) return false;
  return true;
}

bool Runner::place_args(const Program& program, u32 fn, std::span<const Value> args) {
  return place_values(program, fn, args) && load_literals(program.view(), machine());
}

bool Runner::prepare(const Program& program, u32 fn, std::span<const Value> args, InputImage* image) {
  if (!place_values(program, fn, args)) return false;
  image->heap_bytes = machine().heap.used;
  const u64* heap = reinterpret_cast<const u64*>(machine().heap.base);  // 8-aligned (vm/machine.h)
  image->heap.assign(heap, heap + machine().heap.used / 8);
  image->slots.assign(machine().stack, machine().stack + args.size());
  return true;
}

Trap Runner::run_prepared(const Program& program, u32 fn, const InputImage& image) {
  begin_execution(machine());
  if (image.heap_bytes > machine().heap.capacity || image.slots.size() > machine().stack_slots)
    return Trap::HEAP_EXHAUSTED;
  copy_bytes(machine().heap.base, image.heap.data(), image.heap_bytes);
  machine().heap.used = image.heap_bytes;
  copy_bytes(machine().stack, image.slots.data(), image.slots.size() * 8);
  if (!load_literals(program.view(), machine())) return Trap::HEAP_EXHAUSTED;
  return execute(program, fn);
}

Trap Runner::execute(const Program& program, u32 fn) {
  machine().fuel = limits_.fuel;
  return vm::execute(program.view(), fn, machine());
}

Outcome Runner::run(const Program& program, u32 fn, std::span<const Value> args) {
  Outcome out;
  if (!place_args(program, fn, args)) {
    out.trap = Trap::HEAP_EXHAUSTED;
    return out;
  }
  out.trap = execute(program, fn);
  out.instructions = machine().instructions;
  out.fuel_used = limits_.fuel - machine().fuel;
  if (out.trap != Trap::NONE) return out;
  const FunctionRecord& f = program.function(fn);
  out.results.resize(machine().result_count);
  for (u32 k = 0; k < machine().result_count; ++k) {
    if (!read_value(machine().heap, f.result_type(k), machine().stack[k], &out.results[k])) {
      out.results.clear();
      out.trap = Trap::BAD_REFERENCE;
      return out;
    }
  }
  return out;
}

}  // namespace gs::vm
