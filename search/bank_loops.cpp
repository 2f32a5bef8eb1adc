#include "search/bank_loops.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "vm/scalar_ops.h"

namespace gs::search::bank {

namespace {

// The loops in C++ (Operation::loop_natively): what their Syn below computes, with Syn's int
// semantics — wrapping arithmetic, `x % 0` trapping division_by_zero (at the first element: an
// empty list's loop never divides), `MIN % -1` 0 — the element-wise ones through the VM's own
// scalar_op (vm/scalar_ops.h).
enum class Acc : u8 { Add, Mul, Max, Min, Squares, Count };
enum class Test : u8 { Eq, Ne, Lt, Gt, Divides, NotDivides };

template <Acc kAcc>
u64 accumulate(u64 acc, u64 x) {
  if constexpr (kAcc == Acc::Add) return acc + x;
  if constexpr (kAcc == Acc::Mul) return acc * x;
  if constexpr (kAcc == Acc::Max) return i64(x) > i64(acc) ? x : acc;
  if constexpr (kAcc == Acc::Min) return i64(x) < i64(acc) ? x : acc;
  if constexpr (kAcc == Acc::Squares) return acc + x * x;
  return acc + 1;
}

// Each loop counts its steps in n[0] and stops after most_steps + 1 of them (its fuel then
// beyond the case's: Operation::run_natively); the other counts are what else its Syn's fuel
// depends on.
struct Counter {
  LoopCounts* counts;
  u64 most_steps;
  // Another step: false when it is past most_steps (the loop stops).
  bool step() { return ++counts->n[0] <= most_steps; }
};

// A loop over operand 0's elements, with a step each: what it takes.
template <Acc kAcc>
vm::Trap fold_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u64 acc = in[1].word;
  for (u32 k = 0; k < in[0].length && c.step(); ++k) acc = accumulate<kAcc>(acc, in[0].slots[k]);
  *out = acc;
  return vm::Trap::NONE;
}

// NativeListLoop::room of a loop with a push at most for each element of operand 0, and for each
// pair of operands 0 and 1 as far as both go (a zip).
u64 room_each(const LoopOperand* in, u64 most_steps) { return std::min<u64>(in[0].length, most_steps); }
u64 room_pairs(const LoopOperand* in, u64 most_steps) {
  return std::min<u64>(std::min(in[0].length, in[1].length), most_steps);
}

template <Acc kAcc>
vm::Trap scan_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u64 acc = in[1].word;
  u32 n = 0;
  for (u32 k = 0; k < in[0].length && c.step(); ++k) out[n++] = acc = accumulate<kAcc>(acc, in[0].slots[k]);
  *made = n;
  return vm::Trap::NONE;
}

// DeepCoder's scanl1 (operand xs): xs[0], then each element folded into the one before it, Syn's
// max, min and wrapping - (Pairs: the operator); n[1] whether a first element was pushed (its
// step is the other branch).
template <vm::Op kOp>
vm::Trap scanl1_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u32 n = 0;
  for (u32 k = 0; k < in[0].length && c.step(); ++k) {
    if (k == 0) {
      out[n++] = in[0].slots[0];
      counts->n[1] = 1;
    } else if (const vm::Trap t = vm::scalar_op(kOp, out[n - 1], in[0].slots[k], &out[n]);
               t != vm::Trap::NONE) {
      return t;
    } else {
      ++n;
    }
  }
  *made = n;
  return vm::Trap::NONE;
}

// The fold over 1, 2, …, n (operands n, init), as `for x in 1..n + 1` runs (n + 1 wraps: none for
// the largest n), in closed form: its n steps, or most_steps + 1 where it would take more (its
// result then unused: it runs out of fuel); the sum of 1..n and of their squares, and n!, modulo
// 2^64, as the wrapping loop leaves them (each divided exactly before the wrapping product; n!
// is 0 from 66! on: 2^64 divides it).
template <Acc kAcc>
vm::Trap fold_range_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  static_assert(kAcc == Acc::Add || kAcc == Acc::Squares || kAcc == Acc::Mul);
  const i64 end = i64(in[0].word + 1);
  const u64 steps = end > 1 ? u64(end - 1) : 0;
  counts->n[0] = std::min(steps, most_steps + 1);
  const u64 acc = in[1].word;
  if (steps > most_steps) {
    *out = acc;
    return vm::Trap::NONE;
  }
  using u128 = unsigned __int128;
  const u128 n = steps;
  if constexpr (kAcc == Acc::Add) {
    *out = acc + u64(n % 2 == 0 ? (n / 2) * (n + 1) : n * ((n + 1) / 2));
  } else if constexpr (kAcc == Acc::Squares) {
    u128 a = n, b = n + 1, c = 2 * n + 1;  // n(n + 1)(2n + 1) / 6
    (a % 2 == 0 ? a : b) /= 2;
    (a % 3 == 0 ? a : b % 3 == 0 ? b : c) /= 3;
    *out = acc + u64(a) * u64(b) * u64(c);
  } else {
    u64 product = 1;
    for (u64 x = 1; x <= std::min<u64>(steps, 66); ++x) product *= x;
    *out = acc * product;
  }
  return vm::Trap::NONE;
}

