// The value bank's loops (search/bank_loops.h): each helper computes what bank_loops.h says it
// does, against a C++ reference on random inputs (traps included), and the enumeration reaches
// the answers that need a loop with state — prefix sums, digit sums, Fibonacci's numbers, the last
// index of a zero —
// whose programs, written out with their helpers, compile and pass cases they never saw.
#include "search/bank_loops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <utility>

#include "pipeline/case_set.h"
#include "search/bank_grammar.h"
#include "tests/unit/compiled_program.h"
#include "tests/unit/int_list.h"
#include "vm/runner.h"

namespace gs::search::bank {
namespace {

using vm::Value;
const Type I = Type::Int, A = Type::IntArray;

Value list(const std::vector<i64>& xs) { return testing::int_list(xs); }

std::vector<i64> ints(const Value& v) {
  std::vector<i64> out;
  for (const Value& x : v.items) out.push_back(x.i);
  return out;
}

// Wrapping int arithmetic, as Syn's.
i64 wrap_add(i64 a, i64 b) { return i64(u64(a) + u64(b)); }
i64 wrap_mul(i64 a, i64 b) { return i64(u64(a) * u64(b)); }

// One accumulation step (bank_loops.h's OP), b the digit loop's base.
i64 step(const std::string& op, i64 acc, i64 x, i64 b) {
  if (op == "add") return wrap_add(acc, x);
  if (op == "mul") return wrap_mul(acc, x);
  if (op == "max") return std::max(acc, x);
  if (op == "min") return std::min(acc, x);
  if (op == "squares") return wrap_add(acc, wrap_mul(x, x));
  if (op == "count") return wrap_add(acc, 1);
  if (op == "rebuild") return wrap_add(wrap_mul(acc, b), x);
  ADD_FAILURE() << "no reference for " << op;
  return 0;
}

// P(x, v), or nullopt where it traps (x % 0).
std::optional<bool> test(const std::string& p, i64 x, i64 v) {
  if (p == "eq") return x == v;
  if (p == "lt") return x < v;
  if (p == "gt") return x > v;
  if (v == 0) return std::nullopt;
  return (x % v == 0) == (p == "divides");  // v in a small range here: no INT64_MIN % -1
}

bool starts(const std::string& s, const std::string& prefix, std::string* rest) {
  if (s.rfind(prefix, 0) != 0) return false;
  *rest = s.substr(prefix.size());
  return true;
}

// The loop `name` on args, or nullopt where it traps.
std::optional<Value> reference(const std::string& name, const std::vector<Value>& args) {
  std::string op;
  if (starts(name, "fold_range_", &op)) {
    i64 acc = args[1].i;
    for (i64 x = 1; x <= args[0].i; ++x) acc = step(op, acc, x, 0);
    return Value::of_int(acc);
  }
  if (starts(name, "fold_", &op) || starts(name, "scan_", &op)) {
    i64 acc = args[1].i;
    std::vector<i64> out;
    for (i64 x : ints(args[0])) out.push_back(acc = step(op, acc, x, 0));
    return name[0] == 'f' ? Value::of_int(acc) : list(out);
  }
  if (starts(name, "digits_", &op)) {
    i64 n = args[0].i, b = args[1].i, acc = args[2].i;
    for (; n > 0 && b > 1; n /= b) acc = step(op, acc, n % b, b);
    return Value::of_int(acc);
  }
  if (name == "recur_add") {
    i64 x = args[1].i, y = args[2].i;
    for (i64 k = 0; k < args[0].i; ++k) x = std::exchange(y, wrap_add(x, y));
    return Value::of_int(x);
  }
  if (name == "euclid") {  // C's %: with negative operands the signs follow a's
    i64 a = args[0].i, b = args[1].i;
    while (b != 0) a = std::exchange(b, a % b);  // small operands here: no INT64_MIN % -1
    return Value::of_int(a);
  }
  if (name == "decimal_digits") {  // C's % and /: a negative n's digits are negative
    i64 n = args[0].i;
    std::vector<i64> out = {n % 10};
    for (n /= 10; n != 0; n /= 10) out.push_back(n % 10);
    return list(out);
  }
  if (name == "repeat") return list(std::vector<i64>(size_t(std::max<i64>(args[1].i, 0)), args[0].i));
  if (name == "range_to" || name == "range_by") {
    const i64 step = name == "range_to" ? 1 : args[2].i;
    std::vector<i64> out;
    for (i64 x = args[0].i; step > 0 && x <= args[1].i; x += step) out.push_back(x);
    return list(out);
  }
  if (name == "squares_below") {
    std::vector<i64> out;
    for (i64 x = args[0].i; args[1].i > 0 && wrap_mul(x, x) < args[2].i; x += args[1].i)
      out.push_back(wrap_mul(x, x));
    return list(out);
  }
  const std::vector<i64> xs = args[0].type == A ? ints(args[0]) : std::vector<i64>{};
  const i64 v = args.size() > 1 ? args[1].i : 0;
  if (name == "unique" || name == "remove_all") {
    std::vector<i64> out;
    for (i64 x : xs)
      if (name == "unique" ? std::find(out.begin(), out.end(), x) == out.end() : x != v) out.push_back(x);
    return list(out);
  }
  if (starts(name, "scanl1_", &op)) {  // DeepCoder's: the first element, then each folded in
    std::vector<i64> out;
    for (i64 x : xs)
      out.push_back(out.empty()   ? x
                    : op == "add" ? i64(u64(out.back()) + u64(x))
                    : op == "sub" ? i64(u64(out.back()) - u64(x))
                    : op == "max" ? std::max(out.back(), x)
                                  : std::min(out.back(), x));
    return list(out);
  }
  // DeepCoder's unary predicates: the test against their constant.
  static const std::map<std::string, std::pair<std::string, i64>> kUnary = {
      {"positive", {"gt", 0}}, {"negative", {"lt", 0}}, {"even", {"divides", 2}}, {"odd", {"notdivides", 2}}};
  for (const auto& [unary, test_against] : kUnary)
    for (const char* family : {"count_where_", "filter_"})
      if (name == family + unary) {
        std::vector<Value> with = {args[0], Value::of_int(test_against.second)};
        return reference(family + test_against.first, with);
      }
  if (starts(name, "count_where_", &op)) {
    i64 count = 0;
    for (i64 x : xs) {
      const std::optional<bool> t = test(op, x, v);
      if (!t) return std::nullopt;
      count += *t;
    }
    return Value::of_int(count);
  }
  const bool first = starts(name, "first_where_", &op);
  if (first || starts(name, "last_where_", &op)) {
    for (size_t j = 0; j < xs.size(); ++j) {
      const size_t i = first ? j : xs.size() - 1 - j;
      const std::optional<bool> t = test(op, xs[i], v);
      if (!t) return std::nullopt;
      if (*t) return Value::of_int(i64(i));
    }
    return Value::of_int(-1);
  }
  if (starts(name, "filter_", &op)) {
    std::vector<i64> out;
    for (i64 x : xs) {
      const std::optional<bool> t = test(op, x, v);
      if (!t) return std::nullopt;
      if (*t) out.push_back(x);
    }
    return list(out);
  }
  if (starts(name, "zip_", &op)) {
    const std::vector<i64> ys = ints(args[1]);
    std::vector<i64> out;
    for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i)
      out.push_back(op == "sub" ? i64(u64(xs[i]) - u64(ys[i])) : step(op, xs[i], ys[i], 0));
    return list(out);
  }
  if (name == "interleave") {
    const std::vector<i64> ys = ints(args[1]);
    std::vector<i64> out;
    for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) out.insert(out.end(), {xs[i], ys[i]});
    return list(out);
  }
  if (name == "count_each") {
    const std::vector<i64> ys = ints(args[1]);
    std::vector<i64> out;
    for (i64 x : xs) out.push_back(i64(std::count(ys.begin(), ys.end(), x)));
    return list(out);
  }
  if (name == "difference") {  // remove the first copy of each y: Haskell's xs \\ ys
    std::vector<i64> out = xs;
    for (i64 y : ints(args[1]))
      if (auto at = std::find(out.begin(), out.end(), y); at != out.end()) out.erase(at);
    return list(out);
  }
  if (starts(name, "map_", &op)) {
    std::vector<i64> out;
    for (i64 x : xs) {
      if ((op == "div" || op == "mod") && v == 0) return std::nullopt;
      out.push_back(op == "add"         ? wrap_add(x, v)
                    : op == "sub"       ? i64(u64(x) - u64(v))
                    : op == "mul"       ? wrap_mul(x, v)
                    : op == "div"       ? x / v  // small v: no INT64_MIN / -1
                    : op == "mod"       ? x % v
                    : op == "max"       ? std::max(x, v)
                    : op == "min"       ? std::min(x, v)
                    : op == "square"    ? wrap_mul(x, x)
                    : op == "negate"    ? -x
                    : op == "inc"       ? wrap_add(x, 1)
                    : op == "dec"       ? i64(u64(x) - 1)
                    : op == "double"    ? wrap_mul(x, 2)
                    : op == "half"      ? x / 2
                    : op == "triple"    ? wrap_mul(x, 3)
                    : op == "third"     ? x / 3
                    : op == "quadruple" ? wrap_mul(x, 4)
                    : op == "quarter"   ? x / 4
                                        : std::abs(x));
    }
    return list(out);
  }
  ADD_FAILURE() << "no reference for " << name;
  return std::nullopt;
}

