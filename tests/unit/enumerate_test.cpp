// Bottom-up enumeration over the value bank (search/enumerate_generator.cpp) through the search
// loop: problems of every type it takes are solved, small problems generalise, the enumeration
// ends, loops (map, filter, folds) are found, answers are assembled from goals (tuples, affixed
// strings), a problem's constants are used, and goals are met case by case.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>

#include "jobs/command.h"
#include "search/generator.h"
#include "search/goal_shapes.h"
#include "search/search_loop.h"
#include "suites/cases.h"
#include "tests/unit/command_outcome.h"

namespace gs {
namespace {

std::unique_ptr<pipeline::Pipeline> cpu() { return pipeline::make_pipeline(pipeline::Device::Cpu, {}); }

// A problem from a signature and a function that gives the expected JSON output for an input.
template <typename F>
suites::Problem make_problem(const std::string& signature, const std::vector<nlohmann::json>& inputs,
                             F expected) {
  nlohmann::json j{{"name", "enumerate-test"}, {"signature", signature}, {"train", nlohmann::json::array()}};
  for (const nlohmann::json& in : inputs) j["train"].push_back({{"inputs", in}, {"outputs", {expected(in)}}});
  std::string error;
  auto p = suites::parse_problem(j.dump(), "enumerate-test.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

std::vector<nlohmann::json> int_pairs() {
  std::vector<nlohmann::json> v;
  for (int a = -3; a <= 3; ++a)
    for (int b : {-5, 2, 7}) v.push_back({a, b});
  return v;
}

// Every signature the enumeration takes — ints, strs, floats, lists of each, bools — with an
// answer of a few nodes over its parameters: solved, its program judged by the pipeline.
TEST(Enumerate, SolvesOverEveryTypeItTakes) {
  struct Case {
    std::string signature;
    std::function<nlohmann::json(int)> input;
    std::function<nlohmann::json(const nlohmann::json&)> expected;
  };
  const std::vector<Case> cases = {
      {"fn solve(a: int, b: int) -> int",
       [](int k) {
         return nlohmann::json{k - 2, 3 * k + 1};
       },
       [](const nlohmann::json& in) { return nlohmann::json(in[0].get<int>() - in[1].get<int>()); }},
      {"fn solve(s: str, n: int) -> str",
       [](int k) {
         return nlohmann::json{std::string(size_t(k), 'x') + "y z", k};
       },
       [](const nlohmann::json& in) { return nlohmann::json(in[0].get<std::string>() + " "); }},
      {"fn solve(xs: [int]) -> bool",
       [](int k) { return nlohmann::json{std::vector<int>(size_t(k), k - 1)}; },
       [](const nlohmann::json& in) { return nlohmann::json(in[0].size() < 3); }},
      {"fn solve(x: float, xs: [float]) -> float",
       [](int k) {
         return nlohmann::json{0.5 * k, std::vector<double>(size_t(k), 1.5)};
       },
       [](const nlohmann::json& in) {
         return nlohmann::json(in[0].get<double>() * 1.5 * double(in[1].size()));
       }},
      {"fn solve(words: [str]) -> [str]",
       [](int k) {
         return nlohmann::json{
             std::vector<std::string>{std::string(size_t(k), 'a'), "b", std::string(size_t(k % 3), 'c')}};
       },
       [](const nlohmann::json& in) {
         std::vector<std::string> w = in[0];
         std::sort(w.begin(), w.end());
         return nlohmann::json(w);
       }},
      // Parameters named as the lambda helpers' variables.
      {"fn solve(x: [int], i: int, out: str) -> int",
       [](int k) {
         return nlohmann::json{std::vector<int>(size_t(k), 2 - k), k, std::string(size_t(k), 'r')};
       },
       [](const nlohmann::json& in) {
         int n = 0;
         for (int v : in[0]) n += v > in[1].get<int>();
         return nlohmann::json(n);
       }}};
  for (const Case& c : cases) {
    std::vector<nlohmann::json> inputs;
    for (int k = 0; k < 12; ++k) inputs.push_back(c.input(k));
    suites::Problem p = make_problem(c.signature, inputs, c.expected);
    auto g = search::make_enumerate_generator(p, {});
    search::SearchConfig config;
    config.budget.candidates = 300000;
    const search::SearchOutcome r = search::run_search(p, *g, *cpu(), config);
    EXPECT_TRUE(r.solved) << c.signature << "\n" << r.best_source;
  }
}

// Problems whose solutions loop over a sequence or a range: a count, a filter (of an array, and of
// a string: a lambda over its characters) and a fold over 1..n, each solved and generalising to
// held-out inputs, with a loop in the program.
TEST(Enumerate, LambdasSolveProblemsThatNeedALoop) {
  std::vector<nlohmann::json> arrays, tests_arrays, strings, tests_strings, ints, tests_ints;
  for (int k = 0; k < 24; ++k) {
    std::vector<int> xs;
    for (int j = 0; j < (k * 7) % 9; ++j) xs.push_back(((k + 3) * (j + 5) * 37) % 23 - 11);
    (k < 12 ? arrays : tests_arrays).push_back({xs});
    std::string text;
    for (int j = 0; j < (k * 5) % 11; ++j) text += "ab c\t"[(k + j * 3) % 5];
    (k < 12 ? strings : tests_strings).push_back({text});
    (k < 12 ? ints : tests_ints).push_back({(k * 5) % 17});
  }
  struct Case {
    const char* name;
    std::string signature;
    std::vector<nlohmann::json>*train, *test;
    std::function<nlohmann::json(const nlohmann::json&)> expected;
  };
  const std::vector<Case> cases = {
      {"count the odd elements", "fn solve(xs: [int]) -> int", &arrays, &tests_arrays,
       [](const nlohmann::json& in) {
         int n = 0;
         for (int x : in[0]) n += x % 2 != 0;
         return nlohmann::json(n);
       }},
      {"keep the positive elements", "fn solve(xs: [int]) -> [int]", &arrays, &tests_arrays,
       [](const nlohmann::json& in) {
         std::vector<int> out;
         for (int x : in[0])
           if (x > 0) out.push_back(x);
         return nlohmann::json(out);
       }},
      {"drop the tabs", "fn solve(s: str) -> str", &strings, &tests_strings,
       [](const nlohmann::json& in) {
         std::string out;
         for (char c : in[0].get<std::string>())
           if (c != '\t') out += c;
         return nlohmann::json(out);
       }},
      {"sum of squares below n", "fn solve(n: int) -> int", &ints, &tests_ints, [](const nlohmann::json& in) {
         int total = 0;
         for (int i = 0; i < in[0].get<int>(); ++i) total += i * i;
         return nlohmann::json(total);
       }}};
  for (const Case& c : cases) {
    suites::Problem p = make_problem(c.signature, *c.train, c.expected);
    for (const nlohmann::json& in : *c.test)
      p.test.push_back(make_problem(c.signature, {in}, c.expected).train[0]);
    search::SearchConfig config;
    config.batch = 500;
    config.budget.candidates = 100000;
    auto g = search::make_enumerate_generator(p, {});
    const search::SearchOutcome r = search::run_search(p, *g, *cpu(), config);
    EXPECT_TRUE(r.solved) << c.name << ": " << r.best_source;
    EXPECT_TRUE(r.generalises) << c.name << ": " << r.solution;
    EXPECT_NE(r.solution.find("for "), std::string::npos) << c.name << ": " << r.solution;
  }
}

TEST(Enumerate, SolvesSmallProblemsAndGeneralises) {
  suites::Problem p =
      make_problem("fn solve(a: int, b: int) -> int", int_pairs(),
                   [](const nlohmann::json& in) { return in[0].get<int>() * in[1].get<int>() + 1; });
  p.test = p.train;
  auto g = search::make_enumerate_generator(p, {});
  search::SearchConfig config;
  config.batch = 500;
  search::SearchOutcome r = search::run_search(p, *g, *cpu(), config);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises);
  EXPECT_NE(r.simplified.find("a * b"), std::string::npos) << r.simplified;
}

TEST(Enumerate, EndsAfterTheLargestSizeAndIsDeterministic) {
  suites::Problem p =
      make_problem("fn solve(a: int, b: int) -> int", int_pairs(), [](const nlohmann::json& in) {
        return in[0].get<int>() * in[0].get<int>() * in[1].get<int>() - 77;  // not within size 3
      });
  search::EnumerateSettings s;
  s.max_size = 3;
  search::SearchConfig config;
  config.batch = 64;
  config.budget.candidates = 1'000'000;
  auto a = search::make_enumerate_generator(p, s), b = search::make_enumerate_generator(p, s);
  search::SearchOutcome x = search::run_search(p, *a, *cpu(), config),
                        y = search::run_search(p, *b, *cpu(), config);
  EXPECT_FALSE(x.solved);
  EXPECT_LT(x.candidates, 100'000u);  // ran out, not out of budget
  EXPECT_EQ(x.candidates, y.candidates);
  EXPECT_EQ(x.best_source, y.best_source);
}

// The bank holds every new behaviour: past its memory the enumeration ends (the search then
// stops, well within its budget), whatever size it had reached, and its outcome says so.
TEST(Enumerate, EndsWhenTheBankIsFull) {
  suites::Problem p =
      make_problem("fn solve(a: int, b: int) -> int", int_pairs(), [](const nlohmann::json& in) {
        return in[0].get<int>() * in[0].get<int>() * in[1].get<int>() - 77 * in[1].get<int>() + 5;
      });
  search::SearchConfig config;
  config.budget.candidates = 5'000'000;
  search::EnumerateSettings small;
  small.memory = 256 << 10;
  auto g = search::make_enumerate_generator(p, small);
  const search::SearchOutcome full = search::run_search(p, *g, *cpu(), config);
  EXPECT_FALSE(full.solved);
  EXPECT_LT(full.candidates, 200'000u);
  EXPECT_GT(full.candidates, 1'000u);
  ASSERT_EQ(full.notes.size(), 1u);
  EXPECT_NE(full.notes[0].find("the value bank filled --bank-memory (0 MiB) after "), std::string::npos)
      << full.notes[0];
  EXPECT_NE(full.notes[0].find("the enumeration ended there"), std::string::npos) << full.notes[0];
}

// Where the cases' heaps fill (a quarter of the bank's memory, 1 MiB a case at least), no list or
// string is banked after that, and the outcome says so and what to do: str results of long lists
// here, whose heaps fill long before the bank does.
TEST(Enumerate, SaysWhenTheCasesHeapsFill) {
  std::vector<nlohmann::json> in;
  for (int n = 0; n < 8; ++n) in.push_back({n * 40});
  suites::Problem p = make_problem("fn solve(n: int) -> str", in, [](const nlohmann::json& x) {
    std::string s;
    for (int k = 0; k < x[0].get<int>(); ++k) s += char('a' + k % 26);
    return nlohmann::json(s);
  });
  search::SearchConfig config;
  config.budget.candidates = 3'000'000;
  // 64 MiB: a quarter over 8 cases; 30 MiB: under 1 MiB a case, which is raised to 1.
  for (const auto& [mib, share] :
       {std::pair<u64, std::string>{64, "(2 MiB a case: a quarter of --bank-memory 64 over 8 cases)"},
        {30, "(1 MiB a case: the least a case heap is given)"}}) {
    search::EnumerateSettings small;
    small.memory = mib << 20;
    auto g = search::make_enumerate_generator(p, small);
    const search::SearchOutcome r = search::run_search(p, *g, *cpu(), config);
    ASSERT_FALSE(r.notes.empty()) << mib;
    EXPECT_NE(r.notes[0].find("the value bank's case heaps filled after "), std::string::npos) << r.notes[0];
    EXPECT_NE(r.notes[0].find(share), std::string::npos) << r.notes[0];
    EXPECT_NE(r.notes[0].find("a larger --bank-memory gives them room"), std::string::npos) << r.notes[0];
  }
}

// Once the heaps are full, a [str] is tried against a goal of lines joined on the key case first;
// one that was not made there (array(n, s) past the length bound: its word means nothing) is
// not compared. It was, and the search read the heap at a reference of 0 and crashed.
TEST(Enumerate, TriesListsAgainstLinesOnceTheHeapsAreFull) {
  std::vector<nlohmann::json> in;
  for (int c = 0; c < 8; ++c) {
    std::string text;
    for (int w = 0; w < 1500 + 7 * c; ++w)
      text += (w ? " " : "") + std::string(1 + (w * 7 + c) % 6, char('a' + w % 5));
    in.push_back({text});
  }
  const suites::Problem p = make_problem("fn solve(s: str) -> str", in, [](const nlohmann::json& x) {
    const std::string text = x[0].get<std::string>();
    std::string r(text.rbegin(), text.rend());
    std::replace(r.begin(), r.end(), ' ', '\n');
    return nlohmann::json(r);
  });
  search::SearchConfig config;
  config.budget.candidates = 300'000;
  search::EnumerateSettings small;
  small.memory = 30u << 20;  // 1 MiB a case: full at level 6
  auto g = search::make_enumerate_generator(p, small);
  const search::SearchOutcome r = search::run_search(p, *g, *cpu(), config);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("the value bank's case heaps filled after "), std::string::npos) << r.notes[0];
  EXPECT_EQ(r.candidates, config.budget.candidates);
}

// Solves p with the enumeration within `budget` candidates; its held-out cases are `test`.
search::SearchOutcome solve(suites::Problem p, const std::vector<nlohmann::json>& test,
                            const std::function<nlohmann::json(const nlohmann::json&)>& expected, u64 budget,
                            search::EnumerateSettings settings = {}) {
  for (const nlohmann::json& in : test)
    p.test.push_back(make_problem(p.signature.text, {in}, expected).train[0]);
  search::SearchConfig config;
  config.batch = 500;
  config.budget.candidates = budget;
  auto g = search::make_enumerate_generator(p, settings);
  return search::run_search(p, *g, *cpu(), config);
}

// r solved its problem with a program that holds `text` and passes the held-out cases.
void expect_generalising(const search::SearchOutcome& r, const std::string& text) {
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.solution.find(text), std::string::npos) << r.solution;
}

std::vector<nlohmann::json> int_arrays(int first, int count) {
  std::vector<nlohmann::json> out;
  for (int k = first; k < first + count; ++k) {
    std::vector<int> xs;
    for (int j = 0; j < k % 7; ++j) xs.push_back((k * 13 + j * 29) % 19 - 9);
    out.push_back({xs});
  }
  return out;
}

// The running max of the elements divided by 4 (DeepCoder's scanl1 max . map (/4)) on 12 lists,
// solved with `list_forms_after` and `list_language` (8 lists held out).
search::SearchOutcome solve_running_max_of_quarters(u64 list_forms_after, u64 budget, u32 max_size = 12,
                                                    u64 list_language = 0) {
  const auto expected = [](const nlohmann::json& in) {
    std::vector<int> out;
    for (int x : in[0]) out.push_back(out.empty() ? x / 4 : std::max(out.back(), x / 4));
    return nlohmann::json(out);
  };
  search::EnumerateSettings settings;
  settings.list_forms_after = list_forms_after;
  settings.list_language = list_language;
  settings.max_size = max_size;
  return solve(make_problem("fn solve(xs: [int]) -> [int]", int_arrays(0, 12), expected), int_arrays(12, 8),
               expected, budget, settings);
}

// DeepCoder's list forms (--list-forms): the running max of the elements divided by 4 is
// scanl1_max(map_quarter(xs)), two one-node forms over xs, where the grammar's own spelling needs
// map_div(xs, 2 + 2) (five nodes) before its running max; without them the answer costs more
// candidates.
TEST(Enumerate, ListFormsAreOneNodeEach) {
  const search::SearchOutcome with = solve_running_max_of_quarters(0, 100000);
  ASSERT_TRUE(with.solved) << with.best_source;
  EXPECT_TRUE(with.generalises) << with.solution;
  EXPECT_NE(with.solution.find("fn map_quarter(xs: [int]) -> [int]"), std::string::npos) << with.solution;
  const search::SearchOutcome without = solve_running_max_of_quarters(search::kNoListForms, 100000);
  EXPECT_EQ(without.solution.find("map_quarter"), std::string::npos) << without.solution;
  EXPECT_TRUE(!without.solved || without.candidates_to_solution > with.candidates_to_solution)
      << with.candidates_to_solution << " against " << without.candidates_to_solution;
}

// The first number in a note of r's that begins with `head`, after it.
u64 noted_expressions(const search::SearchOutcome& r, const std::string& head) {
  for (const std::string& note : r.notes)
    if (note.rfind(head, 0) == 0)
      return std::stoull(note.substr(note.find_first_of("0123456789", head.size())));
  ADD_FAILURE() << "no note '" << head << "…'";
  return 0;
}

// Without the list language's phase (list_language 0), the forms come once the enumeration has
// gone list_forms_after expressions without them, or has ended: it begins again, from size 1,
// with them, and from there on finds what the forms from the start find, in as many candidates
// again.
TEST(Enumerate, BeginsAgainWithTheListFormsAfterItsShare) {
  const search::SearchOutcome with = solve_running_max_of_quarters(0, 100000);
  ASSERT_TRUE(with.solved) << with.best_source;
  const auto expressions = noted_expressions;
  // After 1,000 expressions: once its first batch is done (its lambda bodies are evaluated first,
  // 115,000 here), so the whole search takes as many again as the forms' from the start.
  const search::SearchOutcome r = solve_running_max_of_quarters(1000, 400000);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.solution.find("fn map_quarter(xs: [int]) -> [int]"), std::string::npos) << r.solution;
  const u64 first = expressions(r, "the enumeration without DeepCoder's list forms went ");
  EXPECT_GE(first, 1000u);
  EXPECT_EQ(r.candidates_to_solution, first + with.candidates_to_solution);
  EXPECT_NE(r.notes[0].find("; it began again with the whole grammar and the forms"), std::string::npos)
      << r.notes[0];
  // Sooner where the enumeration without them ends: at size 3 it has no answer, and with them a
  // running max of map_quarter(xs) is one.
  const search::SearchOutcome ended = solve_running_max_of_quarters(search::kListFormsAfter, 400000, 3);
  ASSERT_TRUE(ended.solved) << ended.best_source;
  EXPECT_NE(ended.solution.find("(map_quarter(xs)"), std::string::npos) << ended.solution;
  const u64 before = expressions(ended, "the enumeration without DeepCoder's list forms ended after ");
  EXPECT_LT(before, search::kListFormsAfter);
  // Where no parameter is an [int], the forms have nothing to apply to: the enumeration ends there.
  const auto far = [](const nlohmann::json& in) { return nlohmann::json(in[0].get<int>() * 1000 + 7); };
  const std::vector<nlohmann::json> ns{nlohmann::json::array({3}), nlohmann::json::array({5})};
  search::EnumerateSettings tiny;
  tiny.max_size = 2;
  const search::SearchOutcome unsolved =
      solve(make_problem("fn solve(n: int) -> int", ns, far), {}, far, 100000, tiny);
  EXPECT_FALSE(unsolved.solved) << unsolved.solution;
  for (const std::string& note : unsolved.notes)
    EXPECT_EQ(note.find("list forms"), std::string::npos) << note;
}

// By default, between the two, DeepCoder's list language alone: its functions over the
// parameters, a function a level, no constant and no lambda. The running max of the quarters is
// two of its functions over xs, found there in fewer expressions than with the whole grammar and
// the forms; the running max plus 7 needs a constant the language lacks, so its phase goes by (it
// ends, or its share is spent) and the whole grammar with the forms finds it after.
TEST(Enumerate, GoesThroughDeepCodersListLanguageAloneBetween) {
  const search::SearchOutcome with = solve_running_max_of_quarters(0, 100000);
  ASSERT_TRUE(with.solved) << with.best_source;
  const search::SearchOutcome r = solve_running_max_of_quarters(1000, 400000, 12, 100000);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.solution.find("scanl1_max("), std::string::npos) << r.solution;
  EXPECT_NE(r.solution.find("map_quarter("), std::string::npos) << r.solution;
  const u64 first = noted_expressions(r, "the enumeration without DeepCoder's list forms went ");
  EXPECT_NE(r.notes[0].find("; it began again in DeepCoder's list language alone"), std::string::npos)
      << r.notes[0];
  EXPECT_LT(r.candidates_to_solution - first, with.candidates_to_solution);
  for (const std::string& note : r.notes)
    EXPECT_EQ(note.find("whole grammar and the forms"), std::string::npos);
  // Its phase spent or ended: the whole grammar with the forms after it, where a constant is (the
  // running max, plus 7).
  const auto plus_seven = [](const nlohmann::json& in) {
    std::vector<int> out;
    for (int x : in[0]) out.push_back(out.empty() ? x : std::max(out.back(), x));
    for (int& x : out) x += 7;
    return nlohmann::json(out);
  };
  search::EnumerateSettings settings;
  settings.list_forms_after = 1000;
  settings.list_language = 20000;
  settings.lambdas = false;  // its bodies are evaluated before the first phase's first 1000
  const search::SearchOutcome seven =
      solve(make_problem("fn solve(xs: [int]) -> [int]", int_arrays(0, 12), plus_seven), int_arrays(12, 8),
            plus_seven, 400000, settings);
  expect_generalising(seven, "map_add(");
  const u64 alone = noted_expressions(seven, "the enumeration of DeepCoder's list language alone ");
  EXPECT_LE(alone, 20000u + 1000u);  // its share, or less where it ended (a batch may pass it)
  bool beside = false;
  for (const std::string& note : seven.notes)
    beside |= note.find("; it began again with the whole grammar and the forms") != std::string::npos;
  EXPECT_TRUE(beside);
}

// In DeepCoder's list language a value used twice is made once (BankEnumerator::share_operands):
// the even elements, sorted, less themselves — zip_sub(sort(a), a) where a = filter_even(xs) — is
// three functions there, found in the phase's first 200,000 expressions, and written out with a
// twice.
TEST(Enumerate, MakesAValueUsedTwiceOnceInDeepCodersListLanguage) {
  const auto expected = [](const nlohmann::json& in) {
    std::vector<int> evens;
    for (int x : in[0])
      if (x % 2 == 0) evens.push_back(x);
    std::vector<int> sorted = evens, out;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < evens.size(); ++i) out.push_back(sorted[i] - evens[i]);
    return nlohmann::json(out);
  };
  const auto lists = [](int first, int count) {
    std::vector<nlohmann::json> out;
    for (int k = first; k < first + count; ++k) {
      std::vector<int> xs;
      for (int j = 0; j < 5 + k % 5; ++j) xs.push_back((k * 17 + j * 31) % 23 - 11);
      out.push_back({xs});
    }
    return out;
  };
  search::EnumerateSettings settings;
  settings.list_forms_after = 1000;
  settings.list_language = 200000;
  settings.lambdas = false;
  const search::SearchOutcome r = solve(make_problem("fn solve(xs: [int]) -> [int]", lists(0, 12), expected),
                                        lists(12, 8), expected, 400000, settings);
  expect_generalising(r, "filter_even(xs)");
  const u64 first = noted_expressions(r, "the enumeration without DeepCoder's list forms went ");
  EXPECT_LT(r.candidates_to_solution - first, 200000u);
  const size_t once = r.solution.find("filter_even(xs)");
  EXPECT_NE(r.solution.find("filter_even(xs)", once + 1), std::string::npos) << r.solution;
}

// A problem with two results: each result's goal is met by an expression of its own type, and the
// one program proposed is the tuple assembled from them.
TEST(Enumerate, AssemblesTuplesFromAnExpressionPerResult) {
  const auto expected = [](const nlohmann::json& in) {
    int sum = 0;
    for (int x : in[0]) sum += x;
    std::vector<int> backwards(in[0].rbegin(), in[0].rend());
    return nlohmann::json{sum, backwards};
  };
  nlohmann::json j{{"name", "tuple"},
                   {"signature", "fn solve(xs: [int]) -> (int, [int])"},
                   {"train", nlohmann::json::array()}};
  for (const nlohmann::json& in : int_arrays(0, 12))
    j["train"].push_back({{"inputs", in}, {"outputs", expected(in)}});
  std::string error;
  auto p = suites::parse_problem(j.dump(), "tuple.json", &error);
  ASSERT_TRUE(p) << error;
  search::SearchConfig config;
  config.batch = 500;
  config.budget.candidates = 20000;
  search::EnumerateSettings settings;
  settings.lambda_budget = 0;
  auto g = search::make_enumerate_generator(*p, settings);
  const search::SearchOutcome r = search::run_search(*p, *g, *cpu(), config);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_NE(r.solution.find("-> (int, [int])"), std::string::npos) << r.solution;
  EXPECT_NE(r.solution.find("return (sum(xs), reverse(xs));"), std::string::npos) << r.solution;
}

// Outputs that share a prefix and suffix: what lies between is a goal for a string, or, where
// it is always one character or a decimal integer, for an int under chr() or str(). None of
// these texts is a constant the enumeration has otherwise (no output recurs).
TEST(Enumerate, AssemblesStringsFromACommonPrefixAndSuffix) {
  std::vector<nlohmann::json> ints, test_ints, strings, test_strings;
  for (int k = 0; k < 24; ++k) {
    (k < 12 ? ints : test_ints).push_back({k * 3 - 20 + 33});
    std::string text;
    for (int j = 0; j < k % 6 + 1; ++j) text += char('a' + (k * 7 + j * 3) % 26);
    (k < 12 ? strings : test_strings).push_back({text});
  }
  struct Case {
    const char* name;
    std::string signature;
    std::vector<nlohmann::json>*train, *test;
    std::function<nlohmann::json(const nlohmann::json&)> expected;
    const char* solution;
  };
  const std::vector<Case> cases = {
      {"an int's square in a sentence", "fn solve(n: int) -> str", &ints, &test_ints,
       [](const nlohmann::json& in) {
         return nlohmann::json("Result: " + std::to_string(in[0].get<int>() * in[0].get<int>()) + "!");
       },
       "\"Result: \" + str(n * n) + \"!\""},
      {"a character by its code", "fn solve(n: int) -> str", &ints, &test_ints,
       [](const nlohmann::json& in) {
         return nlohmann::json("code " + std::string(1, char(in[0].get<int>() + 2)));
       },
       "\"code \" + chr("},
      {"a reversed string in brackets", "fn solve(s: str) -> str", &strings, &test_strings,
       [](const nlohmann::json& in) {
         const std::string s = in[0];
         return nlohmann::json("<<" + std::string(s.rbegin(), s.rend()) + ">>");
       },
       "\"<<\" + reverse(s) + \">>\""}};
  for (const Case& c : cases) {
    const search::SearchOutcome r =
        solve(make_problem(c.signature, *c.train, c.expected), *c.test, c.expected, 20000);
    ASSERT_TRUE(r.solved) << c.name << ": " << r.best_source;
    EXPECT_TRUE(r.generalises) << c.name << ": " << r.solution;
    EXPECT_NE(r.solution.find(c.solution), std::string::npos) << c.name << ": " << r.solution;
  }
}

// List outputs that share first and last elements: the lists between them are a goal, and the
// affixes list literals around it ([41, 7] and [99] are no constants of the bank). A prefix
// needs three train cases or more: two share one by chance too often.
TEST(Enumerate, AssemblesListsFromACommonPrefixAndSuffix) {
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 16; ++k) {
    std::vector<int> xs;
    for (int j = 0; j < k % 5 + 1; ++j) xs.push_back((k * 13 + j * 29) % 50);
    (k < 8 ? train : test).push_back({xs});
  }
  const auto expected = [](const nlohmann::json& in) {
    std::vector<int> xs = in[0].get<std::vector<int>>();
    std::sort(xs.begin(), xs.end());
    xs.insert(xs.begin(), {41, 7});
    xs.push_back(99);
    return nlohmann::json(xs);
  };
  const suites::Problem p = make_problem("fn solve(xs: [int]) -> [int]", train, expected);
  const auto [prefix, suffix] = search::output_affixes(p, 0);
  EXPECT_TRUE(
      vm::identical(prefix, vm::Value::of_array(Type::Int, {vm::Value::of_int(41), vm::Value::of_int(7)})));
  EXPECT_TRUE(vm::identical(suffix, vm::Value::of_array(Type::Int, {vm::Value::of_int(99)})));
  const search::SearchOutcome r = solve(p, test, expected, 50000);
  expect_generalising(r, "[41, 7] + sort(xs) + [99]");
  suites::Problem two = p;
  two.train.resize(2);
  EXPECT_FALSE(search::GoalShape::has_affix(search::output_affixes(two, 0).first));
}

