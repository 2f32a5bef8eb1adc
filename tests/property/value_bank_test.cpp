// The value bank's evaluator (search/value_bank.h) against whole programs: random expressions
// over int, bool, [int], str and float — operators, builtins that trap on some inputs (a / b,
// xs[i], max(xs), pop(xs), parse_int(s), chr(n)), and lazy choose, && and || — are evaluated
// compositionally, each node by its Operation over its children's behaviours, and also written out
// as one Syn program (each choose as a helper function whose branches hold its arms), compiled and
// run by the VM on every case.
// Outputs and traps must be identical on every case, and so must the outputs' hashes (the
// pipeline's, which observational equivalence compares).
//
//   GPUSYNTH_BANK_EXPRESSIONS   expressions (default 100000; 10x GPUSYNTH_PROPERTY_PROGRAMS
//                               when that is set, as the sanitizer preset does)
//   GPUSYNTH_PROPERTY_SEED      seed
#include "search/value_bank.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/rng.h"
#include "compiler/compiler.h"
#include "pipeline/case_set.h"
#include "vm/runner.h"

namespace gs {
namespace {

using search::bank::Behaviour;
using search::bank::Cases;
using search::bank::Operation;
using search::bank::output_hashes;

u64 env_u64(const char* name, u64 fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

// A production: its operand types, result, and its text with $0, $1, ... for the operands.
struct Production {
  std::vector<Type> args;
  Type result;
  std::string text;
};

const Type I = Type::Int, B = Type::Bool, A = Type::IntArray, S = Type::Str, F = Type::Float;

const std::vector<Production>& productions() {
  static const std::vector<Production> all = {
      {{I, I}, I, "$0 + $1"},
      {{I, I}, I, "$0 - $1"},
      {{I, I}, I, "$0 * $1"},
      {{I, I}, I, "$0 / $1"},
      {{I, I}, I, "$0 % $1"},
      {{I}, I, "-$0"},
      {{I}, I, "abs($0)"},
      {{I, I}, I, "min($0, $1)"},
      {{I, I}, I, "max($0, $1)"},
      {{I, I}, I, "$0 & $1"},
      {{I, I}, I, "$0 >> $1"},
      {{A}, I, "len($0)"},
      {{A}, I, "sum($0)"},
      {{A}, I, "max($0)"},
      {{A}, I, "min($0)"},
      {{A, I}, I, "$0[$1]"},
      {{A, I}, I, "index_of($0, $1)"},
      {{I, I}, B, "$0 < $1"},
      {{I, I}, B, "$0 == $1"},
      {{I, I}, B, "$0 <= $1"},
      {{B}, B, "!$0"},
      {{A, I}, B, "contains($0, $1)"},
      {{A, A}, B, "$0 == $1"},
      {{B, B}, B, "$0 != $1"},
      {{A}, A, "sort($0)"},
      {{A}, A, "reverse($0)"},
      {{A, I}, A, "push($0, $1)"},
      {{A}, A, "pop($0)"},
      {{A, A}, A, "$0 + $1"},
      {{A, I, I}, A, "slice($0, $1, $2)"},
      {{S, S}, S, "$0 + $1"},
      {{S}, I, "len($0)"},
      {{S, I}, I, "$0[$1]"},
      {{S, I, I}, S, "slice($0, $1, $2)"},
      {{S, S}, B, "contains($0, $1)"},
      {{S, S}, I, "index_of($0, $1)"},
      {{I}, S, "str($0)"},
      {{S}, I, "parse_int($0)"},
      {{I}, S, "chr($0)"},
      {{S}, S, "reverse($0)"},
      {{S, S}, B, "$0 < $1"},
      {{S, S}, B, "$0 == $1"},
      {{F, F}, F, "$0 + $1"},
      {{F, F}, F, "$0 / $1"},
      {{F, F}, F, "$0 % $1"},
      {{F}, F, "sqrt($0)"},
      {{F}, F, "floor($0)"},
      {{F}, I, "int($0)"},
      {{I}, F, "float($0)"},
      {{F, F}, B, "$0 < $1"},
      {{F}, S, "str($0)"},
  };
  return all;
}

std::string substitute(const std::string& text, const std::vector<std::string>& operands) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$') {
      out += operands[size_t(text[++i] - '0')];
      continue;
    }
    out += text[i];
  }
  return out;
}

// The parameters every expression sees.
const std::vector<std::pair<std::string, Type>> kParams = {{"n", I}, {"m", I}, {"xs", A}, {"ys", A},
                                                           {"s", S}, {"t", S}, {"x", F}};

struct Expression {
  enum Kind { Param, Constant, Apply, Choose, And, Or } kind = Param;
  Type type = I;
  u32 index = 0;  // Param: its index; Apply: the production; Constant: its value's index
  std::vector<std::unique_ptr<Expression>> children;
};

const std::vector<vm::Value>& constants(Type t) {
  static const std::vector<vm::Value> ints = {vm::Value::of_int(0), vm::Value::of_int(1),
                                              vm::Value::of_int(2), vm::Value::of_int(-1)};
  static const std::vector<vm::Value> bools = {vm::Value::of_bool(true), vm::Value::of_bool(false)};
  static const std::vector<vm::Value> none;
  return t == I ? ints : t == B ? bools : none;
}

class Harness {
 public:
  explicit Harness(u64 seed) : rng_(seed) {
    for (const Production& p : productions())
      operations_.push_back(
          std::make_unique<Operation>(p.args, p.result, substitute(p.text, {"a0", "a1", "a2"})));
  }

  // The applications evaluate() has made, each on one case alone first.
  u64 applications() const { return applications_; }

