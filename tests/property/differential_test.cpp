// Differential property test: random well-typed programs (trees/random_program.h) are printed,
// compiled, verified and run on the VM, and every outcome — the trap, or the results bit for
// bit — must equal what the independent reference evaluator (tests/reference) computes from
// docs/language.md. Coverage of statements, operators per type, builtin overloads and traps is
// asserted at the end, so the test cannot quietly lose its power.
//
//   GPUSYNTH_PROPERTY_PROGRAMS  number of programs (default 10000)
//   GPUSYNTH_PROPERTY_SEED      generator seed (default below); a failure prints the seed and
//                               the program's index, which reproduce it
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/host.h"
#include "compiler/compiler.h"
#include "tests/reference/evaluator.h"
#include "trees/random_program.h"
#include "trees/random_values.h"
#include "trees/syntax.h"
#include "vm/runner.h"

namespace gs {
namespace {

using gs::seconds_since;

constexpr u64 kDefaultPrograms = 10000;
constexpr u64 kDefaultSeed = 0x5eed2025;
constexpr u32 kInputsPerProgram = 4;
constexpr u64 kCoverageMinimumPrograms = 500;  // below it coverage is reported, not asserted
constexpr int kMaxReports = 8;                 // detailed failure reports per run

u64 env_u64(const char* name, u64 fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoull(text, nullptr, 0);
}

// Values with floats shown exactly (hex and 17 digits) so a mismatch in the last bit is visible.
std::string show(const vm::Value& v) {
  char buf[96];
  switch (v.type) {
    case Type::Int: return std::to_string(v.i);
    case Type::Bool: return v.i ? "true" : "false";
    case Type::Float:
      std::snprintf(buf, sizeof buf, "%.17g (%a, bits %016" PRIx64 ")", v.f, v.f, bits_of(v.f));
      return buf;
    case Type::Str: return trees::string_literal(v.s);
    default: break;
  }
  std::string out = "[";
  for (size_t k = 0; k < v.items.size(); ++k) out += (k ? ", " : "") + show(v.items[k]);
  return out + "]";
}

std::string show(std::span<const vm::Value> values) {
  std::string out;
  for (size_t k = 0; k < values.size(); ++k) out += (k ? ", " : "") + show(values[k]);
  return out;
}

std::string show(vm::Trap trap, std::span<const vm::Value> results) {
  if (trap != vm::Trap::NONE) return std::string("trap ") + vm::trap_name(trap);
  return "returned (" + show(results) + ")";
}

// identical() except that any NaN matches any NaN: the spec does not say which NaN an
// operation makes, no Syn program can tell NaNs apart (abs, -, str, int, comparisons all treat
// them alike), and the C++ compiler may swap the operands of a commutative + or * on either
// side, which picks the other operand's NaN.
bool same_value(const vm::Value& a, const vm::Value& b, bool* nan_bits_differ) {
  if (a.type == Type::Float && std::isnan(a.f) && std::isnan(b.f)) {
    *nan_bits_differ |= !vm::identical(a, b);
    return true;
  }
  if (!is_array(a.type) || a.type != b.type || a.items.size() != b.items.size()) return vm::identical(a, b);
  for (size_t k = 0; k < a.items.size(); ++k)
    if (!same_value(a.items[k], b.items[k], nan_bits_differ)) return false;
  return true;
}

enum class Verdict { Agree, NanBitsDiffer, Inconclusive, Disagree };

// Same trap and, when none, the same results. Out of fuel on both sides agrees; out of fuel in
// the reference alone is inconclusive: its step count is a cruder (larger) measure than the
// VM's fuel, and generated programs stay far inside both, so it must stay rare.
Verdict judge(const reference::Outcome& expected, const vm::Outcome& actual) {
  if (expected.trap == vm::Trap::OUT_OF_FUEL && actual.trap != vm::Trap::OUT_OF_FUEL)
    return Verdict::Inconclusive;
  if (expected.trap != actual.trap) return Verdict::Disagree;
  if (expected.trap != vm::Trap::NONE) return Verdict::Agree;
  if (expected.results.size() != actual.results.size()) return Verdict::Disagree;
  bool nan_bits_differ = false;
  for (size_t k = 0; k < expected.results.size(); ++k)
    if (!same_value(expected.results[k], actual.results[k], &nan_bits_differ)) return Verdict::Disagree;
  return nan_bits_differ ? Verdict::NanBitsDiffer : Verdict::Agree;
}

// Operator and operand-type pairs docs/language.md §5 defines: each must have been applied.
std::vector<std::pair<u32, u32>> required_binary() {
  using trees::BinaryOp;
  std::vector<std::pair<u32, u32>> out;
  auto need = [&](BinaryOp op, std::initializer_list<Type> types) {
    for (Type t : types) out.push_back({u32(op), reference::type_slot(t)});
  };
  for (BinaryOp op : {BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Mod})
    need(op, {Type::Int, Type::Float});
  need(BinaryOp::Add, {Type::Int, Type::Float, Type::Str, Type::IntArray, Type::FloatArray, Type::BoolArray,
                       Type::StrArray});
  for (BinaryOp op :
       {BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor, BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Ushr})
    need(op, {Type::Int});
  for (BinaryOp op : {BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge})
    need(op, {Type::Int, Type::Float, Type::Str});
  for (BinaryOp op : {BinaryOp::Eq, BinaryOp::Ne})
    need(op, {Type::Int, Type::Float, Type::Bool, Type::Str, Type::IntArray, Type::FloatArray,
              Type::BoolArray, Type::StrArray});
  need(BinaryOp::And, {Type::Bool});
  need(BinaryOp::Or, {Type::Bool});
  return out;
}

std::vector<std::pair<u32, u32>> required_unary() {
  using trees::UnaryOp;
  return {{u32(UnaryOp::Neg), reference::type_slot(Type::Int)},
          {u32(UnaryOp::Neg), reference::type_slot(Type::Float)},
          {u32(UnaryOp::Not), reference::type_slot(Type::Bool)},
          {u32(UnaryOp::BitNot), reference::type_slot(Type::Int)}};
}

struct Tally {
  u64 programs = 0, runs = 0, failures = 0, reports = 0, steps = 0, source_bytes = 0;
  u64 nan_bits_differ = 0, inconclusive = 0;
  u64 outcomes[vm::kTrapCount] = {};
  double generate_s = 0, compile_s = 0, vm_s = 0, reference_s = 0;
};

void print_coverage(const reference::Coverage& c, const Tally& t) {
  std::printf("[differential] %" PRIu64 " programs, %" PRIu64 " runs, %" PRIu64 " failures\n", t.programs,
              t.runs, t.failures);
  std::printf("[differential] mean source %.0f bytes, mean reference steps per run %.0f\n",
              double(t.source_bytes) / double(std::max<u64>(t.programs, 1)),
              double(t.steps) / double(std::max<u64>(t.runs, 1)));
  std::printf("[differential] time: generate+print %.2fs, compile+load %.2fs, vm %.2fs, reference %.2fs\n",
              t.generate_s, t.compile_s, t.vm_s, t.reference_s);
  std::printf("[differential] NaN results with other sign/payload bits: %" PRIu64
              ", reference alone out of fuel: %" PRIu64 "\n",
              t.nan_bits_differ, t.inconclusive);
  std::printf("[differential] outcomes:");
  for (u32 k = 0; k < vm::kTrapCount; ++k)
    if (t.outcomes[k])
      std::printf(" %s=%" PRIu64, k == 0 ? "returned" : vm::trap_name(vm::Trap(k)), t.outcomes[k]);
  std::printf("\n[differential] statements run:");
  for (u32 k = 0; k < trees::kStmtKindCount; ++k)
    std::printf(" %s=%" PRIu64, trees::stmt_kind_name(trees::StmtKind(k)), c.statements[k]);
  std::printf(" else_if=%" PRIu64 " else=%" PRIu64 "\n", c.else_if_taken, c.else_taken);
  std::printf("[differential] shadowing declarations %" PRIu64 ", builtin-named variables %" PRIu64
              ", calls of functions hiding a builtin %" PRIu64 "\n",
              c.shadowing, c.builtin_named_variable, c.builtin_hidden);
  u64 least = UINT64_MAX;
  const char* rarest = "";
  for (u32 b = 0; b < trees::kBuiltinCount; ++b)
    if (c.builtins[b] < least) least = c.builtins[b], rarest = trees::builtin_signature(trees::Builtin(b));
  std::printf("[differential] %u builtin overloads, rarest %s called %" PRIu64 " times\n",
              trees::kBuiltinCount, rarest, least);
  least = UINT64_MAX;
  std::string rare_op;
  for (auto [op, slot] : required_binary())
    if (c.binary[op][slot] < least)
      least = c.binary[op][slot], rare_op = std::string(trees::op_text(trees::BinaryOp(op))) + " on " +
                                            type_name(reference::slot_type(slot));
  std::printf("[differential] %zu operator/type pairs, rarest '%s' applied %" PRIu64 " times\n",
              required_binary().size() + required_unary().size(), rare_op.c_str(), least);
}

void assert_coverage(const reference::Coverage& c) {
  for (u32 k = 0; k < trees::kStmtKindCount; ++k)
    EXPECT_GT(c.statements[k], 0u) << "statement kind never run: "
                                   << trees::stmt_kind_name(trees::StmtKind(k));
  EXPECT_GT(c.else_if_taken, 0u) << "no else-if condition was ever evaluated";
  EXPECT_GT(c.else_taken, 0u) << "no else block ever ran";
  EXPECT_GT(c.shadowing, 0u) << "no declaration ever shadowed a variable";
  EXPECT_GT(c.builtin_named_variable, 0u) << "no variable was ever named like a builtin";
  EXPECT_GT(c.builtin_hidden, 0u) << "no program function ever hid a builtin";
  for (u32 b = 0; b < trees::kBuiltinCount; ++b)
    EXPECT_GT(c.builtins[b], 0u) << "builtin overload never called: "
                                 << trees::builtin_signature(trees::Builtin(b));
  for (auto [op, slot] : required_binary())
    EXPECT_GT(c.binary[op][slot], 0u) << "operator " << trees::op_text(trees::BinaryOp(op))
                                      << " never applied to " << type_name(reference::slot_type(slot));
  for (auto [op, slot] : required_unary())
    EXPECT_GT(c.unary[op][slot], 0u) << "unary " << trees::op_text(trees::UnaryOp(op)) << " never applied to "
                                     << type_name(reference::slot_type(slot));
  for (vm::Trap t : {vm::Trap::DIVISION_BY_ZERO, vm::Trap::INDEX_OUT_OF_RANGE, vm::Trap::INVALID_ARGUMENT,
                     vm::Trap::CALL_DEPTH_EXCEEDED})
    EXPECT_GT(c.traps[u32(t)], 0u) << "trap never raised: " << vm::trap_name(t);
}

// Runs generated programs through both sides and keeps the tally.
class Harness {
 public:
  explicit Harness(u64 seed) : seed_(seed), runner_(vm_limits()) { options_.coverage = &coverage_; }