// A random operand; ints up to `largest` at most (a loop over 1..n, or building a list of n,
// finishes within kLoopFuel).
Value random_value(Type t, i64 largest, std::mt19937_64& rng) {
  auto small = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  if (t == A) {
    std::vector<i64> xs(size_t(small(0, 7)));
    for (i64& x : xs) x = small(0, 4) == 0 ? 0 : small(-20, 20);
    return list(xs);
  }
  switch (small(0, 3)) {
    case 0: return Value::of_int(small(-3, 3));  // bases 0, 1 and negative ones; v == 0
    case 1: return Value::of_int(small(-30, 30));
    case 2: return Value::of_int(small(0, largest));
    default: return Value::of_int(small(2, 16));
  }
}

TEST(BankLoops, EachComputesWhatItsDocumentSays) {
  std::mt19937_64 rng(21);
  const std::vector<Production> loops = loop_productions({I, Type::Bool, A, Type::StrArray});
  ASSERT_GE(loops.size(), 50u);
  // map_str is only a helper (a lines goal's, search/goal_shapes.h), not a production.
  ASSERT_TRUE(
      std::none_of(loops.begin(), loops.end(), [](const Production& p) { return p.text == "map_str($0)"; }));
  EXPECT_NE(loop_helper("map_str").find("fn map_str(xs: [int]) -> [str]"), std::string::npos);
  for (const Production& p : loops) {
    const std::string name = p.text.substr(0, p.text.find('('));
    std::vector<std::vector<Value>> inputs(100);
    for (std::vector<Value>& in : inputs)
      for (Type t : p.operands) {
        const bool builds = name == "repeat" || name.rfind("range_", 0) == 0;
        const bool counted = name.rfind("fold_range_", 0) == 0 || name == "recur_add";  // n steps
        in.push_back(random_value(t, counted ? 300 : builds ? 12 : 100000, rng));
      }
    Cases cases(p.operands, inputs, vm::Limits{});
    std::vector<const Behaviour*> operands;
    for (u32 i = 0; i < p.operands.size(); ++i) operands.push_back(&cases.parameter(i));
    const Behaviour out = p.operation->apply(operands, cases);
    for (u32 k = 0; k < cases.count(); ++k) {
      const std::optional<Value> want = reference(name, inputs[k]);
      std::string args;
      for (const Value& v : inputs[k]) args += " " + vm::to_json(v);
      if (!want) {
        EXPECT_EQ(out.traps[k], u8(vm::Trap::DIVISION_BY_ZERO)) << name << args;
        continue;
      }
      ASSERT_EQ(out.traps[k], u8(vm::Trap::NONE)) << name << args << "\n" << p.helper;
      EXPECT_TRUE(vm::identical(cases.value(out, k), *want))
          << name << args << ": " << vm::to_json(cases.value(out, k)) << ", want " << vm::to_json(*want);
    }
  }
}

