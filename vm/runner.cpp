#include "vm/runner.h"

#include <stdexcept>

#include "vm/interpreter.h"

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

bool Runner::place(const Value& v, u64* slot) {
  Heap& h = machine_.heap;
  switch (v.type) {
    case Type::Int:
    case Type::Bool: *slot = u64(v.i); return true;
    case Type::Float: *slot = bits_of(v.f); return true;
    case Type::Str: {
      u32 ref;
      if (v.s.size() > kMaxObjectLength ||
          !h.new_string_from(reinterpret_cast<const u8*>(v.s.data()), u32(v.s.size()), &ref))
        return false;
      *slot = ref;
      return true;
    }
    default: break;
  }
  u32 n = u32(v.items.size()), ref;
  if (v.items.size() > kMaxObjectLength / 8 || !h.new_array(n, n, &ref)) return false;
  for (u32 k = 0; k < n; ++k) {
    u64 element;  // (placing a string element allocates: take the slot's address afterwards)
    if (!place(v.items[k], &element)) return false;
    h.slots(ref)[k] = element;
  }
  *slot = ref;
  return true;
}

bool Runner::read(Type t, u64 slot, Value* out) {
  Heap& h = machine_.heap;
  out->type = t;
  switch (t) {
    case Type::Int: out->i = i64(slot); return true;
    case Type::Bool: out->i = slot != 0; return true;
    case Type::Float: out->f = double_of(slot); return true;
    case Type::Str:
      if (!h.is_string(slot)) return false;
      out->s.assign(reinterpret_cast<const char*>(h.bytes(u32(slot))), h.header(u32(slot))->length);
      return true;
    default: break;
  }
  if (!is_array(t) || !h.is_array(slot)) return false;
  u32 ref = u32(slot), n = h.header(ref)->length;
  out->items.resize(n);
  for (u32 k = 0; k < n; ++k)
    if (!read(element_of(t), h.slots(ref)[k], &out->items[k])) return false;
  return true;
}

static bool fits(Type want, const Value& v) {
  if (v.type != want) return false;
  if (!is_array(want)) return true;
  for (const Value& item : v.items)
    if (item.type != element_of(want)) return false;
  return true;
}

bool Runner::place_values(const Program& program, u32 fn, std::span<const Value> args) {
  const FunctionRecord& f = program.function(fn);
  if (args.size() != f.param_count)
    throw std::invalid_argument(std::string(program.function_name(fn)) + " takes " +
                                std::to_string(f.param_count) + " arguments, got " +
                                std::to_string(args.size()));
  for (u32 k = 0; k < f.param_count; ++k)
    if (!fits(f.param_type(k), args[k]))
      throw std::invalid_argument("argument " + std::to_string(k + 1) + ": expected " +
                                  type_name(f.param_type(k)) + ", got " + type_name(args[k].type));
  begin_execution(machine_);
  if (args.size() > machine_.stack_slots) return false;
  for (u32 k = 0; k < f.param_count; ++k)
    if (!place(args[k], &machine_.stack[k])) return false;
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
    if (!read(f.result_type(k), machine_.stack[k], &out.results[k])) {
      out.results.clear();
      out.trap = Trap::BAD_REFERENCE;
      return out;
    }
  }
  return out;
}

}  // namespace gs::vm
