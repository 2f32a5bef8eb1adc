// The VM's instructions that read the heap and make nothing — len, indexing, the sum, min and max
// of an array, contains and index_of over one — written once, as vm/scalar_ops.h is: the
// interpreter's case for each is reading_check, then its fuel for the elements it walks, then
// reading_op; the enumeration's value bank (search/value_bank.h) calls the same three on every
// case of whole vectors of banked values.
#pragma once

#include "vm/builtins.h"
#include "vm/heap.h"
#include "vm/opcodes.h"
#include "vm/trap.h"

namespace gs::vm {

// How many operands a reading instruction takes off the stack (1 or 2); 0 when op is not one.
GS_HD inline u32 reading_arity(Op op) {
  switch (op) {
    case Op::LEN:
    case Op::SUM_INT:
    case Op::SUM_FLOAT:
    case Op::MIN_ARRAY:
    case Op::MAX_ARRAY: return 1;
    case Op::ARRAY_GET:
    case Op::STR_GET:
    case Op::CONTAINS:
    case Op::INDEX_OF: return 2;
    default: return 0;
  }
}

// Whether op charges a unit of fuel per element it walks, beyond its own.
GS_HD inline bool reading_walks(Op op) {
  return op == Op::SUM_INT || op == Op::SUM_FLOAT || op == Op::MIN_ARRAY || op == Op::MAX_ARRAY ||
         op == Op::CONTAINS || op == Op::INDEX_OF;
}

// The check before the work: that a (the deeper operand) is what op reads (else BAD_REFERENCE),
// and in *walk the elements it walks (what reading_walks charges).
GS_HD GS_ALWAYS_INLINE Trap reading_check(Op op, Heap& heap, u64 a, u64* walk) {
  *walk = 0;
  switch (op) {
    case Op::LEN: return heap.holds(a, 0) ? Trap::NONE : Trap::BAD_REFERENCE;
    case Op::STR_GET: return heap.is_string(a) ? Trap::NONE : Trap::BAD_REFERENCE;
    default:
      if (!heap.is_array(a)) return Trap::BAD_REFERENCE;
      *walk = heap.header(u32(a))->length;
      return Trap::NONE;
  }
}

// The instruction once checked and charged: the result word in *out, or the trap (*out then
// unchanged). b is the top of the stack for a binary one; arg the instruction's operand (the
// element type contains, index_of, min and max compare).
GS_HD GS_ALWAYS_INLINE Trap reading_op(Op op, u32 arg, Heap& heap, u64 a, u64 b, u64* out) {
  const u32 ref = u32(a);
  switch (op) {
    case Op::LEN: *out = heap.header(ref)->length; return Trap::NONE;
    case Op::ARRAY_GET:
      if (b >= heap.header(ref)->length) return Trap::INDEX_OUT_OF_RANGE;
      *out = heap.slots(ref)[b];
      return Trap::NONE;
    case Op::STR_GET:
      if (b >= heap.header(ref)->length) return Trap::INDEX_OUT_OF_RANGE;
      *out = heap.bytes(ref)[b];
      return Trap::NONE;
    case Op::SUM_INT: {
      u64 total = 0;
      for (u32 k = 0; k < heap.header(ref)->length; ++k) total += heap.slots(ref)[k];
      *out = total;
      return Trap::NONE;
    }
    case Op::SUM_FLOAT: {
      double total = 0;
      for (u32 k = 0; k < heap.header(ref)->length; ++k) total = total + double_of(heap.slots(ref)[k]);
      *out = bits_of(total);
      return Trap::NONE;
    }
    case Op::MIN_ARRAY: return extreme(heap, Type(arg), false, ref, out);
    case Op::MAX_ARRAY: return extreme(heap, Type(arg), true, ref, out);
    case Op::CONTAINS:
    case Op::INDEX_OF: {
      i64 at = -1;
      const Trap t = find_element(heap, Type(arg), ref, b, &at);
      if (t != Trap::NONE) return t;
      *out = op == Op::CONTAINS ? (at >= 0 ? 1 : 0) : u64(at);
      return Trap::NONE;
    }
    default: return Trap::BAD_INSTRUCTION;
  }
}

}  // namespace gs::vm