  std::unique_ptr<Expression> random(Type t, u32 depth) {
    auto e = std::make_unique<Expression>();
    e->type = t;
    const u32 roll = u32(rng_.below(100));
    if (depth == 0 || roll < 20) {
      std::vector<u32> params;
      for (u32 i = 0; i < kParams.size(); ++i)
        if (kParams[i].second == t) params.push_back(i);
      if (!constants(t).empty() && (params.empty() || rng_.below(3) == 0)) {
        e->kind = Expression::Constant;
        e->index = u32(rng_.below(u32(constants(t).size())));
      } else {
        e->kind = Expression::Param;
        e->index = params[rng_.below(u32(params.size()))];
      }
      return e;
    }
    if (roll < 30) {
      e->kind = Expression::Choose;
      e->children.push_back(random(B, depth - 1));
      e->children.push_back(random(t, depth - 1));
      e->children.push_back(random(t, depth - 1));
      return e;
    }
    if (t == B && roll < 40) {
      e->kind = rng_.below(2) ? Expression::And : Expression::Or;
      e->children.push_back(random(B, depth - 1));
      e->children.push_back(random(B, depth - 1));
      return e;
    }
    std::vector<u32> fit;
    for (u32 i = 0; i < productions().size(); ++i)
      if (productions()[i].result == t) fit.push_back(i);
    e->kind = Expression::Apply;
    e->index = fit[rng_.below(u32(fit.size()))];
    for (Type a : productions()[e->index].args) e->children.push_back(random(a, depth - 1));
    return e;
  }

  Behaviour evaluate(const Expression& e, Cases& cases) {
    switch (e.kind) {
      case Expression::Param: return cases.parameter(e.index);
      case Expression::Constant: return search::bank::constant(constants(e.type)[e.index], cases);
      case Expression::Choose:
        return search::bank::choose(evaluate(*e.children[0], cases), evaluate(*e.children[1], cases),
                                    evaluate(*e.children[2], cases));
      case Expression::And:
        return search::bank::choose(evaluate(*e.children[0], cases), evaluate(*e.children[1], cases),
                                    search::bank::constant(vm::Value::of_bool(false), cases));
      case Expression::Or:
        return search::bank::choose(evaluate(*e.children[0], cases),
                                    search::bank::constant(vm::Value::of_bool(true), cases),
                                    evaluate(*e.children[1], cases));
      case Expression::Apply: {
        std::vector<Behaviour> operands;
        for (const auto& c : e.children) operands.push_back(evaluate(*c, cases));
        std::vector<const Behaviour*> pointers;
        for (const Behaviour& b : operands) pointers.push_back(&b);
        // First on one case alone (the cases in turn), its heap given back after, as apply()
        // then gives it there.
        const Operation& op = *operations_[e.index];
        const u32 k = u32(applications_++ % cases.count());
        Cases::Mark mark;
        cases.mark(&mark);
        Behaviour alone;
        op.apply_on(pointers, cases, k, &alone);
        const u8 alone_trap = alone.traps[k];
        const bool too_long = alone.too_long;
        const vm::Value alone_value =
            alone_trap == u8(vm::Trap::NONE) && !too_long ? cases.value(alone, k) : vm::Value{};
        cases.rollback(mark);
        Behaviour out = op.apply(pointers, cases);
        EXPECT_EQ(alone_trap, out.traps[k]) << op.source() << " on case " << k;
        if (alone_trap == out.traps[k] && alone_trap == u8(vm::Trap::NONE) && !too_long && !out.too_long) {
          EXPECT_TRUE(vm::identical(alone_value, cases.value(out, k))) << op.source() << " on case " << k;
        }
        return out;
      }
    }
    return {};
  }

  // The expression as Syn text; each choose becomes a helper function (appended to *helpers)
  // whose branches hold its arms, so that only the arm taken runs.
  std::string render(const Expression& e, std::string* helpers) {
    switch (e.kind) {
      case Expression::Param: return kParams[e.index].first;
      case Expression::Constant: {
        const vm::Value& v = constants(e.type)[e.index];
        return e.type == B ? (v.i ? "true" : "false")
               : v.i < 0   ? "(" + std::to_string(v.i) + ")"
                           : std::to_string(v.i);
      }
      case Expression::And:
      case Expression::Or:
        return "(" + render(*e.children[0], helpers) + (e.kind == Expression::And ? " && " : " || ") +
               render(*e.children[1], helpers) + ")";
      case Expression::Choose: {
        const std::string name = "choose_" + std::to_string(++helper_count_);
        const std::string c = render(*e.children[0], helpers), a = render(*e.children[1], helpers),
                          b = render(*e.children[2], helpers);
        *helpers += "fn " + name + "(" + parameters() + ") -> " + type_name(e.type) + " {\n  if " + c +
                    " {\n    return " + a + ";\n  }\n  return " + b + ";\n}\n";
        return name + "(n, m, xs, ys, s, t, x)";
      }
      case Expression::Apply: {
        std::vector<std::string> operands;
        for (const auto& c : e.children) operands.push_back("(" + render(*c, helpers) + ")");
        return "(" + substitute(productions()[e.index].text, operands) + ")";
      }
    }
    return "";
  }

  static std::string parameters() {
    std::string s;
    for (const auto& [name, type] : kParams) s += (s.empty() ? "" : ", ") + name + ": " + type_name(type);
    return s;
  }

