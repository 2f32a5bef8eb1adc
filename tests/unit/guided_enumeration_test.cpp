// The search policy's side in search/ (search/policy.h): the costs it gives, and the enumeration
// guided by them — a policy that knows which productions the answer uses reaches it after fewer
// candidates, and the answer is the same program a search without it finds; without a model
// loader, asking for a policy says that this build has none.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "search/generator.h"
#include "search/policy.h"
#include "search/search_loop.h"

namespace gs::search {
namespace {

TEST(PolicyCost, IsTheInformationOfTheChoiceFlattenedByTheTemperature) {
  EXPECT_EQ(policy_cost(1.0, 1), 1u);
  EXPECT_EQ(policy_cost(0.9, 1), 1u);
  EXPECT_EQ(policy_cost(0.5, 1), 2u);
  EXPECT_EQ(policy_cost(0.25, 1), 3u);
  EXPECT_EQ(policy_cost(1.0 / 64, 1), 7u);
  EXPECT_EQ(policy_cost(1e-9, 1), kMaxPolicyCost);
  EXPECT_EQ(policy_cost(0, 1), kMaxPolicyCost);
  EXPECT_EQ(policy_cost(std::nan(""), 1), kMaxPolicyCost);
  EXPECT_EQ(policy_cost(2.0, 1), 1u);  // a probability above 1 is 1
  // Temperature 6: three bands over the probabilities a model gives.
  EXPECT_EQ(policy_cost(0.2, 6), 1u);
  EXPECT_EQ(policy_cost(0.1, 6), 2u);
  EXPECT_EQ(policy_cost(0.003, 6), 2u);
  EXPECT_EQ(policy_cost(0.001, 6), 3u);
  for (double p = 1e-6; p < 1; p *= 1.7) EXPECT_GE(policy_cost(p, 1), policy_cost(p * 1.7, 1));
}

// A policy that knows the answer's productions: these keys get `likely`, the others `unlikely`.
class KnowingPolicy final : public Policy {
 public:
  explicit KnowingPolicy(std::vector<std::string> known) : known_(std::move(known)) {}
  std::vector<double> probabilities(const suites::Problem&,
                                    std::span<const std::string> keys) const override {
    std::vector<double> p;
    for (const std::string& k : keys)
      p.push_back(std::find(known_.begin(), known_.end(), k) != known_.end() ? 0.9 : 0.001);
    ++asked;
    return p;
  }
  std::string describe() const override { return "knowing"; }
  mutable int asked = 0;

