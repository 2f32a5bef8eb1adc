// The interpreter core: one dispatch function over verified bytecode, written once for the
// host and the device. The host build dispatches with computed goto, the device build with a
// switch (nvcc rejects label addresses); the bodies are the same text.
//
// Value stack: each frame is [locals | operand stack], frames adjacent; CALL turns the
// caller's top n_params values into the callee's first locals (no copy), RETURN moves the
// results down to where the arguments were.
//
// Fuel: each instruction costs one unit, a builtin that walks a sequence one more per element
// it touches. The count is charged at every jump, call, return, builtin and trap for the
// straight-line run since the last charge, which gives exactly the outcome of checking before
// every instruction at a fraction of the cost.
#pragma once

#include <cmath>

#include "vm/arith.h"
#include "vm/builtins.h"
#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/making_ops.h"
#include "vm/opcodes.h"
#include "vm/reading_ops.h"
#include "vm/scalar_ops.h"
#include "vm/trap.h"

namespace gs::vm {

// Starts an execution with an empty heap. The caller then places the entry's arguments in
// stack[0 .. n_params), their arrays and strings first in the heap (so a prepared image of a
// test's inputs can be copied in as it is), calls load_literals(), and then execute().
GS_HD inline void begin_execution(Machine& m) {
  m.heap.used = 0;
  m.literal_base = 0;
  m.instructions = 0;
  m.result_count = 0;
}

// Copies the program's string literals after whatever the heap holds; LOAD_STR adds their
// base. False when they do not fit (heap_exhausted).
GS_HD inline bool load_literals(const ProgramView& p, Machine& m) {
  u32 image = p.header->string_image_bytes;
  if (image > m.heap.capacity - m.heap.used) return false;
  copy_bytes(m.heap.base + m.heap.used, p.string_image, image);
  m.literal_base = m.heap.used;
  m.heap.used += image;
  return true;
}

// Runs function `entry` of a verified program with its arguments in m.stack[0 ..). On return
// m.stack[0 .. m.result_count) holds the results (when the trap is NONE), m.fuel what is left
// and m.instructions how many instructions ran.
GS_HD inline Trap execute(const ProgramView& prog, u32 entry, Machine& m) {
  Heap& heap = m.heap;
  const FunctionRecord* fn = &prog.functions[entry];
  u32 fn_index = entry;
  u32 depth = 1;
  u64* base = m.stack;
  u64* sp = base + fn->local_count;
  const u32* code = prog.code + fn->code_start;
  const u32* pc = code;
  const u32* block = pc;  // first instruction not yet charged
  const i64 initial_fuel = m.fuel > u64(INT64_MAX) ? INT64_MAX : i64(m.fuel);
  i64 fuel = initial_fuel;
  u64 work = 0;  // fuel spent by builtins beyond one unit; the rest of the fuel spent is instructions
  const u64 literal_base = m.literal_base;
  Trap trap = Trap::NONE;
  u32 word = 0;
#define ARG operand_of(word)

  if (m.max_depth < 1) return Trap::CALL_DEPTH_EXCEEDED;
  if (u64(fn->local_count) + fn->max_stack > m.stack_slots) return Trap::STACK_OVERFLOW;
  for (u32 k = fn->param_count; k < fn->local_count; ++k) base[k] = 0;

    // The dispatch is laid out by hand, one opcode per line (clang-format would run them together).
    // clang-format off
#define CHARGE()              \
  do {                        \
    fuel -= i64(pc - block);  \
    block = pc;               \
  } while (0)
#define CHECK_FUEL() \
  if (fuel < 0) goto out_of_fuel
#define RAISE(t)    \
  do {             \
    trap = Trap::t; \
    goto trapped;  \
  } while (0)
#define WORK(amount)                                           \
  do {                                                         \
    CHARGE();                                                  \
    u64 w_ = (amount);                                         \
    if (fuel < 0 || w_ > u64(fuel)) goto out_of_fuel;          \
    fuel -= i64(w_);                                           \
    work += w_;                                                \
  } while (0)
#define AS_ARRAY(value, ref)                    \
  if (!heap.is_array(value)) RAISE(BAD_REFERENCE); \
  u32 ref = u32(value)
#define AS_STRING(value, ref)                    \
  if (!heap.is_string(value)) RAISE(BAD_REFERENCE); \
  u32 ref = u32(value)
#define LEN_OF(ref) heap.header(ref)->length
#define RESULT_OF(call)                  \
  do {                                   \
    Trap t_ = (call);                    \
    if (t_ != Trap::NONE) {              \
      trap = t_;                         \
      goto trapped;                      \
    }                                    \
  } while (0)
// The heap-free instructions: vm/scalar_ops.h, shared with the enumeration's value bank.
#define SCALAR_BINARY(name)                                  \
  {                                                          \
    u64 r_ = 0;                                              \
    Trap t_ = scalar_op(Op::name, sp[-2], sp[-1], &r_);      \
    if (t_ != Trap::NONE) {                                  \
      trap = t_;                                             \
      goto trapped;                                          \
    }                                                        \
    sp[-2] = r_;                                             \
    --sp;                                                    \
    NEXT();                                                  \
  }
#define SCALAR_UNARY(name)                                   \
  {                                                          \
    u64 r_ = 0;                                              \
    Trap t_ = scalar_op(Op::name, sp[-1], 0, &r_);           \
    if (t_ != Trap::NONE) {                                  \
      trap = t_;                                             \
      goto trapped;                                          \
    }                                                        \
    sp[-1] = r_;                                             \
    NEXT();                                                  \
  }
// The instructions that read the heap: vm/reading_ops.h, shared with the value bank too.
#define READING(name, arity)                                                           \
  {                                                                                    \
    u64 walk_ = 0, r_ = 0;                                                             \
    Trap t_ = reading_check(Op::name, heap, sp[-(arity)], &walk_);                     \
    if (t_ != Trap::NONE) {                                                            \
      trap = t_;                                                                       \
      goto trapped;                                                                    \
    }                                                                                  \
    if (reading_walks(Op::name)) WORK(walk_);                                          \
    t_ = reading_op(Op::name, ARG, heap, sp[-(arity)], (arity) == 2 ? sp[-1] : 0, &r_); \
    if (t_ != Trap::NONE) {                                                            \
      trap = t_;                                                                       \
      goto trapped;                                                                    \
    }                                                                                  \
    sp[-(arity)] = r_;                                                                 \
    sp -= (arity) - 1;                                                                 \
    NEXT();                                                                            \
  }
// The instructions that make arrays and strings or compare and search strings: vm/making_ops.h,
// shared with the value bank too.
#define MAKING(name)                                                      \
  {                                                                       \
    u64 work_ = 0, r_ = 0;                                                \
    const u32 n_ = making_arity(Op::name, ARG);                           \
    Trap t_ = making_check(Op::name, ARG, heap, sp - n_, &work_);         \
    if (t_ != Trap::NONE) {                                               \
      trap = t_;                                                          \
      goto trapped;                                                       \
    }                                                                     \
    if (making_charges(Op::name)) WORK(work_);                            \
    t_ = making_op(Op::name, ARG, heap, sp - n_, &r_);                    \
    if (t_ != Trap::NONE) {                                               \
      trap = t_;                                                          \
      goto trapped;                                                       \
    }                                                                     \
    sp -= n_;                                                             \
    *sp++ = r_;                                                           \
    NEXT();                                                               \
  }
#define READING_UNARY(name) READING(name, 1)
#define READING_BINARY(name) READING(name, 2)
#define JUMP_TO(target)   \
  do {                    \
    CHARGE();             \
    CHECK_FUEL();         \
    pc = code + (target); \
    block = pc;           \
  } while (0)

#if GS_ON_DEVICE
#define CASE(name) case Op::name:
#define NEXT() continue
  for (;;) {
    word = *pc++;
    switch (opcode_of(word)) {
#else
  static void* const labels[] = {
#define OPCODE(name, operand, pops, pushes, doc) &&L_##name,
#include "vm/opcodes.def"
#undef OPCODE
  };
#define CASE(name) L_##name:
#define NEXT()                    \
  do {                            \
    word = *pc++;                 \
    goto* labels[word & 0xffu];   \
  } while (0)
  NEXT();
  {
    {
#endif

      // ---- the paper's instructions ---------------------------------------------------------
      CASE(LOAD_CONST) {
        *sp++ = prog.constants[ARG];
        NEXT();
      }
      CASE(LOAD_VAR) {
        *sp++ = base[ARG];
        NEXT();
      }
      CASE(STORE_VAR) {
        base[ARG] = *--sp;
        NEXT();
      }
      CASE(BINARY_ADD) SCALAR_BINARY(BINARY_ADD)
      CASE(BINARY_SUB) SCALAR_BINARY(BINARY_SUB)
      CASE(BINARY_MUL) SCALAR_BINARY(BINARY_MUL)
      CASE(BINARY_DIV) SCALAR_BINARY(BINARY_DIV)
      CASE(COMPARE_LT) SCALAR_BINARY(COMPARE_LT)
      CASE(JUMP) {
        JUMP_TO(ARG);
        NEXT();
      }
      CASE(JUMP_IF_FALSE) {
        if (*--sp == 0) JUMP_TO(ARG);
        NEXT();
      }
      CASE(CALL) {
        CHARGE();
        CHECK_FUEL();
        const FunctionRecord* callee = &prog.functions[ARG];
        if (depth >= m.max_depth) RAISE(CALL_DEPTH_EXCEEDED);
        u64* callee_base = sp - callee->param_count;
        if (u64(callee_base - m.stack) + callee->local_count + callee->max_stack > m.stack_slots)
          RAISE(STACK_OVERFLOW);
        m.frames[depth] = Frame{fn_index, u32(pc - prog.code), u32(base - m.stack), 0};
        ++depth;
        for (u32 k = callee->param_count; k < callee->local_count; ++k) callee_base[k] = 0;
        fn = callee;
        fn_index = ARG;
        base = callee_base;
        sp = base + fn->local_count;
        code = prog.code + fn->code_start;
        pc = code;
        block = pc;
        NEXT();
      }
      CASE(RETURN) {
        CHARGE();
        CHECK_FUEL();
        u32 n = fn->result_count;
        for (u32 k = 0; k < n; ++k) base[k] = sp[i64(k) - i64(n)];
        sp = base + n;
        if (depth == 1) {
          m.result_count = n;
          goto finished;
        }
        --depth;
        const Frame& caller = m.frames[depth];
        fn_index = caller.function;
        fn = &prog.functions[fn_index];
        base = m.stack + caller.base;
        code = prog.code + fn->code_start;
        pc = prog.code + caller.return_pc;
        block = pc;
        NEXT();
      }

      // ---- constants, variables, stack -------------------------------------------------------
      CASE(LOAD_INT) {
        *sp++ = u64(i64(signed_operand_of(word)));
        NEXT();
      }
      CASE(LOAD_STR) {
        *sp++ = literal_base + prog.string_offsets[ARG];
        NEXT();
      }
      CASE(POP) {
        --sp;
        NEXT();
      }

      // ---- int and bool arithmetic -----------------------------------------------------------
      CASE(BINARY_MOD) SCALAR_BINARY(BINARY_MOD)
      CASE(BINARY_AND) SCALAR_BINARY(BINARY_AND)
      CASE(BINARY_OR) SCALAR_BINARY(BINARY_OR)
      CASE(BINARY_XOR) SCALAR_BINARY(BINARY_XOR)
      CASE(BINARY_SHL) SCALAR_BINARY(BINARY_SHL)
      CASE(BINARY_SHR) SCALAR_BINARY(BINARY_SHR)
      CASE(BINARY_USHR) SCALAR_BINARY(BINARY_USHR)
      CASE(UNARY_NEG) SCALAR_UNARY(UNARY_NEG)
      CASE(UNARY_INVERT) SCALAR_UNARY(UNARY_INVERT)
      CASE(UNARY_NOT) SCALAR_UNARY(UNARY_NOT)
      CASE(COMPARE_LE) SCALAR_BINARY(COMPARE_LE)
      CASE(COMPARE_GT) SCALAR_BINARY(COMPARE_GT)
      CASE(COMPARE_GE) SCALAR_BINARY(COMPARE_GE)
      CASE(COMPARE_EQ) SCALAR_BINARY(COMPARE_EQ)
      CASE(COMPARE_NE) SCALAR_BINARY(COMPARE_NE)

      // ---- float arithmetic ------------------------------------------------------------------
      CASE(FLOAT_ADD) SCALAR_BINARY(FLOAT_ADD)
      CASE(FLOAT_SUB) SCALAR_BINARY(FLOAT_SUB)
      CASE(FLOAT_MUL) SCALAR_BINARY(FLOAT_MUL)
      CASE(FLOAT_DIV) SCALAR_BINARY(FLOAT_DIV)
      CASE(FLOAT_MOD) SCALAR_BINARY(FLOAT_MOD)
      CASE(FLOAT_NEG) SCALAR_UNARY(FLOAT_NEG)
      CASE(FLOAT_LT) SCALAR_BINARY(FLOAT_LT)
      CASE(FLOAT_LE) SCALAR_BINARY(FLOAT_LE)
      CASE(FLOAT_GT) SCALAR_BINARY(FLOAT_GT)
      CASE(FLOAT_GE) SCALAR_BINARY(FLOAT_GE)
      CASE(FLOAT_EQ) SCALAR_BINARY(FLOAT_EQ)
      CASE(FLOAT_NE) SCALAR_BINARY(FLOAT_NE)

      // ---- control ---------------------------------------------------------------------------
      CASE(JUMP_IF_TRUE) {
        if (*--sp != 0) JUMP_TO(ARG);
        NEXT();
      }

      // ---- arrays and strings ----------------------------------------------------------------
      CASE(NEW_ARRAY) MAKING(NEW_ARRAY)
      CASE(NEW_FILLED) MAKING(NEW_FILLED)
      CASE(LEN) READING_UNARY(LEN)
      CASE(ARRAY_GET) READING_BINARY(ARRAY_GET)
      CASE(STR_GET) READING_BINARY(STR_GET)
      CASE(ARRAY_SET) {
        AS_ARRAY(base[ARG], a);
        u64 i = sp[-2];
        if (i >= LEN_OF(a)) RAISE(INDEX_OUT_OF_RANGE);
        if (heap.header(a)->capacity & kSharedBit) {
          WORK(LEN_OF(a));
          RESULT_OF(copy_array(heap, a, 0, &a));
          base[ARG] = a;
        }
        heap.slots(a)[i] = sp[-1];
        sp -= 2;
        NEXT();
      }
      CASE(SHARE) {
        AS_ARRAY(sp[-1], a);
        heap.header(a)->capacity |= kSharedBit;
        NEXT();
      }
      CASE(CONCAT_ARRAY) MAKING(CONCAT_ARRAY)
      CASE(CONCAT_STR) MAKING(CONCAT_STR)
      CASE(STR_COMPARE) MAKING(STR_COMPARE)
      CASE(ARRAY_EQ) MAKING(ARRAY_EQ)
      CASE(PUSH) MAKING(PUSH)
      CASE(PUSH_VAR) {
        AS_ARRAY(base[ARG], a);
        u32 raw = heap.header(a)->capacity;
        u32 len = LEN_OF(a), cap = raw & ~kSharedBit;
        // The header's capacity is trusted only as far as the used heap goes (a forged object
        // must not get a write past it).
        bool room = len < cap && heap.holds(a, (u64(len) + 1) * 8);
        if ((raw & kSharedBit) || !room) {
          u32 grown = grown_capacity(len);
          if (!(raw & kSharedBit) && heap.holds(a, u64(cap) * 8) &&
              a + 8 + u64(cap) * 8 == heap.used && heap.used + u64(grown - cap) * 8 <= heap.capacity) {
            heap.used += (grown - cap) * 8;  // the array ends the heap: grow it where it is
            heap.header(a)->capacity = grown;
          } else {
            WORK(len);
            RESULT_OF(copy_array(heap, a, grown - len, &a));
            base[ARG] = a;
          }
        }
        heap.slots(a)[LEN_OF(a)++] = sp[-1];
        --sp;
        NEXT();
      }
      CASE(POP_ARRAY) MAKING(POP_ARRAY)
      CASE(POP_VAR) {
        AS_ARRAY(base[ARG], a);
        if (LEN_OF(a) == 0) RAISE(INVALID_ARGUMENT);
        if (heap.header(a)->capacity & kSharedBit) {
          WORK(LEN_OF(a));
          RESULT_OF(slice_array(heap, a, 0, i64(LEN_OF(a)) - 1, &a));
          base[ARG] = a;
        } else {
          --LEN_OF(a);
        }
        NEXT();
      }
      CASE(SLICE_ARRAY) MAKING(SLICE_ARRAY)
      CASE(SLICE_STR) MAKING(SLICE_STR)
      CASE(SUM_INT) READING_UNARY(SUM_INT)
      CASE(SUM_FLOAT) READING_UNARY(SUM_FLOAT)
      CASE(SORT) MAKING(SORT)
      CASE(REVERSE_ARRAY) MAKING(REVERSE_ARRAY)
      CASE(REVERSE_STR) MAKING(REVERSE_STR)
      CASE(CONTAINS) READING_BINARY(CONTAINS)
      CASE(INDEX_OF) READING_BINARY(INDEX_OF)
      CASE(STR_CONTAINS) MAKING(STR_CONTAINS)
      CASE(STR_INDEX_OF) MAKING(STR_INDEX_OF)
      CASE(MIN_ARRAY) READING_UNARY(MIN_ARRAY)
      CASE(MAX_ARRAY) READING_UNARY(MAX_ARRAY)

      // ---- numeric builtins and conversions --------------------------------------------------
      CASE(MIN_INT) SCALAR_BINARY(MIN_INT)
      CASE(MAX_INT) SCALAR_BINARY(MAX_INT)
      CASE(MIN_FLOAT) SCALAR_BINARY(MIN_FLOAT)
      CASE(MAX_FLOAT) SCALAR_BINARY(MAX_FLOAT)
      CASE(ABS_INT) SCALAR_UNARY(ABS_INT)
      CASE(ABS_FLOAT) SCALAR_UNARY(ABS_FLOAT)
      CASE(INT_OF_FLOAT) SCALAR_UNARY(INT_OF_FLOAT)
      CASE(FLOAT_OF_INT) SCALAR_UNARY(FLOAT_OF_INT)
      CASE(STR_OF_INT) MAKING(STR_OF_INT)
      CASE(STR_OF_FLOAT) MAKING(STR_OF_FLOAT)
      CASE(STR_OF_BOOL) MAKING(STR_OF_BOOL)
      CASE(SQRT) SCALAR_UNARY(SQRT)
      CASE(FLOOR) SCALAR_UNARY(FLOOR)
      CASE(CEIL) SCALAR_UNARY(CEIL)
      CASE(ROUND) SCALAR_UNARY(ROUND)
      CASE(CHR) MAKING(CHR)
      CASE(SPLIT) MAKING(SPLIT)
      CASE(JOIN) MAKING(JOIN)
      CASE(PARSE_INT) MAKING(PARSE_INT)

      // ---- Python semantics ------------------------------------------------------------------
      CASE(FLOOR_DIV) SCALAR_BINARY(FLOOR_DIV)
      CASE(FLOOR_MOD) SCALAR_BINARY(FLOOR_MOD)
      CASE(FLOAT_TRUE_DIV) SCALAR_BINARY(FLOAT_TRUE_DIV)
      CASE(WRAP_INDEX) {
        if (!heap.holds(sp[-2], 0)) RAISE(BAD_REFERENCE);
        sp[-1] = wrap_index(sp[-1], LEN_OF(u32(sp[-2])));
        NEXT();
      }
      CASE(WRAP_INDEX_AT) {
        if (!heap.holds(base[ARG], 0)) RAISE(BAD_REFERENCE);
        sp[-1] = wrap_index(sp[-1], LEN_OF(u32(base[ARG])));
        NEXT();
      }
      CASE(WRAP_BOUNDS) {
        if (!heap.holds(sp[-3], 0)) RAISE(BAD_REFERENCE);
        u32 n = LEN_OF(u32(sp[-3]));
        sp[-2] = wrap_index(sp[-2], n);
        sp[-1] = wrap_index(sp[-1], n);
        NEXT();
      }
      CASE(STR_CHAR) MAKING(STR_CHAR)
      CASE(TRUNC_FLOAT) SCALAR_UNARY(TRUNC_FLOAT)
      CASE(SPLIT_SEP) MAKING(SPLIT_SEP)
      CASE(ORD) MAKING(ORD)

#if GS_ON_DEVICE
      default: RAISE(BAD_INSTRUCTION);
    }
  }
#else
    }
  }
#endif

trapped:
  CHARGE();
  if (fuel < 0) trap = Trap::OUT_OF_FUEL;
  goto done;
out_of_fuel:
  CHARGE();
  trap = Trap::OUT_OF_FUEL;
  goto done;
finished:
  trap = Trap::NONE;
done:
  m.instructions = u64(initial_fuel - fuel) - work;
  m.fuel = trap == Trap::OUT_OF_FUEL || fuel < 0 ? 0 : u64(fuel);  // out of fuel: all spent
  return trap;

#undef ARG
#undef CHARGE
#undef CHECK_FUEL
#undef RAISE
#undef WORK
#undef AS_ARRAY
#undef AS_STRING
#undef LEN_OF
#undef RESULT_OF
#undef SCALAR_BINARY
#undef SCALAR_UNARY
#undef READING
#undef READING_UNARY
#undef READING_BINARY
#undef MAKING
#undef JUMP_TO
#undef CASE
#undef NEXT
  // clang-format on
}

}  // namespace gs::vm
