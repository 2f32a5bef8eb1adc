// The CPU batch pipeline against the slow references: every (program, test) pair of random
// batches must have the trap, instruction count, pass bit and output hash that compiling the
// program alone and running it with vm::Runner gives; hand-made programs that loop, exhaust the
// heap or recurse too deep trap alone; the test set's typed checks; the thread pool.
#include "pipeline/pipeline.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <type_traits>

#include "base/hash.h"
#include "base/thread_pool.h"
#include "pipeline/case_set.h"
#include "pipeline/output_error.h"
#include "tests/unit/random_batches.h"

namespace gs {
namespace {

using testing::RandomBatch;

// The reference outcome of every pair, from the single-program path.
void expect_matches_reference(const RandomBatch& b, const pipeline::BatchResults& r,
                              const vm::Limits& limits) {
  vm::Runner runner(limits);
  const u32 tests = r.cases;
  for (u32 i = 0; i < r.programs; ++i) {
    SCOPED_TRACE("program " + std::to_string(i) + ": " + std::string(b.sources.source(i)));
    compiler::Output c = compiler::compile(b.sources.source(i));
    std::optional<vm::Program> program;
    i32 entry = -1;
    if (c.ok()) {
      program = vm::Program::load(c.bytecode);
      ASSERT_TRUE(program);
      entry = program->find(b.entry);
      if (entry >= 0) {
        const vm::FunctionRecord& f = program->function(u32(entry));
        bool same = f.param_count == b.params.size() && f.result_count == b.results.size();
        for (u32 k = 0; same && k < b.params.size(); ++k) same = f.param_type(k) == b.params[k];
        for (u32 k = 0; same && k < b.results.size(); ++k) same = f.result_type(k) == b.results[k];
        if (!same) entry = -1;
      }
    }
    pipeline::ProgramStatus want = !c.ok()     ? pipeline::ProgramStatus::COMPILE_ERROR
                                   : entry < 0 ? pipeline::ProgramStatus::NO_ENTRY
                                               : pipeline::ProgramStatus::OK;
    ASSERT_EQ(pipeline::status_name(want), pipeline::status_name(r.program_status(i)));
    EXPECT_EQ(r.diagnostic_count[i], c.diagnostics.size());
    EXPECT_EQ(r.syntax_nodes[i], c.syntax_nodes);
    EXPECT_EQ(r.bytecode_hash[i],
              c.ok() ? pipeline::bytecode_hash(c.bytecode.data(), u32(c.bytecode.size())) : 0);
    auto kept = r.kept_diagnostics(i);
    for (size_t k = 0; k < kept.size(); ++k) {
      EXPECT_EQ(kept[k].code, c.diagnostics[k].code);
      EXPECT_EQ(kept[k].pos, c.diagnostics[k].pos);
    }
    u32 passed = 0;
    u64 instructions = 0;
    for (u32 k = 0; k < tests; ++k) {
      u64 pair = u64(i) * tests + k;
      if (want != pipeline::ProgramStatus::OK) {
        EXPECT_EQ(r.trap[pair], pipeline::kNotRun);
        EXPECT_EQ(r.pass[pair], 0);
        if (!r.error.empty()) {
          EXPECT_EQ(r.error[pair], pipeline::kNoOutputError);
        }
        continue;
      }
      vm::Outcome o = runner.run(*program, u32(entry), b.inputs[k]);
      bool pass = o.trap == vm::Trap::NONE;
      for (size_t v = 0; pass && v < o.results.size(); ++v)
        pass = pipeline::values_match(o.results[v], b.outputs[k][v], b.cases->view().float_tolerance);
      ASSERT_EQ(vm::trap_name(o.trap), vm::trap_name(vm::Trap(r.trap[pair]))) << "test " << k;
      EXPECT_EQ(o.instructions, r.pair_instructions[pair]) << "test " << k;
      EXPECT_EQ(u8(pass), r.pass[pair]) << "test " << k;
      EXPECT_EQ(o.trap == vm::Trap::NONE ? pipeline::output_hash(o.results) : 0, r.output_hash[pair])
          << "test " << k;
      const float error =
          o.trap != vm::Trap::NONE ? pipeline::kNoOutputError
          : pass                   ? 0.0f
                 : pipeline::values_error(o.results, b.outputs[k], b.cases->view().float_tolerance);
      if (!r.error.empty()) {
        EXPECT_EQ(error, r.error[pair]) << "test " << k;
      }
      passed += pass;
      instructions += o.instructions;
    }
    EXPECT_EQ(passed, r.cases_passed[i]);
    EXPECT_EQ(instructions, r.instructions[i]);
    EXPECT_FLOAT_EQ(pipeline::reward_of({}, u8(want), passed, tests, instructions, limits.fuel), r.reward[i]);
  }
}

TEST(CpuPipeline, MatchesTheSingleProgramPathOnRandomBatches) {
  pipeline::PipelineConfig config;
  config.grade = true;
  auto batches = testing::random_batches(0xba7c4, 1200, 6, config.limits);
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  u64 pairs = 0, passes = 0, traps = 0;
  for (const RandomBatch& b : batches) {
    pipeline::BatchResults r;
    pipeline->run(b.sources, *b.cases, &r);
    ASSERT_EQ(r.programs, b.sources.count());
    ASSERT_EQ(r.error.size(), r.trap.size());
    expect_matches_reference(b, r, config.limits);
    if (HasFatalFailure()) return;
    pairs += r.trap.size();
    for (size_t p = 0; p < r.trap.size(); ++p) {
      passes += r.pass[p];
      traps += r.trap[p] != 0;
    }
  }
  std::printf("[pipeline] %zu batches, %llu pairs, %llu passed, %llu trapped\n", batches.size(),
              (unsigned long long)pairs, (unsigned long long)passes, (unsigned long long)traps);
  EXPECT_GT(passes, pairs / 10);  // the expected outputs come from real runs: many pass
  EXPECT_GT(traps, 0u);
}

// Two arrays element by element: numbers by their bytes (a NaN equals itself), diagnostics by
// their fields (not their padding).
template <class T>
bool same_elements(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if constexpr (std::is_same_v<T, compiler::Diagnostic>) {
      const compiler::Diagnostic &x = a[k], &y = b[k];
      if (x.code != y.code || x.pos != y.pos || x.len != y.len || x.a != y.a || x.b != y.b) return false;
    } else if (std::memcmp(&a[k], &b[k], sizeof(T)) != 0) {
      return false;
    }
  }
  return true;
}

// Every result array of two runs.
void expect_identical(const pipeline::BatchResults& a, const pipeline::BatchResults& b) {
  ASSERT_EQ(a.programs, b.programs);
  ASSERT_EQ(a.cases, b.cases);
#define GS_X(name, type, per) EXPECT_TRUE(same_elements(a.name, b.name)) << #name << " differs";
  GS_BATCH_RESULTS(GS_X)
#undef GS_X
}

// The CPU backend's two compile paths: each program lexed in its compile thread (the default),
// and the whole batch lexed first by the data-parallel lexer, as the CUDA backend does.
TEST(CpuPipeline, TheBatchLexerPathGivesIdenticalResults) {
  pipeline::PipelineConfig per_program, batch;
  per_program.grade = batch.grade = true;
  batch.batch_lexer = true;
  auto a = pipeline::make_pipeline(pipeline::Device::Cpu, per_program);
  auto b = pipeline::make_pipeline(pipeline::Device::Cpu, batch);
  std::vector<RandomBatch> batches = testing::random_batches(0x1e8, 1200, 6, per_program.limits);
  batches.push_back(testing::adversarial_batch());
  // Damaged copies of the adversarial batch's programs: bytes no token starts with, cut strings
  // and numbers, stray operators — lexical errors, which the two lexers must report alike.
  RandomBatch damaged = testing::adversarial_batch();
  const pipeline::Sources clean = damaged.sources;
  damaged.sources = {};
  std::mt19937_64 rng(7);
  const std::string inserts[] = {"\"", "@", "1.5e", "0x", "\\", ">>>", "1..", "\x01", "//", "\"\\q"};
  for (int copy = 0; copy < 400; ++copy) {
    std::string text(clean.source(u32(rng() % clean.count())));
    for (int edit = 0, edits = 1 + int(rng() % 3); edit < edits; ++edit)
      text.insert(text.empty() ? 0 : rng() % text.size(), inserts[rng() % std::size(inserts)]);
    damaged.sources.add(text);
  }
  batches.push_back(std::move(damaged));
  u64 programs = 0, compile_errors = 0;
  for (const RandomBatch& rb : batches) {
    pipeline::BatchResults x, y;
    a->run(rb.sources, *rb.cases, &x);
    b->run(rb.sources, *rb.cases, &y);
    expect_identical(x, y);
    if (HasFailure()) return;
    programs += x.programs;
    for (u32 i = 0; i < x.programs; ++i)
      compile_errors += x.program_status(i) == pipeline::ProgramStatus::COMPILE_ERROR;
  }
  EXPECT_GT(compile_errors, 0u);  // the lexical and syntax errors of the adversarial batch
  std::printf("[batch lexer] %llu programs, %llu with compile errors: identical on both paths\n",
              (unsigned long long)programs, (unsigned long long)compile_errors);
}

// A program's size is its syntax tree's nodes: `+ 2` adds two (the addition and the literal);
// a program with errors has none.
TEST(CpuPipeline, SyntaxNodesCountTheTree) {
  pipeline::PipelineConfig config;
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  pipeline::Sources sources;
  sources.add("fn solve(x: int) -> int { return x + 1; }");
  sources.add("fn solve(x: int) -> int { return x + 1 + 2; }");
  sources.add("fn solve(x: int) -> int { return x + \"a\"; }");
  std::vector<vm::Value> in = {vm::Value::of_int(1)}, out = {vm::Value::of_int(2)};
  pipeline::CaseSet::Case c{in, out};
  Type params[] = {Type::Int}, results[] = {Type::Int};
  pipeline::CaseSet cases("solve", params, results, std::span(&c, 1), 0);
  pipeline::BatchResults r;
  pipeline->run(sources, cases, &r);
  EXPECT_GT(r.syntax_nodes[0], 4u);
  EXPECT_EQ(r.syntax_nodes[1], r.syntax_nodes[0] + 2);
  EXPECT_EQ(r.syntax_nodes[2], 0u);
  EXPECT_EQ(r.syntax_nodes[0], compiler::compile("fn solve(x: int) -> int { return x + 1; }").syntax_nodes);
}

// A deadline (what --seconds sets) cuts a batch: pairs not begun are not run, and a compiled
// program cut so is charged its whole fuel, never rewarded above one that ran. Lifted, the same
// batch runs whole.
TEST(CpuPipeline, ADeadlineCutsTheBatchAndChargesWhatItCut) {
  pipeline::PipelineConfig config;
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  pipeline::Sources sources;
  sources.add("fn solve(x: int) -> int { return x + 1; }");
  sources.add("fn solve(x: int) -> int { return x + \"a\"; }");
  std::vector<vm::Value> in = {vm::Value::of_int(1)}, out = {vm::Value::of_int(2)};
  pipeline::CaseSet::Case c{in, out};
  Type params[] = {Type::Int}, results[] = {Type::Int};
  pipeline::CaseSet cases("solve", params, results, std::span(&c, 1), 0);
  pipeline::BatchResults whole, cut;
  pipeline->run(sources, cases, &whole);
  pipeline->set_deadline(std::chrono::steady_clock::now());  // passed before any pair begins
  pipeline->run(sources, cases, &cut);
  pipeline->set_deadline(std::nullopt);
  EXPECT_EQ(whole.cases_passed[0], 1u);
  EXPECT_EQ(cut.cases_passed[0], 0u);
  EXPECT_EQ(cut.trap[0], pipeline::kNotRun);
  EXPECT_EQ(cut.program_status(0), pipeline::ProgramStatus::OK);
  EXPECT_EQ(cut.instructions[0], config.limits.fuel);
  EXPECT_LT(cut.reward[0], whole.reward[0]);
  EXPECT_EQ(cut.reward[1], whole.reward[1]);  // one that did not compile is as it was
  pipeline::BatchResults again;
  pipeline->run(sources, cases, &again);
  EXPECT_EQ(again.cases_passed[0], 1u);
}

TEST(CpuPipeline, TrapsStayWithTheirProgram) {
  pipeline::PipelineConfig config;
  config.grade = true;
  RandomBatch b = testing::adversarial_batch();
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  pipeline::BatchResults r;
  pipeline->run(b.sources, *b.cases, &r);
  expect_matches_reference(b, r, config.limits);
  using S = pipeline::ProgramStatus;
  EXPECT_EQ(r.program_status(0), S::OK);
  EXPECT_EQ(r.cases_passed[0], 6u);
  EXPECT_EQ(r.trap[1 * 6], u8(vm::Trap::OUT_OF_FUEL));
  EXPECT_EQ(r.trap[2 * 6], u8(vm::Trap::HEAP_EXHAUSTED));
  EXPECT_EQ(r.trap[3 * 6], u8(vm::Trap::CALL_DEPTH_EXCEEDED));
  EXPECT_EQ(r.trap[4 * 6], u8(vm::Trap::DIVISION_BY_ZERO));
  EXPECT_EQ(r.program_status(5), S::COMPILE_ERROR);
  EXPECT_GE(r.diagnostic_count[5], 3u);
  EXPECT_EQ(r.program_status(6), S::NO_ENTRY);
  EXPECT_EQ(r.program_status(7), S::NO_ENTRY);
  EXPECT_EQ(r.cases_passed[8], 6u);
  EXPECT_EQ(r.cases_passed[9], 4u);  // 0, 1, 2 and -7
  EXPECT_EQ(r.program_status(10), S::COMPILE_ERROR);
  EXPECT_GT(r.reward[0], 10.0f);
  EXPECT_LT(r.reward[9], 1.0f + 1e-6f);
  EXPECT_EQ(r.reward[5], 0.0f);
  // Each program alone gives what it gave among the others.
  for (u32 i = 0; i < b.sources.count(); ++i) {
    RandomBatch one = testing::adversarial_batch();
    one.sources = {};
    one.sources.add(b.sources.source(i));
    pipeline::BatchResults alone;
    pipeline->run(one.sources, *one.cases, &alone);
    EXPECT_EQ(alone.status[0], r.status[i]);
    for (u32 k = 0; k < 6; ++k) {
      EXPECT_EQ(alone.trap[k], r.trap[i * 6 + k]);
      EXPECT_EQ(alone.output_hash[k], r.output_hash[i * 6 + k]);
      EXPECT_EQ(alone.pair_instructions[k], r.pair_instructions[i * 6 + k]);
    }
  }
}

// Graded errors (pipeline/output_error.h) of every result type, strings long enough for both the exact
// edit distance and its bound above kEditDistanceMaxLength, arrays of other lengths, NaN floats:
// the pipeline's against pipeline::values_error on the Runner's results.
TEST(CpuPipeline, GradedErrorsMatchTheReference) {
  RandomBatch b;
  b.params = {Type::Str, Type::IntArray, Type::Float, Type::Bool};
  b.results = {Type::Str, Type::IntArray, Type::Float, Type::Bool};
  for (const char* s : {
           "fn solve(s: str, xs: [int], x: float, b: bool) -> (str, [int], float, bool) { return (s, xs, x, "
           "b); }",
           "fn solve(s: str, xs: [int], x: float, b: bool) -> (str, [int], float, bool) "
           "{ return (reverse(s), reverse(xs), x * 2.0, !b); }",
           "fn solve(s: str, xs: [int], x: float, b: bool) -> (str, [int], float, bool) "
           "{ return (s + \"ab\", push(xs, 7), sqrt(x), b); }",
           "fn solve(s: str, xs: [int], x: float, b: bool) -> (str, [int], float, bool) "
           "{ return (slice(s, 1, len(s)), slice(xs, 0, len(xs) / 2), 0.0 / 0.0, true); }",
           "fn solve(s: str, xs: [int], x: float, b: bool) -> (str, [int], float, bool) { return (\"\", [], "
           "1e300, false); }",
       })
    b.sources.add(s);
  Rng rng(0xe7707);
  auto text = [&](u32 n) {
    std::string s;
    for (u32 k = 0; k < n; ++k) s += char('a' + rng.below(4));
    return s;
  };
  for (u32 k = 0; k < 24; ++k) {
    const u32 n = k % 3 == 0 ? 140 + rng.below(160) : rng.below(60);  // a third above the cap
    std::vector<vm::Value> xs, want_xs;
    for (u32 j = rng.below(6); j > 0; --j) xs.push_back(vm::Value::of_int(i64(rng.below(2000)) - 1000));
    for (u32 j = rng.below(6); j > 0; --j) want_xs.push_back(vm::Value::of_int(i64(rng.below(2000)) - 1000));
    const double x = k % 5 == 0 ? -4.0 : double(rng.below(1000)) / 7.0;
    b.inputs.push_back({vm::Value::of_str(text(n)), vm::Value::of_array(Type::Int, xs),
                        vm::Value::of_float(x), vm::Value::of_bool(rng.below(2))});
    std::string want = b.inputs.back()[0].s;
    if (!want.empty() && k % 2 == 0) want[rng.below(u32(want.size()))] = 'z';
    b.outputs.push_back(
        {vm::Value::of_str(k % 4 == 1 ? text(n + 3) : want), vm::Value::of_array(Type::Int, want_xs),
         vm::Value::of_float(k % 7 == 3 ? std::nan("") : x + 1.0), vm::Value::of_bool(k % 2)});
  }
  b.make_cases();
  pipeline::PipelineConfig config;
  config.grade = true;
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  pipeline::BatchResults r;
  pipeline->run(b.sources, *b.cases, &r);
  ASSERT_EQ(r.error.size(), r.trap.size());
  expect_matches_reference(b, r, config.limits);
  // Without grade the errors are not computed, and nothing else changes.
  pipeline::BatchResults ungraded;
  pipeline::make_pipeline(pipeline::Device::Cpu, pipeline::PipelineConfig{})
      ->run(b.sources, *b.cases, &ungraded);
  EXPECT_TRUE(ungraded.error.empty());
  EXPECT_EQ(ungraded.trap, r.trap);
  EXPECT_EQ(ungraded.pass, r.pass);
  EXPECT_EQ(ungraded.output_hash, r.output_hash);
  EXPECT_EQ(ungraded.reward, r.reward);
  u32 finite = 0, infinite = 0;
  for (float e : r.error) (std::isinf(e) ? infinite : finite) += 1;
  EXPECT_GT(finite, r.error.size() / 2);
  EXPECT_GT(infinite, 0u);  // NaN against a number

  // Known distances, and the bound above the cap.
  auto str_error = [](const std::string& a, const std::string& e) {
    std::vector<vm::Value> x{vm::Value::of_str(a)}, y{vm::Value::of_str(e)};
    return pipeline::values_error(x, y, 0);
  };
  EXPECT_EQ(str_error("kitten", "sitting"), 3.0f);
  EXPECT_EQ(str_error("", "abc"), 3.0f);
  EXPECT_EQ(str_error("flaw", "lawn"), 2.0f);
  std::string alternating;
  for (u32 k = 0; k < 100; ++k) alternating += "ab";
  EXPECT_EQ(str_error(alternating, "b" + alternating), 201.0f);  // the bound (every byte shifted), not 1
  EXPECT_EQ(str_error(alternating.substr(0, 127), "b" + alternating.substr(0, 127)), 1.0f);  // exact
  EXPECT_EQ(str_error("abc", alternating), 197.0f + 1.0f);  // one string above the cap: the bound
  for (u32 k = 0; k < 200; ++k) {
    std::string a = text(rng.below(150)), e = text(rng.below(150));
    EXPECT_EQ(str_error(a, e),
              float(pipeline::edit_distance(reinterpret_cast<const u8*>(a.data()), u32(a.size()),
                                            reinterpret_cast<const u8*>(e.data()), u32(e.size()))))
        << a << " / " << e;
  }
}

TEST(CpuPipeline, EmptyBatchAndNoTests) {
  pipeline::PipelineConfig config;
  auto pipeline = pipeline::make_pipeline(pipeline::Device::Cpu, config);
  RandomBatch b = testing::adversarial_batch();
  pipeline::BatchResults r;
  pipeline->run(pipeline::Sources{}, *b.cases, &r);
  EXPECT_EQ(r.programs, 0u);
  Type results[] = {Type::Int};
  pipeline::CaseSet none("solve", std::span<const Type>(b.params), results, {}, 0);
  pipeline->run(b.sources, none, &r);
  EXPECT_EQ(r.cases_passed[0], 0u);
  EXPECT_GT(r.reward[0], 10.0f);  // no tests: vacuously solved
}

TEST(CpuPipeline, KeepPairsOffReturnsOnlyPerProgramResults) {
  pipeline::PipelineConfig config;
  config.keep_pairs = false;
  RandomBatch b = testing::adversarial_batch();
  pipeline::BatchResults r;
  pipeline::make_pipeline(pipeline::Device::Cpu, config)->run(b.sources, *b.cases, &r);
  EXPECT_TRUE(r.trap.empty());
  EXPECT_EQ(r.cases_passed[0], 6u);
}

TEST(Pipeline, DeviceChoice) {
  EXPECT_EQ(pipeline::parse_device("cpu"), pipeline::Device::Cpu);
  EXPECT_EQ(pipeline::parse_device("auto"), pipeline::Device::Auto);
  EXPECT_FALSE(pipeline::parse_device("gpu"));
  pipeline::PipelineConfig config;
  EXPECT_STREQ(pipeline::make_pipeline(pipeline::Device::Cpu, config)->name(), "cpu");
  std::string why;
  if (!pipeline::cuda_available(&why)) {
    EXPECT_FALSE(why.empty());
    EXPECT_STREQ(pipeline::make_pipeline(pipeline::Device::Auto, config)->name(), "cpu");
    try {
      pipeline::make_pipeline(pipeline::Device::Cuda, config);
      ADD_FAILURE() << "cuda pipeline made without a device";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("CUDA backend"), std::string::npos) << e.what();
    }
  }
  config.limits.fuel = u64(1) << 32;
  EXPECT_THROW(pipeline::make_pipeline(pipeline::Device::Cpu, config), std::runtime_error);
}

