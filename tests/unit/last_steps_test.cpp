// The last steps of an answer (search/last_steps.h): every goal a step gives is what goes into
// the step — its written-out Syn, compiled and run by the VM on the goal's outputs and the
// problem's inputs, gives back the result's outputs, on random problems where every kind of step
// applies — and a step is offered only where its inverse is exact; the enumeration solves a
// problem through them.
#include "search/last_steps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "search/bank_enumerator.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "tests/unit/compiled_program.h"
#include "tests/unit/int_list.h"
#include "vm/runner.h"

namespace gs::search {
namespace {

using vm::Value;

Value list(const std::vector<i64>& xs) { return testing::int_list(xs); }

// A problem `fn solve(xs: [int], ys: [int], n: int) -> [int]` of these train cases.
suites::Problem problem(const std::vector<std::vector<Value>>& inputs, const std::vector<Value>& outputs) {
  nlohmann::json j{{"name", "last-steps"},
                   {"signature", "fn solve(xs: [int], ys: [int], n: int) -> [int]"},
                   {"train", nlohmann::json::array()}};
  for (size_t k = 0; k < inputs.size(); ++k) {
    nlohmann::json in = nlohmann::json::array(), out = nlohmann::json::array();
    for (const Value& x : inputs[k][0].items) in.push_back(x.i);
    nlohmann::json ys = nlohmann::json::array();
    for (const Value& x : inputs[k][1].items) ys.push_back(x.i);
    for (const Value& x : outputs[k].items) out.push_back(x.i);
    j["train"].push_back({{"inputs", {in, ys, inputs[k][2].i}}, {"outputs", {out}}});
  }
  std::string error;
  std::optional<suites::Problem> p = suites::parse_problem(j.dump(), "last-steps.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

GoalShape plain(const suites::Problem& p) {
  GoalShape g;
  g.type = Type::IntArray;
  for (const suites::Case& c : p.train) g.outputs.push_back(c.outputs[0]);
  return g;
}

const GoalShape* find(const std::vector<GoalShape>& goals, const std::string& text) {
  for (const GoalShape& g : goals)
    if (g.step.text == text) return &g;
  return nullptr;
}

TEST(LastSteps, EveryGoalGoesIntoItsStep) {
  std::mt19937_64 rng(7);
  std::set<std::string> outer;  // the outermost step of every goal checked
  u64 checked = 0, three_deep = 0;
  vm::Runner runner;
  for (int round = 0; round < 80; ++round) {
    // Outputs that every step can take now and then: sorted, multiples of 12 or of ys's
    // elements, as long as ys.
    const int shape = round % 5;
    std::vector<std::vector<Value>> inputs;
    std::vector<Value> outputs;
    for (int k = 0; k < 5; ++k) {
      std::vector<i64> xs, ys, out;
      const int n = int(rng() % 6) + 1;
      for (int j = 0; j < n; ++j) {
        xs.push_back(i64(rng() % 21) - 10);
        ys.push_back(i64(rng() % 21) - 10);
        out.push_back((i64(rng() % 21) - 10) * (shape == 1 ? 12 : 1));
      }
      if (shape == 4)
        for (int j = 0; j < n; ++j) out[j] = (ys[j] = ys[j] == 0 ? 3 : ys[j]) * (out[j] + 11);
      if (shape == 2) std::sort(out.begin(), out.end());
      if (shape == 3) std::sort(out.rbegin(), out.rend());
      if (shape == 0) ys.push_back(3);  // a ys longer than the outputs
      inputs.push_back({list(xs), list(ys), Value::of_int(i64(rng() % 7) - 3)});
      outputs.push_back(list(out));
    }
    const suites::Problem p = problem(inputs, outputs);
    // Two steps deep, and every fourth round three (a step inside two others).
    std::vector<GoalShape> goals = last_step_goals(plain(p), p, 2);
    if (round % 4 == 0) {
      std::set<std::string> two;
      for (const GoalShape& g : goals) two.insert(g.step.text);
      for (GoalShape& g : last_step_goals(plain(p), p, 3))
        if (!two.count(g.step.text)) {
          ++three_deep;
          goals.push_back(std::move(g));
        }
    }
    for (const GoalShape& g : goals) {
      ASSERT_EQ(g.outputs.size(), outputs.size());
      EXPECT_TRUE(g.type == Type::IntArray && !g.plain());
      std::string source = "fn solve(xs: [int], ys: [int], n: int, e: [int]) -> [int] {\n  return ";
      const std::string e = "e";
      source += bank::substitute(g.step.text, {&e}) + ";\n}\n";
      for (const std::string& helper : g.step.helpers) source += helper;
      const std::optional<vm::Program> program = testing::compiled(source, "step");
      ASSERT_TRUE(program);
      for (size_t k = 0; k < outputs.size(); ++k) {
        std::vector<Value> args = inputs[k];
        args.push_back(g.outputs[k]);
        const vm::Outcome o = runner.run(*program, 0, args);
        ASSERT_EQ(o.trap, vm::Trap::NONE) << source;
        EXPECT_TRUE(vm::identical(o.results[0], outputs[k])) << "case " << k << "\n" << source;
      }
      outer.insert(g.step.text.substr(0, g.step.text.find('(')));
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
  EXPECT_GT(three_deep, 100u);
  for (const char* f : {"reverse", "sort", "scan_add", "map_mul", "map_negate", "map_add", "map_sub",
                        "zip_add", "zip_sub", "zip_mul"})
    EXPECT_TRUE(outer.count(f)) << f << " was never a last step";
}

TEST(LastSteps, OnlyWhereTheInverseIsExact) {
  const std::vector<Value> args = {list({5, 1}), list({1, 2, 3, 4}), Value::of_int(3)};
  const suites::Problem sorted = problem({args, args}, {list({1, 2, 3}), list({4, 5, 6})});
  const std::vector<GoalShape> goals = last_step_goals(plain(sorted), sorted);
  ASSERT_TRUE(find(goals, "sort($0)"));
  EXPECT_TRUE(find(goals, "sort($0)")->step.permutation);
  EXPECT_FALSE(find(goals, "reverse(sort($0))"));
  EXPECT_FALSE(find(goals, "map_mul($0, 2)"));  // 1 is odd
  ASSERT_TRUE(find(goals, "map_mul(reverse($0), 3)") == nullptr);
  ASSERT_TRUE(find(goals, "zip_sub(ys, $0)"));  // ys less the outputs, ys being longer
  EXPECT_TRUE(vm::identical(find(goals, "zip_sub(ys, $0)")->outputs[1], list({-3, -3, -3})));
  ASSERT_TRUE(find(goals, "map_sub($0, n)"));
  EXPECT_TRUE(vm::identical(find(goals, "map_sub($0, n)")->outputs[0], list({4, 5, 6})));
  ASSERT_TRUE(find(goals, "scan_add($0, 0)"));
  EXPECT_TRUE(vm::identical(find(goals, "scan_add($0, 0)")->outputs[1], list({4, 1, 1})));

  const suites::Problem even = problem({args, args}, {list({2, 8, 4}), list({-6, 0})});
  const std::vector<GoalShape> halves = last_step_goals(plain(even), even);
  ASSERT_TRUE(find(halves, "map_mul($0, 2)"));
  EXPECT_TRUE(vm::identical(find(halves, "map_mul($0, 2)")->outputs[0], list({1, 4, 2})));
  ASSERT_TRUE(find(halves, "reverse(map_mul($0, 2))"));  // two steps (and map_mul(reverse($0), 2) is alike)
  EXPECT_TRUE(vm::identical(find(halves, "reverse(map_mul($0, 2))")->outputs[0], list({2, 4, 1})));
  EXPECT_FALSE(find(halves, "map_mul(reverse($0), 2)"));
  EXPECT_FALSE(find(halves, "reverse(reverse($0))"));
  EXPECT_FALSE(find(halves, "sort($0)"));
  EXPECT_FALSE(find(halves, "zip_add($0, xs)"));             // xs is shorter than the outputs
  std::set<std::pair<std::vector<std::string>, bool>> seen;  // each goal once
  for (const GoalShape& g : halves) {
    std::vector<std::string> outputs;
    for (const Value& v : g.outputs) outputs.push_back(vm::to_json(v));
    EXPECT_TRUE(seen.insert({outputs, g.step.permutation}).second) << g.step.text;
  }

  // No step negates the least int, and none comes of outputs without an element or of other types.
  const suites::Problem least = problem({args}, {list({INT64_MIN})});
  EXPECT_FALSE(find(last_step_goals(plain(least), least), "map_negate($0)"));
  const suites::Problem empty = problem({args, args}, {list({}), list({})});
  EXPECT_TRUE(last_step_goals(plain(empty), empty).empty());
  GoalShape ints = plain(sorted);
  ints.type = Type::Int;
  EXPECT_TRUE(last_step_goals(ints, sorted).empty());
}

// An answer three nodes past what the bank meets: the doubled running sums of the list in reverse,
// `reverse(map_mul(scan_add(xs, 0), 2))`, found where scan_add(xs, 0) is banked, and judged by the
// pipeline on cases it never saw.
TEST(LastSteps, TheEnumerationEndsAnAnswerWithThem) {
  std::vector<std::vector<Value>> train, test;
  std::vector<Value> outputs;
  auto answer = [](const Value& xs) {
    std::vector<i64> out;
    i64 sum = 0;
    for (const Value& x : xs.items) out.push_back(2 * (sum += x.i));
    std::reverse(out.begin(), out.end());
    return list(out);
  };
  for (int k = 0; k < 14; ++k) {
    std::vector<i64> xs;
    for (int j = 0; j < k % 5 + 2; ++j) xs.push_back((k * 7 + j * 5) % 11 - 4);
    (k < 8 ? train : test).push_back({list(xs), list({}), Value::of_int(5)});
  }
  for (const auto& in : train) outputs.push_back(answer(in[0]));
  suites::Problem p = problem(train, outputs);
  for (const auto& in : test) p.test.push_back({in, {answer(in[0])}});
  SearchConfig config;
  config.batch = 500;
  config.budget.candidates = 60000;
  // Two steps deep, the answer is met where scan_add(xs, 0) is banked; three deep, by xs itself.
  for (const auto& [depth, answer_text] :
       {std::pair<u32, const char*>{2, "return reverse(map_mul(scan_add(xs, 0), 2));"},
        {3, "return reverse(scan_add(map_mul(xs, 2), 0));"}}) {
    EnumerateSettings settings;
    settings.lambdas = false;  // the bank alone
    settings.last_steps = depth;
    auto g = make_enumerate_generator(p, settings);
    const SearchOutcome r = run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
    ASSERT_TRUE(r.solved) << r.best_source;
    EXPECT_TRUE(r.generalises) << r.solution;
    EXPECT_NE(r.solution.find(answer_text), std::string::npos) << r.solution;
    EXPECT_LT(r.candidates_to_solution, depth == 2 ? 2000u : 10u) << r.solution;
    EXPECT_EQ(r.uses, (std::vector<std::string>{
                          "0 () -> int", "2 () -> int", "map_mul($0, $1) ([int], int) -> [int]",
                          "reverse($0) ([int]) -> [int]", "scan_add($0, $1) ([int], int) -> [int]"}))
        << "the last steps' productions and constants, for the search policy";
  }
}

}  // namespace
}  // namespace gs::search