  std::vector<std::vector<vm::Value>> random_cases(u32 count) {
    std::vector<std::vector<vm::Value>> cases(count);
    auto integer = [&]() -> i64 {
      const u32 r = u32(rng_.below(20));
      if (r == 0) return INT64_MIN;
      if (r == 1) return INT64_MAX;
      return i64(rng_.below(11)) - 5;
    };
    for (auto& c : cases)
      for (const auto& [name, type] : kParams) {
        if (type == I) {
          c.push_back(vm::Value::of_int(integer()));
          continue;
        }
        if (type == S) {  // digits, a sign, a space, a comma: parse_int succeeds on some
          static const char kChars[] = "0123456789-, a";
          std::string text(rng_.below(5), ' ');
          for (char& ch : text) ch = kChars[rng_.below(sizeof kChars - 1)];
          c.push_back(vm::Value::of_str(text));
          continue;
        }
        if (type == F) {
          static const double kFloats[] = {0.0, -0.0, 1.5, -2.25, 3.0, 1e300, -7.0, 0.1};
          c.push_back(vm::Value::of_float(rng_.below(12) == 0 ? std::nan("") : kFloats[rng_.below(8)]));
          continue;
        }
        std::vector<vm::Value> items(rng_.below(5));
        for (vm::Value& v : items) v = vm::Value::of_int(i64(rng_.below(9)) - 4);
        c.push_back(vm::Value::of_array(I, std::move(items)));
      }
    return cases;
  }

  Rng& rng() { return rng_; }
  void reset_helpers() { helper_count_ = 0; }

 private:
  Rng rng_;
  std::vector<std::unique_ptr<Operation>> operations_;
  u32 helper_count_ = 0;
  u64 applications_ = 0;  // each also made on one case alone first (Operation::apply_on)
};

TEST(ValueBank, OperationsAgreeWithWholeProgramsOnOutputsAndTraps) {
  const u64 fallback = std::getenv("GPUSYNTH_PROPERTY_PROGRAMS") != nullptr
                           ? 10 * env_u64("GPUSYNTH_PROPERTY_PROGRAMS", 10000)
                           : 100000;
  const u64 count = env_u64("GPUSYNTH_BANK_EXPRESSIONS", fallback);
  const u64 seed = env_u64("GPUSYNTH_PROPERTY_SEED", 0xba4c);
  Harness h(seed);
  vm::Limits limits;
  limits.heap_bytes = 1u << 16;
  vm::Runner runner(limits);
  const Type types[] = {I, B, A, S, F};
  std::map<u8, u64> traps;  // how often each trap was seen: the test must reach them
  u64 failures = 0, lazy_saves = 0;
  for (u64 i = 0; i < count && failures < 5; ++i) {
    const Type t = types[h.rng().below(5)];
    std::unique_ptr<Expression> e = h.random(t, 1 + u32(h.rng().below(5)));
    const std::vector<std::vector<vm::Value>> inputs = h.random_cases(6);
    std::vector<Type> params;
    for (const auto& p : kParams) params.push_back(p.second);
    Cases cases(params, inputs, limits);
    const Behaviour b = h.evaluate(*e, cases);
    h.reset_helpers();
    std::string helpers;
    const std::string body = h.render(*e, &helpers);
    const std::string source = helpers + "fn solve(" + Harness::parameters() + ") -> " + type_name(t) +
                               " {\n  return " + body + ";\n}\n";
    compiler::Output out = compiler::compile(source);
    ASSERT_TRUE(out.ok()) << compiler::render(out.diagnostics, "expression", source);
    std::optional<vm::Program> program = vm::Program::load(out.bytecode);
    ASSERT_TRUE(program) << source;
    const u32 fn = u32(program->find("solve"));
    const std::vector<u64> hashes = search::bank::output_hashes(b, cases);
    for (u32 k = 0; k < cases.count(); ++k) {
      const vm::Outcome o = runner.run(*program, fn, inputs[k]);
      traps[u8(o.trap)]++;
      bool same = u8(o.trap) == b.traps[k];
      if (same && o.trap == vm::Trap::NONE)
        same =
            vm::identical(o.results[0], cases.value(b, k)) && hashes[k] == pipeline::output_hash(o.results);
      if (same && o.trap != vm::Trap::NONE) same = hashes[k] == 0;
      if (!same) {
        ++failures;
        ADD_FAILURE() << "expression " << i << " (seed " << seed << "), case " << k << ": the VM gives "
                      << (o.trap == vm::Trap::NONE ? vm::to_json(o.results[0]) : vm::trap_name(o.trap))
                      << ", the bank "
                      << (b.traps[k] == 0 ? vm::to_json(cases.value(b, k))
                                          : vm::trap_name(vm::Trap(b.traps[k])))
                      << "\n"
                      << source;
        break;
      }
    }
    lazy_saves += e->kind == Expression::Choose && !b.traps_anywhere();
  }
  EXPECT_EQ(failures, 0u);
  // The sweep must reach the partial operations' traps, not only values.
  EXPECT_GT(traps[u8(vm::Trap::NONE)], count);
  EXPECT_GT(traps[u8(vm::Trap::DIVISION_BY_ZERO)], count / 100);
  EXPECT_GT(traps[u8(vm::Trap::INDEX_OUT_OF_RANGE)], count / 100);
  EXPECT_GT(traps[u8(vm::Trap::INVALID_ARGUMENT)], count / 100);
  EXPECT_GT(h.applications(), count);
  std::printf(
      "value bank: %llu expressions x 6 cases; traps: none %llu, division_by_zero %llu, "
      "index_out_of_range %llu, invalid_argument %llu; %llu chooses trap-free\n",
      (unsigned long long)count, (unsigned long long)traps[0],
      (unsigned long long)traps[u8(vm::Trap::DIVISION_BY_ZERO)],
      (unsigned long long)traps[u8(vm::Trap::INDEX_OUT_OF_RANGE)],
      (unsigned long long)traps[u8(vm::Trap::INVALID_ARGUMENT)], (unsigned long long)lazy_saves);
}

