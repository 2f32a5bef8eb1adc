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
GS_HD inline i64 shift_left(i64 a, i64 b) { return i64(u64(a) << (b & 63)); }
GS_HD inline i64 shift_right(i64 a, i64 b) { return a >> (b & 63); }
GS_HD inline i64 shift_right_logical(i64 a, i64 b) { return i64(u64(a) >> (b & 63)); }

}  // namespace gs::vm