// (x, y) = (y, x + y) n times from (a, b) (operands n, a, b); x.
vm::Trap recur_add_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u64 x = in[1].word, y = in[2].word;
  for (i64 k = 0; k < i64(in[0].word) && c.step(); ++k) {
    const u64 z = x + y;
    x = y;
    y = z;
  }
  *out = x;
  return vm::Trap::NONE;
}

// The digit loops (operands n, b, init): while n > 0 and b > 1, x = n % b, acc = STEP, n = n / b —
// all positive, so C++'s % and / are Syn's. n[1]: whether it ended on b > 1 (n > 0 held), the
// longer test.
template <Acc kAcc, bool kRebuild = false>
vm::Trap digits_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const i64 b = i64(in[1].word);
  u64 acc = in[2].word;
  i64 n = i64(in[0].word);
  for (; n > 0 && b > 1 && c.step(); n /= b)
    acc = kRebuild ? acc * u64(b) + u64(n % b) : accumulate<kAcc>(acc, u64(n % b));
  counts->n[1] = n > 0 && b <= 1;
  *out = acc;
  return vm::Trap::NONE;
}

// Euclid's loop (operands a, b): (a, b) = (b, a % b) until b is 0, Syn's % (truncated; MIN % -1
// is 0).
vm::Trap euclid_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  i64 a = i64(in[0].word), b = i64(in[1].word);
  while (b != 0 && c.step()) {
    const i64 r = b == -1 ? 0 : a % b;
    a = b;
    b = r;
  }
  *out = u64(a);
  return vm::Trap::NONE;
}

// kOp(x, v) for each x (a unary kOp ignores v), kOp(x, y) for each pair (Pairs::Zip), kOp(x, x)
// (Pairs::Square), or kOp(x, kConst) (Pairs::WithConst: DeepCoder's x * 3, x / 4, …).
enum class Pairs : u8 { WithV, Zip, Square, WithConst };
template <vm::Op kOp, Pairs kPairs, i64 kConst = 0>
vm::Trap map_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64* xs = in[0].slots;
  const u32 length = kPairs == Pairs::Zip ? std::min(in[0].length, in[1].length) : in[0].length;
  u32 n = 0;
  for (u32 k = 0; k < length && c.step(); ++k) {
    const u64 b = kPairs == Pairs::Zip         ? in[1].slots[k]
                  : kPairs == Pairs::Square    ? xs[k]
                  : kPairs == Pairs::WithConst ? u64(kConst)
                                               : in[1].word;
    if (const vm::Trap t = vm::scalar_op(kOp, xs[k], b, &out[n++]); t != vm::Trap::NONE) return t;
  }
  *made = n;
  return vm::Trap::NONE;
}

template <vm::Op kOp, Pairs kPairs, i64 kConst = 0>
constexpr NativeListLoop map_loop() {
  return {kPairs == Pairs::Zip ? room_pairs : room_each, map_natively<kOp, kPairs, kConst>};
}

// Whether x passes the test against v; v is not 0 for the divisibility tests.
template <Test kTest>
bool passes(i64 x, i64 v) {
  if constexpr (kTest == Test::Eq) return x == v;
  if constexpr (kTest == Test::Ne) return x != v;
  if constexpr (kTest == Test::Lt) return x < v;
  if constexpr (kTest == Test::Gt) return x > v;
  const bool divides = v == -1 || x % v == 0;  // MIN % -1 is 0 in Syn (and undefined in C++)
  return kTest == Test::Divides ? divides : !divides;
}

template <Test kTest>
bool divides_by_zero(u32 length, u64 v) {
  return (kTest == Test::Divides || kTest == Test::NotDivides) && v == 0 && length > 0;
}

// The value an element is tested against: operand 1, or kConst where the test is unary (kUnary:
// DeepCoder's x > 0, x % 2 == 0, …, which have the list alone as their operand).
template <bool kUnary, i64 kConst>
u64 tested_against(const LoopOperand* in) {
  return kUnary ? u64(kConst) : in[1].word;
}

// count_where: n[1] the elements that pass (each a count's step more).
template <Test kTest, bool kUnary = false, i64 kConst = 0>
vm::Trap count_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64 v = tested_against<kUnary, kConst>(in);
  if (divides_by_zero<kTest>(in[0].length, v)) return vm::Trap::DIVISION_BY_ZERO;
  for (u32 k = 0; k < in[0].length && c.step(); ++k)
    counts->n[1] += passes<kTest>(i64(in[0].slots[k]), i64(v));
  *out = counts->n[1];
  return vm::Trap::NONE;
}

