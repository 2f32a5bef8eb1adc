// The value bank's enumeration (search/bank_enumerator.h) reaches answers that need a guard: an
// expression that traps on some cases, banked, and a lazy choose that uses it only where it does
// not trap. The answer, written out as a Syn program, is compiled and run on the train cases and
// on cases it never saw.
#include "search/bank_enumerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "base/hash.h"
#include "pipeline/case_set.h"
#include "search/bank_grammar.h"
#include "search/bank_words.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "suites/problem.h"
#include "tests/unit/compiled_program.h"
#include "vm/runner.h"

namespace gs::search::bank {
namespace {

using vm::Value;

Value list(std::vector<i64> xs) {
  std::vector<Value> items;
  for (i64 x : xs) items.push_back(Value::of_int(x));
  return Value::of_array(Type::Int, std::move(items));
}

struct Problem {
  std::vector<std::vector<Value>> inputs;
  std::vector<Value> outputs;
};

// Searches for an int answer over one [int] parameter xs, then checks its program on `unseen`.
// per_call: the budget of each search() call (the enumeration resumes where it stopped); the
// answer and the expressions evaluated must not depend on it.
void expect_answer(const Problem& train, const Problem& unseen, std::vector<Production> productions,
                   std::vector<Value> constants, u32 max_size, u64 per_call = 1'000'000,
                   std::string* answer_text = nullptr, u64* evaluated = nullptr, bool share = false,
                   u32* answer_level = nullptr) {
  const std::vector<Type> params = {Type::IntArray};
  vm::Limits limits;
  Cases cases(params, train.inputs, limits);
  std::vector<Leaf> leaves = {{"xs", cases.parameter(0)}};
  for (const Value& c : constants) leaves.push_back({std::to_string(c.i), constant(c, cases)});
  BankEnumerator e(cases, std::move(leaves), std::move(productions), "xs: [int]");
  if (share) e.share_operands();
  std::vector<u64> goal;
  for (const Value& v : train.outputs) goal.push_back(pipeline::output_hash({&v, 1}));
  EnumerationStats stats;
  std::optional<u32> answer;
  while (!answer && !e.finished()) answer = e.search(Type::Int, goal, max_size, per_call, &stats);
  ASSERT_TRUE(answer) << "nothing up to size " << stats.level << " after " << stats.evaluated
                      << " expressions";
  const std::string source = e.program(*answer, "solve");
  const std::optional<vm::Program> program = testing::compiled(source, "answer");
  ASSERT_TRUE(program);
  vm::Runner runner;
  for (const Problem* p : {&train, &unseen})
    for (size_t k = 0; k < p->inputs.size(); ++k) {
      const vm::Outcome o = runner.run(*program, 0, p->inputs[k]);
      ASSERT_EQ(o.trap, vm::Trap::NONE) << e.text(*answer) << " on case " << k << "\n" << source;
      EXPECT_TRUE(vm::identical(o.results[0], p->outputs[k])) << e.text(*answer) << " on case " << k;
    }
  if (answer_text != nullptr) *answer_text = e.text(*answer);
  if (evaluated != nullptr) *evaluated = stats.evaluated;
  if (answer_level != nullptr) *answer_level = e.cost(*answer);
  std::printf("answer %s after %llu expressions (%llu banked, level %u)\n", e.text(*answer).c_str(),
              (unsigned long long)stats.evaluated, (unsigned long long)stats.banked, stats.level);
}

Problem range_problem(std::vector<std::vector<i64>> lists) {
  Problem p;
  for (const auto& xs : lists) {
    p.inputs.push_back({list(xs)});
    i64 r = 0;
    if (!xs.empty()) r = *std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end());
    p.outputs.push_back(Value::of_int(r));
  }
  return p;
}

const Type I = Type::Int, A = Type::IntArray, B = Type::Bool;

// The range problem's grammar: -, max, min, len, == and a lazy choose.
std::vector<Production> range_productions() {
  std::vector<Production> p;
  p.push_back(operation_production({I, I}, I, "$0 - $1"));
  p.push_back(operation_production({A}, I, "max($0)"));
  p.push_back(operation_production({A}, I, "min($0)"));
  p.push_back(operation_production({A}, I, "len($0)"));
  p.push_back(operation_production({I, I}, B, "$0 == $1"));
  p.push_back(choose_production(I));
  return p;
}

// "Largest minus smallest, 0 for an empty list": max(xs) traps on the empty list.
TEST(BankEnumerator, AGuardedPartialExpression) {
  expect_answer(range_problem({{3, 1, 4}, {}, {5}, {2, 9}, {}, {7, 7, 1}, {0, -4}}),
                range_problem({{10, -3, 2}, {}, {6, 6}, {-1}}), range_productions(), {Value::of_int(0)}, 11);
}

// trap_cause(): the condition written from an expression's derivation holds on exactly the cases
// where it traps, and never traps itself — for every int expression of the grammar over xs (no
// loops) up to size 5 that traps on some train case but not all, on the train lists and on lists
// it never saw; an expression with a choose has none.
TEST(BankEnumerator, WritesTheConditionUnderWhichAnExpressionTraps) {
  std::vector<std::vector<Value>> inputs;
  for (const std::vector<i64>& xs :
       std::vector<std::vector<i64>>{{3, 1, 4}, {}, {5}, {2, 0}, {-1, 7, 2, 2}, {0}})
    inputs.push_back({list(xs)});
  const std::vector<Type> params = {A};
  Cases cases(params, inputs, vm::Limits{});
  std::vector<Leaf> leaves = {{"xs", cases.parameter(0)}};
  for (i64 c : {0, 1, 2}) leaves.push_back({std::to_string(c), constant(Value::of_int(c), cases)});
  BankEnumerator e(cases, std::move(leaves), grammar({I, B, A}, false, true), "xs: [int]");
  EnumerationStats stats;
  while (!e.finished() && stats.level < 5)
    e.search([](const Behaviour&) { return false; }, 5, 100000, &stats);
  vm::Runner runner;
  u32 checked = 0, chooses = 0;
  for (u32 id : e.banked(I)) {
    const Behaviour& b = e.behaviour(id);
    // Some case traps, not every one (on every one, a clause over constants alone may be true).
    if (!b.traps_anywhere() || std::all_of(b.traps.begin(), b.traps.begin() + cases.count(),
                                           [](u8 t) { return t != u8(vm::Trap::NONE); }))
      continue;
    const std::optional<std::string> cause = e.trap_cause(id);
    if (e.text(id).find("choose(") != std::string::npos) {
      EXPECT_FALSE(cause) << e.text(id);
      ++chooses;
      continue;
    }
    ASSERT_TRUE(cause) << e.text(id);
    const std::string source = "fn traps(xs: [int]) -> bool {\n  return " + *cause + ";\n}\n" +
                               "fn solve(xs: [int]) -> int {\n  return " + e.text(id) + ";\n}\n";
    const std::optional<vm::Program> program = testing::compiled(source, "trap cause");
    ASSERT_TRUE(program) << source;
    for (const std::vector<i64>& xs : std::vector<std::vector<i64>>{
             {3, 1, 4}, {}, {5}, {2, 0}, {-1, 7, 2, 2}, {0}, {9, 9}, {-3}, {1, 2, 3, 4, 5, 6}, {0, 0, 0}}) {
      const std::vector<Value> in = {list(xs)};
      const vm::Outcome condition = runner.run(*program, 0, in);
      ASSERT_EQ(condition.trap, vm::Trap::NONE) << *cause;
      const bool traps = runner.run(*program, 1, in).trap != vm::Trap::NONE;
      EXPECT_EQ(condition.results[0].i != 0, traps) << e.text(id) << " under " << *cause;
    }
    ++checked;
  }
  EXPECT_GT(checked, 50u);
  std::printf("%u trapping expressions, %u with a choose\n", checked, chooses);
}

// Four cases of an [int] in case heaps of heap_bytes, and an enumerator over xs, 1, 3 and 10 with
// push, sum, + and ==: lists enough to fill small heaps.
struct PushBank {
  static Cases make_cases(u32 heap_bytes) {
    std::vector<std::vector<Value>> inputs;
    for (i64 k = 0; k < 4; ++k) inputs.push_back({list({k, 7 - k, 2 * k})});
    vm::Limits limits;
    limits.heap_bytes = heap_bytes;
    const std::vector<Type> params = {Type::IntArray};
    return Cases(params, inputs, limits);
  }
  static BankEnumerator make_enumerator(Cases& cases) {
    std::vector<Production> p;
    p.push_back(operation_production({A, I}, A, "push($0, $1)"));
    p.push_back(operation_production({A}, I, "sum($0)"));
    p.push_back(operation_production({I, I}, I, "$0 + $1"));
    p.push_back(operation_production({I, I}, B, "$0 == $1"));
    std::vector<Leaf> leaves = {{"xs", cases.parameter(0)}};
    for (i64 c : {1, 3, 10}) leaves.push_back({std::to_string(c), constant(Value::of_int(c), cases)});
    return BankEnumerator(cases, std::move(leaves), std::move(p), "xs: [int]");
  }
  explicit PushBank(u32 heap_bytes) : cases(make_cases(heap_bytes)), e(make_enumerator(cases)) {}
  // List b's length on case k (where it does not trap).
  u32 length(const Behaviour& b, u32 k) { return cases.machine(k).heap.header(u32(b.words[k]))->length; }
  // Enumerates, finding nothing, until the heaps are full or the enumeration ends; the longest
  // list banked by then.
  u32 fill(EnumerationStats* stats) {
    const auto never = [](const Behaviour&) { return false; };
    while (!stats->heaps_full && !e.finished()) e.search(never, 20, 1000, stats);
    u32 longest = 0;
    for (u32 id = 0; id < e.count(); ++id)
      for (u32 k = 0; e.behaviour(id).type == A && k < cases.count(); ++k)
        if (e.behaviour(id).traps[k] == u8(vm::Trap::NONE))
          longest = std::max(longest, length(e.behaviour(id), k));
    return longest;
  }
  Cases cases;
  BankEnumerator e;
};

// The cases' heaps hold every banked list. Once one is full but for its last sixteenth, no list
// made is banked (those are tried as answers in that sixteenth and given back), nothing that
// found a heap full is banked, the ints and bools of the lists banked go on being made, and a
// list longer than any banked — one step past them — is still found as an answer.
TEST(BankEnumerator, AFullHeapBanksNoMoreListsButTriesThem) {
  PushBank bank(64 << 10);  // about a thousand lists of a few ints a case
  Cases& cases = bank.cases;
  BankEnumerator& e = bank.e;
  EnumerationStats stats;
  const auto never = [](const Behaviour&) { return false; };
  const u32 longest = bank.fill(&stats);
  ASSERT_TRUE(stats.heaps_full) << "after " << stats.evaluated << " expressions";
  const u64 used = cases.heap_used();
  u32 lists = 0;
  for (u32 id = 0; id < e.count(); ++id) {
    const Behaviour& b = e.behaviour(id);
    EXPECT_EQ(std::count(b.traps.begin(), b.traps.end(), u8(vm::Trap::HEAP_EXHAUSTED)), 0) << e.text(id);
    lists += b.type == A;
  }
  EXPECT_GT(lists, 10u);
  // On: ints and bools banked, lists only tried (in the heaps' last sixteenth, given back), the
  // heaps as they were.
  const u32 before = e.count();
  for (u32 calls = 0; !e.finished() && calls < 100; ++calls) e.search(never, 20, 1000, &stats);
  EXPECT_EQ(cases.heap_used(), used);
  EXPECT_GT(e.count(), before + 100) << "nothing made after the heaps were full; level " << stats.level
                                     << (e.finished() ? ", finished" : "");
  for (u32 id = before; id < e.count(); ++id) EXPECT_NE(e.behaviour(id).type, A) << e.text(id);
  // A list that meets the goal is still found there, and banked as the answer.
  const auto longer = [&](const Behaviour& b) {
    if (b.type != A) return false;
    for (u32 k = 0; k < b.traps.size(); ++k)
      if (b.traps[k] != u8(vm::Trap::NONE) || bank.length(b, k) <= longest) return false;
    return true;
  };
  std::optional<u32> answer;
  for (u32 calls = 0; !answer && !e.finished() && calls < 1000; ++calls)
    answer = e.search(longer, 40, 1000, &stats);
  ASSERT_TRUE(answer) << "no list longer than " << longest << " tried after the heaps were full";
  EXPECT_EQ(e.behaviour(*answer).type, A);
  EXPECT_TRUE(longer(e.behaviour(*answer))) << e.text(*answer);
}

// With bound_lengths(), no list longer than its bound is banked, and one as long is.
TEST(BankEnumerator, BanksNoListLongerThanItsBound) {
  std::vector<std::vector<Value>> inputs;
  for (i64 k = 0; k < 4; ++k) inputs.push_back({list({k, 7 - k})});
  const std::vector<Type> params = {Type::IntArray};
  Cases cases(params, inputs, vm::Limits{});
  std::vector<Production> p;
  p.push_back(operation_production({A, I}, A, "push($0, $1)"));
  p.push_back(operation_production({I, I}, I, "$0 + $1"));
  std::vector<Leaf> leaves = {{"xs", cases.parameter(0)}};
  for (i64 c : {1, 3}) leaves.push_back({std::to_string(c), constant(Value::of_int(c), cases)});
  BankEnumerator e(cases, std::move(leaves), std::move(p), "xs: [int]");
  e.bound_lengths(5, 5);
  EnumerationStats stats;
  e.search([](const Behaviour&) { return false; }, 9, 100000, &stats);
  u32 longest = 0;
  for (u32 id = 0; id < e.count(); ++id) {
    const Behaviour& b = e.behaviour(id);
    if (b.type != A) continue;
    for (u32 k = 0; k < cases.count(); ++k) longest = std::max(longest, u32(cases.value(b, k).items.size()));
  }
  EXPECT_EQ(longest, 5u);  // push(push(push(xs, 1), 1), 1)
}

// Once the heaps are full, a list that nothing could meet (may_meet says no goal takes its type)
// is not made at all, rather than made, tried and given back: the same ints and bools are banked,
// in the same order, after fewer evaluations; with a may_meet that takes lists, or none, the
// enumeration is the same as before, evaluation for evaluation.
TEST(BankEnumerator, AFullHeapMakesNoListNothingCouldMeet) {
  const auto never = [](const Behaviour&) { return false; };
  struct Run {
    std::vector<std::string> texts;
    u64 evaluated = 0;
    bool heaps_full = false;
  };
  auto run = [&](const std::function<bool(Type)>& type) {
    PushBank bank(4 << 10);  // some tens of lists of a few ints a case
    BankEnumerator& e = bank.e;
    EnumerationStats stats;
    MayMeet may_meet;
    may_meet.type = type;
    for (u32 calls = 0; !e.finished() && calls < 10000; ++calls) e.search(never, 9, 1000, &stats, may_meet);
    EXPECT_TRUE(e.finished());
    Run r{{}, stats.evaluated, stats.heaps_full};
    for (u32 id = 0; id < e.count(); ++id) r.texts.push_back(e.text(id));
    return r;
  };
  const Run before = run({}), lists = run([](Type) { return true; });
  const Run ints = run([](Type t) { return t != A; });
  ASSERT_TRUE(before.heaps_full);
  EXPECT_EQ(lists.texts, before.texts);
  EXPECT_EQ(lists.evaluated, before.evaluated);
  EXPECT_EQ(ints.texts, before.texts);
  EXPECT_GT(before.texts.size(), 100u);
  EXPECT_LT(ints.evaluated, before.evaluated);
  std::printf("%zu banked; %llu evaluated, %llu without the lists nothing could meet\n", before.texts.size(),
              static_cast<unsigned long long>(before.evaluated),
              static_cast<unsigned long long>(ints.evaluated));
}

// Once the heaps are full, a list tried as an answer is first made on the key case alone, and
// made whole only where on_key_case says that it could meet the goal there: the same answer (a
// list longer than any banked) is found after the same evaluations, far fewer lists are made
// whole (meets() sees no other), and the heaps are left as they were but for the answer.
TEST(BankEnumerator, AFullHeapMakesAListOnItsKeyCaseFirst) {
  const u32 key = 2;
  struct Run {
    std::string answer;
    u64 evaluated = 0, lists_met = 0, keys = 0, grown = 0;
  };
  auto run = [&](bool key_first) {
    PushBank bank(64 << 10);
    Cases& cases = bank.cases;
    BankEnumerator& e = bank.e;
    EnumerationStats stats;
    const u32 longest = bank.fill(&stats);
    EXPECT_TRUE(stats.heaps_full);
    const u64 used = cases.heap_used();
    Run r;
    const auto right = [&](const Behaviour& b, u32 k) {
      return b.traps[k] == u8(vm::Trap::NONE) && bank.length(b, k) > longest;
    };
    const auto longer = [&](const Behaviour& b) {
      if (b.type != A) return false;
      r.lists_met += 1;
      for (u32 k = 0; k < cases.count(); ++k)
        if (!right(b, k)) return false;
      return true;
    };
    MayMeet may_meet;
    may_meet.key_case = key;
    if (key_first)
      may_meet.on_key_case = [&](const Behaviour& b) -> bool {
        ++r.keys;
        EXPECT_EQ(b.type, A);
        return right(b, key);
      };
    std::optional<u32> answer;
    for (u32 calls = 0; !answer && !e.finished() && calls < 1000; ++calls)
      answer = e.search(longer, 40, 1000, &stats, may_meet);
    EXPECT_TRUE(answer);
    if (!answer) return r;
    r.answer = e.text(*answer);
    r.evaluated = stats.evaluated;
    r.grown = cases.heap_used() - used;  // the answer's list, the last thing in each heap
    return r;
  };
  const Run whole = run(false), keyed = run(true);
  EXPECT_FALSE(whole.answer.empty());
  EXPECT_EQ(keyed.answer, whole.answer);
  EXPECT_EQ(keyed.evaluated, whole.evaluated);
  EXPECT_GT(whole.grown, 0u);
  EXPECT_EQ(keyed.grown, whole.grown);
  EXPECT_GT(keyed.keys, 100u);
  EXPECT_LT(keyed.lists_met * 10, whole.lists_met);
  std::printf(
      "%s after %llu evaluations; lists made whole %llu, or %llu with %llu made on the key case first\n",
      whole.answer.c_str(), static_cast<unsigned long long>(whole.evaluated),
      static_cast<unsigned long long>(whole.lists_met), static_cast<unsigned long long>(keyed.lists_met),
      static_cast<unsigned long long>(keyed.keys));
}

// Observational equivalence keys distinct behaviours apart: every int behaviour over five cases
// with values in -3..3 or a trap (8^5 of them, among them each one's permutations) has a key of its
// own, on the word path and through the case hashes alike. Fails for a plain sum of the case
// hashes, and for the case hashes weighed by odd weights: 1, 3, 5, ... ((x, y, y, x) against
// (y, x, x, y)), or mix_word(kHashSeed, k) | 1 ((1, trap) against (trap, 0)) (search/bank_words.h).
TEST(BankEnumerator, NoTwoSmallIntBehavioursShareAKey) {
  std::vector<std::vector<Value>> inputs(5, std::vector<Value>{Value::of_int(0)});
  const std::vector<Type> params = {I};
  Cases cases(params, inputs, vm::Limits{});
  std::set<u64> keys;
  std::vector<u64> hashes;
  Behaviour b{I, std::vector<u64>(5), std::vector<u8>(5)};
  for (u32 code = 0; code < 8 * 8 * 8 * 8 * 8; ++code) {
    for (u32 k = 0, c = code; k < 5; ++k, c /= 8) {
      b.traps[k] = u8(c % 8 == 7 ? vm::Trap::DIVISION_BY_ZERO : vm::Trap::NONE);
      b.words[k] = c % 8 == 7 ? 0 : u64(i64(c % 8) - 3);
    }
    const u64 key = behaviour_hash(b, cases);
    ASSERT_EQ(behaviour_hash(b, cases, &hashes), key);
    ASSERT_EQ(hashes, output_hashes(b, cases));
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), 8u * 8 * 8 * 8 * 8);
}

