// The VM's instructions that map one or two words to a word without the heap — int, bool and
// float arithmetic, comparisons, min/max/abs, conversions — written once: the interpreter's case
// for each of these opcodes is scalar_op with that opcode (inlined, so the switch folds away), and
// the enumeration's value bank (search/value_bank.h) applies scalar_op to whole vectors of banked
// words at once, on the host and, the same code, in a kernel.
#pragma once

#include <cmath>

#include "vm/arith.h"
#include "vm/opcodes.h"
#include "vm/text.h"
#include "vm/trap.h"

namespace gs::vm {

// How many operands a scalar operation takes off the stack (1 or 2); 0 when op is not one.
GS_HD inline u32 scalar_arity(Op op) {
  switch (op) {
    case Op::BINARY_ADD:
    case Op::BINARY_SUB:
    case Op::BINARY_MUL:
    case Op::BINARY_DIV:
    case Op::BINARY_MOD:
    case Op::BINARY_AND:
    case Op::BINARY_OR:
    case Op::BINARY_XOR:
    case Op::BINARY_SHL:
    case Op::BINARY_SHR:
    case Op::BINARY_USHR:
    case Op::COMPARE_LT:
    case Op::COMPARE_LE:
    case Op::COMPARE_GT:
    case Op::COMPARE_GE:
    case Op::COMPARE_EQ:
    case Op::COMPARE_NE:
    case Op::FLOAT_ADD:
    case Op::FLOAT_SUB:
    case Op::FLOAT_MUL:
    case Op::FLOAT_DIV:
    case Op::FLOAT_MOD:
    case Op::FLOAT_LT:
    case Op::FLOAT_LE:
    case Op::FLOAT_GT:
    case Op::FLOAT_GE:
    case Op::FLOAT_EQ:
    case Op::FLOAT_NE:
    case Op::MIN_INT:
    case Op::MAX_INT:
    case Op::MIN_FLOAT:
    case Op::MAX_FLOAT:
    case Op::FLOOR_DIV:
    case Op::FLOOR_MOD:
    case Op::FLOAT_TRUE_DIV: return 2;
    case Op::UNARY_NEG:
    case Op::UNARY_INVERT:
    case Op::UNARY_NOT:
    case Op::FLOAT_NEG:
    case Op::ABS_INT:
    case Op::ABS_FLOAT:
    case Op::INT_OF_FLOAT:
    case Op::FLOAT_OF_INT:
    case Op::SQRT:
    case Op::FLOOR:
    case Op::CEIL:
    case Op::ROUND:
    case Op::TRUNC_FLOAT: return 1;
    default: return 0;
  }
}

// Scalar operation op on a (the deeper operand) and b (the top of the stack; ignored by a unary
// one): the result word in *out, or the trap (*out then unchanged). op must be a scalar operation.
GS_HD GS_ALWAYS_INLINE Trap scalar_op(Op op, u64 a, u64 b, u64* out) {
  const i64 x = i64(a), y = i64(b);
  const double f = double_of(a), g = double_of(b);
  switch (op) {
    case Op::BINARY_ADD: *out = u64(wrap_add(x, y)); break;
    case Op::BINARY_SUB: *out = u64(wrap_sub(x, y)); break;
    case Op::BINARY_MUL: *out = u64(wrap_mul(x, y)); break;
    case Op::BINARY_DIV:
      if (y == 0) return Trap::DIVISION_BY_ZERO;
      *out = u64(int_div(x, y));
      break;
    case Op::BINARY_MOD:
      if (y == 0) return Trap::DIVISION_BY_ZERO;
      *out = u64(int_mod(x, y));
      break;
    case Op::BINARY_AND: *out = a & b; break;
    case Op::BINARY_OR: *out = a | b; break;
    case Op::BINARY_XOR: *out = a ^ b; break;
    case Op::BINARY_SHL: *out = u64(shift_left(x, y)); break;
    case Op::BINARY_SHR: *out = u64(shift_right(x, y)); break;
    case Op::BINARY_USHR: *out = u64(shift_right_logical(x, y)); break;
    case Op::COMPARE_LT: *out = x < y; break;
    case Op::COMPARE_LE: *out = x <= y; break;
    case Op::COMPARE_GT: *out = x > y; break;
    case Op::COMPARE_GE: *out = x >= y; break;
    case Op::COMPARE_EQ: *out = x == y; break;
    case Op::COMPARE_NE: *out = x != y; break;
    case Op::UNARY_NEG: *out = 0 - a; break;
    case Op::UNARY_INVERT: *out = ~a; break;
    case Op::UNARY_NOT: *out = a == 0 ? 1 : 0; break;
    case Op::MIN_INT: *out = y < x ? b : a; break;
    case Op::MAX_INT: *out = y > x ? b : a; break;
    case Op::ABS_INT: *out = x < 0 ? 0 - a : a; break;
    case Op::FLOOR_DIV:
      if (y == 0) return Trap::DIVISION_BY_ZERO;
      *out = u64(floor_div(x, y));
      break;
    case Op::FLOOR_MOD:
      if (y == 0) return Trap::DIVISION_BY_ZERO;
      *out = u64(floor_mod(x, y));
      break;
    case Op::FLOAT_ADD: *out = bits_of(f + g); break;
    case Op::FLOAT_SUB: *out = bits_of(f - g); break;
    case Op::FLOAT_MUL: *out = bits_of(f * g); break;
    case Op::FLOAT_DIV: *out = bits_of(f / g); break;
    case Op::FLOAT_MOD: *out = bits_of(std::fmod(f, g)); break;
    case Op::FLOAT_TRUE_DIV:
      if (g == 0) return Trap::DIVISION_BY_ZERO;
      *out = bits_of(f / g);
      break;
    case Op::FLOAT_NEG: *out = a ^ (u64(1) << 63); break;
    case Op::FLOAT_LT: *out = f < g ? 1 : 0; break;
    case Op::FLOAT_LE: *out = f <= g ? 1 : 0; break;
    case Op::FLOAT_GT: *out = f > g ? 1 : 0; break;
    case Op::FLOAT_GE: *out = f >= g ? 1 : 0; break;
    case Op::FLOAT_EQ: *out = f == g ? 1 : 0; break;
    case Op::FLOAT_NE: *out = f != g ? 1 : 0; break;
    case Op::MIN_FLOAT: *out = bits_of(g < f ? g : f); break;
    case Op::MAX_FLOAT: *out = bits_of(g > f ? g : f); break;
    case Op::ABS_FLOAT: *out = a & ~(u64(1) << 63); break;
    case Op::INT_OF_FLOAT: *out = u64(int_of_float(f)); break;
    case Op::FLOAT_OF_INT: *out = bits_of(double(x)); break;
    case Op::SQRT: *out = bits_of(std::sqrt(f)); break;
    case Op::FLOOR: *out = bits_of(std::floor(f)); break;
    case Op::CEIL: *out = bits_of(std::ceil(f)); break;
    case Op::ROUND: *out = bits_of(std::round(f)); break;
    case Op::TRUNC_FLOAT:
      // [-2^63, 2^63): the doubles whose truncation is an int (NaN fails both comparisons)
      if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) return Trap::INVALID_ARGUMENT;
      *out = u64(i64(f));
      break;
    default: return Trap::BAD_INSTRUCTION;
  }
  return Trap::NONE;
}

}  // namespace gs::vm