// first_where and last_where: n[1] whether one passed (the loop returns from inside).
template <Test kTest>
vm::Trap first_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64 v = in[1].word;
  if (divides_by_zero<kTest>(in[0].length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u64 at = u64(-1);
  for (u32 k = 0; k < in[0].length && at == u64(-1) && c.step(); ++k)
    if (passes<kTest>(i64(in[0].slots[k]), i64(v))) at = k;
  counts->n[1] = at != u64(-1);
  *out = at;
  return vm::Trap::NONE;
}

template <Test kTest>
vm::Trap last_natively(const LoopOperand* in, u64 most_steps, u64* out, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64 v = in[1].word;
  if (divides_by_zero<kTest>(in[0].length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u64 at = u64(-1);
  for (u32 k = in[0].length; k-- > 0 && at == u64(-1) && c.step();)
    if (passes<kTest>(i64(in[0].slots[k]), i64(v))) at = k;
  counts->n[1] = at != u64(-1);
  *out = at;
  return vm::Trap::NONE;
}

// The x of xs that pass the test against v, in order (filter_P; remove_all: Test::Ne); n[1] how
// many.
template <Test kTest, bool kUnary = false, i64 kConst = 0>
vm::Trap filter_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64 v = tested_against<kUnary, kConst>(in);
  if (divides_by_zero<kTest>(in[0].length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u32 n = 0;
  for (u32 k = 0; k < in[0].length && c.step(); ++k)
    if (passes<kTest>(i64(in[0].slots[k]), i64(v))) out[n++] = in[0].slots[k];
  *made = n;
  counts->n[1] = n;
  return vm::Trap::NONE;
}

// The list builders (kListBuilders below).

// repeat(v, n): v, n times.
u64 room_repeat(const LoopOperand* in, u64 most_steps) {
  return i64(in[1].word) > 0 ? std::min(in[1].word, most_steps) : 0;
}
vm::Trap repeat_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u32 n = 0;
  for (i64 j = 0; j < i64(in[1].word) && c.step(); ++j) out[n++] = in[0].word;
  *made = n;
  return vm::Trap::NONE;
}

// range_to(a, b): a, a + 1, …, b, as `for x in a..b + 1` runs (b + 1 wraps: none for the largest b).
u64 range_to_steps(const LoopOperand* in) {
  const i64 a = i64(in[0].word), end = i64(in[1].word + 1);
  return end > a ? u64(end) - u64(a) : 0;
}
u64 room_range_to(const LoopOperand* in, u64 most_steps) { return std::min(range_to_steps(in), most_steps); }
vm::Trap range_to_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u64 steps = range_to_steps(in);
  u32 n = 0;
  for (u64 k = 0; k < steps && c.step(); ++k) out[n++] = in[0].word + k;
  *made = n;
  return vm::Trap::NONE;
}

// range_by(a, b, s): x = a, then x + s (wrapping), while s > 0 and x <= b; n[1] whether it ended
// on x <= b (s > 0 held), the longer test. Its room (room_steps, squares_below's too): a push a
// step, as many as the fuel allows.
u64 room_steps(const LoopOperand* /*in*/, u64 most_steps) { return most_steps; }
vm::Trap range_by_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const i64 b = i64(in[1].word), s = i64(in[2].word);
  u32 n = 0;
  u64 x = in[0].word;
  for (; s > 0 && i64(x) <= b && c.step(); x += u64(s)) out[n++] = x;
  counts->n[1] = s > 0;
  *made = n;
  return vm::Trap::NONE;
}

// squares_below(a, s, v): x * x for x = a, then x + s (wrapping), while s > 0 and x * x < v (the
// square wrapping too); n[1] whether it ended on the square's test (s > 0 held), the longer one.
vm::Trap squares_below_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made,
                                LoopCounts* counts) {
  Counter c{counts, most_steps};
  const i64 s = i64(in[1].word), v = i64(in[2].word);
  u32 n = 0;
  u64 x = in[0].word;
  for (; s > 0 && i64(x * x) < v && c.step(); x += u64(s)) out[n++] = x * x;
  counts->n[1] = s > 0;
  *made = n;
  return vm::Trap::NONE;
}

// unique(xs): n[1] the elements kept, n[2] the elements each step's `contains(out, x)` walks.
vm::Trap unique_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  u32 n = 0;
  for (u32 k = 0; k < in[0].length && c.step(); ++k) {
    const u64 x = in[0].slots[k];
    counts->n[2] += n;
    if (std::find(out, out + n, x) == out + n) out[n++] = x;
  }
  *made = n;
  counts->n[1] = n;
  return vm::Trap::NONE;
}

// interleave(xs, ys): two pushes a step.
u64 room_interleave(const LoopOperand* in, u64 most_steps) { return 2 * room_pairs(in, most_steps); }
vm::Trap interleave_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  Counter c{counts, most_steps};
  const u32 steps = std::min(in[0].length, in[1].length);
  u32 n = 0;
  for (u32 k = 0; k < steps && c.step(); ++k) {
    out[n++] = in[0].slots[k];
    out[n++] = in[1].slots[k];
  }
  *made = n;
  return vm::Trap::NONE;
}