// The host reads a case's weight in a behaviour's key from a table, a device computes it: the two
// agree, past the table's end too.
TEST(BankEnumerator, TheTableOfCaseWeightsIsTheirFormula) {
  for (u32 k = 0; k < kTabledWeights + 100; ++k) {
    ASSERT_EQ(case_weight(k), computed_case_weight(k)) << k;
    ASSERT_EQ(case_weight(k) & 1, 1u) << k;
  }
}

// The case hashes kept for the caller are output_hashes' of each list banked since the last
// forget_case_hashes(), traps included (0), and of nothing else. And every entry's behaviour_hash
// is those hashes each times its case's weight, summed and mixed (search/bank_words.h).
TEST(BankEnumerator, KeepsTheCaseHashesOfWhatItBanked) {
  std::vector<std::vector<Value>> inputs;
  for (i64 k = 0; k < 9; ++k) inputs.push_back({list({k, 7 - k, 2 * k})});
  inputs.push_back({list({})});
  const std::vector<Type> params = {Type::IntArray};
  Cases cases(params, inputs, vm::Limits{});
  std::vector<Production> p;
  p.push_back(operation_production({A, I}, A, "push($0, $1)"));
  p.push_back(operation_production({A, I}, A, "slice($0, $1, len($0))"));
  p.push_back(operation_production({A}, I, "max($0)"));
  p.push_back(operation_production({I, I}, I, "$0 / $1"));
  std::vector<Leaf> leaves = {{"xs", cases.parameter(0)}};
  for (i64 c : {0, 1, 2}) leaves.push_back({std::to_string(c), constant(Value::of_int(c), cases)});
  BankEnumerator e(cases, std::move(leaves), std::move(p), "xs: [int]");
  e.keep_case_hashes();
  EnumerationStats stats;
  u32 lists = 0, traps = 0, from = 0;
  for (int round = 0; round < 4; ++round) {
    e.search([](const Behaviour&) { return false; }, 7, 200, &stats);
    for (u32 id = 0; id < e.count(); ++id) {
      const std::span<const u64> kept = e.case_hashes(id);
      const Behaviour& b = e.behaviour(id);
      u64 sum = 0;  // behaviour_hash's slow reference
      const std::vector<u64> hashes = output_hashes(b, cases);
      for (u32 k = 0; k < hashes.size(); ++k) sum += hashes[k] * (mix_word(0x243f6a8885a308d3ull, k) | 1);
      EXPECT_EQ(behaviour_hash(b, cases), mix_word(kHashSeed, sum)) << e.text(id);
      if (b.type != A || id < from) {
        EXPECT_TRUE(kept.empty()) << id;
        continue;
      }
      if (kept.empty()) {  // a leaf, banked before
        EXPECT_EQ(e.size(id), 1u);
        continue;
      }
      EXPECT_EQ(std::vector<u64>(kept.begin(), kept.end()), output_hashes(b, cases)) << e.text(id);
      ++lists;
      traps += u32(b.traps_anywhere());
    }
    e.forget_case_hashes();
    from = e.count();
  }
  EXPECT_GT(lists, 20u);
  EXPECT_GT(traps, 0u);  // push(xs, max(xs)) on the empty list
}