// A behaviour of words drawn by `word`, with a trap on about one case in eight (an operand that
// trapped there).
template <class Word>
Behaviour random_words(Type t, u32 n, Rng& rng, Word word) {
  Behaviour b{t, std::vector<u64>(n), std::vector<u8>(n, u8(vm::Trap::NONE))};
  for (u32 k = 0; k < n; ++k) {
    b.words[k] = word();
    if (rng.below(8) == 0)
      b.traps[k] = u8(rng.below(2) ? vm::Trap::INDEX_OUT_OF_RANGE : vm::Trap::INVALID_ARGUMENT);
  }
  return b;
}

// A production for the direct-path tests: its operand types, result type and body.
struct Row {
  std::vector<Type> args;
  Type result;
  const char* body;
};

// The direct path (vm/scalar_ops.h over whole vectors) against the interpreter, production by
// production, on random words: extremes, zeros, NaNs, and operands that trapped.
TEST(ValueBank, TheDirectPathAgreesWithTheInterpreter) {
  const Row rows[] = {
      {{I, I}, I, "a0 + a1"},
      {{I, I}, I, "a0 - a1"},
      {{I, I}, I, "a0 * a1"},
      {{I, I}, I, "a0 / a1"},
      {{I, I}, I, "a0 % a1"},
      {{I, I}, I, "min(a0, a1)"},
      {{I, I}, I, "max(a0, a1)"},
      {{I}, I, "-a0"},
      {{I}, I, "abs(a0)"},
      {{I, I}, B, "a0 < a1"},
      {{I, I}, B, "a0 <= a1"},
      {{I, I}, B, "a0 == a1"},
      {{I, I}, B, "a0 != a1"},
      {{I, I}, B, "a0 > a1"},
      {{B}, B, "!a0"},
      {{I, I}, I, "a0 & a1"},
      {{I, I}, I, "a0 >> a1"},
      {{I, I}, I, "a0 << a1"},
      {{F, F}, F, "a0 + a1"},
      {{F, F}, F, "a0 / a1"},
      {{F, F}, F, "a0 % a1"},
      {{F, F}, B, "a0 < a1"},
      {{F, F}, B, "a0 == a1"},
      {{F}, F, "sqrt(a0)"},
      {{F}, F, "floor(a0)"},
      {{F}, F, "abs(a0)"},
      {{F}, I, "int(a0)"},
      {{I}, F, "float(a0)"},
      {{F, F}, F, "min(a0, a1)"},
      {{F}, F, "-a0"},
  };
  Rng rng(env_u64("GPUSYNTH_PROPERTY_SEED", 0xd1ec7));
  const u32 n = 64;
  std::vector<std::vector<vm::Value>> inputs(n, {vm::Value::of_int(0)});
  vm::Limits limits;
  Cases direct(std::vector<Type>{I}, inputs, limits);
  Cases reference(std::vector<Type>{I}, inputs, limits, {.threads = 1, .interpreter_only = true});
  auto word_of = [&](Type t) -> u64 {
    if (t == B) return rng.below(2);
    if (t == F) {
      static const double kFloats[] = {0.0, -0.0, 1.5, -2.25, 3.0, 1e300, -1e300, 0.1, 9.3e18, -9.3e18};
      return rng.below(10) == 0 ? bits_of(std::nan("")) : bits_of(kFloats[rng.below(10)]);
    }
    const u32 r = u32(rng.below(10));
    return r == 0 ? u64(INT64_MIN) : r == 1 ? u64(INT64_MAX) : r == 2 ? u64(-1) : u64(i64(rng.below(9)) - 4);
  };
  u64 compared = 0;
  for (const Row& row : rows) {
    const Operation op(row.args, row.result, row.body);
    ASSERT_TRUE(op.direct()) << row.body;
    for (int round = 0; round < 200; ++round) {
      std::vector<Behaviour> operands;
      for (Type t : row.args) operands.push_back(random_words(t, n, rng, [&] { return word_of(t); }));
      std::vector<const Behaviour*> pointers;
      for (const Behaviour& b : operands) pointers.push_back(&b);
      const Behaviour fast = op.apply(pointers, direct), slow = op.apply(pointers, reference);
      for (u32 k = 0; k < n; ++k) {
        ASSERT_EQ(fast.traps[k], slow.traps[k]) << row.body << ", case " << k;
        if (fast.traps[k] == 0) {
          ASSERT_EQ(fast.words[k], slow.words[k]) << row.body << ", case " << k;
        }
      }
      compared += n;
    }
  }
  EXPECT_GT(compared, 300000u);
}

// The parameters of two Cases alike — the direct path's and the interpreter's — as operands,
// each trapping (index_out_of_range) on about one case in eight, the same cases on both.
struct TwoPaths {
  std::vector<Behaviour> fast, slow;
  std::vector<const Behaviour*> fast_pointers, slow_pointers;
  TwoPaths(Cases& direct, Cases& reference, u32 arity, Rng& rng) {
    for (u32 i = 0; i < arity; ++i) {
      fast.push_back(direct.parameter(i));
      slow.push_back(reference.parameter(i));
      for (u32 k = 0; k < direct.count(); ++k)
        if (rng.below(8) == 0) fast[i].traps[k] = slow[i].traps[k] = u8(vm::Trap::INDEX_OUT_OF_RANGE);
    }
    for (u32 i = 0; i < arity; ++i) {
      fast_pointers.push_back(&fast[i]);
      slow_pointers.push_back(&slow[i]);
    }
  }
};

