// The forward steps of an answer (search/forward_steps.h): each step's sketch is what its
// Operation — the VM — gives, trap for trap and element for element, on random lists, indices and
// parameters (the sketch decides which steps the VM is asked for, so one that disagreed would hide
// answers); the enumeration ends an answer with a step that has no inverse, and without the
// steps the same budget does not reach it.
#include "search/forward_steps.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "search/generator.h"
#include "search/search_loop.h"
#include "tests/unit/int_list.h"

namespace gs::search {
namespace {

using vm::Value;

Value list(const std::vector<i64>& xs) { return testing::int_list(xs); }

// A problem `fn solve(xs: [int], n: int, ys: [int]) -> RESULT` of these train cases (outputs as JSON).
suites::Problem problem(const std::string& result, const std::vector<std::vector<Value>>& inputs,
                        const std::vector<nlohmann::json>& outputs) {
  nlohmann::json j{{"name", "forward-steps"},
                   {"signature", "fn solve(xs: [int], n: int, ys: [int]) -> " + result},
                   {"train", nlohmann::json::array()}};
  auto items = [](const Value& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const Value& x : v.items) a.push_back(x.i);
    return a;
  };
  for (size_t k = 0; k < inputs.size(); ++k)
    j["train"].push_back(
        {{"inputs", {items(inputs[k][0]), inputs[k][1].i, items(inputs[k][2])}}, {"outputs", {outputs[k]}}});
  std::string error;
  std::optional<suites::Problem> p = suites::parse_problem(j.dump(), "forward-steps.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

TEST(ForwardSteps, TheSketchIsWhatTheVMGives) {
  std::mt19937_64 rng(21);
  const i64 lo = std::numeric_limits<i64>::min(), hi = std::numeric_limits<i64>::max();
  auto draw = [&](u32 length) {
    std::vector<i64> xs;
    for (u32 j = 0; j < length; ++j) {
      const u64 pick = rng() % 10;
      xs.push_back(pick == 0 ? lo : pick == 1 ? hi : pick == 2 ? i64(rng()) : i64(rng() % 41) - 20);
    }
    return xs;
  };
  std::set<ForwardStep::Kind> seen;
  u64 compared = 0, lengths = 0;
  for (int round = 0; round < 40; ++round) {
    std::vector<std::vector<Value>> inputs;
    for (u32 k = 0; k < 6; ++k)
      inputs.push_back(
          {list(draw(u32(rng() % 9))), Value::of_int(i64(rng() % 13) - 3), list(draw(u32(rng() % 9)))});
    const std::vector<nlohmann::json> outputs(inputs.size(), nlohmann::json::array());
    const suites::Problem p = problem("[int]", inputs, outputs);
    const suites::Problem q = problem("int", inputs, std::vector<nlohmann::json>(inputs.size(), 0));
    std::vector<ForwardStep> steps = forward_steps(p);
    for (ForwardStep& s : forward_steps(q)) steps.push_back(std::move(s));
    bank::Cases cases(p.signature.params, inputs, vm::Limits{});
    for (const ForwardStep& step : steps) {
      seen.insert(step.kind);
      std::vector<const bank::Behaviour*> operands = {&cases.parameter(0)};
      if (step.parameter) operands.push_back(&cases.parameter(*step.parameter));
      const bank::Behaviour out = step.operation->apply(operands, cases);
      for (u32 k = 0; k < cases.count(); ++k) {
        std::vector<u64> xs, ys;
        for (const Value& x : inputs[k][0].items) xs.push_back(u64(x.i));
        const Value& parameter = inputs[k][step.parameter.value_or(1)];  // xs, n or ys
        for (const Value& y : parameter.items) ys.push_back(u64(y.i));
        Sketch s;
        sketch(step, xs, parameter.i, ys, &s);
        ++compared;
        ASSERT_EQ(s.traps, out.traps[k] != u8(vm::Trap::NONE)) << step.text << " on case " << k;
        if (s.traps) continue;
        if (step.result == Type::Int) {
          EXPECT_EQ(s.value, i64(out.words[k])) << step.text << " on case " << k;
        } else {
          std::vector<i64> vm_items;
          for (const Value& x : cases.value(out, k).items) vm_items.push_back(x.i);
          EXPECT_EQ(s.items, vm_items) << step.text << " on case " << k;
          // The length known before the sketch, where it is (the steps are passed over by it).
          if (const std::optional<size_t> length = sketch_length(step, xs.size(), parameter.i, ys.size())) {
            EXPECT_EQ(*length, vm_items.size()) << step.text << " on case " << k;
            ++lengths;
          }
        }
      }
    }
  }
  EXPECT_EQ(seen.size(), size_t(ForwardStep::Kind::Drop) + 1) << "every kind of step is compared";
  EXPECT_GT(compared, 5000u);
  EXPECT_GT(lengths, 1000u);
}

TEST(ForwardSteps, NoneWithoutAnIntOrListResult) {
  const std::vector<std::vector<Value>> inputs = {{list({1}), Value::of_int(0), list({2})}};
  EXPECT_TRUE(forward_steps(problem("bool", inputs, {true})).empty());
  std::set<std::string> texts;
  for (const ForwardStep& s : forward_steps(problem("int", inputs, {1}))) {
    EXPECT_EQ(s.result, Type::Int) << s.text;
    texts.insert(s.text);
  }
  EXPECT_TRUE(texts.count("$0[$1]")) << "n is an int parameter";
  EXPECT_EQ(around(forward_steps(problem("int", inputs, {1}))[0], "xs + ys", ""), "sum(xs + ys)");
}

// The running max of xs - ys: zip_sub(xs, ys) is banked at size 3, and scan_max from the first
// element on (DeepCoder's scanl1 max) has no inverse to seek a goal by.
TEST(ForwardSteps, TheEnumerationEndsAnAnswerWithThem) {
  std::vector<std::vector<Value>> train, test;
  auto answer = [](const std::vector<Value>& in) {
    nlohmann::json out = nlohmann::json::array();
    i64 best = std::numeric_limits<i64>::min();
    for (size_t i = 0; i < std::min(in[0].items.size(), in[2].items.size()); ++i)
      out.push_back(best = std::max(best, in[0].items[i].i - in[2].items[i].i));
    return out;
  };
  for (int k = 0; k < 14; ++k) {
    std::vector<i64> xs, ys;
    for (int j = 0; j < k % 5 + 3; ++j) {
      xs.push_back((k * 7 + j * 5) % 11 - 4);
      ys.push_back((k * 3 + j * 13) % 9 - 2);
    }
    (k < 8 ? train : test).push_back({list(xs), Value::of_int(k), list(ys)});
  }
  std::vector<nlohmann::json> outputs;
  for (const auto& in : train) outputs.push_back(answer(in));
  suites::Problem p = problem("[int]", train, outputs);
  for (const auto& in : test) {
    std::vector<i64> out;
    for (const auto& x : answer(in)) out.push_back(x.get<i64>());
    p.test.push_back({in, {list(out)}});
  }
  SearchConfig config;
  config.batch = 500;
  config.budget.candidates = 20000;
  for (bool forward : {true, false}) {
    EnumerateSettings settings;
    settings.lambdas = false;  // the bank alone
    settings.last_steps = 2;   // as when the bound below was set (three back: 4,146 candidates)
    settings.forward_steps = forward;
    auto g = make_enumerate_generator(p, settings);
    const SearchOutcome r = run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
    if (!forward) {
      EXPECT_FALSE(r.solved) << "without the steps: " << r.solution;
      continue;
    }
    ASSERT_TRUE(r.solved) << r.best_source;
    EXPECT_TRUE(r.generalises) << r.solution;
    EXPECT_NE(r.solution.find("scan_max(zip_sub(xs, ys), -9223372036854775807 - 1)"), std::string::npos)
        << r.solution;
    EXPECT_LT(r.candidates_to_solution, 3000u) << "met where zip_sub(xs, ys) is banked";
    EXPECT_EQ(r.uses, (std::vector<std::string>{"scan_max($0, $1) ([int], int) -> [int]",
                                                "zip_sub($0, $1) ([int], [int]) -> [int]"}))
        << "an assembled answer's productions, its last forward step's among them, for the search policy";
  }
}

// The steps are sketched on the train case whose output says most: here the first case's output
// is [] — the positive elements of xs - ys, none there — which nearly every filter of a banked list
// gives on it, so that sketched on the first case, thousands of steps were applied on every case
// by the VM and counted as candidates (474,740 to the answer; 505 now).
TEST(ForwardSteps, AreSketchedOnTheCaseWhoseOutputSaysMost) {
  std::vector<std::vector<Value>> train;
  std::vector<nlohmann::json> outputs;
  for (int k = 0; k < 8; ++k) {
    std::vector<i64> xs, ys;
    for (int j = 0; j < k % 5 + 4; ++j) {
      xs.push_back(k == 0 ? -j - 1 : (k * 7 + j * 5) % 11 - 4);
      ys.push_back(k == 0 ? j : (k * 3 + j * 13) % 9 - 2);
    }
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < xs.size(); ++i)
      if (xs[i] - ys[i] > 0) out.push_back(xs[i] - ys[i]);
    train.push_back({list(xs), Value::of_int(k), list(ys)});
    outputs.push_back(out);
  }
  ASSERT_TRUE(outputs[0].empty());
  const suites::Problem p = problem("[int]", train, outputs);
  SearchConfig config;
  config.batch = 500;
  config.budget.candidates = 20000;
  EnumerateSettings settings;
  settings.lambdas = false;  // the bank alone
  auto g = make_enumerate_generator(p, settings);
  const SearchOutcome r = run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_NE(r.solution.find("filter_gt(zip_sub(xs, ys), 0)"), std::string::npos) << r.solution;
  EXPECT_LT(r.candidates_to_solution, 2000u) << "few steps applied on every case";
}

}  // namespace
}  // namespace gs::search
