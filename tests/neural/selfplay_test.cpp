// Self-play (neural/policy_gradient.h, neural/selfplay.h): the reward, REINFORCE steps that
// change the weights and are the same for a seed, and `selfplay` runs as one process (the local
// reducer): checkpoint, resume (which continues exactly as an uninterrupted run), stop, bad input.
// The distributed run (mpirun -np 2) is selfplay_mpi_test.sh.
#include "neural/selfplay.h"

#include <gtest/gtest.h>
#include <torch/optim/adam.h>
#include <torch/utils.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "neural/checkpoint.h"
#include "neural/neural_compiler.h"
#include "neural/policy_gradient.h"
#include "neural/trainer.h"
#include "tests/neural/support.h"

namespace gs::neural {
namespace {

const torch::Device kCpu(torch::kCPU);
constexpr u64 kSeed = 1;

using testing::tiny_config;

// The programs selfplay draws first with seed kSeed and one level (program i is make(Train, i, 0)).
std::vector<Example> first_programs(u32 n) {
  PairMaker maker(kSeed, 96, 96);
  std::vector<Example> set;
  for (u64 i = 0; i < n; ++i) set.push_back(maker.make(Split::Train, i, 0));
  return set;
}

using testing::temp_dir;

std::string weights_line(const std::string& log, const std::string& prefix) {
  std::smatch m;
  std::regex line(prefix + " weights fnv1a (0x[0-9a-f]{16})");
  return std::regex_search(log, m, line) ? m[1].str() : "";
}

torch::Tensor flat(Seq2Seq& model) {
  std::vector<torch::Tensor> parts;
  for (const torch::Tensor& p : model->parameters()) parts.push_back(p.detach().reshape(-1).clone());
  return torch::cat(parts);
}

// A tiny model trained (supervised) for a while on the first programs selfplay draws, so that
// its samples mix correct, wrong and invalid bytecode: rewards differ within a program and the
// policy gradient is not zero (an untrained model's samples are all invalid: no gradient).
class Selfplay : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(temp_dir("suite"));
    torch::manual_seed(1);
    Trainer trainer(tiny_config(), 3e-3, kCpu);
    std::vector<Example> set = first_programs(8);
    for (int i = 0; i < 80; ++i) trainer.step(set, 3e-3);
    std::string error;
    ASSERT_TRUE(trainer.save(checkpoint(), CheckpointMeta{}, &error)) << error;
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string checkpoint() { return (*dir_ / "tiny.pt").string(); }

  static Seq2Seq load_tiny() {
    std::string error;
    auto meta = read_checkpoint_meta(checkpoint(), &error);
    EXPECT_TRUE(meta) << error;
    Seq2Seq model(meta->model);
    EXPECT_TRUE(load_checkpoint(checkpoint(), model, nullptr, &error)) << error;
    return model;
  }

  static SelfplayOptions run_options(const std::string& out) {
    SelfplayOptions o;
    o.from = checkpoint();
    o.out_dir = out;
    o.steps = 3;
    o.batch = 2;
    o.samples = 4;
    o.levels = 1;
    o.seed = kSeed;
    o.learning_rate = 1e-3;
    o.log_every = 1;
    o.eval_programs = 4;
    o.checkpoint_every = 2;
    return o;
  }

  static std::filesystem::path* dir_;
};
std::filesystem::path* Selfplay::dir_ = nullptr;

TEST(SelfplayReward, CorrectValidAndCost) {
  Check c;
  c.verdict = Verdict::Correct;
  c.instructions = 50;
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 1.0), 10.5);  // half the reference's instructions
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 0.0), 11.0);
  c.instructions = 200;
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 2.0), 7.0);
  // Wrong or unverified bytecode pays no cost: its instructions mean nothing.
  c.verdict = Verdict::Differs;
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 1.0), 1.0);
  c.verdict = Verdict::WrongEntry;
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 1.0), 1.0);
  c.verdict = Verdict::Invalid;
  EXPECT_DOUBLE_EQ(sample_reward(c, 100, 1.0), 0.0);
}

TEST_F(Selfplay, ReinforceStepsChangeTheWeightsDeterministically) {
  std::vector<Example> programs = first_programs(4);
  PolicyOptions po;
  po.samples = 4;
  po.seed = 3;
  auto train = [&](PolicyStats* stats) {
    Seq2Seq model = load_tiny();
    torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
    PolicyGradient pg(model, kCpu, po);
    for (u64 step = 0; step < 2; ++step) {
      adam.zero_grad();
      *stats += pg.accumulate(programs, step, 0, double(programs.size() * po.samples));
      adam.step();
    }
    return flat(model);
  };
  PolicyStats a_stats, b_stats;
  Seq2Seq untouched = load_tiny();
  torch::Tensor start = flat(untouched);
  torch::Tensor a = train(&a_stats), b = train(&b_stats);
  EXPECT_EQ(a_stats.programs, 8);
  EXPECT_EQ(a_stats.samples, 32);
  EXPECT_GT(a_stats.valid, 0) << "the fixture's model should make some valid bytecode";
  EXPECT_LT(a_stats.correct, a_stats.samples) << "and some that is not correct";
  EXPECT_FALSE(torch::equal(a, start)) << "the weights did not move";
  EXPECT_TRUE(torch::equal(a, b)) << "two runs of the same seed differ";
  EXPECT_EQ(a_stats.reward, b_stats.reward);
}