// The loops computed in C++ (Operation::loop_natively: the folds, scans, maps, zips and filters,
// remove_all, count_where, first_where and last_where, the folds over 1..n, recur_add, the digit
// loops, euclid and the list builders) against the interpreter, their reference (Cases that are
// interpreter_only): every loop production on the same cases gives the same word or list and trap, and leaves
// the same heap — as many bytes used, the same headers (lengths, capacities, shared bits) — over the extreme
// ints, MIN % -1, v == 0 under a division over an empty list and a longer one, n beyond what the fuel
// reaches, lists long enough that the loop runs out of fuel, and heaps that fill up: under the bank's fuel,
// under a limit of 300 (where most loops run out, as the interpreter's do) and in a heap of 16 KiB.
TEST(BankLoops, TheLoopsInCppAgreeWithTheInterpreter) {
  std::mt19937_64 rng(23);
  auto small = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  const i64 kMin = std::numeric_limits<i64>::min(), kMax = std::numeric_limits<i64>::max();
  auto element = [&]() -> i64 {
    switch (small(0, 5)) {
      case 0: return kMin;
      case 1: return kMax;
      case 2: return small(-2, 2);
      default: return small(-40, 40);
    }
  };
  auto ints = [&]() {
    // Mostly short; some as long as the fuel of 300 buys, some as long as the bank's fuel buys.
    const i64 pick = small(0, 5);
    const i64 length = pick == 0 ? small(100, 700) : pick == 1 ? small(9, 60) : small(0, 8);
    std::vector<i64> xs(static_cast<size_t>(length));
    for (i64& x : xs) x = element();
    return list(xs);
  };
  // Each case: xs, ys, v, n (a count of steps), b (a base).
  std::vector<std::vector<Value>> inputs;
  for (int k = 0; k < 400; ++k) {
    const i64 n = small(0, 5) == 0 ? element() : small(-3, 700);
    inputs.push_back({ints(), ints(), Value::of_int(small(0, 3) == 0 ? small(-1, 1) : element()),
                      Value::of_int(n), Value::of_int(small(-1, 12))});
  }
  const std::vector<Type> params = {A, A, I, I, I};
  auto header = [](Cases& cases, u32 k, u64 ref) { return *cases.machine(k).heap.header(u32(ref)); };
  u32 compared = 0;
  for (const int limit : {0, 1, 2}) {
    vm::Limits limits;
    if (limit == 1) limits.fuel = 300;
    if (limit == 2) limits.heap_bytes = 1 << 14;
    Cases fast(params, inputs, limits);
    Cases reference(params, inputs, limits, {.threads = 1, .interpreter_only = true});
    std::map<u8, u32> traps;
    for (const Production& p : loop_productions({I, Type::Bool, A})) {
      // The operands: the lists in order, then v; or (an int loop) n, v and b.
      const u32 int_loop_params[] = {3, 2, 4};
      std::vector<u32> which;
      u32 lists = 0, words = 0;
      for (Type t : p.operands)
        which.push_back(t == A ? lists++ : p.operands[0] == I ? int_loop_params[words++] : 2);
      std::vector<const Behaviour*> fast_operands, reference_operands;
      for (u32 i : which) {
        fast_operands.push_back(&fast.parameter(i));
        reference_operands.push_back(&reference.parameter(i));
      }
      for (Cases* cases : {&fast, &reference})  // the lists unshared, as each application finds them first
        for (u32 k = 0; k < cases->count(); ++k)
          for (u32 i : {0u, 1u})
            cases->machine(k).heap.header(u32(cases->parameter(i).words[k]))->capacity &= ~vm::kSharedBit;
      const u64 native_before = p.operation->native_cases();
      const Behaviour got = p.operation->apply(fast_operands, fast);
      const u64 native = p.operation->native_cases() - native_before;
      const Behaviour want = p.operation->apply(reference_operands, reference);
      // The comparison below means something only where the C++ path ran: on most cases under
      // the bank's own limits, and never for the reference.
      EXPECT_EQ(p.operation->native_cases(), native_before + native) << p.text << ": the reference's";
      // Every loop of the bank's has its C++ (search/bank_loops.cpp).
      EXPECT_TRUE(p.operation->loops_natively()) << p.text << " has no C++";
      if (limit == 0) {
        EXPECT_GT(native, fast.count() / 2) << p.text << " ran in C++ on " << native << " cases";
      }
      for (u32 k = 0; k < fast.count(); ++k) {
        std::string args;
        for (u32 i : which) args += " " + vm::to_json(inputs[k][i]);
        const std::string where = p.text + " on" + args + " (limits " + std::to_string(limit) + ")";
        ++traps[want.traps[k]];
        ASSERT_EQ(got.traps[k], want.traps[k]) << where;
        ASSERT_EQ(fast.machine(k).heap.used, reference.machine(k).heap.used) << where;
        for (u32 i = 0; i < which.size(); ++i) {
          if (p.operands[i] != A) continue;
          ASSERT_EQ(header(fast, k, fast_operands[i]->words[k]).capacity,
                    header(reference, k, reference_operands[i]->words[k]).capacity)
              << where << ": operand " << i << "'s shared bit";
        }
        if (p.result != A || want.traps[k] != u8(vm::Trap::NONE)) {  // a trapped case's word is 0
          ASSERT_EQ(got.words[k], want.words[k]) << where;
          continue;
        }
        ASSERT_TRUE(vm::identical(fast.value(got, k), reference.value(want, k)))
            << where << ": " << vm::to_json(fast.value(got, k)) << ", want "
            << vm::to_json(reference.value(want, k));
        ASSERT_EQ(header(fast, k, got.words[k]).capacity, header(reference, k, want.words[k]).capacity)
            << where;
      }
      ++compared;
    }
    // The inputs reach the traps the fast paths must agree on.
    EXPECT_GT(traps[u8(vm::Trap::DIVISION_BY_ZERO)], 0u) << "limits " << limit;
    EXPECT_GT(traps[u8(vm::Trap::OUT_OF_FUEL)], 0u) << "limits " << limit;
    EXPECT_GT(traps[u8(vm::Trap::NONE)], 10000u) << "limits " << limit;
    if (limit == 2) {
      EXPECT_GT(traps[u8(vm::Trap::HEAP_EXHAUSTED)], 100u);
    }
  }
  EXPECT_EQ(compared, 3 * loop_productions({I, Type::Bool, A}).size());
}