// A list result taken apart (search/goal_shapes.h): where every output is as long, each element is
// an int goal of its own (one always 23: a constant); else the first element, the list between
// and the last are. Each part is met by an expression, and the answer is written from them.
TEST(Enumerate, AssemblesListsFromTheirParts) {
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 16; ++k) {
    std::vector<int> xs;
    for (int j = 0; j < k % 5 + 2; ++j) xs.push_back((k * 13 + j * 29) % 50 - 9);
    (k < 8 ? train : test).push_back({xs});
  }
  struct Case {
    const char* name;
    std::function<nlohmann::json(const nlohmann::json&)> expected;
    std::vector<const char*> layout;  // the goals' layouts, in order
    const char* solution;
  };
  const std::vector<Case> cases = {{"three elements",
                                    [](const nlohmann::json& in) {
                                      const std::vector<int> xs = in[0].get<std::vector<int>>();
                                      return nlohmann::json{xs.back(), 23, int(xs.size())};
                                    },
                                    {"[$0, $1, $2]", "[$0, $1, $2]", "[$0, $1, $2]"},
                                    "return [xs[len(xs) - 1], 23, len(xs)];"},
                                   {"a length around the list reversed",
                                    [](const nlohmann::json& in) {
                                      std::vector<int> xs = in[0].get<std::vector<int>>();
                                      std::reverse(xs.begin(), xs.end());
                                      xs.insert(xs.begin(), int(xs.size()));
                                      xs.push_back(xs[0]);
                                      return nlohmann::json(xs);
                                    },
                                    {"[$0] + $1", "[$0] + $1", "$0 + [$1]", "$0 + [$1]", "[$0] + $1 + [$2]",
                                     "[$0] + $1 + [$2]", "[$0] + $1 + [$2]"},
                                    "return [len(xs)] + reverse(xs) + [len(xs)];"}};
  for (const Case& c : cases) {
    const suites::Problem p = make_problem("fn solve(xs: [int]) -> [int]", train, c.expected);
    std::vector<std::string> layouts;
    for (const search::GoalShape& g : search::goal_shapes(p, 0))
      if (!g.layout.empty()) {
        EXPECT_EQ(g.part, std::count(layouts.begin(), layouts.end(), g.layout)) << c.name;
        layouts.push_back(g.layout);
      }
    EXPECT_EQ(layouts, std::vector<std::string>(c.layout.begin(), c.layout.end())) << c.name;
    search::EnumerateSettings settings;
    settings.lambdas = false;
    const search::SearchOutcome r = solve(p, test, c.expected, 50000, settings);
    ASSERT_TRUE(r.solved) << c.name << ": " << r.best_source;
    EXPECT_TRUE(r.generalises) << c.name << ": " << r.solution;
    EXPECT_NE(r.solution.find(c.solution), std::string::npos) << c.name << ": " << r.solution;
  }
  suites::Problem two = make_problem("fn solve(xs: [int]) -> [int]", train, cases[0].expected);
  two.train.resize(2);  // two cases share a length by chance too often
  for (const search::GoalShape& g : search::goal_shapes(two, 0)) EXPECT_TRUE(g.layout.empty());
}

