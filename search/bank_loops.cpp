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

// Whether `steps` steps of at most code_words instructions each, and two more (the loop's set-up
// and its end), are within the fuel.
bool steps_within(u64 steps, u64 code_words, u64 fuel) {
  const u64 most = fuel / code_words;
  return most >= 2 && steps <= most - 2;
}

// NativeWordLoop::fits of a loop with a step for each element of operand 0.
bool fits_walk(const LoopOperand* in, u64 code_words, u64 fuel) {
  return steps_within(in[0].length, code_words, fuel);
}

// … of a loop over 1..n, n operand 0, whose operation's steps are counted
// (Operation::count_steps_by): run_case() has checked the fuel for every n it answers for.
bool fits_counted(const LoopOperand* in, u64 /*code_words*/, u64 /*fuel*/) {
  return i64(in[0].word) <= 0 || in[0].word <= Operation::kMaxCountedSteps;
}

template <Acc kAcc>
vm::Trap fold_natively(const LoopOperand* in, u64* out) {
  u64 acc = in[1].word;
  for (u32 k = 0; k < in[0].length; ++k) acc = accumulate<kAcc>(acc, in[0].slots[k]);
  *out = acc;
  return vm::Trap::NONE;
}

// NativeListLoop::fits of a loop with a step and a push at most for each element of operand 0.
bool fits_each(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  *room = in[0].length;
  return steps_within(in[0].length, code_words, fuel);
}

// … for each pair of operands 0 and 1, as far as both go (a zip).
bool fits_pairs(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  *room = std::min(in[0].length, in[1].length);
  return steps_within(*room, code_words, fuel);
}

template <Acc kAcc>
vm::Trap scan_natively(const LoopOperand* in, u64* out, u32* made) {
  u64 acc = in[1].word;
  for (u32 k = 0; k < in[0].length; ++k) out[k] = acc = accumulate<kAcc>(acc, in[0].slots[k]);
  *made = in[0].length;
  return vm::Trap::NONE;
}

// The fold over 1, 2, …, n (operands n, init).
template <Acc kAcc>
vm::Trap fold_range_natively(const LoopOperand* in, u64* out) {
  u64 acc = in[1].word;
  for (i64 x = 1; x <= i64(in[0].word); ++x) acc = accumulate<kAcc>(acc, u64(x));
  *out = acc;
  return vm::Trap::NONE;
}

// (x, y) = (y, x + y) n times from (a, b) (operands n, a, b); x.
vm::Trap recur_add_natively(const LoopOperand* in, u64* out) {
  u64 x = in[1].word, y = in[2].word;
  for (i64 k = 0; k < i64(in[0].word); ++k) {
    const u64 z = x + y;
    x = y;
    y = z;
  }
  *out = x;
  return vm::Trap::NONE;
}

// The digit loops (operands n, b, init): while n > 0 and b > 1, x = n % b, acc = STEP, n = n / b —
// all positive, so C++'s % and / are Syn's. A step is a digit.
bool fits_digits(const LoopOperand* in, u64 code_words, u64 fuel) {
  const i64 b = i64(in[1].word);
  u64 steps = 0;
  for (i64 n = i64(in[0].word); n > 0 && b > 1; n /= b) ++steps;
  return steps_within(steps, code_words, fuel);
}
template <Acc kAcc, bool kRebuild = false>
vm::Trap digits_natively(const LoopOperand* in, u64* out) {
  const i64 b = i64(in[1].word);
  u64 acc = in[2].word;
  for (i64 n = i64(in[0].word); n > 0 && b > 1; n /= b)
    acc = kRebuild ? acc * u64(b) + u64(n % b) : accumulate<kAcc>(acc, u64(n % b));
  *out = acc;
  return vm::Trap::NONE;
}

// Euclid's loop (operands a, b): (a, b) = (b, a % b) until b is 0, Syn's % (truncated; MIN % -1
// is 0); a step an exchange, counted up to what the fuel allows.
u64 euclid_steps(const LoopOperand* in, u64 most, u64* gcd) {
  i64 a = i64(in[0].word), b = i64(in[1].word);
  u64 steps = 0;
  while (b != 0 && steps <= most) {
    const i64 r = b == -1 ? 0 : a % b;
    a = b;
    b = r;
    ++steps;
  }
  *gcd = u64(a);
  return steps;
}
bool fits_euclid(const LoopOperand* in, u64 code_words, u64 fuel) {
  const u64 most = fuel / code_words;
  u64 gcd = 0;
  return most >= 2 && euclid_steps(in, most - 2, &gcd) <= most - 2;
}
vm::Trap euclid_natively(const LoopOperand* in, u64* out) {
  euclid_steps(in, ~u64(0), out);
  return vm::Trap::NONE;
}

