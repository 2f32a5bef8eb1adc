// Lambda bodies in the value bank (search/bank_lambdas.h): every map, filter, count and find leaf's
// behaviour, assembled from its body's outputs on the elements, is what its written-out program
// computes when compiled and run by the VM — outputs and traps, on random lists that make bodies
// trap (an index past the end, a division by zero); and the bank generator solves problems whose
// answer is such a loop, judged by the pipeline on cases it never saw.
#include "search/bank_lambdas.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "search/bank_grammar.h"
#include "search/generator.h"
#include "search/search_loop.h"
#include "suites/problem.h"
#include "tests/unit/compiled_program.h"
#include "tests/unit/int_list.h"
#include "vm/runner.h"

namespace gs::search {
namespace {

using vm::Value;
const Type I = Type::Int, A = Type::IntArray, B = Type::Bool;

Value list(const std::vector<i64>& xs) { return testing::int_list(xs); }

std::vector<bank::Production> body_productions() {
  std::vector<bank::Production> p;
  for (const char* op : {"$0 + $1", "$0 - $1", "$0 * $1", "$0 / $1", "$0 % $1"})
    p.push_back(bank::operation_production({I, I}, I, op));
  p.push_back(bank::operation_production({A, I}, I, "$0[$1]"));
  p.push_back(bank::operation_production({A}, I, "len($0)"));
  for (const char* op : {"$0 < $1", "$0 == $1"}) p.push_back(bank::operation_production({I, I}, B, op));
  p.push_back(bank::choose_production(I));
  // A flat map's lists: [x], push([x], i), and a loop that builds one (its helper compiled with it).
  p.push_back(bank::operation_production({I}, A, "[$0]"));
  p.push_back(bank::operation_production({A, I}, A, "push($0, $1)"));
  for (const bank::Production& q : bank::grammar({I, B, A}, true, false))
    if (q.text.rfind("range_to(", 0) == 0) p.push_back(q);
  return p;
}

// Every leaf's behaviour is what its written-out program computes, compiled and run by the VM
// over `parameters` on each case: the traps (none for a full heap) and the outputs. The traps
// compared; the values compared in *values.
u64 expect_programs_compute(const bank::LambdaLeaves& lambdas, const std::string& parameters,
                            const std::vector<std::vector<Value>>& inputs, bank::Cases& cases,
                            u64* values = nullptr) {
  u64 traps = 0;
  vm::Runner runner;
  for (const bank::Leaf& leaf : lambdas.leaves) {
    const std::string source = "fn solve(" + parameters + ") -> " +
                               std::string(type_name(leaf.behaviour.type)) + " {\n  return " + leaf.text +
                               ";\n}\n" + leaf.helper();
    const std::optional<vm::Program> program = testing::compiled(source, "leaf");
    EXPECT_TRUE(program);
    if (!program) return traps;
    for (u32 k = 0; k < inputs.size(); ++k) {
      const vm::Outcome o = runner.run(*program, 0, inputs[k]);
      EXPECT_EQ(u8(o.trap), leaf.behaviour.traps[k]) << "case " << k << "\n" << source;
      EXPECT_NE(o.trap, vm::Trap::HEAP_EXHAUSTED) << source;
      if (o.trap != vm::Trap::NONE) {
        ++traps;
        continue;
      }
      if (values != nullptr) ++*values;
      EXPECT_TRUE(vm::identical(o.results[0], cases.value(leaf.behaviour, k))) << "case " << k << "\n"
                                                                               << source;
    }
  }
  return traps;
}

TEST(BankLambdas, EveryLeafIsWhatItsProgramComputes) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<Value>> inputs;
  for (int k = 0; k < 12; ++k) {
    std::vector<i64> xs(rng() % 6);  // empty lists too
    for (i64& x : xs) x = i64(rng() % 9) - 3;
    inputs.push_back({list(xs), Value::of_int(i64(rng() % 5) - 1)});
  }
  const std::vector<Type> params = {A, I};
  const std::vector<std::string> names = {"xs", "n"};
  bank::Cases cases(params, inputs, vm::Limits{});
  std::vector<std::pair<std::string, Value>> constants = {{"0", Value::of_int(0)}, {"2", Value::of_int(2)}};
  bank::LambdaSettings settings;
  settings.budget = 4000;
  const bank::LambdaLeaves lambdas =
      bank::lambda_leaves(params, names, inputs, cases, constants, body_productions, settings);
  ASSERT_GT(lambdas.leaves.size(), 1000u);
  EXPECT_GT(std::count_if(lambdas.leaves.begin(), lambdas.leaves.end(),
                          [](const bank::Leaf& l) { return l.text.rfind("flat_map_", 0) == 0; }),
            40);
  EXPECT_EQ(lambdas.evaluated, 4000u);
  u64 values = 0;
  const u64 traps = expect_programs_compute(lambdas, "xs: [int], n: int", inputs, cases, &values);
  EXPECT_GT(traps, 100u);  // the bodies' traps were reached and compared
  std::printf("%zu leaves, %llu values and %llu traps compared\n", lambdas.leaves.size(),
              (unsigned long long)values, (unsigned long long)traps);
}

// Strs and [str]s: a str's elements are its characters' codes, a [str]'s its strs; str bodies map
// a [str], a str's filter keeps characters. Small heaps: the leaves that make lists and strs stop at
// half of each case's heap (the rest is the enumeration's), and none of those made traps for it.
TEST(BankLambdas, LeavesOverStrsAreWhatTheirProgramsCompute) {
  const Type S = Type::Str, SA = Type::StrArray;
  std::mt19937_64 rng(5);
  const auto word = [&] {
    std::string s(rng() % 5, ' ');
    for (char& ch : s) ch = "ab c\xe9"[rng() % 5];
    return s;
  };
  std::vector<std::vector<Value>> inputs;
  for (int k = 0; k < 12; ++k) {
    std::vector<Value> words(rng() % 4);
    for (Value& w : words) w = Value::of_str(word());
    inputs.push_back({Value::of_str(word()), Value::of_array(S, std::move(words))});
  }
  const std::vector<Type> params = {S, SA};
  const std::vector<std::string> names = {"s", "ws"};
  vm::Limits limits;
  limits.heap_bytes = 16384;
  bank::Cases cases(params, inputs, limits);
  const std::vector<std::pair<std::string, Value>> constants = {{"1", Value::of_int(1)},
                                                                {"\"a\"", Value::of_str("a")}};
  const auto productions = [&] {
    std::vector<bank::Production> p;
    p.push_back(bank::operation_production({S}, I, "len($0)"));
    p.push_back(bank::operation_production({S, I}, I, "$0[$1]"));
    p.push_back(bank::operation_production({SA, I}, S, "$0[$1]"));
    p.push_back(bank::operation_production({I}, S, "chr($0)"));
    p.push_back(bank::operation_production({I}, S, "str($0)"));
    p.push_back(bank::operation_production({S, S}, S, "$0 + $1"));
    p.push_back(bank::operation_production({S, S}, B, "contains($0, $1)"));
    p.push_back(bank::operation_production({I, I}, I, "$0 - $1"));
    p.push_back(bank::operation_production({I, I}, B, "$0 < $1"));
    return p;
  };
  bank::LambdaSettings settings;
  settings.budget = 3000;
  const bank::LambdaLeaves lambdas =
      bank::lambda_leaves(params, names, inputs, cases, constants, productions, settings);
  std::map<std::string, u32> forms;  // leaves by form and type
  for (const bank::Leaf& leaf : lambdas.leaves)
    ++forms[leaf.text.substr(0, leaf.text.find('_')) + " " + type_name(leaf.behaviour.type)];
  const u64 traps = expect_programs_compute(lambdas, "s: str, ws: [str]", inputs, cases);
  for (const char* form : {"map [int]", "map [str]", "filter str", "filter [str]", "count int", "find int"})
    EXPECT_GT(forms[form], 0u) << form;
  EXPECT_GT(traps, 10u);  // s[i] past a word's end
  for (u32 k = 0; k < inputs.size(); ++k) EXPECT_LE(cases.machine(k).heap.used, limits.heap_bytes / 2);
  // With room, more lists and strs: the halves were what stopped them.
  const auto lists = [](const bank::LambdaLeaves& l) {
    return std::count_if(l.leaves.begin(), l.leaves.end(),
                         [](const bank::Leaf& f) { return f.behaviour.type != I; });
  };
  bank::Cases roomy(params, inputs, vm::Limits{});
  EXPECT_LT(lists(lambdas),
            lists(bank::lambda_leaves(params, names, inputs, roomy, constants, productions, settings)));
}

suites::Problem list_problem(const char* name, const char* signature, i64 (*answer)(const std::vector<i64>&),
                             bool list_answer, std::vector<i64> (*list_of)(const std::vector<i64>&)) {
  suites::Problem p;
  p.name = name;
  std::string error;
  EXPECT_TRUE(suites::parse_signature(signature, &p.signature, &error)) << error;
  std::mt19937_64 rng(11);
  for (int k = 0; k < 26; ++k) {
    std::vector<i64> xs(1 + rng() % 10);
    for (i64& x : xs) x = i64(rng() % 100);
    suites::Case c{{list(xs)}, {list_answer ? list(list_of(xs)) : Value::of_int(answer(xs))}};
    (k < 20 ? p.train : p.test).push_back(std::move(c));
  }
  return p;
}

SearchOutcome search(const suites::Problem& p, u64 budget, EnumerateSettings settings = {}) {
  std::unique_ptr<Generator> g = make_enumerate_generator(p, settings);
  std::unique_ptr<pipeline::Pipeline> cpu = pipeline::make_pipeline(pipeline::Device::Cpu, {});
  SearchConfig config;
  config.budget.candidates = budget;
  return run_search(p, *g, *cpu, config);
}

SearchOutcome expect_solved(const suites::Problem& p, u64 budget = 2'000'000,
                            EnumerateSettings settings = {}) {
  const SearchOutcome r = search(p, budget, settings);
  EXPECT_TRUE(r.solved) << p.name << "\n" << r.best_source;
  EXPECT_TRUE(r.generalises) << r.simplified;
  std::printf("%s after %llu candidates\n%s", p.name.c_str(), (unsigned long long)r.candidates,
              r.simplified.c_str());
  return r;
}

// map(x / 10 * 3): a body no fixed map form has.
TEST(BankLambdas, TheGeneratorSolvesAMapWithAnEnumeratedBody) {
  expect_solved(
      list_problem("tens-tripled", "fn solve(xs: [int]) -> [int]", nullptr, true, [](const auto& xs) {
        std::vector<i64> out;
        for (i64 x : xs) out.push_back(x / 10 * 3);
        return out;
      }));
}

// The x below ten times the list's length: a body over the element and the whole list.
TEST(BankLambdas, TheGeneratorSolvesAFilterThatReadsTheWholeList) {
  expect_solved(
      list_problem("below-ten-lengths", "fn solve(xs: [int]) -> [int]", nullptr, true, [](const auto& xs) {
        std::vector<i64> out;
        for (i64 x : xs)
          if (x < i64(xs.size()) * 10) out.push_back(x);
        return out;
      }));
}

// The lengths of a [str]'s strs, last first, one per line: a map with a str body, reversed, the
// lines joined (a goal of the [str] whose lines the outputs are).
TEST(BankLambdas, TheGeneratorSolvesLinesOfAMapOverStrs) {
  suites::Problem p;
  p.name = "lengths-backwards";
  std::string error;
  ASSERT_TRUE(suites::parse_signature("fn solve(xs: [str]) -> str", &p.signature, &error)) << error;
  std::mt19937_64 rng(3);
  for (int k = 0; k < 30; ++k) {
    std::vector<Value> words(rng() % 6);
    std::string lines;
    for (Value& w : words) w = Value::of_str(std::string(rng() % 12, 'a'));
    for (size_t j = words.size(); j-- > 0;) lines += std::to_string(words[j].s.size()) + (j ? "\n" : "");
    suites::Case c{{Value::of_array(Type::Str, std::move(words))}, {Value::of_str(lines)}};
    (k < 20 ? p.train : p.test).push_back(std::move(c));
  }
  expect_solved(p);
}

// A body may hold a loop over one element (its digits) or over the list against the element (how
// many elements are below it: its rank), not a fold of the whole list (the same on every element).
TEST(BankLambdas, ABodyHoldsTheLoopsOverItsElement) {
  for (const auto& [p, loop] : std::vector<std::pair<suites::Problem, std::string>>{
           {list_problem("digit-sums", "fn solve(xs: [int]) -> [int]", nullptr, true,
                         [](const auto& xs) {
                           std::vector<i64> out;
                           for (i64 x : xs) out.push_back(x / 10 + x % 10 + 1);
                           return out;
                         }),
            "digits_"},
           {list_problem("ranks", "fn solve(xs: [int]) -> [int]", nullptr, true,
                         [](const auto& xs) {
                           std::vector<i64> out;
                           for (i64 x : xs)
                             out.push_back(
                                 i64(std::count_if(xs.begin(), xs.end(), [&](i64 y) { return y < x; })));
                           return out;
                         }),
            "count_where_"}}) {
    const SearchOutcome r = expect_solved(p, 150'000);
    EXPECT_NE(r.simplified.find(loop), std::string::npos) << p.name << "\n" << r.simplified;
  }
  auto named = [](const char* prefix) {
    for (const bank::Production& q : bank::grammar({Type::Int, Type::Bool, Type::IntArray}, true, false))
      if (q.text.rfind(prefix, 0) == 0) return bank::body_production(q);
    ADD_FAILURE() << "no production " << prefix;
    return false;
  };
  EXPECT_TRUE(named("$0 + $1"));
  EXPECT_TRUE(named("digits_add("));
  EXPECT_TRUE(named("count_where_eq("));
  EXPECT_TRUE(named("last_where_gt("));
  EXPECT_FALSE(named("fold_add("));
  EXPECT_FALSE(named("fold_range_add("));
  EXPECT_FALSE(named("scan_add("));
  EXPECT_TRUE(named("range_to("));
  EXPECT_FALSE(named("sort("));
}

// A flat map: each element's list, one after the other — [x, i] (each element followed by its
// place: interleave(xs, map_N(xs)) is as small) and range_to(1, x) (each element counted up to).
TEST(BankLambdas, TheGeneratorSolvesFlatMaps) {
  for (const auto& p : std::vector<suites::Problem>{
           list_problem("with-places", "fn solve(xs: [int]) -> [int]", nullptr, true,
                        [](const auto& xs) {
                          std::vector<i64> out;
                          for (size_t j = 0; j < xs.size(); ++j) {
                            out.push_back(xs[j]);
                            out.push_back(i64(j));
                          }
                          return out;
                        }),
           list_problem("counted-up-to", "fn solve(xs: [int]) -> [int]", nullptr, true, [](const auto& xs) {
             std::vector<i64> out;
             for (i64 x : xs)
               for (i64 v = 1; v <= x; ++v) out.push_back(v);
             return out;
           })}) {
    const SearchOutcome r = expect_solved(p, 300'000);
    const bool interleaved = p.name == "with-places" && r.simplified.find("interleave(") != std::string::npos;
    EXPECT_TRUE(interleaved || r.simplified.find("flat_map_") != std::string::npos) << p.name << "\n"
                                                                                    << r.simplified;
  }
}

// A sort by a key, the element's last digit: stable, so that elements of one key keep their
// order (sort_by_N, whose key is an int body). Its leaf is assembled natively; the pipeline judges
// the written-out helper, so the two must agree on every case.
TEST(BankLambdas, TheGeneratorSortsByAKey) {
  const SearchOutcome r = expect_solved(
      list_problem("by-last-digit", "fn solve(xs: [int]) -> [int]", nullptr, true, [](const auto& xs) {
        std::vector<i64> out = xs;
        std::stable_sort(out.begin(), out.end(), [](i64 a, i64 b) { return a % 10 < b % 10; });
        return out;
      }));
  EXPECT_NE(r.simplified.find("sort_by_"), std::string::npos) << r.simplified;
}

// Maps and filters whose bodies the outputs fix element by element (search/body_goals.h): sought
// against those, met up to an affine map (99 - x has a constant the bodies lack), by a case split
// over the elements (evens tripled), over all but the first element, with the output reversed, or
// as a filter over the index; judged by the pipeline on
// cases the search never saw. Without the goals (--body-goal-budget 0) each is met later or not
// within the same budget.
TEST(BankLambdas, TheGeneratorSeeksTheBodyTheOutputsFix) {
  const std::vector<suites::Problem> problems = {
      list_problem("ninety-nine-less", "fn solve(xs: [int]) -> [int]", nullptr, true,
                   [](const auto& xs) {
                     std::vector<i64> out;
                     for (i64 x : xs) out.push_back(99 - x);
                     return out;
                   }),
      list_problem("evens-tripled", "fn solve(xs: [int]) -> [int]", nullptr, true,
                   [](const auto& xs) {
                     std::vector<i64> out;
                     for (i64 x : xs) out.push_back(x % 2 == 0 ? 3 * x : x);
                     return out;
                   }),
      list_problem("times-the-first-after-it", "fn solve(xs: [int]) -> [int]", nullptr, true,
                   [](const auto& xs) {
                     std::vector<i64> out;
                     for (size_t j = 1; j < xs.size(); ++j) out.push_back(xs[j] * xs[0]);
                     return out;
                   }),
      list_problem("reversed-plus-place", "fn solve(xs: [int]) -> [int]", nullptr, true,
                   [](const auto& xs) {
                     std::vector<i64> out;
                     for (size_t j = 0; j < xs.size(); ++j) out.push_back(xs[xs.size() - 1 - j] + i64(j));
                     return out;
                   }),
      list_problem("odd-places-past-two", "fn solve(xs: [int]) -> [int]", nullptr, true,
                   [](const auto& xs) {
                     std::vector<i64> out;
                     for (size_t j = 0; j < xs.size(); ++j)
                       if (j % 2 == 1 && j > 2) out.push_back(xs[j]);
                     return out;
                   }),
  };
  for (const suites::Problem& p : problems) {
    EnumerateSettings with;
    with.last_steps = 0;
    const SearchOutcome r = expect_solved(p, 150'000, with);
    if (p.name == "evens-tripled") {
      EXPECT_NE(r.simplified.find("_body("), std::string::npos) << "a case split's helper\n" << r.simplified;
    }
    EnumerateSettings without;
    without.body_goal_budget = 0;
    without.last_steps = 0;  // which meet some of these sooner than the bodies' goals
    const SearchOutcome w = search(p, 150'000, without);
    EXPECT_TRUE(!w.solved || w.candidates > r.candidates) << p.name;
  }
}

// A map's outputs that are the element times something are met by that something's body, two
// nodes smaller than the whole (listfunctions c120: x * (2 + len(xs) % 2)).
TEST(BankLambdas, TheElementTimesABodyMeetsAMap) {
  const suites::Problem p = list_problem("times-a-third-and-one", "fn solve(xs: [int]) -> [int]", nullptr,
                                         true, [](const auto& xs) {
                                           std::vector<i64> out;
                                           for (i64 x : xs) out.push_back(x * (x / 3 + 1));
                                           return out;
                                         });
  EnumerateSettings with;
  with.last_steps = 0;
  const SearchOutcome r = expect_solved(p, 150'000, with);
  EXPECT_NE(r.simplified.find("x * ("), std::string::npos) << r.simplified;
  EnumerateSettings without = with;
  without.body_goal_budget = 0;
  const SearchOutcome w = search(p, 150'000, without);
  EXPECT_TRUE(!w.solved || w.candidates > r.candidates);
}

// No goal where the outputs are no map or filter (a sum; a list longer than the input): the
// search is the same to the candidate with and without them.
TEST(BankLambdas, NoBodyIsSoughtWhereTheOutputsAreNoMapOrFilter) {
  const std::vector<suites::Problem> problems = {
      list_problem(
          "sum", "fn solve(xs: [int]) -> int",
          [](const std::vector<i64>& xs) {
            i64 s = 0;
            for (i64 x : xs) s += x;
            return s;
          },
          false, nullptr),
      list_problem("doubled", "fn solve(xs: [int]) -> [int]", nullptr, true, [](const auto& xs) {
        std::vector<i64> out = xs;
        out.insert(out.end(), xs.begin(), xs.end());
        return out;
      })};
  for (const suites::Problem& p : problems) {
    EnumerateSettings without;
    without.body_goal_budget = 0;
    const SearchOutcome a = search(p, 300'000), b = search(p, 300'000, without);
    EXPECT_EQ(a.solved, b.solved) << p.name;
    EXPECT_EQ(a.candidates, b.candidates) << p.name;
    EXPECT_EQ(a.best_source, b.best_source) << p.name;
  }
}

}  // namespace
}  // namespace gs::search