// 1 to n, one per line (in: [n]).
nlohmann::json one_to_n(const nlohmann::json& in) {
  std::string text;
  for (int x = 1; x <= in[0].get<int>(); ++x) text += (x > 1 ? "\n" : "") + std::to_string(x);
  return nlohmann::json(text);
}

// Lines of numbers from a signature without lists (for-loop-index's shape): a lines goal brings
// [int] into the bank, and map_str turns a banked list into the lines' texts.
TEST(Enumerate, WritesLinesOfNumbersFromInts) {
  std::vector<nlohmann::json> train, test;
  for (int n = -2; n < 22; ++n) (n % 2 == 0 ? train : test).push_back({n});
  const search::SearchOutcome r =
      solve(make_problem("fn solve(n: int) -> str", train, one_to_n), test, one_to_n, 50000);
  expect_generalising(r, "join(map_str(range_to(1, n)), \"\\n\")");
}

// Where every output begins with the same lines and part of the next ("1\n2" of 1 to n from
// n = 2), the lines between the affixes are no numbers: the lines of the outputs as they are are
// a goal too (they were not, and this was not solved in 300,000 candidates).
TEST(Enumerate, WritesLinesOfNumbersThatShareTheirFirstLines) {
  std::vector<nlohmann::json> train, test;
  for (int n = 2; n < 26; ++n) (n % 2 == 0 ? train : test).push_back({n});
  const suites::Problem p = make_problem("fn solve(n: int) -> str", train, one_to_n);
  EXPECT_EQ(search::output_affixes(p, 0).first.s, "1\n2");
  const search::SearchOutcome r = solve(p, test, one_to_n, 50000);
  expect_generalising(r, "join(map_str(range_to(1, n)), \"\\n\")");
}