// count_each(vs, xs): its steps are the inner loop's over xs (n[0]); n[1] the outer loop's over
// vs, n[2] the elements that match.
u64 room_count_each(const LoopOperand* in, u64 most_steps) {  // a push an outer step it reaches
  return in[1].length == 0 ? in[0].length : std::min<u64>(in[0].length, most_steps / in[1].length);
}
vm::Trap count_each_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  u32 n = 0;
  for (u32 k = 0; k < in[0].length; ++k) {
    if (counts->n[0] + in[1].length > most_steps) {  // stopped: past the fuel
      counts->n[0] = most_steps + 1;
      break;
    }
    counts->n[0] += in[1].length;
    ++counts->n[1];
    out[n] = u64(std::count(in[1].slots, in[1].slots + in[1].length, in[0].slots[k]));
    counts->n[2] += out[n++];
  }
  *made = n;
  return vm::Trap::NONE;
}

// difference(xs, ys): xs less one copy of each element of ys (Haskell's xs \\ ys, a multiset's
// difference), in xs's order — the x at position k kept where xs[0..k] holds more copies of it
// than ys does. Its steps are the two inner loops' (n[0]: k + 1 over xs, len(ys) over ys, for
// each k); n[1] the outer loop's, n[2] the elements that match in either, n[3] those kept.
u64 room_difference(const LoopOperand* in, u64 most_steps) {  // a push an outer step it reaches
  u64 steps = 0, room = 0;
  for (u32 k = 0; k < in[0].length && (steps += k + 1 + in[1].length) <= most_steps; ++k) ++room;
  return room;
}
vm::Trap difference_natively(const LoopOperand* in, u64 most_steps, u64* out, u32* made, LoopCounts* counts) {
  const u64* xs = in[0].slots;
  const u64* ys = in[1].slots;
  u32 n = 0;
  for (u32 k = 0; k < in[0].length; ++k) {
    if (counts->n[0] + k + 1 + in[1].length > most_steps) {  // stopped: past the fuel
      counts->n[0] = most_steps + 1;
      break;
    }
    counts->n[0] += k + 1 + in[1].length;
    ++counts->n[1];
    const u64 seen = u64(std::count(xs, xs + k + 1, xs[k]));
    const u64 there = u64(std::count(ys, ys + in[1].length, xs[k]));
    counts->n[2] += seen + there;
    if (seen > there) out[n++] = xs[k];
  }
  counts->n[3] = n;
  *made = n;
  return vm::Trap::NONE;
}

struct Accumulation {
  const char* name;
  const char* step;           // acc's next value, over acc and x (and b, in a digit loop)
  NativeWordLoop fold;        // fold_NAME in C++ (count: no fold of the bank's)
  NativeListLoop scan;        // scan_NAME
  NativeWordLoop fold_range;  // fold_range_NAME (max, min, count: no such fold)
  NativeWordLoop digits;      // digits_NAME
};

// fold_range_NAME in C++, where there is one.
template <Acc kAcc>
constexpr NativeWordLoop fold_range() {
  if constexpr (kAcc == Acc::Add || kAcc == Acc::Mul || kAcc == Acc::Squares)
    return {fold_range_natively<kAcc>};
  else
    return {};
}

template <Acc kAcc>
constexpr Accumulation accumulation(const char* name, const char* step) {
  return {name,
          step,
          kAcc == Acc::Count ? NativeWordLoop{} : NativeWordLoop{fold_natively<kAcc>},
          {room_each, scan_natively<kAcc>},
          fold_range<kAcc>(),
          {digits_natively<kAcc>}};
}

const Accumulation kAccumulations[] = {
    accumulation<Acc::Add>("add", "acc + x"),
    accumulation<Acc::Mul>("mul", "acc * x"),
    accumulation<Acc::Max>("max", "max(acc, x)"),
    accumulation<Acc::Min>("min", "min(acc, x)"),
    accumulation<Acc::Squares>("squares", "acc + x * x"),
    accumulation<Acc::Count>("count", "acc + 1"),
};

struct Predicate {
  const char* name;
  const char* test;                   // over x and v
  NativeWordLoop count, first, last;  // count_where_NAME, first_where_NAME, last_where_NAME in C++
  NativeListLoop filter;              // filter_NAME
};

template <Test kTest>
constexpr Predicate predicate(const char* name, const char* test) {
  return {name,
          test,
          {count_natively<kTest>},
          {first_natively<kTest>},
          {last_natively<kTest>},
          {room_each, filter_natively<kTest>}};
}

const Predicate kPredicates[] = {predicate<Test::Eq>("eq", "x == v"), predicate<Test::Lt>("lt", "x < v"),
                                 predicate<Test::Gt>("gt", "x > v"),
                                 predicate<Test::Divides>("divides", "x % v == 0"),
                                 predicate<Test::NotDivides>("notdivides", "x % v != 0")};

// DeepCoder's predicates, each its own production over the list alone (one node, as in its
// language, where filter_gt(xs, 0) is three): count_where_NAME and filter_NAME.
struct UnaryPredicate {
  const char* name;
  const char* test;  // over x
  NativeWordLoop count;
  NativeListLoop filter;
};

template <Test kTest, i64 kConst>
constexpr UnaryPredicate unary_predicate(const char* name, const char* test) {
  return {
      name, test, {count_natively<kTest, true, kConst>}, {room_each, filter_natively<kTest, true, kConst>}};
}