// kOp(x, v) for each x (a unary kOp ignores v), kOp(x, y) for each pair (Pairs::Zip), or kOp(x, x)
// (Pairs::Square).
enum class Pairs : u8 { WithV, Zip, Square };
template <vm::Op kOp, Pairs kPairs>
vm::Trap map_natively(const LoopOperand* in, u64* out, u32* made) {
  const u64* xs = in[0].slots;
  const u32 length = kPairs == Pairs::Zip ? std::min(in[0].length, in[1].length) : in[0].length;
  for (u32 k = 0; k < length; ++k) {
    const u64 b = kPairs == Pairs::Zip ? in[1].slots[k] : kPairs == Pairs::Square ? xs[k] : in[1].word;
    if (const vm::Trap t = vm::scalar_op(kOp, xs[k], b, &out[k]); t != vm::Trap::NONE) return t;
  }
  *made = length;
  return vm::Trap::NONE;
}

template <vm::Op kOp, Pairs kPairs>
constexpr NativeListLoop map_loop() {
  return {kPairs == Pairs::Zip ? fits_pairs : fits_each, map_natively<kOp, kPairs>};
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

template <Test kTest>
vm::Trap count_natively(const LoopOperand* in, u64* out) {
  const u64 *xs = in[0].slots, v = in[1].word;
  const u32 length = in[0].length;
  if (divides_by_zero<kTest>(length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u64 count = 0;
  for (u32 k = 0; k < length; ++k) count += passes<kTest>(i64(xs[k]), i64(v));
  *out = count;
  return vm::Trap::NONE;
}

template <Test kTest>
vm::Trap first_natively(const LoopOperand* in, u64* out) {
  const u64 *xs = in[0].slots, v = in[1].word;
  const u32 length = in[0].length;
  if (divides_by_zero<kTest>(length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u64 at = u64(-1);
  for (u32 k = 0; k < length && at == u64(-1); ++k)
    if (passes<kTest>(i64(xs[k]), i64(v))) at = k;
  *out = at;
  return vm::Trap::NONE;
}

template <Test kTest>
vm::Trap last_natively(const LoopOperand* in, u64* out) {
  const u64 *xs = in[0].slots, v = in[1].word;
  const u32 length = in[0].length;
  if (divides_by_zero<kTest>(length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u64 at = u64(-1);
  for (u32 k = length; k-- > 0 && at == u64(-1);)
    if (passes<kTest>(i64(xs[k]), i64(v))) at = k;
  *out = at;
  return vm::Trap::NONE;
}

// The x of xs that pass the test against v, in order (filter_P; remove_all: Test::Ne).
template <Test kTest>
vm::Trap filter_natively(const LoopOperand* in, u64* out, u32* made) {
  const u64 v = in[1].word;
  if (divides_by_zero<kTest>(in[0].length, v)) return vm::Trap::DIVISION_BY_ZERO;
  u32 n = 0;
  for (u32 k = 0; k < in[0].length; ++k)
    if (passes<kTest>(i64(in[0].slots[k]), i64(v))) out[n++] = in[0].slots[k];
  *made = n;
  return vm::Trap::NONE;
}

// The list builders (kListBuilders below).

// repeat(v, n): v, n times.
bool fits_repeat(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  const i64 n = i64(in[1].word);
  *room = n > 0 ? u32(std::min<i64>(n, vm::kMaxObjectLength)) : 0;
  return n <= 0 || steps_within(u64(n), code_words, fuel);
}
vm::Trap repeat_natively(const LoopOperand* in, u64* out, u32* made) {
  const i64 n = i64(in[1].word);
  *made = n > 0 ? u32(n) : 0;
  std::fill(out, out + *made, in[0].word);
  return vm::Trap::NONE;
}

// range_to(a, b): a, a + 1, …, b, as `for x in a..b + 1` runs (b + 1 wraps: none for the largest b).
u64 range_to_steps(const LoopOperand* in) {
  const i64 a = i64(in[0].word), end = i64(in[1].word + 1);
  return end > a ? u64(end) - u64(a) : 0;
}
bool fits_range_to(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  const u64 steps = range_to_steps(in);
  *room = u32(std::min<u64>(steps, vm::kMaxObjectLength));
  return steps_within(steps, code_words, fuel);
}
vm::Trap range_to_natively(const LoopOperand* in, u64* out, u32* made) {
  *made = u32(range_to_steps(in));
  for (u32 k = 0; k < *made; ++k) out[k] = in[0].word + k;
  return vm::Trap::NONE;
}

// range_by(a, b, s): x = a, then x + s (wrapping), while s > 0 and x <= b — counted, up to what
// the fuel allows, by walking it.
bool fits_range_by(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  const i64 b = i64(in[1].word), s = i64(in[2].word);
  if (fuel / code_words < 2) return false;
  const u64 most = fuel / code_words - 2;
  u64 steps = 0;
  for (u64 x = in[0].word; s > 0 && i64(x) <= b; x += u64(s))
    if (++steps > most) return false;
  *room = u32(steps);
  return true;
}
vm::Trap range_by_natively(const LoopOperand* in, u64* out, u32* made) {
  const i64 b = i64(in[1].word), s = i64(in[2].word);
  u32 n = 0;
  for (u64 x = in[0].word; s > 0 && i64(x) <= b; x += u64(s)) out[n++] = x;
  *made = n;
  return vm::Trap::NONE;
}

// unique(xs): each step's `contains(out, x)` walks what is made so far, charging its elements.
bool fits_unique(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  const u64 n = in[0].length;
  *room = in[0].length;
  const u64 walks = n * (n == 0 ? 0 : n - 1) / 2;  // at most 0 + 1 + … + (n - 1) elements
  return steps_within(n, code_words, fuel) && walks <= fuel - (n + 2) * code_words;
}
vm::Trap unique_natively(const LoopOperand* in, u64* out, u32* made) {
  u32 n = 0;
  for (u32 k = 0; k < in[0].length; ++k) {
    const u64 x = in[0].slots[k];
    if (std::find(out, out + n, x) == out + n) out[n++] = x;
  }
  *made = n;
  return vm::Trap::NONE;
}

// interleave(xs, ys): two pushes a step.
bool fits_interleave(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  const u32 steps = std::min(in[0].length, in[1].length);
  if (u64(steps) * 2 > vm::kMaxObjectLength) return false;
  *room = 2 * steps;
  return steps_within(steps, code_words, fuel);
}
vm::Trap interleave_natively(const LoopOperand* in, u64* out, u32* made) {
  const u32 steps = std::min(in[0].length, in[1].length);
  for (u32 k = 0; k < steps; ++k) {
    out[2 * k] = in[0].slots[k];
    out[2 * k + 1] = in[1].slots[k];
  }
  *made = 2 * steps;
  return vm::Trap::NONE;
}

// count_each(vs, xs): a loop over xs inside each step over vs — (len(xs) + 3) steps' instructions
// at most in each of those, and two more.
bool fits_count_each(const LoopOperand* in, u64 code_words, u64 fuel, u32* room) {
  *room = in[0].length;
  return steps_within(in[0].length, (u64(in[1].length) + 3) * code_words, fuel);
}
vm::Trap count_each_natively(const LoopOperand* in, u64* out, u32* made) {
  for (u32 k = 0; k < in[0].length; ++k)
    out[k] = u64(std::count(in[1].slots, in[1].slots + in[1].length, in[0].slots[k]));
  *made = in[0].length;
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

template <Acc kAcc>
constexpr Accumulation accumulation(const char* name, const char* step) {
  const bool ranges = kAcc == Acc::Add || kAcc == Acc::Mul || kAcc == Acc::Squares;
  return {name,
          step,
          kAcc == Acc::Count ? NativeWordLoop{} : NativeWordLoop{fits_walk, fold_natively<kAcc>},
          {fits_each, scan_natively<kAcc>},
          ranges ? NativeWordLoop{fits_counted, fold_range_natively<kAcc>} : NativeWordLoop{},
          {fits_digits, digits_natively<kAcc>}};
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
          {fits_walk, count_natively<kTest>},
          {fits_walk, first_natively<kTest>},
          {fits_walk, last_natively<kTest>},
          {fits_each, filter_natively<kTest>}};
}

const Predicate kPredicates[] = {predicate<Test::Eq>("eq", "x == v"), predicate<Test::Lt>("lt", "x < v"),
                                 predicate<Test::Gt>("gt", "x > v"),
                                 predicate<Test::Divides>("divides", "x % v == 0"),
                                 predicate<Test::NotDivides>("notdivides", "x % v != 0")};

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
                               {"abs", "abs(x)", map_loop<Op::ABS_INT, Pairs::WithV>()}};
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

std::string count_where(const std::string& name, const std::string& test) {
  return "fn " + name + "(xs: [int], v: int) -> int {\n  let count = 0;\n  for x in xs {\n    if " + test +
         " {\n      count = count + 1;\n    }\n  }\n  return count;\n}\n";
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

std::string filter(const std::string& name, const std::string& test) {
  return "fn " + name + "(xs: [int], v: int) -> [int] {\n  let out: [int] = [];\n  for x in xs {\n    if " +
         test + " {\n      out = push(out, x);\n    }\n  }\n  return out;\n}\n";
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
};

const ListBuilder kListBuilders[] = {
    {"repeat",
     {Type::Int, Type::Int},
     "fn NAME(v: int, n: int) -> [int] {\n  let out: [int] = [];\n  for j in 0..n {\n    out = push(out, "
     "v);\n"
     "  }\n  return out;\n}\n",
     {fits_repeat, repeat_natively}},
    {"range_to",
     {Type::Int, Type::Int},
     "fn NAME(a: int, b: int) -> [int] {\n  let out: [int] = [];\n  for x in a..b + 1 {\n    out = push(out, "
     "x);\n"
     "  }\n  return out;\n}\n",
     {fits_range_to, range_to_natively}},
    {"range_by",
     {Type::Int, Type::Int, Type::Int},
     "fn NAME(a: int, b: int, s: int) -> [int] {\n  let out: [int] = [];\n  let x = a;\n"
     "  while s > 0 && x <= b {\n    out = push(out, x);\n    x = x + s;\n  }\n  return out;\n}\n",
     {fits_range_by, range_by_natively}},
    {"unique",
     {Type::IntArray},
     "fn NAME(xs: [int]) -> [int] {\n  let out: [int] = [];\n  for x in xs {\n    if !contains(out, x) {\n"
     "      out = push(out, x);\n    }\n  }\n  return out;\n}\n",
     {fits_unique, unique_natively}},
    // xs[0], ys[0], xs[1], ys[1], … (flatten(zip(xs, ys))), as far as both go.
    {"interleave",
     {Type::IntArray, Type::IntArray},
     "fn NAME(xs: [int], ys: [int]) -> [int] {\n  let out: [int] = [];\n"
     "  for i in 0..min(len(xs), len(ys)) {\n    out = push(out, xs[i]);\n    out = push(out, ys[i]);\n  }\n"
     "  return out;\n}\n",
     {fits_interleave, interleave_natively}},
    // How often each of vs occurs in xs (over unique(xs): a histogram).
    {"count_each",
     {Type::IntArray, Type::IntArray},
     "fn NAME(vs: [int], xs: [int]) -> [int] {\n  let out: [int] = [];\n  for v in vs {\n    let n = 0;\n"
     "    for x in xs {\n      if x == v {\n        n = n + 1;\n      }\n    }\n    out = push(out, n);\n"
     "  }\n  return out;\n}\n",
     {fits_count_each, count_each_natively}},
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
  bool counted = false;  // its steps are operand 0's (a fold over 1..n): Operation::count_steps_by
  // A production of the grammar, or only a helper an answer is written with: map_str, which a
  // lines goal of numbers writes around its [int] (search/goal_shapes.h) — as a production it put
  // a [str] beside every banked [int], and those filled PSB1's heaps (200 cases) by size 5 — and
  // decimal_digits, the leaves' of the int parameters (a list beside every banked int, else).
  bool production = true;
  // The loop in C++, where it has one (Operation::loop_natively).
  NativeWordLoop native_word{};
  NativeListLoop native_list{};
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
      // n steps that cannot trap: a case whose n needs more than the loop's fuel traps at once.
      p.back().counted = true;
      p.back().native_word = a.fold_range;
    }
    add({I, I, I}, I, "digits_" + op, digits, a.step);
    p.back().native_word = a.digits;
  }
  add({I, I, I}, I, "digits_rebuild", digits, "acc * b + x");
  p.back().native_word = {fits_digits, digits_natively<Acc::Add, true>};
  add({I, I, I}, I, "recur_add", recur, "x + y");
  p.back().counted = true;  // n steps, as a fold over 1..n
  p.back().native_word = {fits_counted, recur_add_natively};
  add({I, I}, I, "euclid", named, kEuclid);
  p.back().native_word = {fits_euclid, euclid_natively};
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
    p.back().native_list = {fits_each, filter_natively<Test::Ne>};
    for (const ListBuilder& b : kListBuilders) {
      add(b.operands, A, b.name, named, b.source);
      p.back().native_list = b.native;
    }
    for (const Function& f : kMaps) {
      add({A, I}, A, std::string("map_") + f.name, map, f.value);
      p.back().native_list = f.native;
    }
    for (const Function& f : kUnaryMaps) {
      add({A}, A, std::string("map_") + f.name, map_unary, f.value);
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
    p.push_back(operation_production(std::move(f.operands), f.result, text, f.helper, kLoopFuel));
    if (f.counted) p.back().operation->count_steps_by(0);
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