// The direct path of the instructions that read the heap (vm/reading_ops.h) against the
// interpreter: random arrays and strings, indices in and out of range, operands that trapped, and
// fuel limits from 3 to 12, so that walking an array runs out of fuel on some cases.
TEST(ValueBank, TheDirectReadingPathAgreesWithTheInterpreter) {
  const Type FA = Type::FloatArray, SA = Type::StrArray;
  const Row rows[] = {
      {{A}, I, "len(a0)"},
      {{A}, I, "sum(a0)"},
      {{A}, I, "max(a0)"},
      {{A}, I, "min(a0)"},
      {{A, I}, I, "a0[a1]"},
      {{A, I}, B, "contains(a0, a1)"},
      {{A, I}, I, "index_of(a0, a1)"},
      {{FA}, F, "sum(a0)"},
      {{FA}, F, "max(a0)"},
      {{FA}, F, "min(a0)"},
      {{FA, I}, F, "a0[a1]"},
      {{FA, F}, B, "contains(a0, a1)"},
      {{S}, I, "len(a0)"},
      {{S, I}, I, "a0[a1]"},
      {{SA}, I, "len(a0)"},
      {{SA, I}, S, "a0[a1]"},
      {{SA, S}, B, "contains(a0, a1)"},
      {{SA, S}, I, "index_of(a0, a1)"},
  };
  Rng rng(env_u64("GPUSYNTH_PROPERTY_SEED", 0x4ead));
  const u32 n = 48;
  std::function<vm::Value(Type)> value_of = [&](Type t) -> vm::Value {
    switch (t) {
      case Type::Int: return vm::Value::of_int(i64(rng.below(9)) - 4);
      case Type::Float:
        return vm::Value::of_float(rng.below(9) == 0 ? std::nan("") : double(rng.below(7)) - 3.5);
      case Type::Str: return vm::Value::of_str(std::string(rng.below(3), char('a' + rng.below(2))));
      default: {
        std::vector<vm::Value> items(rng.below(12));
        for (vm::Value& v : items) v = value_of(element_of(t));
        return vm::Value::of_array(element_of(t), std::move(items));
      }
    }
  };
  u64 compared = 0, out_of_fuel = 0;
  for (const Row& row : rows) {
    for (int round = 0; round < 60; ++round) {
      std::vector<std::vector<vm::Value>> inputs(n);
      for (auto& in : inputs)
        for (Type t : row.args) in.push_back(value_of(t));
      vm::Limits limits;
      limits.fuel = 3 + rng.below(10);
      limits.heap_bytes = 1u << 14;
      Cases direct(row.args, inputs, limits);
      Cases reference(row.args, inputs, limits, {.threads = 1, .interpreter_only = true});
      const Operation op(row.args, row.result, row.body);
      ASSERT_TRUE(op.direct()) << row.body;
      const TwoPaths operands(direct, reference, u32(row.args.size()), rng);
      const Behaviour fast = op.apply(operands.fast_pointers, direct),
                      slow = op.apply(operands.slow_pointers, reference);
      const std::vector<u64> fast_hashes = output_hashes(fast, direct),
                             slow_hashes = output_hashes(slow, reference);
      for (u32 k = 0; k < n; ++k) {
        ASSERT_EQ(fast.traps[k], slow.traps[k]) << row.body << ", fuel " << limits.fuel << ", case " << k;
        ASSERT_EQ(fast_hashes[k], slow_hashes[k]) << row.body << ", case " << k;
        out_of_fuel += fast.traps[k] == u8(vm::Trap::OUT_OF_FUEL);
      }
      compared += n;
    }
  }
  EXPECT_GT(compared, 50000u);
  EXPECT_GT(out_of_fuel, compared / 50);  // the fuel bound was reached, not only values
}