const UnaryPredicate kUnaryPredicates[] = {unary_predicate<Test::Gt, 0>("positive", "x > 0"),
                                           unary_predicate<Test::Lt, 0>("negative", "x < 0"),
                                           unary_predicate<Test::Divides, 2>("even", "x % 2 == 0"),
                                           unary_predicate<Test::NotDivides, 2>("odd", "x % 2 != 0")};

struct Function {
  const char* name;
  const char* value;      // over x and v (a map), x and y (a zip), or x alone (a unary map)
  NativeListLoop native;  // the map or zip in C++
};

using vm::Op;
const Function kMaps[] = {{"add", "x + v", map_loop<Op::BINARY_ADD, Pairs::WithV>()},
                          {"sub", "x - v", map_loop<Op::BINARY_SUB, Pairs::WithV>()},
                          {"mul", "x * v", map_loop<Op::BINARY_MUL, Pairs::WithV>()},
                          {"div", "x / v", map_loop<Op::BINARY_DIV, Pairs::WithV>()},
                          {"mod", "x % v", map_loop<Op::BINARY_MOD, Pairs::WithV>()},
                          {"max", "max(x, v)", map_loop<Op::MAX_INT, Pairs::WithV>()},
                          {"min", "min(x, v)", map_loop<Op::MIN_INT, Pairs::WithV>()}};
const Function kUnaryMaps[] = {{"square", "x * x", map_loop<Op::BINARY_MUL, Pairs::Square>()},
                               {"negate", "-x", map_loop<Op::UNARY_NEG, Pairs::WithV>()},
                               {"abs", "abs(x)", map_loop<Op::ABS_INT, Pairs::WithV>()},
                               // DeepCoder's lambdas, one node each (map_mul(xs, 3) is five)
                               {"inc", "x + 1", map_loop<Op::BINARY_ADD, Pairs::WithConst, 1>()},
                               {"dec", "x - 1", map_loop<Op::BINARY_SUB, Pairs::WithConst, 1>()},
                               {"double", "x * 2", map_loop<Op::BINARY_MUL, Pairs::WithConst, 2>()},
                               {"half", "x / 2", map_loop<Op::BINARY_DIV, Pairs::WithConst, 2>()},
                               {"triple", "x * 3", map_loop<Op::BINARY_MUL, Pairs::WithConst, 3>()},
                               {"third", "x / 3", map_loop<Op::BINARY_DIV, Pairs::WithConst, 3>()},
                               {"quadruple", "x * 4", map_loop<Op::BINARY_MUL, Pairs::WithConst, 4>()},
                               {"quarter", "x / 4", map_loop<Op::BINARY_DIV, Pairs::WithConst, 4>()}};
// DeepCoder's scanl1: the first element, then each folded into the one before it.
const Function kScanl1s[] = {{"add", "out[i - 1] + x", {room_each, scanl1_natively<Op::BINARY_ADD>}},
                             {"sub", "out[i - 1] - x", {room_each, scanl1_natively<Op::BINARY_SUB>}},
                             {"max", "max(out[i - 1], x)", {room_each, scanl1_natively<Op::MAX_INT>}},
                             {"min", "min(out[i - 1], x)", {room_each, scanl1_natively<Op::MIN_INT>}}};
const Function kZips[] = {{"add", "x + y", map_loop<Op::BINARY_ADD, Pairs::Zip>()},
                          {"sub", "x - y", map_loop<Op::BINARY_SUB, Pairs::Zip>()},
                          {"mul", "x * y", map_loop<Op::BINARY_MUL, Pairs::Zip>()},
                          {"max", "max(x, y)", map_loop<Op::MAX_INT, Pairs::Zip>()},
                          {"min", "min(x, y)", map_loop<Op::MIN_INT, Pairs::Zip>()}};

std::string fold(const std::string& name, const std::string& step) {
  return "fn " + name +
         "(xs: [int], init: int) -> int {\n  let acc = init;\n  for x in xs {\n    acc = " + step +
         ";\n  }\n  return acc;\n}\n";
}

std::string scan(const std::string& name, const std::string& step) {
  return "fn " + name + "(xs: [int], init: int) -> [int] {\n  let acc = init;\n  let out: [int] = [];\n" +
         "  for x in xs {\n    acc = " + step + ";\n    out = push(out, acc);\n  }\n  return out;\n}\n";
}

std::string fold_range(const std::string& name, const std::string& step) {
  return "fn " + name +
         "(n: int, init: int) -> int {\n  let acc = init;\n  for x in 1..n + 1 {\n    acc = " + step +
         ";\n  }\n  return acc;\n}\n";
}

std::string digits(const std::string& name, const std::string& step) {
  return "fn " + name + "(n: int, b: int, init: int) -> int {\n  let acc = init;\n" +
         "  while n > 0 && b > 1 {\n    let x = n % b;\n    acc = " + step + ";\n    n = n / b;\n  }\n" +
         "  return acc;\n}\n";
}