// An [int] result's hash (from 8 elements on four chains mixed together: base/hash.h mix_words)
// is the same from the pipeline's comparison (compare_outputs), from a Value (output_hash) and from
// a heap (result_hash, by which the value bank hashes its behaviours), at every length from 0 to 40
// (the threshold and each remainder of four); and it tells apart the lists one element or one swap
// away.
TEST(OutputHash, AnIntListHashesAlikeFromTheComparisonAValueAndAHeap) {
  std::mt19937_64 rng(5);
  auto small = [&](i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); };
  auto list = [](const std::vector<i64>& xs) {
    std::vector<vm::Value> items;
    for (i64 x : xs) items.push_back(vm::Value::of_int(x));
    return vm::Value::of_array(Type::Int, std::move(items));
  };
  std::vector<std::vector<i64>> lists;
  std::vector<std::vector<vm::Value>> inputs, outputs;
  for (u32 n = 0; n <= 40; ++n)
    for (int twice = 0; twice < 2; ++twice) {
      std::vector<i64> xs(n);
      for (i64& x : xs) x = small(-3, 3);
      std::vector<i64> want = xs;
      if (twice == 1 && n > 0) want[size_t(small(0, i64(n) - 1))] += 1;  // a case that fails
      lists.push_back(xs);
      inputs.push_back({list(xs)});
      outputs.push_back({list(want)});
    }
  std::vector<pipeline::CaseSet::Case> cases;
  for (size_t k = 0; k < inputs.size(); ++k) cases.push_back({inputs[k], outputs[k]});
  const Type params[] = {Type::IntArray}, results[] = {Type::IntArray};
  const pipeline::CaseSet set("solve", params, results, cases, 0);
  pipeline::Sources sources;
  sources.add("fn solve(xs: [int]) -> [int] { return xs; }");
  pipeline::BatchResults r;
  pipeline::make_pipeline(pipeline::Device::Cpu, {})->run(sources, set, &r);
  const pipeline::CaseSetView view = set.view();
  std::set<u64> seen;
  for (u32 k = 0; k < cases.size(); ++k) {
    const u64 want = pipeline::output_hash(inputs[k]);
    EXPECT_EQ(r.output_hash[k], want) << "length " << lists[k].size();
    EXPECT_EQ(r.pass[k], u8(lists[k].size() == 0 || k % 2 == 0));
    vm::Heap heap;  // case k's input image: its word is the list
    heap.base = reinterpret_cast<u8*>(const_cast<u64*>(view.input_heap + view.input_offsets[k]));
    heap.capacity = heap.used = (view.input_offsets[k + 1] - view.input_offsets[k]) * 8;
    u64 from_heap = 0;
    ASSERT_TRUE(pipeline::result_hash(Type::IntArray, heap, view.input_slots[k], &from_heap));
    EXPECT_EQ(from_heap, want);
    if (k % 2 == 1) continue;  // the lists one place or one swap away
    seen = {want};
    for (size_t i = 0; i < lists[k].size(); ++i) {
      std::vector<i64> other = lists[k];
      other[i] += 1;
      EXPECT_TRUE(seen.insert(pipeline::output_hash(std::vector<vm::Value>{list(other)})).second);
      if (i + 1 < other.size() && lists[k][i] != lists[k][i + 1]) {
        other = lists[k];
        std::swap(other[i], other[i + 1]);
        EXPECT_TRUE(seen.insert(pipeline::output_hash(std::vector<vm::Value>{list(other)})).second);
      }
    }
  }
}