// A string n times over (Python's s * n) is join(array(n, s), ""): array of a str is a production.
TEST(Enumerate, RepeatsAStringAsAnArrayOfItJoined) {
  const auto expected = [](const nlohmann::json& in) {
    std::string text;
    for (int k = 0; k < in[1].get<int>(); ++k) text += in[0].get<std::string>();
    return nlohmann::json(text);
  };
  std::vector<nlohmann::json> train, test;
  for (const char* s : {"a", "xy", "abc"})
    for (int n = 0; n < 6; ++n) (n % 2 == 0 ? train : test).push_back({s, n});
  const search::SearchOutcome r =
      solve(make_problem("fn solve(s: str, n: int) -> str", train, expected), test, expected, 300000);
  expect_generalising(r, "join(array(n, s), \"\")");
}

// An output that keeps part of a str parameter at one end is sought as the rest beside it
// (search/goal_shapes.h): capitalising keeps all but the first letter, and the rest is one
// character, chr() of the first byte less 32 (an offset, 32 being no leaf); a palindrome made
// from s keeps s at its beginning, and the rest is reverse(s).
TEST(Enumerate, FindsWhatAnOutputAddsToTheTextItKeeps) {
  const std::vector<std::string> words{"tree",  "a sky", "zebra zoo", "dog", "x y z", "blue",   "cat nap",
                                       "hello", "m",     "quiet",     "owl", "rain",  "sun up", "kite"};
  std::vector<nlohmann::json> train, test;
  for (size_t i = 0; i < words.size(); ++i) (i < 10 ? train : test).push_back({words[i]});
  const auto capitalised = [](const nlohmann::json& in) {
    std::string t = in[0].get<std::string>();
    t[0] = char(t[0] - 32);
    return nlohmann::json(t);
  };
  const search::SearchOutcome upper =
      solve(make_problem("fn solve(s: str) -> str", train, capitalised), test, capitalised, 300000);
  expect_generalising(upper, "slice(s, 1, len(s))");
  EXPECT_NE(upper.solution.find("chr("), std::string::npos) << upper.solution;
  EXPECT_LT(upper.candidates, 100000u);
  const auto mirrored = [](const nlohmann::json& in) {
    const std::string t = in[0].get<std::string>();
    return nlohmann::json(t + std::string(t.rbegin(), t.rend()));
  };
  const search::SearchOutcome mirror =
      solve(make_problem("fn solve(s: str) -> str", train, mirrored), test, mirrored, 300000);
  expect_generalising(mirror, "s + reverse(s)");
}