  // Room enough that only the traps the reference models can happen.
  static vm::Limits vm_limits() {
    vm::Limits limits;
    limits.fuel = 10'000'000;
    limits.stack_slots = 1u << 16;
    limits.heap_bytes = 256u << 20;
    limits.call_depth = 64;
    return limits;
  }

  void verify_stage(u64 index) {
    auto t0 = std::chrono::steady_clock::now();
    Rng rng(seed_, index);
    trees::Tree program = trees::random_program(generator_, rng);
    std::string source = trees::to_source(program);
    tally_.generate_s += seconds_since(t0);
    ++tally_.programs;
    tally_.source_bytes += source.size();
    std::optional<vm::Program> loaded = build(index, source);
    if (!loaded) return;
    i32 fn = loaded->find(generator_.entry);
    if (fn < 0) return report(index, source, "the bytecode has no function " + generator_.entry);
    const trees::Function& entry = *program.find(generator_.entry);
    Rng input_rng = rng.derive(1);
    for (u32 run = 0; run < kInputsPerProgram; ++run) {
      inputs_.non_finite_floats = run == kInputsPerProgram - 1;  // NaN and infinities in one run
      std::vector<vm::Value> args = trees::random_inputs(entry, inputs_, input_rng);
      if (!check_run(program, *loaded, u32(fn), args)) return report(index, source, last_mismatch_);
    }
  }