// A str's hash (pipeline::mix_bytes: its length, then eight bytes a word, the last one
// zero-padded) against the slow reference — each byte shifted into its word one at a time — on
// random strs of every length from 0 to 40 (each remainder of eight), and the one-byte changes
// of each tell apart.
TEST(OutputHash, AStrHashesItsBytesAsPaddedWords) {
  std::mt19937_64 rng(7);
  auto reference = [](const std::vector<u8>& s) {
    u64 h = mix_word(kHashSeed, s.size()), word = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      word |= u64(s[i]) << (8 * (i % 8));
      if (i % 8 == 7 || i + 1 == s.size()) {
        h = mix_word(h, word);
        word = 0;
      }
    }
    return h;
  };
  for (u32 n = 0; n <= 40; ++n)
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<u8> s(n);
      for (u8& c : s) c = u8(rng() % (rep % 2 == 0 ? 256 : 3));  // every byte, or 0..2 (zeros)
      const u64 want = reference(s);
      ASSERT_EQ(pipeline::str_hash(s.data(), n), want) << "length " << n;
      std::set<u64> seen = {want};
      for (u32 i = 0; i < n; ++i) {
        std::vector<u8> other = s;
        other[i] = u8(other[i] + 1);
        EXPECT_TRUE(seen.insert(pipeline::str_hash(other.data(), n)).second) << "length " << n;
      }
      if (n > 0) {
        EXPECT_NE(pipeline::str_hash(s.data(), n - 1), want);  // a byte shorter
      }
    }
}