// Searching in slices of 1, 7 or 100 expressions reaches the same answer after the same work.
TEST(BankEnumerator, ResumesWhereItStopped) {
  const Problem train = range_problem({{3, 1, 4}, {}, {5}, {2, 9}, {}, {7, 7, 1}, {0, -4}}),
                unseen = range_problem({{1, 2}});
  std::string whole, sliced;
  u64 whole_work = 0, sliced_work = 0;
  expect_answer(train, unseen, range_productions(), {Value::of_int(0)}, 11, 1'000'000, &whole, &whole_work);
  for (u64 slice : {1, 7, 100}) {
    expect_answer(train, unseen, range_productions(), {Value::of_int(0)}, 11, slice, &sliced, &sliced_work);
    EXPECT_EQ(sliced, whole) << slice;
    EXPECT_EQ(sliced_work, whole_work) << slice;
  }
}

// Weighted enumeration: the range grammar with distractors. Costs that favour what the answer
// uses (choose 2, so that past level 11 = max_size tuples too large are stepped over, and the
// distractors 3) reach the same answer after less work than sizes do, and in slices of 1, 7 or
// 100 expressions after the same work.
TEST(BankEnumerator, CostsOrderTheWork) {
  const Problem train = range_problem({{3, 1, 4}, {}, {5}, {2, 9}, {}, {7, 7, 1}, {0, -4}}),
                unseen = range_problem({{10, -3, 2}, {}, {6, 6}, {-1}});
  auto grammar = [](bool weighted) {
    std::vector<Production> p = range_productions();
    for (Production& q : p) q.cost = weighted && q.choose ? 2 : 1;
    for (const char* text : {"$0 + $1", "$0 * $1", "abs($0)", "$0 < $1"}) {
      const bool to_bool = std::string(text) == "$0 < $1";
      const std::vector<Type> operands =
          std::string(text) == "abs($0)" ? std::vector<Type>{I} : std::vector<Type>{I, I};
      p.push_back(operation_production(operands, to_bool ? B : I, text));
      p.back().cost = weighted ? 3 : 1;
    }
    for (const char* text : {"sum($0)", "$0[$1]"}) {
      p.push_back(
          operation_production(text[0] == 's' ? std::vector<Type>{A} : std::vector<Type>{A, I}, I, text));
      p.back().cost = weighted ? 3 : 1;
    }
    return p;
  };
  std::string by_size, by_cost, sliced;
  u64 size_work = 0, cost_work = 0, sliced_work = 0;
  expect_answer(train, unseen, grammar(false), {Value::of_int(0)}, 11, 1'000'000, &by_size, &size_work);
  expect_answer(train, unseen, grammar(true), {Value::of_int(0)}, 11, 1'000'000, &by_cost, &cost_work);
  EXPECT_EQ(by_cost, by_size);
  EXPECT_LT(cost_work * 3, size_work);
  for (u64 slice : {1, 7, 100}) {
    expect_answer(train, unseen, grammar(true), {Value::of_int(0)}, 11, slice, &sliced, &sliced_work);
    EXPECT_EQ(sliced, by_cost) << slice;
    EXPECT_EQ(sliced_work, cost_work) << slice;
  }
}

