// The search policy's model (neural/policy_*.h, neural/learned_policy.h): features have their
// size and read the cases; a policy trained on a little self-play data is written, read back and
// asked about problems, its probabilities in (0, 1) and the keys it never saw given the median;
// it learns (the held-out loss falls below the start's); a bad data line, a missing or corrupt
// policy file are errors naming the file. No torch headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "neural/learned_policy.h"
#include "neural/policy_features.h"
#include "neural/policy_training.h"
#include "search/policy_data.h"

namespace gs::neural {
namespace {

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gpusynth-policy-test-" + name)).string();
}

std::vector<search::PolicyExample> data(u64 examples) {
  search::PolicyDataConfig c;
  c.examples = examples;
  c.budget = 5000;
  std::vector<search::PolicyExample> out;
  search::make_policy_data(c, [&](const search::PolicyExample& e) { out.push_back(e); });
  return out;
}

std::string write_data(const std::vector<search::PolicyExample>& examples, const std::string& name) {
  const std::string path = temp(name);
  std::ofstream out(path);
  for (const search::PolicyExample& e : examples) out << search::policy_example_json(e) << "\n";
  return path;
}

TEST(PolicyFeatures, HaveTheirSizeAndReadTheCases) {
  const std::vector<search::PolicyExample> d = data(40);
  for (const search::PolicyExample& e : d) {
    const PolicyInput in = policy_input(e.problem);
    EXPECT_EQ(in.rows, 8u);
    ASSERT_EQ(in.features.size(), size_t(in.rows) * kCaseFeatures);
    for (float f : in.features) ASSERT_TRUE(f >= -1 && f <= 1) << f;
    EXPECT_EQ(policy_input(e.problem).features, in.features);  // a function of the problem
  }
  EXPECT_NE(policy_input(d[0].problem).features, policy_input(d[1].problem).features);
}

TEST(LearnedPolicy, TrainsWritesReadsAndAnswers) {
  const std::vector<search::PolicyExample> d = data(400);
  PolicyTrainConfig c;
  const std::string data_path = write_data(d, "data.jsonl");
  c.data = {data_path};
  c.output = temp("policy.pt");
  c.steps = 150;
  c.batch = 32;
  c.hidden = 32;
  c.log_every = 0;
  c.validation = 0.1;
  std::ostringstream log;
  std::string error;
  ASSERT_EQ(train_policy(c, log, &error), TrainResult::Ok) << error;
  EXPECT_NE(log.str().find("held-out loss"), std::string::npos) << log.str();

  const std::shared_ptr<const search::Policy> policy = load_learned_policy(c.output);
  EXPECT_NE(policy->describe().find("step 150"), std::string::npos) << policy->describe();
  std::vector<std::string> keys = {"$0 + $1 (int, int) -> int", "len($0) ([int]) -> int", "2 () -> int",
                                   "a key it never saw"};
  const std::vector<double> p = policy->probabilities(d[0].problem, keys);
  ASSERT_EQ(p.size(), keys.size());
  for (double x : p) EXPECT_TRUE(x > 0 && x < 1) << x;
  std::vector<double> known(p.begin(), p.end() - 1);
  std::sort(known.begin(), known.end());
  EXPECT_DOUBLE_EQ(p.back(), known[known.size() / 2]);
  // "2" is in most answers of the data: the policy says so.
  double mean_two = 0;
  for (size_t k = 0; k < 50; ++k) mean_two += policy->probabilities(d[k].problem, {&keys[2], 1})[0] / 50;
  EXPECT_GT(mean_two, 0.2);

  // Going on from it with more data: its vocabulary kept, a key outside it left out and said so.
  const std::string more = temp("more.jsonl");
  {
    nlohmann::json j = nlohmann::json::parse(search::policy_example_json(d[0]));
    j["uses"].push_back("a production it never saw () -> int");
    std::ofstream(more) << j.dump() << "\n";
  }
  PolicyTrainConfig again = c;
  again.data = {data_path, more};
  again.init = c.output;
  again.output = temp("policy-more.pt");
  again.steps = 20;
  again.hidden = 64;  // the policy's width wins
  std::ostringstream log2;
  ASSERT_EQ(train_policy(again, log2, &error), TrainResult::Ok) << error;
  EXPECT_NE(log2.str().find("1 uses of keys outside"), std::string::npos) << log2.str();
  const std::shared_ptr<const search::Policy> more_policy = load_learned_policy(again.output);
  EXPECT_NE(more_policy->describe().find("step 170"), std::string::npos) << more_policy->describe();
  auto vocabulary_size = [](const std::string& described) { return described.substr(described.rfind(", ")); };
  EXPECT_EQ(vocabulary_size(more_policy->describe()), vocabulary_size(policy->describe()));  // ", N keys)"
  again.init = temp("no-such.pt");
  EXPECT_EQ(train_policy(again, log2, &error), TrainResult::BadInput);
  EXPECT_NE(error.find("no-such.pt"), std::string::npos) << error;
  for (const std::string& f : {data_path, more, c.output, again.output}) std::filesystem::remove(f);
}

TEST(LearnedPolicy, BadDataAndBadFilesAreErrorsNamingThem) {
  std::vector<search::PolicyExample> d = data(30);
  const std::string path = write_data(d, "bad.jsonl");
  {
    std::ofstream out(path, std::ios::app);
    out << "{\"name\": \"x\", \"signature\": \"fn solve(n: int) -> int\", \"train\": []}\n";  // no uses
  }
  PolicyTrainConfig c;
  c.data = {path};
  c.output = temp("never.pt");
  c.steps = 1;
  std::ostringstream log;
  std::string error;
  EXPECT_EQ(train_policy(c, log, &error), TrainResult::BadInput);
  EXPECT_NE(error.find(path + ":31"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(c.output));

  c.data = {temp("missing.jsonl")};
  EXPECT_EQ(train_policy(c, log, &error), TrainResult::BadInput);
  EXPECT_NE(error.find("missing.jsonl"), std::string::npos) << error;

  EXPECT_THROW(load_learned_policy(temp("missing.pt")), std::runtime_error);
  const std::string corrupt = temp("corrupt.pt");
  std::ofstream(corrupt) << "not a policy";
  try {
    load_learned_policy(corrupt);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(corrupt), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
  std::filesystem::remove(corrupt);
}

}  // namespace
}  // namespace gs::neural