// The greatest common divisor of two positive ints is Euclid's loop, euclid(a, b), which carries
// two ints through a while loop (search/bank_loops.h).
TEST(Enumerate, FindsTheGcdByEuclidsLoop) {
  const auto expected = [](const nlohmann::json& in) {
    i64 a = in[0].get<i64>(), b = in[1].get<i64>();
    while (b != 0) a = std::exchange(b, a % b);
    return nlohmann::json(a);
  };
  std::vector<nlohmann::json> train, test;
  for (int a : {12, 35, 81, 64, 9, 100})
    for (int b : {18, 14, 27, 48, 7}) ((a + b) % 2 == 0 ? train : test).push_back({a, b});
  const search::SearchOutcome r =
      solve(make_problem("fn solve(a: int, b: int) -> int", train, expected), test, expected, 300000);
  expect_generalising(r, "euclid(");
}

// Lines of numbers are also a goal of [int], the numbers themselves (no line: []); lines that are
// not all numbers are not.
TEST(Enumerate, TakesLinesOfNumbersAsTheirInts) {
  const std::vector<nlohmann::json> ins = {{"1\n-20\n3"}, {""}, {"7"}};
  const suites::Problem numbers =
      make_problem("fn solve(s: str) -> str", ins, [](const nlohmann::json& in) { return in[0]; });
  std::optional<search::GoalShape> ints;
  for (const search::GoalShape& g : search::goal_shapes(numbers, 0))
    if (g.type == Type::IntArray) ints = g;
  ASSERT_TRUE(ints);
  EXPECT_TRUE(ints->lines);
  EXPECT_STREQ(ints->convert, "map_str");
  EXPECT_FALSE(ints->joined());
  ASSERT_EQ(ints->outputs.size(), 3u);
  EXPECT_EQ(vm::to_json(ints->outputs[0]), "[1, -20, 3]");
  EXPECT_EQ(vm::to_json(ints->outputs[1]), "[]");
  EXPECT_EQ(vm::to_json(ints->outputs[2]), "[7]");
  for (const char* other : {"1\n2\nx", "1\n2\n", "1\n02", "1\n-0"}) {
    const suites::Problem words = make_problem("fn solve(s: str) -> str", {{other}, {"3\n4"}, {"5\n6"}},
                                               [](const nlohmann::json& in) { return in[0]; });
    for (const search::GoalShape& g : search::goal_shapes(words, 0))
      EXPECT_NE(g.type, Type::IntArray) << other;
  }
}

