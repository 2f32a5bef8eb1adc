// The search policy's model (neural/policy_*.h, neural/learned_policy.h): features have their
// size and read the cases; a policy trained on a little self-play data is written, read back and
// asked about problems, its probabilities in (0, 1) and the keys it never saw given the median;
// it learns (the held-out loss falls below the start's); a bad data line, a missing or corrupt
// policy file are errors naming the file. No torch headers.
#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

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

// A policy file of a short training, for the learner's tests.
std::string small_policy(const std::vector<search::PolicyExample>& d, const std::string& name) {
  PolicyTrainConfig c;
  c.data = {write_data(d, name + ".jsonl")};
  c.output = temp(name + ".pt");
  c.steps = 30;
  c.batch = 16;
  c.hidden = 16;
  c.log_every = 0;
  std::ostringstream log;
  std::string error;
  EXPECT_EQ(train_policy(c, log, &error), TrainResult::Ok) << error;
  return c.output;
}

// `ranks` learners in threads, each with its share of the examples (example i on rank i % ranks),
// their sums added through shared memory as the collective would: the weights they end with.
std::vector<std::vector<double>> learn_in_ranks(const std::string& policy,
                                                const std::vector<search::PolicyExample>& d, u32 ranks,
                                                std::vector<search::PolicyLearner::Learnt>* learnt) {
  search::LearnSettings settings;
  settings.steps = 5;
  std::vector<std::unique_ptr<search::PolicyLearner>> learners;
  for (u32 r = 0; r < ranks; ++r) learners.push_back(neural::load_policy_learner(policy, settings));
  for (size_t i = 0; i < d.size(); ++i) learners[i % ranks]->add_example(d[i].problem, d[i].uses);
  std::barrier meet(ranks);
  std::vector<std::vector<float>> posted(ranks);
  auto sum_for = [&](u32 rank) {
    return [&, rank](float* data, size_t count) {
      posted[rank].assign(data, data + count);
      meet.arrive_and_wait();
      for (size_t i = 0; i < count; ++i) {
        float s = 0;
        for (u32 r = 0; r < ranks; ++r) s += posted[r][i];  // in rank order, as the MPI backend adds
        data[i] = s;
      }
      meet.arrive_and_wait();
    };
  };
  learnt->assign(ranks, {});
  std::vector<std::thread> threads;
  for (u32 r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      learners[r]->align(sum_for(r), r == 0);
      (*learnt)[r] = learners[r]->learn(sum_for(r));
    });
  for (std::thread& t : threads) t.join();
  // What each rank's policy now says of every example's problem: its weights, seen from outside.
  std::vector<std::vector<double>> said(ranks);
  const std::vector<std::string> keys = {"$0 + $1 (int, int) -> int", "len($0) ([int]) -> int",
                                         "2 () -> int"};
  for (u32 r = 0; r < ranks; ++r) {
    EXPECT_EQ(learners[r]->step(), learners[0]->step());
    const std::shared_ptr<const search::Policy> p = learners[r]->policy();
    for (const search::PolicyExample& e : d)
      for (double x : p->probabilities(e.problem, keys)) said[r].push_back(x);
  }
  return said;
}

// The ranks of a campaign keep the same weights, and learning over them is learning over all
// their examples in one place (up to the order of float sums); a policy handed out earlier stays.
TEST(PolicyLearner, RanksLearnAsOneAndKeepTheSameWeights) {
  const std::vector<search::PolicyExample> d = data(120);
  const std::string policy = small_policy(d, "learner");
  const std::vector<search::PolicyExample> solved(d.begin(), d.begin() + 24);

  std::vector<search::PolicyLearner::Learnt> one, three;
  const std::vector<std::vector<double>> alone = learn_in_ranks(policy, solved, 1, &one);
  const std::vector<std::vector<double>> ranks = learn_in_ranks(policy, solved, 3, &three);
  EXPECT_EQ(one[0].examples, 24u);
  for (const auto& l : three) {
    EXPECT_EQ(l.examples, 24u);
    EXPECT_NEAR(l.loss, one[0].loss, 1e-5);
  }
  EXPECT_EQ(ranks[1], ranks[0]);  // the same bits on every rank
  EXPECT_EQ(ranks[2], ranks[0]);
  double differ = 0;
  for (size_t i = 0; i < alone[0].size(); ++i) differ = std::max(differ, std::abs(alone[0][i] - ranks[0][i]));
  EXPECT_LT(differ, 1e-4);

  // It learnt: the loss on its examples fell, and a policy taken before is what it was.
  search::LearnSettings settings;
  settings.steps = 10;
  auto learner = neural::load_policy_learner(policy, settings);
  for (const search::PolicyExample& e : solved) learner->add_example(e.problem, e.uses);
  const std::shared_ptr<const search::Policy> before = learner->policy();
  const std::vector<std::string> keys(solved[0].uses.begin(), solved[0].uses.end());
  const std::vector<double> was = before->probabilities(solved[0].problem, keys);
  const search::PolicyLearner::Sum alone_sum = [](float*, size_t) {};
  const double first = learner->learn(alone_sum).loss;
  const double second = learner->learn(alone_sum).loss;
  EXPECT_LT(second, first);
  EXPECT_EQ(before->probabilities(solved[0].problem, keys), was);
  EXPECT_EQ(learner->step(), 30u + 20u);
  EXPECT_NE(learner->policy()->describe().find("the last 20 learnt in this campaign"), std::string::npos)
      << learner->policy()->describe();

  // Saved, it is a policy file at its step; no examples anywhere: no step.
  const std::string out = temp("learnt.pt");
  learner->save(out);
  EXPECT_NE(load_learned_policy(out)->describe().find("step 50"), std::string::npos);
  auto idle = neural::load_policy_learner(policy, settings);
  EXPECT_EQ(idle->learn(alone_sum).examples, 0u);
  EXPECT_EQ(idle->step(), 30u);
  EXPECT_THROW(idle->save("/nonexistent-dir/policy.pt"), std::runtime_error);
  EXPECT_THROW(neural::load_policy_learner(temp("missing.pt"), settings), std::runtime_error);
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