// The direct path of the instructions that make arrays and strings, or compare and search strings
// (vm/making_ops.h), against the interpreter: random arrays and strings, counts, slice bounds and
// characters in and out of range, operands that trapped, fuel limits from 3 to 12 (the work runs
// out of fuel on some cases) and heaps of 512 bytes to 2 KiB (each case's heap fills as the
// rounds go on, so that making traps heap_exhausted on some). Outputs are compared through the
// pipeline's hash, and each case's heap must have grown by the same bytes on both paths.
TEST(ValueBank, TheDirectMakingPathAgreesWithTheInterpreter) {
  const Type SA = Type::StrArray, FA = Type::FloatArray;
  const Row rows[] = {
      {{A, A}, A, "a0 + a1"},
      {{S, S}, S, "a0 + a1"},
      {{A, A}, B, "a0 == a1"},
      {{SA, SA}, B, "a0 == a1"},
      // STR_COMPARE, then its int compared with 0.
      {{S, S}, B, "a0 < a1"},
      {{S, S}, B, "a0 <= a1"},
      {{S, S}, B, "a0 > a1"},
      {{S, S}, B, "a0 >= a1"},
      {{S, S}, B, "a0 == a1"},
      {{S, S}, B, "a0 != a1"},
      {{A, I}, A, "push(a0, a1)"},
      {{SA, S}, SA, "push(a0, a1)"},
      {{A}, A, "pop(a0)"},
      {{A, I, I}, A, "slice(a0, a1, a2)"},
      {{S, I, I}, S, "slice(a0, a1, a2)"},
      {{A}, A, "sort(a0)"},
      {{SA}, SA, "sort(a0)"},
      {{FA}, FA, "sort(a0)"},
      {{A}, A, "reverse(a0)"},
      {{S}, S, "reverse(a0)"},
      {{S, S}, B, "contains(a0, a1)"},
      {{S, S}, I, "index_of(a0, a1)"},
      {{I}, S, "str(a0)"},
      {{F}, S, "str(a0)"},
      {{B}, S, "str(a0)"},
      {{I}, S, "chr(a0)"},
      {{S, S}, SA, "split(a0, a1)"},
      {{SA, S}, S, "join(a0, a1)"},
      {{S}, I, "parse_int(a0)"},
      {{I}, A, "[a0]"},
      {{I, I, I}, A, "[a0, a1, a2]"},
      {{I, I}, A, "array(a0, a1)"},
      {{I, S}, SA, "array(a0, a1)"},
  };
  Rng rng(env_u64("GPUSYNTH_PROPERTY_SEED", 0x3a4e));
  const u32 n = 40;
  std::function<vm::Value(Type)> value_of = [&](Type t) -> vm::Value {
    switch (t) {
      case Type::Int: {
        const u32 r = u32(rng.below(12));
        return vm::Value::of_int(r == 0 ? INT64_MIN : r == 1 ? 300 : r == 2 ? 97 : i64(rng.below(11)) - 3);
      }
      case Type::Bool: return vm::Value::of_bool(rng.below(2) == 1);
      case Type::Float:
        return vm::Value::of_float(rng.below(9) == 0 ? std::nan("") : double(rng.below(7)) - 3.5);
      case Type::Str: {
        static const char* kTexts[] = {"", " ", "a", "ab", "a b", "-12", "+7", "9x", "ba ab", "aaa", ","};
        return vm::Value::of_str(kTexts[rng.below(11)]);
      }
      default: {
        std::vector<vm::Value> items(rng.below(9));
        for (vm::Value& v : items) v = value_of(element_of(t));
        return vm::Value::of_array(element_of(t), std::move(items));
      }
    }
  };
  u64 compared = 0, out_of_fuel = 0, exhausted = 0;
  for (const Row& row : rows) {
    const Operation op(row.args, row.result, row.body);
    ASSERT_TRUE(op.direct()) << row.body;
    for (int round = 0; round < 20; ++round) {
      std::vector<std::vector<vm::Value>> inputs(n);
      for (auto& in : inputs)
        for (Type t : row.args) in.push_back(value_of(t));
      vm::Limits limits;
      limits.fuel = 3 + rng.below(10);
      limits.heap_bytes = 512u << rng.below(3);
      Cases direct(row.args, inputs, limits);
      Cases reference(row.args, inputs, limits, {.threads = 1, .interpreter_only = true});
      const TwoPaths operands(direct, reference, u32(row.args.size()), rng);
      // Applied again and again, so that the heaps fill.
      for (int again = 0; again < 6; ++again) {
        const Behaviour fast = op.apply(operands.fast_pointers, direct),
                        slow = op.apply(operands.slow_pointers, reference);
        const std::vector<u64> fast_hashes = output_hashes(fast, direct),
                               slow_hashes = output_hashes(slow, reference);
        for (u32 k = 0; k < n; ++k) {
          ASSERT_EQ(fast.traps[k], slow.traps[k]) << row.body << ", fuel " << limits.fuel << ", case " << k;
          ASSERT_EQ(fast_hashes[k], slow_hashes[k]) << row.body << ", case " << k;
          ASSERT_EQ(direct.machine(k).heap.used, reference.machine(k).heap.used)
              << row.body << ", case " << k;
          out_of_fuel += fast.traps[k] == u8(vm::Trap::OUT_OF_FUEL);
          exhausted += fast.traps[k] == u8(vm::Trap::HEAP_EXHAUSTED);
        }
        compared += n;
      }
    }
  }
  EXPECT_GT(compared, 100000u);
  EXPECT_GT(out_of_fuel, compared / 50);  // the fuel bound was reached, not only values
  EXPECT_GT(exhausted, compared / 200);   // and the heaps' bound
}

// array(n, x) past the cases' length bound (Cases::bound_lengths) makes nothing and says so
// (Behaviour::too_long) where the interpreter, which knows no bound, makes a list longer than it:
// elsewhere the two give the same outputs and traps, n < 0's, the fuel's and the heap's included;
// and the direct path's heap never holds more than the interpreter's.
TEST(ValueBank, ArrayPastTheBoundIsNotMade) {
  const Row rows[] = {{{I, I}, A, "array(a0, a1)"}, {{I, S}, Type::StrArray, "array(a0, a1)"}};
  Rng rng(env_u64("GPUSYNTH_PROPERTY_SEED", 0x51ce));
  u64 compared = 0, skipped = 0, too_long = 0;
  for (const Row& row : rows) {
    const Operation op(row.args, row.result, row.body);
    for (int round = 0; round < 400; ++round) {
      const u32 n = 1 + u32(rng.below(6));
      std::vector<std::vector<vm::Value>> inputs(n);
      for (auto& in : inputs) {
        in.push_back(vm::Value::of_int(i64(rng.below(16)) - 3));
        in.push_back(row.args[1] == I ? vm::Value::of_int(7) : vm::Value::of_str("ab"));
      }
      vm::Limits limits;
      limits.fuel = 3 + rng.below(14);
      limits.heap_bytes = 256u << rng.below(3);
      Cases direct(row.args, inputs, limits);
      Cases reference(row.args, inputs, limits, {.threads = 1, .interpreter_only = true});
      const u32 bound = u32(rng.below(9));
      direct.bound_lengths(bound, ~0u);
      const TwoPaths operands(direct, reference, u32(row.args.size()), rng);
      const Behaviour fast = op.apply(operands.fast_pointers, direct),
                      slow = op.apply(operands.slow_pointers, reference);
      bool longer = false;
      for (u32 k = 0; k < n; ++k) {
        const bool made_longer = slow.traps[k] == u8(vm::Trap::NONE) &&
                                 reference.machine(k).heap.header(u32(slow.words[k]))->length > bound;
        longer = longer || made_longer;
        ASSERT_EQ(fast.traps[k], slow.traps[k]) << row.body << ", fuel " << limits.fuel << ", case " << k;
        ASSERT_LE(direct.machine(k).heap.used, reference.machine(k).heap.used) << row.body << ", case " << k;
        if (made_longer) {
          ++skipped;
          continue;
        }
        if (fast.traps[k] == u8(vm::Trap::NONE)) {
          ASSERT_EQ(search::bank::case_hash(fast, direct, k), search::bank::case_hash(slow, reference, k))
              << row.body << ", case " << k;
        }
        ++compared;
      }
      ASSERT_EQ(fast.too_long, longer) << row.body << ", bound " << bound;
      too_long += fast.too_long;
    }
  }
  EXPECT_GT(skipped, 100u);
  EXPECT_GT(compared, 500u);
  EXPECT_GT(too_long, 100u);
}