  const Tally& tally() const { return tally_; }
  const reference::Coverage& coverage() const { return coverage_; }

 private:
  // Compiles and verifies; a compile error or a rejected container is a failure.
  std::optional<vm::Program> build(u64 index, const std::string& source) {
    auto t0 = std::chrono::steady_clock::now();
    compiler::Output out = compiler_.compile(source);
    std::optional<vm::Program> loaded;
    vm::VerifyResult verify;
    if (out.ok()) loaded = vm::Program::load(out.bytecode, &verify);
    tally_.compile_s += seconds_since(t0);
    if (!out.ok())
      report(index, source, "compile errors:\n" + compiler::render(out.diagnostics, "random.syn", source));
    else if (!loaded)
      report(index, source, "the verifier rejected the compiler's bytecode: " + vm::describe(verify));
    return loaded;
  }

  // One input on both sides; false (and last_mismatch_ says why) when they disagree.
  bool check_run(const trees::Tree& program, const vm::Program& loaded, u32 fn,
                 const std::vector<vm::Value>& args) {
    auto t0 = std::chrono::steady_clock::now();
    reference::Outcome expected = reference::evaluate(program, generator_.entry, args, options_);
    tally_.reference_s += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    vm::Outcome actual = runner_.run(loaded, fn, args);
    tally_.vm_s += seconds_since(t0);
    ++tally_.runs;
    tally_.steps += expected.steps;
    ++tally_.outcomes[u32(actual.trap)];
    Verdict verdict = judge(expected, actual);
    tally_.nan_bits_differ += verdict == Verdict::NanBitsDiffer;
    tally_.inconclusive += verdict == Verdict::Inconclusive;
    if (verdict != Verdict::Disagree) return true;
    last_mismatch_ = "input (" + show(args) +
                     ")\n  expected (reference): " + show(expected.trap, expected.results) +
                     "\n  actual (compiler+VM): " + show(actual.trap, actual.results);
    return false;
  }