 private:
  std::vector<std::string> known_;
};

suites::Problem product_less_sum() {  // a * b - (a + b), 7 nodes
  nlohmann::json j{{"name", "guided"},
                   {"signature", "fn solve(a: int, b: int) -> int"},
                   {"train", nlohmann::json::array()}};
  for (int a = -3; a <= 3; ++a)
    for (int b : {-5, 2, 7}) j["train"].push_back({{"inputs", {a, b}}, {"outputs", {a * b - (a + b)}}});
  std::string error;
  auto p = suites::parse_problem(j.dump(), "guided.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

SearchOutcome search(const suites::Problem& p, EnumerateSettings settings) {
  auto g = make_enumerate_generator(p, settings);
  SearchConfig config;
  config.batch = 500;
  config.budget.candidates = 5'000'000;
  return run_search(p, *g, *pipeline::make_pipeline(pipeline::Device::Cpu, {}), config);
}

TEST(GuidedEnumeration, APolicyThatKnowsTheAnswerReachesItSooner) {
  const suites::Problem p = product_less_sum();
  const SearchOutcome unguided = search(p, {});
  auto policy = std::make_shared<KnowingPolicy>(std::vector<std::string>{
      "$0 * $1 (int, int) -> int", "$0 - $1 (int, int) -> int", "$0 + $1 (int, int) -> int"});
  EnumerateSettings guided_settings;
  guided_settings.policy = policy;
  guided_settings.policy_temperature = 1;
  const SearchOutcome guided = search(p, guided_settings);
  ASSERT_TRUE(unguided.solved);
  ASSERT_TRUE(guided.solved);
  EXPECT_EQ(policy->asked, 1);
  EXPECT_LT(guided.candidates * 5, unguided.candidates) << guided.candidates << " vs " << unguided.candidates;
  // A policy that is wrong still finds it, later: the enumeration stays complete.
  EnumerateSettings wrong;
  wrong.policy = std::make_shared<KnowingPolicy>(std::vector<std::string>{"$0 % $1 (int, int) -> int"});
  wrong.policy_temperature = 1;
  const SearchOutcome misled = search(p, wrong);
  ASSERT_TRUE(misled.solved);
  EXPECT_GT(misled.candidates, guided.candidates);
}

// What the policy learns from a solved problem: the solution's productions, by grammar key.
TEST(GuidedEnumeration, ASolutionNamesTheProductionsItIsMadeOf) {
  const SearchOutcome r = search(product_less_sum(), {});
  ASSERT_TRUE(r.solved);
  ASSERT_FALSE(r.uses.empty()) << r.solution;
  EXPECT_TRUE(std::is_sorted(r.uses.begin(), r.uses.end()));
  EXPECT_NE(std::find(r.uses.begin(), r.uses.end(), "$0 * $1 (int, int) -> int"), r.uses.end()) << r.solution;
  for (const std::string& key : r.uses) EXPECT_NE(key.find(") -> int"), std::string::npos) << key;
}

// count(xs, x -> x % 3 == 1) + len(xs): a lambda leaf of 6 nodes, an operand (a leaf that meets
// the goal alone is an answer whatever its cost).
suites::Problem count_of_one_mod_three_and_length() {
  nlohmann::json j{{"name", "guided-count"},
                   {"signature", "fn solve(xs: [int]) -> int"},
                   {"train", nlohmann::json::array()}};
  const std::vector<std::vector<int>> lists = {
      {1, 4, 7, 2},          {3, 6},      {10, 11, 13, 5, 8},     {},
      {0, 1, 2, 3, 4, 5, 6}, {22, 9, 31}, {16, 17, 19, 40, 1, 2}, {5}};
  for (const std::vector<int>& xs : lists) {
    int count = 0;
    for (int x : xs) count += x % 3 == 1;
    j["train"].push_back({{"inputs", {xs}}, {"outputs", {count + int(xs.size())}}});
  }
  std::string error;
  auto p = suites::parse_problem(j.dump(), "guided-count.json", &error);
  EXPECT_TRUE(p) << error;
  return *p;
}

// A lambda leaf costs its size less 1 plus what the policy says of its form: a policy right about
// the form reaches the answer sooner than one that expects other forms; and an answer that uses
// a lambda leaf names its form among its uses (what policy data and learning label it with).
TEST(GuidedEnumeration, APolicyPricesALambdaLeafByItsForm) {
  const suites::Problem p = count_of_one_mod_three_and_length();
  const std::string form = "count($0, x -> bool) ([int]) -> int";
  EnumerateSettings knowing, blind;
  const std::vector<std::string> productions = {"$0 + $1 (int, int) -> int", "len($0) ([int]) -> int"};
  std::vector<std::string> all = productions;
  all.push_back(form);
  std::vector<std::string> wrong = productions;  // the other forms over [int] to an int
  wrong.push_back("find($0, x -> bool) ([int]) -> int");
  wrong.push_back("map($0, x -> int) ([int]) -> [int]");
  knowing.policy = std::make_shared<KnowingPolicy>(all);
  blind.policy = std::make_shared<KnowingPolicy>(wrong);
  knowing.policy_temperature = blind.policy_temperature = 1;
  const SearchOutcome guided = search(p, knowing), misled = search(p, blind);
  ASSERT_TRUE(guided.solved);
  ASSERT_TRUE(misled.solved);
  EXPECT_LT(guided.candidates * 2, misled.candidates) << guided.solution << "\n" << misled.solution;
  for (const std::string& key : all)
    EXPECT_NE(std::find(guided.uses.begin(), guided.uses.end(), key), guided.uses.end()) << key << "\n"
                                                                                         << guided.solution;
}

// GP guided by a policy (search/gp_guide.h): its offspring hold what the policy expects more often
// than unguided GP's do, from the same parents. Here the policy expects `%`.
TEST(GuidedGp, MutationsDrawWhatThePolicyExpects) {
  const suites::Problem p = product_less_sum();
  size_t with_mod[2] = {0, 0};
  for (int guided = 0; guided < 2; ++guided) {
    GeneratorSettings settings;
    settings.seed = 7;
    settings.gp.p_crossover = 0;  // mutations only: crossover writes no new code
    auto policy = std::make_shared<KnowingPolicy>(std::vector<std::string>{"$0 % $1 (int, int) -> int"});
    if (guided) settings.enumerate.policy = policy;
    settings.enumerate.policy_temperature = 1;
    std::unique_ptr<Generator> gp = make_gp_generator(p, settings);
    const std::vector<Proposal> population = gp->propose(200, 0);  // random programs: unguided
    pipeline::BatchResults results;
    results.reset(pipeline::BatchShape{u32(population.size()), u32(p.train.size())});
    gp->observe(population, results, 0);
    const auto mods = [](const std::string& source) {
      size_t n = 0;
      for (size_t at = source.find(" % "); at != std::string::npos; at = source.find(" % ", at + 1)) ++n;
      return n;
    };
    for (const Proposal& child : gp->propose(1000, 1))  // children with more % than their parent
      with_mod[guided] += mods(child.source) > mods(population[size_t(child.parents[0])].source);
    if (guided) {
      EXPECT_GE(policy->asked, 1);
    }
  }
  EXPECT_GT(with_mod[1], with_mod[0] * 3 / 2 + 5) << with_mod[0] << " unguided, " << with_mod[1] << " guided";
}

TEST(GuidedEnumeration, WithoutAModelLoaderAPolicyIsRefusedSayingWhy) {
  try {
    load_policy("some.policy");
    FAIL() << "no loader is registered in this test";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("some.policy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("libtorch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gs::search