// No expression passes max_size nodes, whatever the costs: with the answer's size 11 out of
// reach, the weighted enumeration ends without it.
TEST(BankEnumerator, CostsKeepTheSizeBound) {
  const Problem train = range_problem({{3, 1, 4}, {}, {5}, {2, 9}, {}, {7, 7, 1}, {0, -4}});
  std::vector<Production> productions = range_productions();
  for (Production& p : productions) p.cost = p.choose ? 1 : 2;
  Cases cases(std::vector<Type>{A}, train.inputs, vm::Limits{});
  BankEnumerator e(cases, {{"xs", cases.parameter(0)}, {"0", constant(Value::of_int(0), cases)}},
                   std::move(productions), "xs: [int]");
  std::vector<u64> goal;
  for (const Value& v : train.outputs) goal.push_back(pipeline::output_hash({&v, 1}));
  EnumerationStats stats;
  EXPECT_FALSE(e.search(Type::Int, goal, 10, 100'000'000, &stats));
  EXPECT_TRUE(e.finished());
  EXPECT_EQ(stats.level, 20u);  // 10 nodes of cost 2 at most
  for (Type t : {I, B, A})
    for (u32 id : e.banked(t)) {
      EXPECT_LE(e.size(id), 10u) << e.text(id);
      EXPECT_GE(e.cost(id), e.size(id)) << e.text(id);
    }
}