TEST(CaseSet, RejectsValuesOfTheWrongType) {
  std::vector<vm::Value> in = {vm::Value::of_str("x")}, out = {vm::Value::of_int(1)};
  pipeline::CaseSet::Case c{in, out};
  Type params[] = {Type::Int}, results[] = {Type::Int};
  try {
    pipeline::CaseSet t("solve", params, results, std::span(&c, 1), 0);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "case 1, input 1: expected int");
  }
  EXPECT_THROW(pipeline::CaseSet("", params, results, {}, 0), std::invalid_argument);
}

TEST(CaseSet, FloatToleranceAndNaN) {
  EXPECT_TRUE(pipeline::floats_match(bits_of(1.0), bits_of(1.0005), 1e-3));
  EXPECT_FALSE(pipeline::floats_match(bits_of(1.0), bits_of(1.002), 1e-3));
  EXPECT_TRUE(pipeline::floats_match(bits_of(NAN), bits_of(-NAN), 0));
  EXPECT_FALSE(pipeline::floats_match(bits_of(NAN), bits_of(1.0), 1e300));
  EXPECT_TRUE(pipeline::floats_match(bits_of(INFINITY), bits_of(INFINITY), 0));
  EXPECT_FALSE(pipeline::floats_match(bits_of(INFINITY), bits_of(-INFINITY), 1e308));
}

TEST(ThreadPool, EveryIndexOnceAndErrorsRethrown) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  for (u64 n : {0ull, 1ull, 7ull, 1000ull, 12345ull}) {
    std::vector<std::atomic<u32>> hits(n);
    pool.parallel_for(n, 10, [&](u64 b, u64 e, u32 w) {
      ASSERT_LT(w, 3u);
      for (u64 i = b; i < e; ++i) hits[i]++;
    });
    for (u64 i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1u) << i;
  }
  EXPECT_THROW(pool.parallel_for(100, 1,
                                 [](u64 b, u64, u32) {
                                   if (b == 50) throw std::runtime_error("boom");
                                 }),
               std::runtime_error);
  std::atomic<u64> sum = 0;
  pool.parallel_for(100, 1, [&](u64 b, u64, u32) { sum += b; });
  EXPECT_EQ(sum.load(), 4950u);
}

}  // namespace
}  // namespace gs