// Applications in chunks on two threads (Operation::apply_all) against one by one through the
// interpreter alone: a loop with an int result (a fold over 1..n that runs out of fuel on large
// counts), builtins over arrays, each on random operands, large counts included.
TEST(ValueBank, ChunksOnThreadsAgreeWithOneByOne) {
  Rng rng(env_u64("GPUSYNTH_PROPERTY_SEED", 0xc4a2));
  const u32 n = 40;
  std::vector<std::vector<vm::Value>> inputs(n);
  for (auto& in : inputs) {
    std::vector<vm::Value> items(rng.below(7));
    for (vm::Value& v : items) v = vm::Value::of_int(i64(rng.below(9)) - 4);
    in.push_back(vm::Value::of_array(I, std::move(items)));
  }
  vm::Limits limits;
  limits.heap_bytes = 1u << 16;
  Cases chunked(std::vector<Type>{A}, inputs, limits, {.threads = 2});
  Cases reference(std::vector<Type>{A}, inputs, limits, {.threads = 1, .interpreter_only = true});
  const std::string fold_range =
      "fn fold_add(n: int, init: int) -> int {\n  let acc = init;\n  for x in 1..n + 1 {\n    acc = acc + x "
      "* x;\n"
      "  }\n  return acc;\n}\n";
  Operation loop(std::vector<Type>{I, I}, I, "fold_add(a0, a1)", fold_range, 5000);
  const Operation sum(std::vector<Type>{A}, I, "sum(a0)"), max(std::vector<Type>{A}, I, "max(a0)"),
      at(std::vector<Type>{A, I}, I, "a0[a1]"), has(std::vector<Type>{A, I}, B, "contains(a0, a1)"),
      sorted_len(std::vector<Type>{A}, I, "len(sort(a0))");
  auto count = [&]() -> u64 {
    const u32 r = u32(rng.below(12));
    if (r == 0) return u64(INT64_MAX);
    if (r == 1) return u64(INT64_MIN);
    if (r <= 3) return rng.below(5000);  // the loop's fuel ends near 600 steps
    return u64(i64(rng.below(40)) - 5);
  };
  const u32 before = chunked.machine(0).heap.used;
  for (const Operation* op : std::vector<const Operation*>{&loop, &sum, &max, &at, &has, &sorted_len}) {
    for (int round = 0; round < 20; ++round) {
      const u32 tuples = 1 + u32(rng.below(40));
      std::vector<Behaviour> ints;
      ints.reserve(2 * tuples);
      std::vector<const Behaviour*> operands;
      for (u32 j = 0; j < tuples; ++j) {
        if (op->arity() == 2 && op != &loop) {  // an array and an int
          operands.push_back(&chunked.parameter(0));
          ints.push_back(random_words(I, n, rng, count));
          operands.push_back(&ints.back());
          continue;
        }
        if (op == &loop) {
          ints.push_back(random_words(I, n, rng, count));
          operands.push_back(&ints.back());
          ints.push_back(random_words(I, n, rng, count));
          operands.push_back(&ints.back());
          continue;
        }
        operands.push_back(&chunked.parameter(0));
      }
      std::vector<Behaviour> outs(tuples);
      op->apply_all(operands, chunked, outs);
      for (u32 j = 0; j < tuples; ++j) {
        std::vector<const Behaviour*> one(operands.begin() + j * op->arity(),
                                          operands.begin() + (j + 1) * op->arity());
        for (const Behaviour*& b : one)
          if (b == &chunked.parameter(0)) b = &reference.parameter(0);
        const Behaviour slow = op->apply(one, reference);
        for (u32 k = 0; k < n; ++k) {
          ASSERT_EQ(outs[j].traps[k], slow.traps[k]) << op->source() << ", tuple " << j << ", case " << k;
          if (slow.traps[k] == 0) {
            ASSERT_EQ(outs[j].words[k], slow.words[k]) << op->source() << ", case " << k;
          }
        }
      }
    }
  }
  // A word result keeps nothing in the heaps: sort's copies were given back.
  EXPECT_EQ(chunked.machine(0).heap.used, before);
}

