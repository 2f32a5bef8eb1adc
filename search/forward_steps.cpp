#include "search/forward_steps.h"

#include <algorithm>
#include <limits>

#include "search/bank_enumerator.h"
#include "search/bank_grammar.h"
#include "search/bank_loops.h"
#include "vm/arith.h"

namespace gs::search {

namespace {

using Kind = ForwardStep::Kind;
using Test = ForwardStep::Test;

bool holds(Test test, i64 x, i64 v) {
  switch (test) {
    case Test::Gt: return x > v;
    case Test::Lt: return x < v;
    case Test::Divides: return v != 0 && vm::int_mod(x, v) == 0;
    case Test::NotDivides: return v != 0 && vm::int_mod(x, v) != 0;
    case Test::None: break;
  }
  return true;
}

const char* test_name(Test test) {
  switch (test) {
    case Test::Gt: return "gt";
    case Test::Lt: return "lt";
    case Test::Divides: return "divides";
    case Test::NotDivides: return "notdivides";
    case Test::None: break;
  }
  return "";
}

// The scans' initial values: max and min from the first element on (DeepCoder's scanl1).
const std::string kLowest = "-9223372036854775807 - 1", kHighest = "9223372036854775807";

}  // namespace

std::vector<ForwardStep> forward_steps(const suites::Problem& problem) {
  const Type I = Type::Int, A = Type::IntArray;
  const std::vector<Type>& results = problem.signature.results;
  const bool ints = std::find(results.begin(), results.end(), I) != results.end();
  const bool lists = std::find(results.begin(), results.end(), A) != results.end();
  std::vector<ForwardStep> out;
  auto add = [&](Kind kind, Type result, std::string text, const char* loop = nullptr, Test test = Test::None,
                 i64 v = 0, std::optional<u32> parameter = std::nullopt) {
    if ((result == I && !ints) || (result == A && !lists)) return;
    ForwardStep s;
    s.kind = kind;
    s.test = test;
    s.v = v;
    s.parameter = parameter;
    s.result = result;
    s.text = std::move(text);
    if (loop != nullptr) s.helper = bank::loop_helper(loop);
    std::vector<Type> operands = {A};
    if (parameter) operands.push_back(problem.signature.params[*parameter]);
    const std::string a0 = "a0", a1 = "a1";
    s.operation.emplace(operands, result, bank::substitute(s.text, {&a0, &a1}), s.helper,
                        loop != nullptr ? bank::kLoopFuel : 0);
    const auto constant = [&](i64 c) { s.keys.push_back(bank::constant_key(vm::Value::of_int(c))); };
    if (loop != nullptr) {
      s.keys.push_back(bank::loop_key(loop));
      if (test != Test::None || kind == Kind::MapDiv) constant(v);
      if (kind == Kind::ScanMul) constant(1);
    } else if (kind == Kind::First) {
      s.keys.push_back(bank::production_key("$0[$1]", {A, I}, I));
      constant(0);
    } else {
      s.keys.push_back(bank::production_key(s.text, operands, result));
    }
    out.push_back(std::move(s));
  };
  add(Kind::Sum, I, "sum($0)");
  add(Kind::Max, I, "max($0)");
  add(Kind::Min, I, "min($0)");
  add(Kind::Len, I, "len($0)");
  add(Kind::First, I, "$0[0]");
  add(Kind::Last, I, "$0[len($0) - 1]");
  const std::pair<Test, i64> tests[] = {
      {Test::Gt, 0}, {Test::Lt, 0}, {Test::Divides, 2}, {Test::NotDivides, 2}};
  for (const auto& [test, v] : tests) {
    const std::string name = test_name(test), arguments = "($0, " + std::to_string(v) + ")";
    const std::string count = "count_where_" + name, filter = "filter_" + name;
    add(Kind::CountWhere, I, count + arguments, count.c_str(), test, v);
    add(Kind::Filter, A, filter + arguments, filter.c_str(), test, v);
  }
  add(Kind::MapSquare, A, "map_square($0)", "map_square");
  for (i64 k : {2, 3, 4})
    add(Kind::MapDiv, A, "map_div($0, " + std::to_string(k) + ")", "map_div", Test::None, k);
  add(Kind::ScanMax, A, "scan_max($0, " + kLowest + ")", "scan_max");
  add(Kind::ScanMin, A, "scan_min($0, " + kHighest + ")", "scan_min");
  add(Kind::ScanMul, A, "scan_mul($0, 1)", "scan_mul");
  for (u32 i = 0; i < problem.signature.params.size(); ++i) {
    if (problem.signature.params[i] == I) {
      add(Kind::At, I, "$0[$1]", nullptr, Test::None, 0, i);
      add(Kind::Take, A, "slice($0, 0, $1)", nullptr, Test::None, 0, i);
      add(Kind::Drop, A, "slice($0, $1, len($0))", nullptr, Test::None, 0, i);
    } else if (problem.signature.params[i] == A) {
      add(Kind::ZipMax, A, "zip_max($0, $1)", "zip_max", Test::None, 0, i);
      add(Kind::ZipMin, A, "zip_min($0, $1)", "zip_min", Test::None, 0, i);
    }
  }
  return out;
}

void sketch(const ForwardStep& step, std::span<const u64> xs, i64 n, std::span<const u64> ys, Sketch* out) {
  Sketch& s = *out;
  s.traps = false;
  s.value = 0;
  s.items.clear();
  auto element = [&](size_t i) { return i64(xs[i]); };
  auto list = [&](auto f) {
    for (size_t i = 0; i < xs.size(); ++i) f(element(i));
  };
  const size_t length = xs.size();
  switch (step.kind) {
    case Kind::Sum:
      for (size_t i = 0; i < length; ++i) s.value = vm::wrap_add(s.value, element(i));
      break;
    case Kind::Max:
    case Kind::Min:
      if (length == 0) {
        s.traps = true;
        break;
      }
      s.value = element(0);
      for (size_t i = 1; i < length; ++i)  // the two-argument form's fold: max keeps the first of equals
        s.value = step.kind == Kind::Max ? std::max(s.value, element(i)) : std::min(s.value, element(i));
      break;
    case Kind::Len: s.value = i64(length); break;
    case Kind::First:
    case Kind::Last:
      if (length == 0)
        s.traps = true;
      else
        s.value = element(step.kind == Kind::First ? 0 : length - 1);
      break;
    case Kind::At:
      if (n < 0 || u64(n) >= length)
        s.traps = true;
      else
        s.value = element(size_t(n));
      break;
    case Kind::CountWhere:
      for (size_t i = 0; i < length; ++i) s.value += holds(step.test, element(i), step.v) ? 1 : 0;
      break;
    case Kind::Filter:
      list([&](i64 x) {
        if (holds(step.test, x, step.v)) s.items.push_back(x);
      });
      break;
    case Kind::MapSquare: list([&](i64 x) { s.items.push_back(vm::wrap_mul(x, x)); }); break;
    case Kind::MapDiv: list([&](i64 x) { s.items.push_back(vm::int_div(x, step.v)); }); break;
    case Kind::ScanMax:
    case Kind::ScanMin:
    case Kind::ScanMul: {
      i64 acc = step.kind == Kind::ScanMax   ? std::numeric_limits<i64>::min()
                : step.kind == Kind::ScanMin ? std::numeric_limits<i64>::max()
                                             : 1;
      list([&](i64 x) {
        acc = step.kind == Kind::ScanMax   ? std::max(acc, x)
              : step.kind == Kind::ScanMin ? std::min(acc, x)
                                           : vm::wrap_mul(acc, x);
        s.items.push_back(acc);
      });
      break;
    }
    case Kind::ZipMax:
    case Kind::ZipMin:
      for (size_t i = 0; i < std::min(length, ys.size()); ++i)
        s.items.push_back(step.kind == Kind::ZipMax ? std::max(element(i), i64(ys[i]))
                                                    : std::min(element(i), i64(ys[i])));
      break;
    case Kind::Take:
    case Kind::Drop: {  // slice's clamping: a to 0..len, b to a..len
      const i64 cut = std::clamp<i64>(n, 0, i64(length));
      const size_t a = step.kind == Kind::Take ? 0 : size_t(cut),
                   b = step.kind == Kind::Take ? size_t(cut) : length;
      for (size_t i = a; i < b; ++i) s.items.push_back(element(i));
      break;
    }
  }
}

std::optional<size_t> sketch_length(const ForwardStep& step, size_t length, i64 n, size_t ys_length) {
  switch (step.kind) {
    case Kind::MapSquare:
    case Kind::MapDiv:
    case Kind::ScanMax:
    case Kind::ScanMin:
    case Kind::ScanMul: return length;
    case Kind::ZipMax:
    case Kind::ZipMin: return std::min(length, ys_length);
    case Kind::Take:
    case Kind::Drop: {
      const size_t cut = size_t(std::clamp<i64>(n, 0, i64(length)));
      return step.kind == Kind::Take ? cut : length - cut;
    }
    default: return std::nullopt;
  }
}

std::string around(const ForwardStep& step, const std::string& e, const std::string& parameter_name) {
  return bank::substitute(step.text, {&e, &parameter_name});
}

}  // namespace gs::search