TEST_F(Selfplay, RunWritesALoadableCheckpointAndResumesExactly) {
  const std::filesystem::path dir = temp_dir("run");
  SelfplayOptions o = run_options((dir / "a").string());
  LocalReducer local;
  std::ostringstream log;
  std::string error;
  ASSERT_EQ(selfplay(o, local, log, &error), SelfplayResult::Ok) << error;
  const std::string text = log.str();
  EXPECT_NE(text.find("step 3/3"), std::string::npos) << text;
  EXPECT_NE(text.find("eval  step 0: correct"), std::string::npos) << text;
  EXPECT_NE(text.find("eval  step 3: correct"), std::string::npos) << text;
  const std::string start = weights_line(text, "start"), end = weights_line(text, "rank 0");
  ASSERT_FALSE(start.empty()) << text;
  ASSERT_FALSE(end.empty()) << text;
  EXPECT_NE(start, end) << text;
  const std::string ckpt = (dir / "a" / "checkpoint.pt").string();
  EXPECT_TRUE(std::filesystem::exists(dir / "a" / "progress.tsv"));
  EXPECT_TRUE(NeuralCompiler::load(ckpt, "cpu", &error)) << error;
  auto meta = read_checkpoint_meta(ckpt, &error);
  ASSERT_TRUE(meta) << error;
  EXPECT_EQ(meta->step, 3u);
  EXPECT_EQ(meta->seed, kSeed);

  // Resumed to 5 steps = 5 steps in one go.
  SelfplayOptions more = o;
  more.steps = 5;
  more.resume = true;
  std::ostringstream resumed;
  ASSERT_EQ(selfplay(more, local, resumed, &error), SelfplayResult::Ok) << error;
  EXPECT_NE(resumed.str().find("resumed"), std::string::npos) << resumed.str();
  EXPECT_NE(resumed.str().find("step 5/5"), std::string::npos) << resumed.str();
  EXPECT_EQ(resumed.str().find("step 3/5"), std::string::npos) << resumed.str();
  SelfplayOptions whole = more;
  whole.resume = false;
  whole.out_dir = (dir / "b").string();
  std::ostringstream straight;
  ASSERT_EQ(selfplay(whole, local, straight, &error), SelfplayResult::Ok) << error;
  EXPECT_EQ(weights_line(resumed.str(), "rank 0"), weights_line(straight.str(), "rank 0"))
      << resumed.str() << straight.str();
  std::filesystem::remove_all(dir);
}

// --resume with another --lr goes on at that rate: two runs resumed from the same step at two
// rates end with different weights, and the checkpoint's meta names the new rate. (Whether
// Adam's saved state carries its learning rate differs between libtorch versions; the run sets
// it from --lr either way.)
TEST_F(Selfplay, ResumeTakesTheNewLearningRate) {
  const std::filesystem::path dir = temp_dir("lr");
  LocalReducer local;
  std::string error;
  std::string weights[2];
  const double rates[2] = {1e-3, 2.5e-2};
  for (int i = 0; i < 2; ++i) {
    SelfplayOptions o = run_options((dir / std::to_string(i)).string());
    o.steps = 2;
    std::ostringstream log;
    ASSERT_EQ(selfplay(o, local, log, &error), SelfplayResult::Ok) << error;
    o.steps = 3;
    o.resume = true;
    o.learning_rate = rates[i];
    std::ostringstream resumed;
    ASSERT_EQ(selfplay(o, local, resumed, &error), SelfplayResult::Ok) << error;
    weights[i] = weights_line(resumed.str(), "rank 0");
    ASSERT_FALSE(weights[i].empty()) << resumed.str();
    auto meta = read_checkpoint_meta((dir / std::to_string(i) / "checkpoint.pt").string(), &error);
    ASSERT_TRUE(meta) << error;
    EXPECT_DOUBLE_EQ(meta->learning_rate, rates[i]);
  }
  EXPECT_NE(weights[0], weights[1]);
  std::filesystem::remove_all(dir);
}

TEST_F(Selfplay, StopWritesACheckpointAndSaysInterrupted) {
  const std::filesystem::path dir = temp_dir("stop");
  SelfplayOptions o = run_options(dir.string());
  o.stop = [] { return true; };
  LocalReducer local;
  std::ostringstream log;
  std::string error;
  ASSERT_EQ(selfplay(o, local, log, &error), SelfplayResult::Interrupted) << error;
  auto meta = read_checkpoint_meta((dir / "checkpoint.pt").string(), &error);
  ASSERT_TRUE(meta) << error;
  EXPECT_EQ(meta->step, 1u);
  std::filesystem::remove_all(dir);
}

TEST_F(Selfplay, BadInputIsRefusedNamingTheCause) {
  const std::filesystem::path dir = temp_dir("bad");
  LocalReducer local;
  std::ostringstream log;
  std::string error;
  SelfplayOptions o = run_options(dir.string());
  o.from = (dir / "missing.pt").string();
  EXPECT_EQ(selfplay(o, local, log, &error), SelfplayResult::BadInput);
  EXPECT_NE(error.find("missing.pt"), std::string::npos) << error;
  o = run_options(dir.string());
  o.samples = 1;
  EXPECT_EQ(selfplay(o, local, log, &error), SelfplayResult::BadInput);
  EXPECT_NE(error.find("--samples"), std::string::npos) << error;
  o = run_options(dir.string());
  o.resume = true;  // nothing to resume in an empty directory
  EXPECT_EQ(selfplay(o, local, log, &error), SelfplayResult::BadInput);
  EXPECT_NE(error.find("checkpoint.pt"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gs::neural