// "The first element, or -1 for an empty list": xs[0] traps on the empty list.
TEST(BankEnumerator, AGuardedIndex) {
  Problem train, unseen;
  for (auto [problem, lists] :
       {std::pair{&train, std::vector<std::vector<i64>>{{4, 2}, {}, {7}, {-3, 5, 1}, {}}},
        std::pair{&unseen, std::vector<std::vector<i64>>{{9}, {}, {0, 1}}}})
    for (const auto& xs : lists) {
      problem->inputs.push_back({list(xs)});
      problem->outputs.push_back(Value::of_int(xs.empty() ? -1 : xs[0]));
    }
  std::vector<Production> productions;
  productions.push_back(operation_production({A, I}, I, "$0[$1]"));
  productions.push_back(operation_production({A}, I, "len($0)"));
  productions.push_back(operation_production({I, I}, B, "$0 < $1"));
  productions.push_back(choose_production(I));
  expect_answer(train, unseen, std::move(productions), {Value::of_int(0), Value::of_int(-1)}, 9);
}

// share_operands(): a production of two operands over an entry and an entry below it in its own
// derivation costs the entry's level and its own, and is written with the shared operand twice.
// The largest times the range and the smallest times the range are a level past the range (6),
// not at 8 nodes; the range squared, the range with itself, is not made so (at 11 either way);
// the same answers after the same work in slices of 1, 7 or 100 expressions; with 10 nodes at
// most, the range squared is out of reach and nothing larger is banked.
TEST(BankEnumerator, SharesAnOperandOfItsOwnDerivation) {
  const std::vector<std::vector<i64>> train_lists = {{3, 1, 4}, {5}, {2, 9}, {7, 7, 1}, {0, -4}, {6, -2, 8}},
                                      unseen_lists = {{10, -3, 2}, {6, 6}, {-1}};
  enum class Times { Top, Bottom, Range };
  const auto problem = [](const std::vector<std::vector<i64>>& lists, Times times) {
    Problem p;
    for (const auto& xs : lists) {
      p.inputs.push_back({list(xs)});
      const i64 top = *std::max_element(xs.begin(), xs.end()),
                bottom = *std::min_element(xs.begin(), xs.end());
      const i64 by = times == Times::Top ? top : times == Times::Bottom ? bottom : top - bottom;
      p.outputs.push_back(Value::of_int((top - bottom) * by));
    }
    return p;
  };
  std::vector<Production> grammar = range_productions();
  grammar.push_back(operation_production({I, I}, I, "$0 * $1"));
  const std::map<Times, std::string> answers = {{Times::Top, "max(xs) * (max(xs) - min(xs))"},
                                                {Times::Bottom, "min(xs) * (max(xs) - min(xs))"},
                                                {Times::Range, "(max(xs) - min(xs)) * (max(xs) - min(xs))"}};
  for (const auto& [times, answer] : answers) {
    const Problem train = problem(train_lists, times), unseen = problem(unseen_lists, times);
    std::string alone, shared, sliced;
    u64 alone_work = 0, shared_work = 0, sliced_work = 0;
    u32 alone_level = 0, shared_level = 0;
    expect_answer(train, unseen, grammar, {}, 11, 1'000'000, &alone, &alone_work, false, &alone_level);
    expect_answer(train, unseen, grammar, {}, 11, 1'000'000, &shared, &shared_work, true, &shared_level);
    const bool twice = times == Times::Range;
    EXPECT_EQ(alone_level, twice ? 11u : 8u) << alone;
    EXPECT_EQ(shared_level, twice ? 11u : 6u) << shared;
    if (!twice) {
      EXPECT_LT(shared_work, alone_work) << answer;  // 120 against 188, 121 against 201
    }
    EXPECT_EQ(shared, answer);
    for (u64 slice : {1, 7, 100}) {
      expect_answer(train, unseen, grammar, {}, 11, slice, &sliced, &sliced_work, true);
      EXPECT_EQ(sliced, shared) << slice;
      EXPECT_EQ(sliced_work, shared_work) << slice;
    }
  }
  const Problem train = problem(train_lists, Times::Range);
  Cases cases(std::vector<Type>{A}, train.inputs, vm::Limits{});
  BankEnumerator e(cases, {{"xs", cases.parameter(0)}}, grammar, "xs: [int]");
  e.share_operands();
  std::vector<u64> goal;
  for (const Value& v : train.outputs) goal.push_back(pipeline::output_hash({&v, 1}));
  EnumerationStats stats;
  EXPECT_FALSE(e.search(Type::Int, goal, 10, 100'000'000, &stats));
  EXPECT_TRUE(e.finished());
  for (Type t : {I, B, A})
    for (u32 id : e.banked(t)) EXPECT_LE(e.size(id), 10u) << e.text(id);
}