// A list's length in a list is written len(xs), not as a count over a body that holds on every
// element (count_N with xs == xs: a lambda leaf that met the part before len(xs) was banked),
// and the answer's uses name len and the layout's [$0] for the search policy.
TEST(Enumerate, WritesALengthAsLenNotAsACountOfEverything) {
  const auto expected = [](const nlohmann::json& in) { return nlohmann::json::array({in[0].size()}); };
  const std::vector<nlohmann::json> cases = int_arrays(0, 12);
  const suites::Problem p =
      make_problem("fn solve(xs: [int]) -> [int]", {cases.begin(), cases.begin() + 8}, expected);
  const search::SearchOutcome r = solve(p, {cases.begin() + 8, cases.end()}, expected, 100000);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_NE(r.solution.find("return [len(xs)];"), std::string::npos) << r.solution;
  EXPECT_EQ(r.solution.find("count_"), std::string::npos) << r.solution;
  for (const char* key : {"len($0) ([int]) -> int", "[$0] (int) -> [int]"})
    EXPECT_NE(std::find(r.uses.begin(), r.uses.end(), key), r.uses.end()) << key;
}

// PSB1's digits as a user would pose it: n's digits from the last, a line each, the sign on the
// last line only. The lines of numbers are an [int] goal taken apart like a list result
// ($0 + [$1], each part under map_str and join), met by decimal_digits(n) — a leaf of each int
// parameter — with map_abs and pop, and by its last element.
TEST(Enumerate, WritesDigitsFromTheLeafOfTheParametersDigits) {
  const auto expected = [](const nlohmann::json& in) {
    i64 n = in[0].get<i64>();
    std::vector<i64> d = {n % 10};
    for (n /= 10; n != 0; n /= 10) d.push_back(n % 10);
    std::string lines;
    for (size_t i = 0; i < d.size(); ++i)
      lines += (i ? "\n" : "") + std::to_string(i + 1 < d.size() ? std::abs(d[i]) : d[i]);
    return nlohmann::json(lines);
  };
  std::vector<nlohmann::json> train, test;
  for (i64 n : {0, 7, -5, 10, -120, 4321, -98765, 1000003, -44, 56, 999, -3030}) train.push_back({n});
  for (i64 n : {-1, 12345678, -700, 8}) test.push_back({n});
  const suites::Problem p = make_problem("fn solve(n: int) -> str", train, expected);
  bool parts = false;
  for (const search::GoalShape& g : search::goal_shapes(p, 0))
    if (g.layout == "$0 + [$1]") {
      parts = true;
      EXPECT_STREQ(g.convert, "map_str");
      EXPECT_TRUE(g.lines);
    }
  EXPECT_TRUE(parts) << "the lines of numbers taken apart";
  const search::SearchOutcome r = solve(p, test, expected, 100000);
  expect_generalising(r, "decimal_digits(n)");
  EXPECT_NE(r.solution.find("join(map_str("), std::string::npos) << r.solution;
}

// What an answer met through a goal is written with around its expression, by key, for the
// search policy's labels (search/goal_shapes.h shape_keys): nothing for a plain goal.
TEST(Enumerate, NamesWhatAGoalWritesAroundItsExpression) {
  using V = std::vector<std::string>;
  search::GoalShape g;
  g.type = Type::Int;
  EXPECT_TRUE(search::shape_keys(g).empty());
  g.convert = "chr";
  g.prefix = vm::Value::of_str("Sum ");
  EXPECT_EQ(search::shape_keys(g),
            (V{"$0 + $1 (str, str) -> str", "\"Sum \" () -> str", "chr($0) (int) -> str"}));
  search::GoalShape numbers;
  numbers.type = Type::IntArray;
  numbers.convert = "map_str";  // a helper, no production
  numbers.lines = true;
  EXPECT_EQ(search::shape_keys(numbers), (V{"join($0, $1) ([str], str) -> str", "\"\\n\" () -> str"}));
  search::GoalShape part;
  part.type = Type::IntArray;
  part.layout = "[$0] + $1";
  part.suffix = vm::Value::of_array(Type::Int, {vm::Value::of_int(8)});
  EXPECT_EQ(search::shape_keys(part),
            (V{"$0 + $1 ([int], [int]) -> [int]", "[$0] (int) -> [int]", "8 () -> int"}));
}

// A map over a str's characters gives an [int] (their codes) that the bank's [int] productions
// take, and an int goal is met up to a constant where there are 10 train cases or more
// (checksum's `chr(e + 32)`, 32 no leaf), not with fewer.
TEST(Enumerate, MeetsAnIntUpToAConstantAtTenCasesOrMore) {
  const auto expected = [](const nlohmann::json& in) {
    i64 t = 0;
    for (unsigned char c : in[0].get<std::string>()) t += c;
    return nlohmann::json(t + 1000);
  };
  std::vector<nlohmann::json> train, test;
  for (const char* s :
       {"", "a", "ab", "hello", "zzz", "gpu", "synth", "Q", "xy z", "12345", "!!", "bank", "os"})
    (train.size() < 12 ? train : test).push_back({s});
  const suites::Problem p = make_problem("fn solve(s: str) -> int", train, expected);
  const search::SearchOutcome r = solve(p, test, expected, 100000);
  expect_generalising(r, "(sum(map_1(s)) + 1000)");
  const suites::Problem few =
      make_problem("fn solve(s: str) -> int", {train.begin(), train.begin() + 9}, expected);
  const search::SearchOutcome f = solve(few, test, expected, 100000);
  EXPECT_TRUE(!f.solved || f.solution.find("+ 1000)") == std::string::npos) << f.solution;
}