// decimal_digits, a helper of the int parameters' leaves rather than a production, on random ints
// and the extremes.
TEST(BankLoops, TheDecimalDigitsHelperGivesWhatItsDocumentSays) {
  std::mt19937_64 rng(22);
  std::vector<std::vector<Value>> inputs;
  for (int k = 0; k < 300; ++k) inputs.push_back({random_value(I, 100000, rng)});
  for (i64 n : {i64(0), i64(-120), std::numeric_limits<i64>::min(), std::numeric_limits<i64>::max()})
    inputs.push_back({Value::of_int(n)});
  const std::vector<Type> params = {I};
  Cases cases(params, inputs, vm::Limits{});
  const Operation digits(params, A, "decimal_digits(a0)", loop_helper("decimal_digits"), kLoopFuel);
  const Behaviour* n = &cases.parameter(0);
  const Behaviour out = digits.apply({&n, 1}, cases);
  for (u32 k = 0; k < cases.count(); ++k) {
    ASSERT_EQ(out.traps[k], u8(vm::Trap::NONE)) << inputs[k][0].i;
    EXPECT_TRUE(vm::identical(cases.value(out, k), *reference("decimal_digits", inputs[k])))
        << inputs[k][0].i << ": " << vm::to_json(cases.value(out, k));
  }
  EXPECT_EQ(vm::to_json(cases.value(out, u32(inputs.size()) - 3)), "[0, -2, -1]");
}