std::string count_where_with(const std::string& name, const std::string& test, const std::string& params) {
  return "fn " + name + params + " -> int {\n  let count = 0;\n  for x in xs {\n    if " + test +
         " {\n      count = count + 1;\n    }\n  }\n  return count;\n}\n";
}

std::string count_where(const std::string& name, const std::string& test) {
  return count_where_with(name, test, "(xs: [int], v: int)");
}

std::string first_where(const std::string& name, const std::string& test) {
  return "fn " + name + "(xs: [int], v: int) -> int {\n  for i in 0..len(xs) {\n    let x = xs[i];\n    if " +
         test + " {\n      return i;\n    }\n  }\n  return -1;\n}\n";
}

std::string last_where(const std::string& name, const std::string& test) {
  return "fn " + name + "(xs: [int], v: int) -> int {\n  let i = len(xs) - 1;\n  while i >= 0 {\n" +
         "    let x = xs[i];\n    if " + test +
         " {\n      return i;\n    }\n    i = i - 1;\n  }\n  return -1;\n}\n";
}

std::string filter_with(const std::string& name, const std::string& test, const std::string& params) {
  return "fn " + name + params + " -> [int] {\n  let out: [int] = [];\n  for x in xs {\n    if " + test +
         " {\n      out = push(out, x);\n    }\n  }\n  return out;\n}\n";
}

std::string filter(const std::string& name, const std::string& test) {
  return filter_with(name, test, "(xs: [int], v: int)");
}

std::string map_with(const std::string& name, const std::string& value, const std::string& params) {
  return "fn " + name + params +
         " -> [int] {\n  let out: [int] = [];\n  for x in xs {\n    out = push(out, " + value +
         ");\n  }\n  return out;\n}\n";
}

std::string map(const std::string& name, const std::string& value) {
  return map_with(name, value, "(xs: [int], v: int)");
}

std::string map_unary(const std::string& name, const std::string& value) {
  return map_with(name, value, "(xs: [int])");
}

// Each element's decimal text: the lines of numbers a lines goal (search/goal_shapes.h) joins.
std::string map_to_str(const std::string& name, const std::string& value) {
  return "fn " + name +
         "(xs: [int]) -> [str] {\n  let out: [str] = [];\n  for x in xs {\n    out = push(out, " + value +
         ");\n  }\n  return out;\n}\n";
}

std::string count_where_unary(const std::string& name, const std::string& test) {
  return count_where_with(name, test, "(xs: [int])");
}

std::string filter_unary(const std::string& name, const std::string& test) {
  return filter_with(name, test, "(xs: [int])");
}

std::string scanl1(const std::string& name, const std::string& value) {
  return "fn " + name + "(xs: [int]) -> [int] {\n  let out: [int] = [];\n  for i in 0..len(xs) {\n" +
         "    let x = xs[i];\n    if i == 0 {\n      out = push(out, x);\n    } else {\n      out = "
         "push(out, " +
         value + ");\n    }\n  }\n  return out;\n}\n";
}

std::string zip(const std::string& name, const std::string& value) {
  return "fn " + name + "(xs: [int], ys: [int]) -> [int] {\n  let out: [int] = [];\n" +
         "  for i in 0..min(len(xs), len(ys)) {\n    let x = xs[i];\n    let y = ys[i];\n    out = "
         "push(out, " +
         value + ");\n  }\n  return out;\n}\n";
}

// The list builders: their whole helper, with NAME for the function's name.
struct ListBuilder {
  const char* name;
  std::vector<Type> operands;
  const char* source;
  NativeListLoop native;  // in C++
  u64 fuel = kLoopFuel;   // an application's on a case, in the bank
};