// A bool met by whether a banked list is empty: ys holds every element of xs at least as often
// (PSB1's super-anagrams over lists) is len(difference(xs, ys)) == 0, whose goal is met at
// difference(xs, ys), three nodes sooner.
TEST(Enumerate, MeetsABoolByWhetherAListIsEmpty) {
  const auto expected = [](const nlohmann::json& in) {
    std::vector<i64> ys = in[1].get<std::vector<i64>>();
    for (i64 x : in[0].get<std::vector<i64>>()) {
      const auto at = std::find(ys.begin(), ys.end(), x);
      if (at == ys.end()) return nlohmann::json(false);
      ys.erase(at);
    }
    return nlohmann::json(true);
  };
  using L = std::vector<i64>;
  const std::vector<std::pair<L, L>> cases = {{{}, {}},
                                              {{}, {4}},
                                              {{3}, {}},
                                              {{1, 2}, {2, 1}},
                                              {{1, 1}, {1}},
                                              {{5, 6, 5}, {5, 6, 7, 5}},
                                              {{7}, {8, 9}},
                                              {{2, 2}, {2, 3, 2}},
                                              {{9, 8, 7}, {7, 8}},
                                              {{4, 4, 4}, {4, 4, 4}},
                                              {{3, 1}, {1, 2, 3}},
                                              {{6, 5}, {5, 5}},
                                              {{1, 2, 3}, {3, 2}},
                                              {{0}, {0, 0}},
                                              {{2, 9}, {9, 2, 2}},
                                              {{8, 8}, {8, 1, 8}},
                                              {{5}, {6}},
                                              {{3, 3}, {3, 1}},
                                              {{4, 7}, {7, 4, 4}},
                                              {{9}, {}}};
  std::vector<nlohmann::json> train, test;
  for (const auto& [xs, ys] : cases) (train.size() < 14 ? train : test).push_back({xs, ys});
  const suites::Problem p = make_problem("fn solve(xs: [int], ys: [int]) -> bool", train, expected);
  const search::SearchOutcome r = solve(p, test, expected, 100000);
  expect_generalising(r, "(len(difference(xs, ys)) == 0)");
}

// PSB1's for-loop-index as bundled (200 train cases): the lines goal's [int] is
// range_by(start, finish, step) less a last finish, and the lists banked on the way
// (repeat(v, start * finish), ...) are bounded, so that the heaps (2.5 MiB a case) do not fill
// before it (neither was so before: not solved in 5,000,000).
TEST(Enumerate, CountsALoopOutInLinesAtTwoHundredCases) {
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/for-loop-index.json";
  auto r = testing::run_command(jobs::search_command, {"--problem", problem, "-g", "enumerate", "-d", "cpu",
                                                       "--budget", "300000", "--threads", "1", "-q"});
  EXPECT_EQ(r.code, jobs::kExitOk) << r.err;
  EXPECT_NE(r.out.find("(generalises)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fn map_str(xs: [int]) -> [str]"), std::string::npos) << r.out;
}

// A problem's own constants are leaves: "xyz" cannot be built from the enumeration's own.
TEST(Enumerate, UsesTheProblemsConstants) {
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 24; ++k) {
    std::string s =
        std::string(size_t(k % 4), 'x') + (k % 3 ? "xyz" : "xzy") + std::string(size_t(k % 5), 'z');
    (k < 12 ? train : test).push_back({s});
  }
  const auto expected = [](const nlohmann::json& in) {
    return nlohmann::json(in[0].get<std::string>().find("xyz") != std::string::npos);
  };
  suites::Problem p = make_problem("fn solve(s: str) -> bool", train, expected);
  const search::SearchOutcome without = solve(p, test, expected, 20000);
  EXPECT_FALSE(without.solved && without.generalises) << without.solution;
  std::string error;
  ASSERT_TRUE(suites::parse_constants(R"({"str": ["xyz"]})", &p.constants, &error)) << error;
  const search::SearchOutcome with = solve(p, test, expected, 20000);
  ASSERT_TRUE(with.solved) << with.best_source;
  EXPECT_TRUE(with.generalises) << with.solution;
  EXPECT_NE(with.solution.find("\"xyz\""), std::string::npos) << with.solution;
}

// Every train output the same list: that list is a constant of the bank, and the answer.
TEST(Enumerate, AConstantOutputIsALeaf) {
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 12; ++k) (k < 8 ? train : test).push_back({std::vector<int>(size_t(k % 5), k)});
  const auto expected = [](const nlohmann::json&) { return nlohmann::json(std::vector<int>{27, 3, 81}); };
  const suites::Problem p = make_problem("fn solve(xs: [int]) -> [int]", train, expected);
  const search::SearchOutcome r = solve(p, test, expected, 100000);
  expect_generalising(r, "[27, 3, 81]");
}

// Two sequences element by element: xs[i] * ys[i], a loop (a map whose body reads ys[i], or a zip).
TEST(Enumerate, MapsOverTheIndicesOfTwoSequences) {
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 24; ++k) {
    std::vector<int> xs, ys;
    for (int j = 0; j < k % 6; ++j) {
      xs.push_back((k * 11 + j * 7) % 13 - 6);
      ys.push_back((k * 5 + j * 17) % 11 - 5);
    }
    (k < 12 ? train : test).push_back({xs, ys});
  }
  const auto expected = [](const nlohmann::json& in) {
    std::vector<int> out;
    for (size_t j = 0; j < in[0].size(); ++j) out.push_back(in[0][j].get<int>() * in[1][j].get<int>());
    return nlohmann::json(out);
  };
  const search::SearchOutcome r =
      solve(make_problem("fn solve(xs: [int], ys: [int]) -> [int]", train, expected), test, expected, 20000);
  ASSERT_TRUE(r.solved) << r.best_source;
  EXPECT_TRUE(r.generalises) << r.solution;
  EXPECT_NE(r.simplified.find("for "), std::string::npos) << r.simplified;
}

