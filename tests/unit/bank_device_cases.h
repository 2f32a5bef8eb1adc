// What the value bank's device tests (bank_device_test.cpp on the host, bank_device_cuda_test.cpp
// on a GPU) run a device on: random word behaviours with traps and the awkward words (INT64_MIN,
// -1, 0, NaN, infinities, -0.0), the heap-free productions over them, and an enumeration of ints
// and bools to run with a device and without.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/hash.h"
#include "search/bank_device.h"
#include "search/bank_enumerator.h"
#include "search/bank_grammar.h"
#include "search/value_bank.h"

namespace gs::search::bank::testing {

inline u64 float_word(double d) {
  u64 w = 0;
  std::memcpy(&w, &d, sizeof w);
  return w;
}

// A behaviour of type t over n cases: about one case in eight traps (a random code), the rest
// random or awkward words.
inline Behaviour random_behaviour(Type t, u32 n, std::mt19937_64& rng) {
  Behaviour b{t, std::vector<u64>(n, 0), std::vector<u8>(n, u8(vm::Trap::NONE))};
  const i64 ints[] = {
      0, 1, -1, 2, 7, -7, 63, 64, std::numeric_limits<i64>::min(), std::numeric_limits<i64>::max()};
  const double floats[] = {0.0,
                           -0.0,
                           1.5,
                           -2.25,
                           1e300,
                           std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (u32 k = 0; k < n; ++k) {
    if (rng() % 8 == 0) {
      b.traps[k] = u8(1 + rng() % (vm::kTrapCount - 1));
      continue;
    }
    const bool awkward = rng() % 3 == 0;
    if (t == Type::Bool) b.words[k] = rng() % 2;
    if (t == Type::Int) b.words[k] = awkward ? u64(ints[rng() % 10]) : u64(i64(rng() % 41) - 20);
    if (t == Type::Float)
      b.words[k] = float_word(awkward ? floats[rng() % 8] : double(i64(rng() % 2001) - 1000) / 8);
  }
  return b;
}

// Operations whose applications take the direct scalar path, of one or two word operands.
inline std::vector<Operation> scalar_operations() {
  const Type I = Type::Int, F = Type::Float, B = Type::Bool;
  std::vector<Operation> ops;
  for (const char* body : {"a0 + a1", "a0 - a1", "a0 * a1", "a0 / a1", "a0 % a1", "min(a0, a1)",
                           "max(a0, a1)", "a0 & a1", "a0 << a1"})
    ops.emplace_back(std::vector<Type>{I, I}, I, body);
  for (const char* body : {"a0 < a1", "a0 == a1", "a0 >= a1"})
    ops.emplace_back(std::vector<Type>{I, I}, B, body);
  for (const char* body : {"a0 + a1", "a0 / a1", "a0 * a1"})
    ops.emplace_back(std::vector<Type>{F, F}, F, body);
  for (const char* body : {"a0 < a1", "a0 == a1"}) ops.emplace_back(std::vector<Type>{F, F}, B, body);
  ops.emplace_back(std::vector<Type>{I}, I, "abs(a0)");
  ops.emplace_back(std::vector<Type>{I}, I, "-a0");
  ops.emplace_back(std::vector<Type>{I}, F, "float(a0)");
  ops.emplace_back(std::vector<Type>{F}, I, "int(a0)");
  ops.emplace_back(std::vector<Type>{B}, B, "!a0");
  ops.emplace_back(std::vector<Type>{B, B}, B, "a0 == a1");
  return ops;
}

// Every scalar operation on `device` against Operation::apply on the host: `tuples` random
// applications of each over `pool` random behaviours per type, outputs, traps and hashes.
inline void expect_device_applies_as_the_host(BankDevice& device, Cases& cases, u32 pool, u32 tuples,
                                              u64 seed) {
  std::mt19937_64 rng(seed);
  const u32 n = cases.count();
  std::vector<Behaviour> kept;
  for (Type t : {Type::Int, Type::Float, Type::Bool})
    for (u32 i = 0; i < pool; ++i) {
      kept.push_back(random_behaviour(t, n, rng));
      device.keep(u32(kept.size() - 1) * 3, kept.back());  // ids need only grow
    }
  u32 direct = 0;
  for (const Operation& op : scalar_operations()) {
    const std::optional<vm::Op> instruction = op.scalar_instruction(cases);
    if (!instruction) continue;
    ++direct;
    std::vector<u32> ids;
    std::vector<const Behaviour*> operands;
    for (u32 j = 0; j < tuples; ++j)
      for (u32 a = 0; a < op.arity(); ++a) {
        const u32 index = u32(rng() % kept.size());  // an operand of the operation's type: retried
        u32 at = index;
        while (kept[at].type != op.operand(a)) at = (at + 1) % u32(kept.size());
        ids.push_back(at * 3);
        operands.push_back(&kept[at]);
      }
    std::vector<u64> hashes(tuples);
    device.apply(*instruction, op.result(), op.arity(), ids, hashes);
    std::vector<u32> every(tuples);  // fetched in a shuffled order
    for (u32 j = 0; j < tuples; ++j) every[j] = j;
    std::shuffle(every.begin(), every.end(), rng);
    std::vector<Behaviour> shuffled(tuples), outs(tuples);
    device.outputs(every, shuffled);
    for (u32 i = 0; i < tuples; ++i) outs[every[i]] = shuffled[i];
    for (u32 j = 0; j < tuples; ++j) {
      const Behaviour want = op.apply({operands.data() + u64(j) * op.arity(), op.arity()}, cases);
      ASSERT_EQ(outs[j].type, want.type) << op.source();
      ASSERT_EQ(outs[j].traps, want.traps) << op.source() << " tuple " << j;
      ASSERT_EQ(outs[j].words, want.words) << op.source() << " tuple " << j;
      // The hash from the outputs as the pipeline hashes them (case_hash reads the case's heap
      // the way pipeline::result_hash does), not behaviour_hash's own path for words.
      u64 sum = 0;
      for (u32 k = 0; k < n; ++k)  // each case hash times its case's odd weight (search/bank_words.h)
        sum += case_hash(want, cases, k) * (mix_word(0x243f6a8885a308d3ull, k) | 1);
      const u64 hash = mix_word(kHashSeed, sum);
      ASSERT_EQ(hashes[j], hash) << op.source() << " tuple " << j;
      ASSERT_EQ(behaviour_hash(want, cases), hash) << op.source() << " tuple " << j;
    }
  }
  EXPECT_GE(direct, 20u) << "too few of the operations take the direct path";
}

// Cases of two int parameters, n of them (their inputs random).
inline std::unique_ptr<Cases> int_cases(u32 n, u64 seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<vm::Value>> inputs;
  for (u32 k = 0; k < n; ++k)
    inputs.push_back({vm::Value::of_int(i64(rng() % 201) - 100), vm::Value::of_int(i64(rng() % 21) - 10)});
  const std::vector<Type> params = {Type::Int, Type::Int};
  return std::make_unique<Cases>(params, inputs, vm::Limits{});
}

// An enumeration over ints and bools (a, b and 0 1 2 true false; the grammar's productions,
// choose among them) on `cases`, with `device` when given: the texts and behaviours of what it
// banks after `budget` expressions, and the expressions it evaluated.
struct Enumerated {
  std::vector<std::string> texts;
  std::vector<Behaviour> behaviours;
  u64 evaluated = 0;
};
inline Enumerated enumerate(Cases& cases, std::unique_ptr<BankDevice> device, u64 budget) {
  const std::set<Type> types = {Type::Int, Type::Bool};
  std::vector<Leaf> leaves = {{"a", cases.parameter(0)}, {"b", cases.parameter(1)}};
  for (const vm::Value& c : small_constants(types))
    leaves.push_back({"c" + std::to_string(leaves.size()), constant(c, cases)});
  BankEnumerator e(cases, std::move(leaves), grammar(types, false, true), "a: int, b: int");
  if (device) e.evaluate_on(std::move(device));
  EnumerationStats stats;
  const std::vector<u64> unmet(cases.count(), 12345);  // an int goal no expression meets
  e.search(Type::Int, unmet, 12, budget, &stats);
  Enumerated out;
  for (u32 id = 0; id < e.count(); ++id) {
    out.texts.push_back(e.text(id));
    out.behaviours.push_back(e.behaviour(id));
  }
  out.evaluated = stats.evaluated;
  return out;
}

inline void expect_same(const Enumerated& a, const Enumerated& b) {
  EXPECT_EQ(a.evaluated, b.evaluated);
  ASSERT_EQ(a.texts.size(), b.texts.size());
  for (size_t i = 0; i < a.texts.size(); ++i) {
    ASSERT_EQ(a.texts[i], b.texts[i]) << "entry " << i;
    ASSERT_EQ(a.behaviours[i].words, b.behaviours[i].words) << a.texts[i];
    ASSERT_EQ(a.behaviours[i].traps, b.behaviours[i].traps) << a.texts[i];
  }
}

}  // namespace gs::search::bank::testing