  void report(u64 index, const std::string& source, const std::string& what) {
    ++tally_.failures;
    if (tally_.reports++ >= kMaxReports) return;
    ADD_FAILURE() << what << "\nreproduce: GPUSYNTH_PROPERTY_SEED=" << seed_ << ", program " << index
                  << "\n---- program ----\n"
                  << source;
  }

  u64 seed_;
  trees::RandomProgramConfig generator_;
  trees::InputConfig inputs_;
  reference::Coverage coverage_;
  reference::Options options_;
  compiler::Compiler compiler_;
  vm::Runner runner_;
  Tally tally_;
  std::string last_mismatch_;
};

TEST(Differential, CompilerAndVmAgreeWithTheReference) {
  const u64 programs = env_u64("GPUSYNTH_PROPERTY_PROGRAMS", kDefaultPrograms);
  Harness harness(env_u64("GPUSYNTH_PROPERTY_SEED", kDefaultSeed));
  for (u64 index = 0; index < programs; ++index) harness.verify_stage(index);
  const Tally& tally = harness.tally();
  print_coverage(harness.coverage(), tally);
  EXPECT_EQ(tally.failures, 0u) << tally.failures << " of " << tally.programs << " programs failed (first "
                                << kMaxReports << " reported above)";
  EXPECT_LE(tally.inconclusive * 1000, tally.runs)
      << "more than 0.1% of runs ran out of fuel in the reference alone";
  if (programs >= kCoverageMinimumPrograms) {
    assert_coverage(harness.coverage());
  } else {
    std::printf("[differential] coverage not asserted below %" PRIu64 " programs\n",
                kCoverageMinimumPrograms);
  }
}

// `fn solve(a0, a1, ..) -> R { return f(a0, a1, ..); }` for builtin f and these argument types.
trees::Tree single_call(const char* name, const std::vector<Type>& types, trees::Builtin* overload) {
  trees::Function f{"solve", {}, {}, {}};
  std::vector<trees::Expr> args;
  for (size_t k = 0; k < types.size(); ++k) {
    std::string param = std::string("a").append(std::to_string(k));
    f.params.push_back({param, types[k]});
    args.push_back(trees::Expr::name(param, types[k]));
  }
  if (std::string(name) == "array")  // a count the heap can hold (negative ones still trap)
    args[0] = trees::Expr::binary(trees::BinaryOp::Mod, std::move(args[0]), trees::Expr::int_lit(20));
  Type result = Type::Error;
  *overload = *trees::resolve_builtin(name, types, &result);
  f.results = {result};
  f.body.push_back(trees::Stmt::ret({trees::Expr::call(name, result, std::move(args))}));
  trees::Tree p;
  p.functions.push_back(std::move(f));
  return p;
}

// Each builtin overload alone on many random arguments (NaN and infinities included): far
// denser on the builtins' corners than whole programs are.
TEST(Differential, EveryBuiltinAgreesOnRandomArguments) {
  const u64 cases = std::max<u64>(env_u64("GPUSYNTH_PROPERTY_PROGRAMS", kDefaultPrograms) / 5, 20);
  const u64 seed = env_u64("GPUSYNTH_PROPERTY_SEED", kDefaultSeed);
  using T = Type;
  // clang-format off
  const std::vector<std::pair<const char*, std::vector<Type>>> calls = {
      {"len", {T::StrArray}}, {"len", {T::Str}}, {"abs", {T::Int}}, {"abs", {T::Float}},
      {"min", {T::Int, T::Int}}, {"min", {T::Float, T::Float}}, {"min", {T::IntArray}},
      {"min", {T::FloatArray}}, {"max", {T::Int, T::Int}}, {"max", {T::Float, T::Float}},
      {"max", {T::IntArray}}, {"max", {T::FloatArray}}, {"push", {T::FloatArray, T::Float}},
      {"push", {T::StrArray, T::Str}}, {"pop", {T::BoolArray}}, {"slice", {T::IntArray, T::Int, T::Int}},
      {"slice", {T::Str, T::Int, T::Int}}, {"sum", {T::IntArray}}, {"sum", {T::FloatArray}},
      {"sort", {T::IntArray}}, {"sort", {T::FloatArray}}, {"sort", {T::StrArray}},
      {"reverse", {T::FloatArray}}, {"reverse", {T::Str}}, {"contains", {T::FloatArray, T::Float}},
      {"contains", {T::StrArray, T::Str}}, {"contains", {T::Str, T::Str}},
      {"index_of", {T::FloatArray, T::Float}}, {"index_of", {T::IntArray, T::Int}},
      {"index_of", {T::Str, T::Str}}, {"array", {T::Int, T::Str}}, {"int", {T::Float}}, {"int", {T::Bool}},
      {"int", {T::Int}}, {"float", {T::Int}}, {"float", {T::Float}}, {"str", {T::Int}}, {"str", {T::Float}},
      {"str", {T::Bool}}, {"str", {T::Str}}, {"sqrt", {T::Float}}, {"floor", {T::Float}},
      {"ceil", {T::Float}}, {"round", {T::Float}}, {"chr", {T::Int}}, {"split", {T::Str, T::Str}},
      {"join", {T::StrArray, T::Str}}, {"parse_int", {T::Str}},
  };
  // clang-format on
  vm::Runner runner(Harness::vm_limits());
  trees::InputConfig inputs;
  inputs.non_finite_floats = true;
  u64 failures = 0;
  std::vector<bool> seen(trees::kBuiltinCount);
  for (size_t c = 0; c < calls.size(); ++c) {
    trees::Builtin b;
    trees::Tree program = single_call(calls[c].first, calls[c].second, &b);
    seen[u32(b)] = true;
    std::string source = trees::to_source(program);
    compiler::Output out = compiler::compile(source);
    ASSERT_TRUE(out.ok()) << compiler::render(out.diagnostics, "builtin.syn", source);
    std::optional<vm::Program> loaded = vm::Program::load(out.bytecode);
    ASSERT_TRUE(loaded.has_value()) << source;
    Rng rng(seed, 1'000'000 + c);
    for (u64 k = 0; k < cases; ++k) {
      std::vector<vm::Value> args = trees::random_inputs(program.functions[0], inputs, rng);
      reference::Outcome expected = reference::evaluate(program, "solve", args);
      vm::Outcome actual = runner.run(*loaded, 0, args);
      if (judge(expected, actual) != Verdict::Disagree) continue;
      if (failures++ < kMaxReports)
        ADD_FAILURE() << trees::builtin_signature(b) << " on (" << show(args)
                      << ")\n  expected (reference): " << show(expected.trap, expected.results)
                      << "\n  actual (compiler+VM): " << show(actual.trap, actual.results);
    }
  }
  for (u32 b = 0; b < trees::kBuiltinCount; ++b)
    EXPECT_TRUE(seen[b]) << "no direct case for " << trees::builtin_signature(trees::Builtin(b));
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace gs