// a + b and b + a: twins no case tells apart, counted once the answer is found; the enumeration
// then goes on to larger answers.
TEST(BankEnumerator, CountsTheAnswersTwinsAndGoesOn) {
  const std::vector<Type> params = {I, I};
  const std::vector<std::vector<Value>> inputs = {{Value::of_int(1), Value::of_int(5)},
                                                  {Value::of_int(-2), Value::of_int(7)},
                                                  {Value::of_int(4), Value::of_int(0)}};
  Cases cases(params, inputs, vm::Limits{});
  std::vector<Production> productions;
  productions.push_back(operation_production({I, I}, I, "$0 + $1"));
  productions.push_back(operation_production({I, I}, I, "$0 * $1"));
  BankEnumerator e(cases, {{"a", cases.parameter(0)}, {"b", cases.parameter(1)}}, std::move(productions),
                   "a: int, b: int");
  auto goal = [&](i64 (*f)(i64, i64)) {
    std::vector<u64> hashes;
    for (const std::vector<Value>& in : inputs) {
      const Value v = Value::of_int(f(in[0].i, in[1].i));
      hashes.push_back(pipeline::output_hash({&v, 1}));
    }
    return hashes;
  };
  EnumerationStats stats;
  const std::optional<u32> sum = e.search(I, goal([](i64 a, i64 b) { return a + b; }), 5, 1000, &stats);
  ASSERT_TRUE(sum);
  EXPECT_EQ(e.size(*sum), 3u);
  bool complete = false;
  EXPECT_EQ(e.alike(*sum, 1000, &stats, &complete), 2u);  // a + b, b + a
  EXPECT_TRUE(complete);
  bool partial = true;
  const std::optional<u32> product =
      e.search(I, goal([](i64 a, i64 b) { return a * b + a; }), 5, 1000, &stats);
  ASSERT_TRUE(product) << "the enumeration goes on after alike()";
  EXPECT_EQ(e.size(*product), 5u);
  e.alike(*product, 1, &stats, &partial);  // one more expression: not the whole size
  EXPECT_FALSE(partial);
}

}  // namespace
}  // namespace gs::search::bank