// Searches for an answer of type `result` over one parameter with the loops, a few operators
// and constants, then compiles its program and runs it on the train and the unseen cases.
void expect_answer(const std::string& parameter, Type param, Type result, const std::vector<Value>& inputs,
                   const std::function<Value(const Value&)>& f, size_t train, const std::string& want) {
  std::vector<std::vector<Value>> train_inputs;
  std::vector<Value> outputs;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (k < train) train_inputs.push_back({inputs[k]});
    outputs.push_back(f(inputs[k]));
  }
  const std::vector<Type> params = {param};
  Cases cases(params, train_inputs, vm::Limits{});
  std::vector<Leaf> leaves = {{parameter, cases.parameter(0)}};
  for (i64 c : {0, 1, 10}) leaves.push_back({std::to_string(c), constant(Value::of_int(c), cases)});
  std::vector<Production> productions = {operation_production({I}, I, "abs($0)"),
                                         operation_production({I, I}, I, "$0 + $1")};
  for (Production& p : loop_productions({I, Type::Bool, param, result})) productions.push_back(std::move(p));
  std::erase_if(productions, list_language_form);  // as the grammar has them by default (scanl1_add is one)
  BankEnumerator e(cases, std::move(leaves), std::move(productions), parameter + ": " + type_name(param));
  std::vector<u64> goal;
  for (size_t k = 0; k < train; ++k) goal.push_back(pipeline::output_hash({&outputs[k], 1}));
  EnumerationStats stats;
  const std::optional<u32> answer = e.search(result, goal, 6, 10'000'000, &stats);
  ASSERT_TRUE(answer) << "nothing after " << stats.evaluated << " expressions";
  EXPECT_EQ(e.text(*answer), want);
  const std::string source = e.program(*answer, "solve");
  const std::optional<vm::Program> program = testing::compiled(source, "answer");
  ASSERT_TRUE(program);
  vm::Runner runner;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::vector<Value> args = {inputs[k]};
    const vm::Outcome o = runner.run(*program, 0, args);
    ASSERT_EQ(o.trap, vm::Trap::NONE) << source;
    EXPECT_TRUE(vm::identical(o.results[0], outputs[k])) << "case " << k << "\n" << source;
  }
  std::printf("%s after %llu expressions\n%s", e.text(*answer).c_str(), (unsigned long long)stats.evaluated,
              source.c_str());
}