// An operation that makes nothing although its result is a reference (an element of a [str])
// goes in chunks through the interpreter as on the direct path (`--bank-interpreter 1` once
// stopped every search that banks a [str] here), leaving the heaps as they were; one that makes
// a list may not.
TEST(ValueBank, AStrElementGoesInChunksOnEitherPath) {
  const Type SA = Type::StrArray;
  std::vector<std::vector<vm::Value>> inputs;
  for (const char* word : {"ab", "", "c"})
    inputs.push_back({vm::Value::of_array(S, {vm::Value::of_str(word), vm::Value::of_str("z")})});
  vm::Limits limits;
  Cases direct(std::vector<Type>{SA}, inputs, limits, {.threads = 2});
  Cases reference(std::vector<Type>{SA}, inputs, limits, {.threads = 2, .interpreter_only = true});
  const Operation at(std::vector<Type>{SA, I}, S, "a0[a1]"), sorted(std::vector<Type>{SA}, SA, "sort(a0)");
  ASSERT_TRUE(at.makes_nothing());
  ASSERT_FALSE(sorted.makes_nothing());
  const Behaviour index{I, {0, 1, 2}, {0, 0, 0}};
  const u32 used = direct.machine(0).heap.used, reference_used = reference.machine(0).heap.used;
  std::vector<Behaviour> fast(2), slow(2);
  const std::vector<const Behaviour*> fast_operands = {&direct.parameter(0), &index, &direct.parameter(0),
                                                       &index},
                                      slow_operands = {&reference.parameter(0), &index,
                                                       &reference.parameter(0), &index};
  at.apply_all(fast_operands, direct, fast);
  at.apply_all(slow_operands, reference, slow);
  for (u32 j = 0; j < 2; ++j) {
    EXPECT_EQ(fast[j].traps, (std::vector<u8>{0, 0, u8(vm::Trap::INDEX_OUT_OF_RANGE)}));
    EXPECT_EQ(fast[j].traps, slow[j].traps);
    EXPECT_EQ(output_hashes(fast[j], direct), output_hashes(slow[j], reference));
  }
  EXPECT_EQ(direct.machine(0).heap.used, used);
  EXPECT_EQ(reference.machine(0).heap.used, reference_used);
  std::vector<Behaviour> sorts(1);
  EXPECT_THROW(sorted.apply_all(std::vector<const Behaviour*>{&direct.parameter(0)}, direct, sorts),
               std::logic_error);
}

// Halving n until it is not positive, in C++: the steps are counted in n[0] where `count`.
template <bool count>
vm::Trap halve(const search::bank::LoopOperand* in, u64 most_steps, u64* out,
               search::bank::LoopCounts* counts) {
  i64 n = i64(in[0].word);
  u64 steps = 0;
  while (n > 0 && steps <= most_steps) {
    n /= 2;
    ++steps;
  }
  *out = steps;
  counts->n[0] = count ? steps : 1;
  return vm::Trap::NONE;
}

// loop_natively measures a C++ loop's fuel against its Syn's and refuses one that does not count
// what that fuel depends on; one that does computes the cases the interpreter would, running out
// of fuel where it would, without it.
TEST(ValueBank, ALoopInCppMustCountWhatItsFuelDependsOn) {
  const std::string halving =
      "fn halve(n: int) -> int {\n  let s = 0;\n  while n > 0 {\n    n = n / 2;\n    s = s + 1;\n  }\n"
      "  return s;\n}\n";
  Operation uncounted(std::vector<Type>{I}, I, "halve(a0)", halving, 200);
  EXPECT_THROW(uncounted.loop_natively(search::bank::NativeWordLoop{halve<false>}), std::logic_error);

  Operation counted(std::vector<Type>{I}, I, "halve(a0)", halving, 200);
  counted.loop_natively(search::bank::NativeWordLoop{halve<true>});
  std::vector<std::vector<vm::Value>> inputs;
  for (i64 n : {i64(0), i64(-5), i64(1), i64(2), i64(1000), i64(1) << 20, INT64_MAX})
    inputs.push_back({vm::Value::of_int(n)});
  vm::Limits limits;
  Cases native(std::vector<Type>{I}, inputs, limits),
      reference(std::vector<Type>{I}, inputs, limits, {.interpreter_only = true});
  const Behaviour* n = &native.parameter(0);
  const Behaviour* n_reference = &reference.parameter(0);
  const Behaviour fast = counted.apply({&n, 1}, native), slow = counted.apply({&n_reference, 1}, reference);
  EXPECT_EQ(fast.traps, slow.traps);
  EXPECT_EQ(fast.words, slow.words);
  EXPECT_EQ(counted.native_cases(), inputs.size());
  // 200 instructions halve a few times, not 63 times.
  EXPECT_EQ(slow.traps.back(), u8(vm::Trap::OUT_OF_FUEL));
  EXPECT_EQ(slow.traps[4], u8(vm::Trap::NONE));
  EXPECT_EQ(slow.words[4], 10u);
}

// A rejected candidate's arrays are given back; the banked values before it stay readable.
TEST(ValueBank, RollbackFreesWhatCameAfterTheMark) {
  const std::vector<Type> params = {A};
  const std::vector<std::vector<vm::Value>> inputs = {
      {vm::Value::of_array(I, {vm::Value::of_int(3), vm::Value::of_int(1)})}, {vm::Value::of_array(I, {})}};
  vm::Limits limits;
  limits.heap_bytes = 4096;  // 1000 sorted copies would not fit
  Cases cases(params, inputs, limits);
  const Operation sort(params, A, "sort(a0)");
  const Behaviour* xs = &cases.parameter(0);
  const Behaviour kept = sort.apply({&xs, 1}, cases);
  const Cases::Mark mark = cases.mark();
  for (int i = 0; i < 1000; ++i) {
    const Behaviour rejected = sort.apply({&xs, 1}, cases);
    ASSERT_FALSE(rejected.traps_anywhere()) << i;
    cases.rollback(mark);
  }
  EXPECT_EQ(vm::to_json(cases.value(kept, 0)), "[1, 3]");
  EXPECT_EQ(vm::to_json(cases.value(kept, 1)), "[]");
  EXPECT_EQ(cases.machine(0).heap.used, mark.used[0]);
}

}  // namespace
}  // namespace gs