namespace gs::search {
namespace {

// Through the search loop: the expressions the generator evaluated in its bank count against the
// budget and in the outcome, the one proposal is judged by the pipeline, and the solution's id
// follows them.
TEST(BankGenerator, SolvesInTheSearchLoopAndCountsWhatItEvaluated) {
  suites::Problem p;
  p.name = "first-or-minus-one";
  std::string error;
  ASSERT_TRUE(suites::parse_signature("fn solve(xs: [int]) -> int", &p.signature, &error)) << error;
  for (const auto& xs : std::vector<std::vector<i64>>{{4, 2}, {}, {7}, {-3, 5, 1}, {}, {6, 6}}) {
    std::vector<vm::Value> items;
    for (i64 x : xs) items.push_back(vm::Value::of_int(x));
    p.train.push_back(
        {{vm::Value::of_array(Type::Int, items)}, {vm::Value::of_int(xs.empty() ? -1 : xs[0])}});
  }
  p.test = {p.train[0], p.train[1]};
  EnumerateSettings settings;
  settings.forward_steps = false;  // push(xs, -1)[0]: an answer a step forward, whose twins no level holds
  settings.splits = false;         // xs[0] guarded where it traps, -1 on the empty lists: a split, no twins
  std::unique_ptr<Generator> g = make_enumerate_generator(p, settings);
  std::unique_ptr<pipeline::Pipeline> cpu = pipeline::make_pipeline(pipeline::Device::Cpu, {});
  SearchConfig config;
  config.batch = 50;
  config.budget.candidates = 1'000'000;
  const SearchOutcome r = run_search(p, *g, *cpu, config);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises);
  EXPECT_GT(r.candidates, 50u);  // more than one batch's proposals: the bank's own evaluations count
  EXPECT_EQ(r.candidates_to_solution, r.candidates);
  EXPECT_EQ(u64(r.solution_id), r.candidates - 1);
  ASSERT_TRUE(r.alike) << "the bank counts its answer's twins";
  EXPECT_GE(r.alike->programs, 1u);
  std::printf("%s after %llu candidates\n%s", p.name.c_str(), (unsigned long long)r.candidates,
              r.simplified.c_str());
}

// A problem of the signature's types, its cases made by `f` from the inputs.
suites::Problem split_problem(const std::string& signature, const std::string& constants,
                              std::vector<std::vector<vm::Value>> inputs,
                              const std::function<vm::Value(const std::vector<vm::Value>&)>& f, u32 train) {
  suites::Problem p;
  p.name = "split";
  std::string error;
  EXPECT_TRUE(suites::parse_signature(signature, &p.signature, &error)) << error;
  EXPECT_TRUE(suites::parse_constants(constants, &p.constants, &error)) << error;
  for (u32 k = 0; k < inputs.size(); ++k)
    (k < train ? p.train : p.test).push_back({inputs[k], {f(inputs[k])}});
  return p;
}

SearchOutcome search_bank(const suites::Problem& p, bool splits, u64 budget, u64 lambda_budget = 50000) {
  EnumerateSettings settings;
  settings.splits = splits;
  settings.lambda_budget = lambda_budget;
  std::unique_ptr<Generator> g = make_enumerate_generator(p, settings);
  std::unique_ptr<pipeline::Pipeline> cpu = pipeline::make_pipeline(pipeline::Device::Cpu, {});
  SearchConfig config;
  config.batch = 50;
  config.budget.candidates = budget;
  return run_search(p, *g, *cpu, config);
}

// Outputs that step as n grows: an answer case by case, `if n < 300 { return "low"; } ...`,
// whose terms and conditions are three nodes each; the whole expression (two chooses, size 11)
// is past the budget.
TEST(BankGenerator, SplitsCasesUnderConditions) {
  std::vector<std::vector<vm::Value>> inputs;
  for (int k = 0; k < 120; ++k)
    inputs.push_back(
        {vm::Value::of_int(k < 8 ? std::vector<int>{298, 299, 300, 301, 698, 699, 700, 701}[size_t(k)]
                                 : (k * 7919) % 2000 - 500)});
  const auto step = [](const std::vector<vm::Value>& in) {
    return vm::Value::of_str(in[0].i < 300 ? "low" : in[0].i < 700 ? "mid" : "high");
  };
  const suites::Problem p = split_problem(
      "fn solve(n: int) -> str", R"({"int": [300, 700], "str": ["low", "mid", "high"]})", inputs, step, 60);
  const SearchOutcome r = search_bank(p, true, 5000);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.solution.find("if n < 300 {"), std::string::npos) << r.solution;
  EXPECT_FALSE(search_bank(p, false, 5000).solved);
}