TEST(BankLoops, PrefixSums) {
  const std::vector<Value> inputs = {list({1, 2, 3}), list({}),           list({5, -5, 4}),
                                     list({7}),       list({0, 0, 9, 1}), list({-2, 8, 8, 8, 3})};
  expect_answer(
      "xs", A, A, inputs,
      [](const Value& xs) {
        std::vector<i64> out;
        i64 s = 0;
        for (i64 x : ints(xs)) out.push_back(s += x);
        return list(out);
      },
      4, "scan_add(xs, 0)");
}

TEST(BankLoops, DigitSumOfAnyInt) {
  const std::vector<Value> inputs = {Value::of_int(1234),  Value::of_int(-56),   Value::of_int(0),
                                     Value::of_int(9),     Value::of_int(-1001), Value::of_int(777777),
                                     Value::of_int(-98765)};
  expect_answer(
      "n", I, I, inputs,
      [](const Value& n) {
        i64 s = 0;
        for (i64 m = n.i < 0 ? -n.i : n.i; m > 0; m /= 10) s += m % 10;
        return Value::of_int(s);
      },
      5, "digits_add(abs(n), 10, 0)");
}

// Two ints carried through a loop: the n-th Fibonacci number is recur_add(n, 0, 1).
TEST(BankLoops, FibonacciNumbers) {
  std::vector<Value> inputs;
  for (i64 n : {0, 1, 5, 9, 2, 12, 3, 20, 30}) inputs.push_back(Value::of_int(n));
  expect_answer(
      "n", I, I, inputs,
      [](const Value& n) {
        i64 a = 0, b = 1;
        for (i64 k = 0; k < n.i; ++k) a = std::exchange(b, a + b);
        return Value::of_int(a);
      },
      6, "recur_add(n, 0, 1)");
}

// A loop that stops on its value: the squares below n, up to n = 9,999, where the squares of
// range_to(1, n) would be a list of n.
TEST(BankLoops, SquaresBelowN) {
  std::vector<Value> inputs;
  for (i64 n : {0, 1, 2, 10, 17, 100, 9999, 50, 4000, 26}) inputs.push_back(Value::of_int(n));
  expect_answer(
      "n", I, A, inputs,
      [](const Value& n) {
        std::vector<i64> out;
        for (i64 x = 1; x * x < n.i; ++x) out.push_back(x * x);
        return list(out);
      },
      7, "squares_below(1, 1, n)");
}

TEST(BankLoops, LastIndexOfZero) {
  const std::vector<Value> inputs = {list({0, 1, 0, 2}),    list({0}),
                                     list({3, 0, 0}),       list({5, 0, 7, 8}),
                                     list({0, 0, 0, 1, 1}), list({1, 2, 0})};
  expect_answer(
      "xs", A, I, inputs,
      [](const Value& xs) {
        const std::vector<i64> v = ints(xs);
        i64 last = -1;
        for (size_t i = 0; i < v.size(); ++i)
          if (v[i] == 0) last = i64(i);
        return Value::of_int(last);
      },
      4, "last_where_eq(xs, 0)");
}

}  // namespace
}  // namespace gs::search::bank
