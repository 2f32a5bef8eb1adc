// Self-play data for the search policy (search/policy_data.h): every problem's program, compiled
// and run, gives its outputs; its labels are names of the grammar's productions or constants (or
// with a lambda budget, of its lambda forms; with list_forms, DeepCoder's list forms in every other
// bank over an [int]);
// no problem is made twice; the same seed makes the same data; each line reads back as the
// problem it holds.
#include "search/policy_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "search/bank_grammar.h"
#include "tests/unit/compiled_program.h"
#include "vm/runner.h"

namespace gs::search {
namespace {

std::vector<PolicyExample> make(const PolicyDataConfig& config) {
  std::vector<PolicyExample> out;
  make_policy_data(config, [&](const PolicyExample& e) { out.push_back(e); });
  return out;
}

PolicyDataConfig small(u64 seed) {
  PolicyDataConfig c;
  c.examples = 300;
  c.seed = seed;
  c.budget = 5000;
  return c;
}

// e's program, compiled and run on each train case, traps on none and gives its output.
void expect_gives_its_outputs(const PolicyExample& e) {
  const std::optional<vm::Program> program = testing::compiled(e.program, e.problem.name.c_str());
  ASSERT_TRUE(program) << e.program;
  vm::Runner runner;
  for (const suites::Case& c : e.problem.train) {
    const vm::Outcome o = runner.run(*program, 0, c.inputs);
    ASSERT_EQ(o.trap, vm::Trap::NONE) << e.program;
    EXPECT_TRUE(vm::identical(o.results[0], c.outputs[0])) << e.program;
  }
}

TEST(PolicyData, ProgramsGiveTheirOutputs) {
  std::set<std::string> names;
  for (const bank::Production& p :
       bank::grammar({Type::Int, Type::Bool, Type::Str, Type::IntArray, Type::StrArray}, true, true))
    names.insert(bank::production_key(p));
  for (const char* constant :
       {"0 () -> int", "1 () -> int", "2 () -> int", "true () -> bool", "false () -> bool", "\"\" () -> str",
        "\" \" () -> str", "3 () -> int", "10 () -> int"})  // (3 and 10: lambda bodies')
    names.insert(constant);
  PolicyDataConfig config = small(7);
  config.lambda_budget = 2000;
  const std::vector<PolicyExample> data = make(config);
  ASSERT_EQ(data.size(), 300u);
  std::set<std::string> signatures;
  std::map<std::string, u32> forms;  // the lambda forms the answers use, how often
  for (const PolicyExample& e : data) {
    signatures.insert(e.problem.signature.text);
    EXPECT_GE(e.size, 2u) << e.program;
    ASSERT_EQ(e.problem.train.size(), 8u);
    ASSERT_FALSE(e.uses.empty()) << e.program;
    EXPECT_TRUE(std::is_sorted(e.uses.begin(), e.uses.end()));
    for (const std::string& u : e.uses) {
      if (u.find("($0, x -> ") != std::string::npos) {  // a lambda leaf's form: its helper is in the program
        EXPECT_NE(e.program.find("fn " + u.substr(0, u.find('(')) + "_"), std::string::npos) << u << "\n"
                                                                                             << e.program;
        ++forms[u];
        continue;
      }
      EXPECT_TRUE(names.count(u)) << u << "\n" << e.program;
    }
    expect_gives_its_outputs(e);
    EXPECT_TRUE(std::any_of(
        e.problem.train.begin(), e.problem.train.end(),
        [&](const suites::Case& c) { return !vm::identical(c.outputs[0], e.problem.train[0].outputs[0]); }))
        << "one output for every case:\n"
        << e.program;
  }
  EXPECT_GT(signatures.size(), 5u);
  // Answers over sequences are often a map or a filter, as the suites' are.
  EXPECT_GT(forms["map($0, x -> int) ([int]) -> [int]"], 5u);
  EXPECT_GE(forms.size(), 4u);
}

TEST(PolicyData, WithoutALambdaBudgetNoAnswerIsALambdaLeaf) {
  for (const PolicyExample& e : make(small(7)))
    for (const std::string& u : e.uses) EXPECT_EQ(u.find("x -> "), std::string::npos) << u;
}

// With list_forms, the odd-numbered banks over an [int] have DeepCoder's one-node forms: some
// answers use them (their helpers written out, the program giving the outputs), and every other
// bank makes what it makes without them.
TEST(PolicyData, TheListFormsInEveryOtherBankOverAList) {
  PolicyDataConfig config = small(5);
  config.examples = 600;
  const std::vector<PolicyExample> plain = make(config);
  config.list_forms = true;
  const std::vector<PolicyExample> forms = make(config);
  std::set<std::string> form_keys;
  for (const bank::Production& p : bank::grammar({Type::Int, Type::Bool, Type::IntArray}, true, true, true))
    if (bank::list_language_form(p)) form_keys.insert(bank::production_key(p));
  ASSERT_GE(form_keys.size(), 10u);
  std::map<std::string, std::string> before;  // by name, the line without the forms
  for (const PolicyExample& e : plain) {
    before[e.problem.name] = policy_example_json(e);
    for (const std::string& u : e.uses) EXPECT_FALSE(form_keys.count(u)) << u;
  }
  // Whether e's bank (its name's policy-BANK-K) has the forms: odd-numbered, a parameter an [int].
  auto has_forms = [](const PolicyExample& e) {
    const std::string& text = e.problem.signature.text;
    return std::stoull(e.problem.name.substr(e.problem.name.find('-') + 1)) % 2 == 1 &&
           text.find("[int]") < text.find("->");
  };
  u32 using_forms = 0, same = 0;
  for (const PolicyExample& e : forms) {
    if (!has_forms(e)) {
      if (before.count(e.problem.name)) {
        EXPECT_EQ(policy_example_json(e), before[e.problem.name]);
        ++same;
      }
      continue;
    }
    if (std::none_of(e.uses.begin(), e.uses.end(),
                     [&](const std::string& u) { return form_keys.count(u) > 0; }))
      continue;
    ++using_forms;
    expect_gives_its_outputs(e);
  }
  EXPECT_GT(using_forms, 10u);
  EXPECT_GT(same, 100u);
}

TEST(PolicyData, NoProblemTwiceAndTheSameSeedTheSameData) {
  const std::vector<PolicyExample> a = make(small(3)), b = make(small(3)), c = make(small(4));
  std::set<std::string> behaviours;
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(policy_example_json(a[k]), policy_example_json(b[k]));
    std::string cases = a[k].problem.signature.text;
    for (const suites::Case& x : a[k].problem.train)
      cases += vm::to_json(x.inputs[0]) + "->" + vm::to_json(x.outputs[0]) + ";";
    EXPECT_TRUE(behaviours.insert(cases).second) << a[k].program;
  }
  EXPECT_NE(policy_example_json(a[0]), policy_example_json(c[0]));
}

TEST(PolicyData, ALineIsAProblemFileWithItsAnswer) {
  const std::vector<PolicyExample> data = make(small(11));
  for (size_t k = 0; k < 20; ++k) {
    nlohmann::json j = nlohmann::json::parse(policy_example_json(data[k]));
    EXPECT_EQ(j["program"], data[k].program);
    EXPECT_EQ(j["uses"].get<std::vector<std::string>>(), data[k].uses);
    for (const char* extra : {"program", "size", "uses"}) j.erase(extra);
    std::string error;
    const std::optional<suites::Problem> p = suites::parse_problem(j.dump(), "line.json", &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(suites::problem_json(*p), suites::problem_json(data[k].problem));
  }
}

TEST(PolicyData, ABankTooSmallToMakeProblemsIsAnError) {
  PolicyDataConfig c = small(1);
  c.max_size = 1;  // nothing of 2 nodes or more
  EXPECT_THROW(make(c), std::runtime_error);
}

}  // namespace
}  // namespace gs::search