const ListBuilder kListBuilders[] = {
    {"repeat",
     {Type::Int, Type::Int},
     "fn NAME(v: int, n: int) -> [int] {\n  let out: [int] = [];\n  for j in 0..n {\n    out = push(out, "
     "v);\n"
     "  }\n  return out;\n}\n",
     {room_repeat, repeat_natively}},
    {"range_to",
     {Type::Int, Type::Int},
     "fn NAME(a: int, b: int) -> [int] {\n  let out: [int] = [];\n  for x in a..b + 1 {\n    out = push(out, "
     "x);\n"
     "  }\n  return out;\n}\n",
     {room_range_to, range_to_natively}},
    {"range_by",
     {Type::Int, Type::Int, Type::Int},
     "fn NAME(a: int, b: int, s: int) -> [int] {\n  let out: [int] = [];\n  let x = a;\n"
     "  while s > 0 && x <= b {\n    out = push(out, x);\n    x = x + s;\n  }\n  return out;\n}\n",
     {room_steps, range_by_natively}},
    // The squares below a bound, from a by s: a loop that stops on its value rather than a count
    // (PSB1's even squares below n, where map_square(range_by(2, n, 2)) is n / 2 elements long).
    {"squares_below",
     {Type::Int, Type::Int, Type::Int},
     "fn NAME(a: int, s: int, v: int) -> [int] {\n  let out: [int] = [];\n  let x = a;\n"
     "  while s > 0 && x * x < v {\n    out = push(out, x * x);\n    x = x + s;\n  }\n  return out;\n}\n",
     {room_steps, squares_below_natively}},
    {"unique",
     {Type::IntArray},
     "fn NAME(xs: [int]) -> [int] {\n  let out: [int] = [];\n  for x in xs {\n    if !contains(out, x) {\n"
     "      out = push(out, x);\n    }\n  }\n  return out;\n}\n",
     {room_each, unique_natively}},
    // xs[0], ys[0], xs[1], ys[1], … (flatten(zip(xs, ys))), as far as both go.
    {"interleave",
     {Type::IntArray, Type::IntArray},
     "fn NAME(xs: [int], ys: [int]) -> [int] {\n  let out: [int] = [];\n"
     "  for i in 0..min(len(xs), len(ys)) {\n    out = push(out, xs[i]);\n    out = push(out, ys[i]);\n  }\n"
     "  return out;\n}\n",
     {room_interleave, interleave_natively}},
    // How often each of vs occurs in xs (over unique(xs): a histogram).
    {"count_each",
     {Type::IntArray, Type::IntArray},
     "fn NAME(vs: [int], xs: [int]) -> [int] {\n  let out: [int] = [];\n  for v in vs {\n    let n = 0;\n"
     "    for x in xs {\n      if x == v {\n        n = n + 1;\n      }\n    }\n    out = push(out, n);\n"
     "  }\n  return out;\n}\n",
     {room_count_each, count_each_natively}},
    // xs less one copy of each element of ys (Haskell's xs \\ ys): what xs holds beyond ys, so
    // that len(difference(xs, ys)) == 0 says ys holds every element of xs as often.
    {"difference",
     {Type::IntArray, Type::IntArray},
     "fn NAME(xs: [int], ys: [int]) -> [int] {\n  let out: [int] = [];\n  for k in 0..len(xs) {\n"
     "    let x = xs[k];\n    let seen = 0;\n    for j in 0..k + 1 {\n      if xs[j] == x {\n"
     "        seen = seen + 1;\n      }\n    }\n    let there = 0;\n    for j in 0..len(ys) {\n"
     "      if ys[j] == x {\n        there = there + 1;\n      }\n    }\n    if seen > there {\n"
     "      out = push(out, x);\n    }\n  }\n  return out;\n}\n",
     {room_difference, difference_natively},
     // Its steps are quadratic in the lengths: 8 times a loop's fuel takes two strs of 20
     // characters, PSB1's longest, well within it (610 steps).
     8 * kLoopFuel},
};

// A whole helper's source with NAME for its function's name, named.
std::string named(const std::string& name, const std::string& source) {
  std::string out = source;
  out.replace(out.find("NAME"), 4, name);
  return out;
}

// n's decimal digits from the last: n % 10, then (n / 10) % 10, … while what is left is not 0 —
// one for 0, and a negative n's are negative (-120: 0, -2, -1), as % gives them. A helper of the
// leaves decimal_digits(n) for the int parameters (search/enumerate_generator.cpp), not a production.
const char* const kDecimalDigits =
    "fn NAME(n: int) -> [int] {\n  let out: [int] = [n % 10];\n  n = n / 10;\n  while n != 0 {\n"
    "    out = push(out, n % 10);\n    n = n / 10;\n  }\n  return out;\n}\n";

// Two ints carried through a loop: (x, y) = (y, STEP) n times from (a, b), then x — Fibonacci's
// numbers from (0, 1) with x + y, Lucas's from (2, 1).
std::string recur(const std::string& name, const std::string& step) {
  return "fn " + name + "(n: int, a: int, b: int) -> int {\n  let x = a;\n  let y = b;\n  for k in 0..n {\n" +
         "    let z = " + step + ";\n    x = y;\n    y = z;\n  }\n  return x;\n}\n";
}

// Euclid's loop: (a, b) = (b, a % b) until b is 0, then a (the greatest common divisor of two
// positive ints).
const char* const kEuclid =
    "fn NAME(a: int, b: int) -> int {\n  while b != 0 {\n    let r = a % b;\n    a = b;\n    b = r;\n  }\n"
    "  return a;\n}\n";

// A loop: the production `name($0, $1, …)` over `operands` and its helper function, of that name.
struct LoopForm {
  std::vector<Type> operands;
  Type result = Type::Unit;
  std::string name, helper;
  // A production of the grammar, or only a helper an answer is written with: map_str, which a
  // lines goal of numbers writes around its [int] (search/goal_shapes.h) — as a production it put
  // a [str] beside every banked [int], and those filled PSB1's heaps (200 cases) by size 5 — and
  // decimal_digits, the leaves' of the int parameters (a list beside every banked int, else).
  bool production = true;
  // The loop in C++, where it has one (Operation::loop_natively).
  NativeWordLoop native_word{};
  NativeListLoop native_list{};
  u64 fuel = kLoopFuel;  // an application's on a case, in the bank (bank_loops.h)
};