// Outputs that step as a parameter grows: the steps' thresholds are constants, the outputs that
// recur too, and the answer is a decision list under conditions — `if n < 300 { return "low"; }
// ...` — where choose(n < 300, "low", choose(n < 700, "mid", "high")) is size 11. Where the
// thresholds are parameters, the conditions compare them; the list then sits in a goal between
// a prefix and a suffix.
TEST(Enumerate, SplitsCasesUnderConditions) {
  std::vector<nlohmann::json> steps, test_steps, graded, test_graded;
  for (int k = 0; k < 120; ++k) {
    const int n =
        k < 8 ? std::vector<int>{298, 299, 300, 301, 698, 699, 700, 701}[size_t(k)] : (k * 7919) % 2000 - 500;
    (k < 60 ? steps : test_steps).push_back({n});
    const int lo = 20 + (k * 13) % 30, hi = lo + 10 + (k * 7) % 40, x = (k * 31) % 100;
    (k < 60 ? graded : test_graded).push_back({lo, hi, x});
  }
  const auto step = [](const nlohmann::json& in) {
    const int n = in[0];
    return nlohmann::json(n < 300 ? "low" : n < 700 ? "mid" : "high");
  };
  const auto grade = [](const nlohmann::json& in) {
    const int lo = in[0], hi = in[1], x = in[2];
    return nlohmann::json(std::string("grade: ") + (x < lo ? "low" : x < hi ? "mid" : "high") + ".");
  };
  const search::SearchOutcome r =
      solve(make_problem("fn solve(n: int) -> str", steps, step), test_steps, step, 5000);
  expect_generalising(r, "if n < 300 {\n    return \"low\";");
  search::EnumerateSettings off;
  off.splits = false;
  EXPECT_FALSE(
      solve(make_problem("fn solve(n: int) -> str", steps, step), test_steps, step, 5000, off).solved);

  suites::Problem p = make_problem("fn solve(lo: int, hi: int, x: int) -> str", graded, grade);
  std::string error;
  ASSERT_TRUE(suites::parse_constants(R"({"str": ["low", "mid", "high"]})", &p.constants, &error)) << error;
  const search::SearchOutcome g = solve(p, test_graded, grade, 5000);
  ASSERT_TRUE(g.solved) << g.best_source;
  EXPECT_TRUE(g.generalises) << g.solution;
  EXPECT_NE(g.solution.find("\"grade: \" + split_1("), std::string::npos) << g.solution;
  EXPECT_FALSE(solve(p, test_graded, grade, 5000, off).solved);
}

// A term right wherever it does not trap is guarded where it traps (an empty list's max): `if
// C { U } else { max(xs) - min(xs) }` with C the smallest condition that holds on exactly the
// trapping cases and U a term right on them, though they are one case of 16, fewer than a
// split's branch may hold (split_min_cases). The answer is right on the held-out lists, empty
// ones among them.
TEST(Enumerate, GuardsATermWhereAPartialOperationTraps) {
  const auto expected = [](const nlohmann::json& in) {
    const std::vector<i64> xs = in[0].get<std::vector<i64>>();
    return nlohmann::json(
        xs.empty() ? 0 : *std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end()));
  };
  std::vector<nlohmann::json> train, test;
  for (int k = 0; k < 32; ++k) {
    std::vector<i64> xs;
    for (int j = 0; j < (k * 5 + 3) % 9; ++j) xs.push_back((k * 37 + j * 53) % 101 - 50);
    if (k == 3 || k == 20 || k == 27) xs.clear();
    if (k == 5 || k == 22) xs = {0};
    if (k == 9 || k == 24) xs = {0, 1};
    (k < 16 ? train : test).push_back({xs});
  }
  const search::SearchOutcome r =
      solve(make_problem("fn solve(xs: [int]) -> int", train, expected), test, expected, 300000);
  expect_generalising(r, "return max(xs) - min(xs);");
  EXPECT_NE(r.solution.find("if "), std::string::npos) << r.solution;
  // The guard says what the trap says (the emptiness leaf), not some condition that holds on
  // the same train cases (`xs == map_4(xs)`: xs a list of ones, `[1]` too).
  EXPECT_NE(r.solution.find("if len(xs) == 0 {"), std::string::npos) << r.solution;
  search::EnumerateSettings off;
  off.splits = false;
  const search::SearchOutcome unguarded =
      solve(make_problem("fn solve(xs: [int]) -> int", train, expected), test, expected, 300000, off);
  EXPECT_FALSE(unguarded.solved && unguarded.generalises) << unguarded.solution;
}

// With few train cases (5, too few for the guards above), a term that traps on two cases or more
// and is right on the rest is guarded by the condition under which it traps, from its own
// derivation, where those cases' outputs are one value: DeepCoder's NULL, 256, where its ACCESS is
// out of range (deepcoder-066, 088), `if ys[0] < 0 || len(xs) <= ys[0] { 256 } else { xs[ys[0]] }`.
// The condition is the trap's, not fitted to the cases, so the answer holds on the held-out
// ones; with one trapping case any value would fit it, and none is guarded, nor with one right.
TEST(Enumerate, GuardsATermByTheCauseOfItsTraps) {
  const auto access = [](const nlohmann::json& in) {
    const std::vector<i64> xs = in[0].get<std::vector<i64>>(), ys = in[1].get<std::vector<i64>>();
    if (ys.empty() || ys[0] < 0 || ys[0] >= i64(xs.size())) return nlohmann::json(256);
    return nlohmann::json(xs[size_t(ys[0])]);
  };
  const auto pair = [](std::vector<i64> xs, std::vector<i64> ys) { return nlohmann::json::array({xs, ys}); };
  const std::vector<nlohmann::json> train = {pair({5, -3, 8}, {1, 4}), pair({7, 2}, {5, 0}),
                                             pair({-4, 9, 1, 6}, {2}), pair({3}, {-1, 2}),
                                             pair({6, 6, -2, 11, 4}, {3, 3})};
  const std::vector<nlohmann::json> test = {pair({1, 2, 3}, {0}), pair({1, 2, 3}, {3}), pair({4, 5}, {-2, 1}),
                                            pair({9, 8, 7, 6}, {3, 0}), pair({2}, {7})};
  const std::string signature = "fn solve(xs: [int], ys: [int]) -> int";
  const search::SearchOutcome r = solve(make_problem(signature, train, access), test, access, 300000);
  expect_generalising(r, "return 256;");
  EXPECT_NE(r.solution.find("len(ys) <= 0 || (ys[0]) < 0 || len(xs) <= (ys[0])"), std::string::npos)
      << r.solution;
  // One trapping case: not guarded.
  std::vector<nlohmann::json> one = train;
  one[1] = pair({7, 2}, {1, 0});
  const search::SearchOutcome single = solve(make_problem(signature, one, access), test, access, 300000);
  EXPECT_EQ(single.solution.find("return 256;"), std::string::npos) << single.solution;
  // One right case: not guarded either.
  std::vector<nlohmann::json> right_once = train;
  right_once[0] = pair({5, -3, 8}, {9, 4});
  right_once[2] = pair({-4, 9, 1, 6}, {-2});
  const search::SearchOutcome once = solve(make_problem(signature, right_once, access), test, access, 300000);
  EXPECT_EQ(once.solution.find("return 256;"), std::string::npos) << once.solution;
}

TEST(Enumerate, CommandLine) {
  const std::string problem = std::string(GPUSYNTH_SOURCE_DIR) + "/problems/psb1/number-io.json";
  auto ok = testing::run_command(jobs::search_command,
                                 {"--problem", problem, "-g", "enumerate", "-d", "cpu", "-q"});
  EXPECT_EQ(ok.code, jobs::kExitOk) << ok.err;
  EXPECT_NE(ok.out.find("float(n)"), std::string::npos) << ok.out;
  auto bad = testing::run_command(jobs::search_command,
                                  {"--problem", problem, "-g", "enumerate", "--max-size", "0"});
  EXPECT_EQ(bad.code, jobs::kExitUsage);
  EXPECT_NE(bad.err.find("--max-size"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gs