// A term that traps where its branch is not taken: a / b, except 0 where b is 0 (6 of 30 cases).
// The split's term a / b runs only where b != 0.
TEST(BankGenerator, ASplitTermMayTrapElsewhere) {
  std::vector<std::vector<vm::Value>> inputs;
  for (int k = 0; k < 40; ++k)
    inputs.push_back(
        {vm::Value::of_int((k * 37) % 101 - 50), vm::Value::of_int(k % 5 == 0 ? 0 : (k * 13) % 17 - 8)});
  const auto divide = [](const std::vector<vm::Value>& in) {
    return vm::Value::of_int(in[1].i == 0 ? 0 : in[0].i / in[1].i);
  };
  const suites::Problem p = split_problem("fn solve(a: int, b: int) -> int", "{}", inputs, divide, 30);
  const SearchOutcome split = search_bank(p, true, 10'000);
  ASSERT_TRUE(split.solved) << split.best_source;
  EXPECT_TRUE(split.generalises) << split.solution;
  EXPECT_NE(split.solution.find("return a / b;"), std::string::npos) << split.solution;
  EXPECT_FALSE(search_bank(p, false, 10'000).solved);  // the guard as an expression is size 8
  std::printf("after %llu candidates:\n%s", (unsigned long long)split.candidates, split.solution.c_str());
}

// Two results, one of them a string around an int: the goals (search/goal_shapes.h) are each
// result's outputs and, for the string, the ints str() turns into the part between the affixes.
TEST(BankGenerator, AssemblesResultsFromGoals) {
  std::vector<std::vector<vm::Value>> inputs;
  for (int k = 0; k < 40; ++k) {
    std::vector<vm::Value> items;
    for (int j = 0; j < k % 7; ++j) items.push_back(vm::Value::of_int((k * 31 + j * 17) % 41 - 20));
    inputs.push_back({vm::Value::of_array(Type::Int, items)});
  }
  const auto f = [](const std::vector<vm::Value>& in) {
    i64 sum = 0;
    for (const vm::Value& v : in[0].items) sum += v.i;
    return std::vector<vm::Value>{vm::Value::of_str("The sum is " + std::to_string(sum) + "."),
                                  vm::Value::of_int(i64(in[0].items.size()))};
  };
  suites::Problem p;
  p.name = "sum-and-length";
  std::string error;
  ASSERT_TRUE(suites::parse_signature("fn solve(xs: [int]) -> (str, int)", &p.signature, &error)) << error;
  for (u32 k = 0; k < inputs.size(); ++k) (k < 30 ? p.train : p.test).push_back({inputs[k], f(inputs[k])});
  const SearchOutcome r = search_bank(p, true, 10'000, 0);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.solution.find("return (\"The sum is \" + str(sum(xs)) + \".\", len(xs));"), std::string::npos)
      << r.solution;
}

}  // namespace
}  // namespace gs::search