std::vector<LoopForm> loop_forms(const std::set<Type>& types) {
  const Type I = Type::Int, A = Type::IntArray;
  std::vector<LoopForm> p;
  using Builder = std::string (*)(const std::string& name, const std::string& body);
  auto add = [&](std::vector<Type> operands, Type result, const std::string& name, Builder build,
                 const std::string& body) {
    p.push_back({std::move(operands), result, name, build(name, body)});
  };
  for (const Accumulation& a : kAccumulations) {
    const std::string op = a.name;
    if (types.count(A)) {
      if (op != "count") {  // count: len(xs) + init
        add({A, I}, I, "fold_" + op, fold, a.step);
        p.back().native_word = a.fold;
      }
      add({A, I}, A, "scan_" + op, scan, a.step);
      p.back().native_list = a.scan;
    }
    if (a.fold_range.run != nullptr) {  // max/min over 1..n: n or 1 against init; count: n + init
      add({I, I}, I, "fold_range_" + op, fold_range, a.step);
      p.back().native_word = a.fold_range;
    }
    add({I, I, I}, I, "digits_" + op, digits, a.step);
    p.back().native_word = a.digits;
  }
  add({I, I, I}, I, "digits_rebuild", digits, "acc * b + x");
  p.back().native_word = {digits_natively<Acc::Add, true>};
  add({I, I, I}, I, "recur_add", recur, "x + y");
  p.back().native_word = {recur_add_natively};
  add({I, I}, I, "euclid", named, kEuclid);
  p.back().native_word = {euclid_natively};
  if (types.count(A))
    for (const Predicate& w : kPredicates) {
      const std::string test = w.name;
      add({A, I}, I, "count_where_" + test, count_where, w.test);
      p.back().native_word = w.count;
      if (test != "eq") {  // eq: index_of
        add({A, I}, I, "first_where_" + test, first_where, w.test);
        p.back().native_word = w.first;
      }
      add({A, I}, I, "last_where_" + test, last_where, w.test);
      p.back().native_word = w.last;
      if (test != "eq") {  // eq: repeat(v, count_where_eq(xs, v))
        add({A, I}, A, "filter_" + test, filter, w.test);
        p.back().native_list = w.filter;
      }
    }
  if (types.count(A)) {
    add({A, I}, A, "remove_all", filter, "x != v");
    p.back().native_list = {room_each, filter_natively<Test::Ne>};
    for (const ListBuilder& b : kListBuilders) {
      add(b.operands, A, b.name, named, b.source);
      p.back().native_list = b.native;
      p.back().fuel = b.fuel;
    }
    for (const Function& f : kMaps) {
      add({A, I}, A, std::string("map_") + f.name, map, f.value);
      p.back().native_list = f.native;
    }
    for (const Function& f : kUnaryMaps) {
      add({A}, A, std::string("map_") + f.name, map_unary, f.value);
      p.back().native_list = f.native;
    }
    for (const UnaryPredicate& w : kUnaryPredicates) {
      add({A}, I, std::string("count_where_") + w.name, count_where_unary, w.test);
      p.back().native_word = w.count;
      add({A}, A, std::string("filter_") + w.name, filter_unary, w.test);
      p.back().native_list = w.filter;
    }
    for (const Function& f : kScanl1s) {
      add({A}, A, std::string("scanl1_") + f.name, scanl1, f.value);
      p.back().native_list = f.native;
    }
    for (const Function& f : kZips) {
      add({A, A}, A, std::string("zip_") + f.name, zip, f.value);
      p.back().native_list = f.native;
    }
    if (types.count(Type::StrArray)) {
      add({A}, Type::StrArray, "map_str", map_to_str, "str(x)");
      p.back().production = false;
    }
    add({I}, A, "decimal_digits", named, kDecimalDigits);
    p.back().production = false;
  }
  return p;
}

// Every loop form, made once: an answer's helpers and keys are looked up by name for each answer
// written (it rebuilt every form's helper source per lookup).
const LoopForm& loop_form(std::string_view name) {
  static const std::vector<LoopForm> all =
      loop_forms({Type::Int, Type::Bool, Type::IntArray, Type::StrArray});
  for (const LoopForm& f : all)
    if (f.name == name) return f;
  throw std::invalid_argument("no loop named " + std::string(name));
}

std::string call_text(const LoopForm& f) {
  std::string text = f.name + "(";
  for (size_t i = 0; i < f.operands.size(); ++i) text += (i ? ", $" : "$") + std::to_string(i);
  return text + ")";
}

}  // namespace

std::vector<Production> loop_productions(const std::set<Type>& types) {
  std::vector<Production> p;
  for (LoopForm& f : loop_forms(types)) {
    if (!f.production) continue;
    const std::string text = call_text(f);
    p.push_back(operation_production(std::move(f.operands), f.result, text, f.helper, f.fuel));
    if (f.native_word.run != nullptr) p.back().operation->loop_natively(f.native_word);
    if (f.native_list.run != nullptr) p.back().operation->loop_natively(f.native_list);
  }
  return p;
}

std::string loop_helper(std::string_view name) { return loop_form(name).helper; }

std::string loop_key(std::string_view name) {
  const LoopForm& f = loop_form(name);
  return production_key(call_text(f), f.operands, f.result);
}

}  // namespace gs::search::bank
