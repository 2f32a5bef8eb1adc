// Integer operations whose Syn semantics differ from C++'s, written once for the interpreter
// and the compiler's constant folder (docs/language.md §5 "Operators").
#pragma once

#include "base/hd.h"

namespace gs::vm {

GS_HD inline i64 wrap_add(i64 a, i64 b) { return i64(u64(a) + u64(b)); }
GS_HD inline i64 wrap_sub(i64 a, i64 b) { return i64(u64(a) - u64(b)); }
GS_HD inline i64 wrap_mul(i64 a, i64 b) { return i64(u64(a) * u64(b)); }
GS_HD inline i64 wrap_neg(i64 a) { return i64(0 - u64(a)); }
// b != 0 (the caller traps division_by_zero); MIN / -1 wraps to MIN.
GS_HD inline i64 int_div(i64 a, i64 b) { return b == -1 ? wrap_neg(a) : a / b; }
GS_HD inline i64 int_mod(i64 a, i64 b) { return b == -1 ? 0 : a % b; }
// Python's // and % (b != 0): the quotient rounded toward negative infinity, the remainder with
// the sign of b. MIN // -1 wraps to MIN like int_div.
GS_HD inline i64 floor_div(i64 a, i64 b) {
  i64 q = int_div(a, b);
  return (int_mod(a, b) != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
GS_HD inline i64 floor_mod(i64 a, i64 b) {
  i64 r = int_mod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
// Python's negative index: i + length when i < 0 (still negative, so out of range, below -length).
GS_HD inline u64 wrap_index(u64 i, u32 length) { return i64(i) < 0 ? u64(i64(i) + i64(length)) : i; }
GS_HD inline i64 shift_left(i64 a, i64 b) { return i64(u64(a) << (b & 63)); }
GS_HD inline i64 shift_right(i64 a, i64 b) { return a >> (b & 63); }
GS_HD inline i64 shift_right_logical(i64 a, i64 b) { return i64(u64(a) >> (b & 63)); }

}  // namespace gs::vm
