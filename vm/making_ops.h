// The VM's instructions that take their operands off the stack and make an array or a string, or
// compare or search strings — concatenation, push, pop, slices, sort, reverse, str, chr, split,
// join, parse_int, ... — written once, as vm/reading_ops.h is: the interpreter's case for each
// is making_check (the operands' kinds, the traps before any work, and in *work the fuel the
// work takes), the fuel when making_charges says so, then making_op; the enumeration's value
// bank (search/value_bank.h) calls the same three on every case of whole vectors of banked
// values, without the interpreter.
#pragma once

#include "vm/builtins.h"
#include "vm/heap.h"
#include "vm/opcodes.h"
#include "vm/text.h"
#include "vm/trap.h"

namespace gs::vm {

// How many operands a making instruction takes off the stack (1 to 3; NEW_ARRAY its operand
// `arg`); 0 when op is not one.
GS_HD inline u32 making_arity(Op op, u32 arg) {
  switch (op) {
    case Op::NEW_ARRAY: return arg;
    case Op::POP_ARRAY:
    case Op::SORT:
    case Op::REVERSE_ARRAY:
    case Op::REVERSE_STR:
    case Op::STR_OF_INT:
    case Op::STR_OF_FLOAT:
    case Op::STR_OF_BOOL:
    case Op::CHR:
    case Op::PARSE_INT:
    case Op::ORD: return 1;
    case Op::NEW_FILLED:
    case Op::CONCAT_ARRAY:
    case Op::CONCAT_STR:
    case Op::STR_COMPARE:
    case Op::ARRAY_EQ:
    case Op::PUSH:
    case Op::STR_CONTAINS:
    case Op::STR_INDEX_OF:
    case Op::SPLIT:
    case Op::SPLIT_SEP:
    case Op::JOIN:
    case Op::STR_CHAR: return 2;
    case Op::SLICE_ARRAY:
    case Op::SLICE_STR: return 3;
    default: return 0;
  }
}

// The length of an array or a string the check has found in the heap.
GS_HD inline u64 length_of(Heap& heap, u64 ref) { return heap.header(u32(ref))->length; }

// Whether op charges the fuel of its work (making_check's *work, 0 included) beyond its own.
GS_HD inline bool making_charges(Op op) {
  return op != Op::STR_OF_INT && op != Op::STR_OF_FLOAT && op != Op::STR_OF_BOOL && op != Op::CHR &&
         op != Op::STR_CHAR && op != Op::ORD;
}

// The check before the work: that the operands (x[0] the deepest) are what op takes (else
// BAD_REFERENCE), the traps the interpreter raises before charging (an empty pop, a negative
// count, a character out of range), and in *work the fuel of the work.
GS_HD GS_ALWAYS_INLINE Trap making_check(Op op, u32 arg, Heap& heap, const u64* x, u64* work) {
  *work = 0;
  switch (op) {
    case Op::NEW_ARRAY: *work = arg; return Trap::NONE;
    case Op::NEW_FILLED: {
      const i64 n = i64(x[0]);
      if (n < 0) return Trap::INVALID_ARGUMENT;
      if (u64(n) >= u64(heap.capacity - heap.used) / 8) return Trap::HEAP_EXHAUSTED;  // before fuel
      *work = u64(n);
      return Trap::NONE;
    }
    case Op::CONCAT_ARRAY:
    case Op::ARRAY_EQ:
      if (!heap.is_array(x[0]) || !heap.is_array(x[1])) return Trap::BAD_REFERENCE;
      *work = op == Op::ARRAY_EQ ? length_of(heap, x[0]) : length_of(heap, x[0]) + length_of(heap, x[1]);
      return Trap::NONE;
    case Op::CONCAT_STR:
    case Op::STR_COMPARE:
    case Op::STR_CONTAINS:
    case Op::STR_INDEX_OF:
    case Op::SPLIT:
    case Op::SPLIT_SEP: {
      if (!heap.is_string(x[0]) || !heap.is_string(x[1])) return Trap::BAD_REFERENCE;
      const u64 a = length_of(heap, x[0]), b = length_of(heap, x[1]);
      switch (op) {
        case Op::CONCAT_STR: *work = a + b; break;
        case Op::STR_COMPARE: *work = a < b ? a : b; break;
        case Op::STR_CONTAINS:
        case Op::STR_INDEX_OF: *work = search_work(u32(a), u32(b)); break;
        default:
          if (op == Op::SPLIT_SEP && b == 0) return Trap::INVALID_ARGUMENT;
          *work = a + search_work(u32(a), u32(b));
      }
      return Trap::NONE;
    }
    case Op::PUSH:
    case Op::POP_ARRAY:
    case Op::SLICE_ARRAY:
    case Op::REVERSE_ARRAY:
    case Op::SORT: {
      if (!heap.is_array(x[0])) return Trap::BAD_REFERENCE;
      const u64 n = length_of(heap, x[0]);
      if (op == Op::POP_ARRAY && n == 0) return Trap::INVALID_ARGUMENT;
      if (op == Op::SORT) {
        u64 log = 0;
        while ((u64(1) << log) < n) ++log;
        *work = n * (log + 1);
      } else {
        *work = op == Op::PUSH ? n + 1 : n;
      }
      return Trap::NONE;
    }
    case Op::SLICE_STR:
    case Op::REVERSE_STR:
    case Op::PARSE_INT:
      if (!heap.is_string(x[0])) return Trap::BAD_REFERENCE;
      *work = length_of(heap, x[0]);
      return Trap::NONE;
    case Op::STR_CHAR:
      if (!heap.is_string(x[0])) return Trap::BAD_REFERENCE;
      return x[1] >= length_of(heap, x[0]) ? Trap::INDEX_OUT_OF_RANGE : Trap::NONE;
    case Op::ORD:
      if (!heap.is_string(x[0])) return Trap::BAD_REFERENCE;
      return length_of(heap, x[0]) != 1 ? Trap::INVALID_ARGUMENT : Trap::NONE;
    case Op::JOIN:
      if (!heap.is_array(x[0]) || !heap.is_string(x[1])) return Trap::BAD_REFERENCE;
      *work = length_of(heap, x[0]) * (length_of(heap, x[1]) + 1);
      return Trap::NONE;
    case Op::CHR: return i64(x[0]) < 0 || i64(x[0]) > 255 ? Trap::INVALID_ARGUMENT : Trap::NONE;
    case Op::STR_OF_INT:
    case Op::STR_OF_FLOAT:
    case Op::STR_OF_BOOL: return Trap::NONE;
    default: return Trap::BAD_INSTRUCTION;
  }
}

// The instruction once checked and charged: the result word (a reference to what it made, or an
// int or bool) in *out, or the trap (*out then unchanged). arg is the instruction's operand (the
// element type sort and array equality compare, NEW_ARRAY's count).
GS_HD GS_ALWAYS_INLINE Trap making_op(Op op, u32 arg, Heap& heap, const u64* x, u64* out) {
  u32 ref = 0;
  Trap t = Trap::NONE;
  const u32 a = u32(x[0]);
  switch (op) {
    case Op::NEW_ARRAY:
      if (!heap.new_array(arg, arg, &ref)) return Trap::HEAP_EXHAUSTED;
      copy_bytes(heap.slots(ref), x, u64(arg) * 8);
      break;
    case Op::NEW_FILLED: t = fill_array(heap, i64(x[0]), x[1], &ref); break;
    case Op::CONCAT_ARRAY: t = concat_arrays(heap, a, u32(x[1]), &ref); break;
    case Op::CONCAT_STR: t = concat_strings(heap, a, u32(x[1]), &ref); break;
    case Op::STR_COMPARE: *out = u64(i64(compare_strings(heap, a, u32(x[1])))); return Trap::NONE;
    case Op::ARRAY_EQ: {
      bool eq = false;
      t = arrays_equal(heap, Type(arg), a, u32(x[1]), &eq);
      if (t == Trap::NONE) *out = eq ? 1 : 0;
      return t;
    }
    case Op::PUSH:
      t = copy_array(heap, a, 1, &ref);
      if (t == Trap::NONE) heap.slots(ref)[heap.header(ref)->length++] = x[1];
      break;
    case Op::POP_ARRAY: t = slice_array(heap, a, 0, i64(heap.header(a)->length) - 1, &ref); break;
    case Op::SLICE_ARRAY: t = slice_array(heap, a, i64(x[1]), i64(x[2]), &ref); break;
    case Op::SLICE_STR: t = slice_string(heap, a, i64(x[1]), i64(x[2]), &ref); break;
    case Op::SORT: t = sort_array(heap, Type(arg), a, &ref); break;
    case Op::REVERSE_ARRAY: t = reverse_array(heap, a, &ref); break;
    case Op::REVERSE_STR: t = reverse_string(heap, a, &ref); break;
    case Op::STR_CONTAINS: *out = find_substring(heap, a, u32(x[1]), 0) >= 0 ? 1 : 0; return Trap::NONE;
    case Op::STR_INDEX_OF: *out = u64(find_substring(heap, a, u32(x[1]), 0)); return Trap::NONE;
    case Op::STR_OF_INT:
    case Op::STR_OF_FLOAT: {
      char text[kNumberTextMax];
      const u32 n = op == Op::STR_OF_INT ? format_int(i64(x[0]), text) : format_float(double_of(x[0]), text);
      t = string_from_text(heap, text, n, &ref);
      break;
    }
    case Op::STR_OF_BOOL:
      t = x[0] ? string_from_text(heap, "true", 4, &ref) : string_from_text(heap, "false", 5, &ref);
      break;
    case Op::CHR:
    case Op::STR_CHAR: {
      const u8 byte = op == Op::CHR ? u8(x[0]) : heap.bytes(a)[x[1]];
      if (!heap.new_string_from(&byte, 1, &ref)) return Trap::HEAP_EXHAUSTED;
      break;
    }
    case Op::SPLIT:
    case Op::SPLIT_SEP: t = split_string(heap, a, u32(x[1]), &ref); break;
    case Op::JOIN: t = join_strings(heap, a, u32(x[1]), &ref); break;
    case Op::PARSE_INT: {
      i64 v = 0;
      if (!parse_int(heap.bytes(a), heap.header(a)->length, &v)) return Trap::INVALID_ARGUMENT;
      *out = u64(v);
      return Trap::NONE;
    }
    case Op::ORD: *out = heap.bytes(a)[0]; return Trap::NONE;
    default: return Trap::BAD_INSTRUCTION;
  }
  if (t == Trap::NONE) *out = ref;
  return t;
}

}  // namespace gs::vm
