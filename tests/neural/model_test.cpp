// The neural compiler's model, sampling, training and checkpoints (neural/): a tiny model
// overfits a tiny set (loss falls, greedy decoding reproduces every target, which verifies),
// checkpoints round-trip (identical outputs, resumed step count, clear errors for bad files),
// and sampling has the documented shapes and determinism.
#include "neural/model.h"

#include <gtest/gtest.h>
#include <torch/utils.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "neural/archive_file.h"
#include "neural/bytecode_tokenizer.h"
#include "neural/checkpoint.h"
#include "neural/data.h"
#include "neural/policy_model.h"
#include "neural/sampling.h"
#include "neural/train_compiler.h"
#include "neural/trainer.h"
#include "tests/neural/support.h"
#include "vm/program.h"

namespace gs::neural {
namespace {

const torch::Device kCpu(torch::kCPU);

using testing::tiny_config;

std::vector<Example> tiny_set(u32 n) {
  PairMaker maker(11, 96, 96);
  std::vector<Example> set;
  for (u64 i = 0; i < n; ++i) set.push_back(maker.make(Split::Train, i, 0));
  return set;
}

using testing::temp_dir;

TEST(Model, ShapesAndCausality) {
  torch::manual_seed(0);
  Seq2Seq model(tiny_config());
  model->eval();
  torch::NoGradGuard no_grad;
  const i64 v = Vocabulary::get().size();
  torch::Tensor src = torch::randint(4, v, {3, 10}, torch::kLong);
  torch::Tensor tgt = torch::randint(4, v, {3, 7}, torch::kLong);
  torch::Tensor logits = model->forward(src, tgt);
  EXPECT_EQ(logits.sizes(), (std::vector<i64>{3, 7, v}));
  // Changing a later decoder token leaves earlier positions' logits unchanged.
  torch::Tensor changed = tgt.clone();
  changed.index_put_({0, 5}, 9);
  torch::Tensor again = model->forward(src, changed);
  EXPECT_TRUE(torch::allclose(logits.narrow(1, 0, 5), again.narrow(1, 0, 5), 1e-5, 1e-5));
  EXPECT_FALSE(torch::allclose(logits.narrow(1, 5, 2), again.narrow(1, 5, 2), 1e-5, 1e-5));
  // Step-by-step decoding with the key/value cache gives the teacher-forced logits.
  Seq2SeqImpl::Decoding d = model->start(src);
  for (i64 t = 0; t < 7; ++t) {
    torch::Tensor step = model->step(d, tgt.select(1, t));
    EXPECT_TRUE(torch::allclose(step, logits.select(1, t), 1e-4, 1e-4)) << "position " << t;
  }
  // PAD in the source is invisible: padding a source changes nothing.
  torch::Tensor padded = torch::cat({src, torch::zeros({3, 4}, torch::kLong)}, 1);
  EXPECT_TRUE(torch::allclose(model->forward(padded, tgt), logits, 1e-4, 1e-4));
  EXPECT_THROW(Seq2Seq(ModelConfig{0, 30, 4}), std::invalid_argument);
}

TEST(Training, TinyModelOverfitsATinySet) {
  torch::manual_seed(1);
  std::vector<Example> set = tiny_set(4);
  Trainer trainer(tiny_config(), 3e-3, kCpu);
  StepStats first = trainer.measure(set);
  StepStats s;
  for (int i = 0; i < 300; ++i) {
    s = trainer.step(set, 3e-3);
    if (i > 50 && s.loss < 0.01) break;
  }
  StepStats last = trainer.measure(set);
  EXPECT_LT(last.loss, first.loss / 20) << "loss " << first.loss << " -> " << last.loss;
  EXPECT_GT(last.token_accuracy, 0.99);
  EvalStats e = trainer.evaluate(set);
  EXPECT_EQ(e.exact_match, 1.0);
  EXPECT_EQ(e.verifier_pass, 1.0);
  std::vector<TokenSeq> sources;
  for (const Example& x : set) sources.push_back(x.source_ids);
  std::vector<TokenSeq> decoded = greedy(trainer.model(), sources, kCpu);
  for (size_t i = 0; i < set.size(); ++i) {
    DecodedBytecode d = decode_bytecode(decoded[i], set[i].function_names);
    ASSERT_TRUE(d.ok()) << d.error;
    EXPECT_EQ(d.bytecode, set[i].bytecode) << set[i].source;
  }
}

TEST(Checkpoint, RoundTripAndResume) {
  torch::manual_seed(2);
  std::string dir = temp_dir("checkpoint");
  std::vector<Example> set = tiny_set(2);
  Trainer trainer(tiny_config(), 1e-3, kCpu);
  for (int i = 0; i < 3; ++i) trainer.step(set, 1e-3);
  CheckpointMeta meta;
  meta.seed = 42;
  meta.examples = 6;
  std::string path = dir + "/c.pt", error;
  ASSERT_TRUE(trainer.save(path, meta, &error)) << error;

  CheckpointMeta read;
  auto resumed = Trainer::resume(path, kCpu, &read, &error);
  ASSERT_TRUE(resumed) << error;
  EXPECT_EQ(read.step, 3u);
  EXPECT_EQ(read.seed, 42u);
  EXPECT_EQ(read.examples, 6u);
  EXPECT_EQ(resumed->steps_taken(), 3u);
  std::vector<TokenSeq> sources{set[0].source_ids, set[1].source_ids};
  EXPECT_EQ(greedy(trainer.model(), sources, kCpu), greedy(resumed->model(), sources, kCpu));
  StepStats a = trainer.measure(set), b = resumed->measure(set);
  EXPECT_DOUBLE_EQ(a.loss, b.loss);
  // The optimizer state came back too: one more identical step gives identical models.
  trainer.step(set, 1e-3);
  resumed->step(set, 1e-3);
  EXPECT_EQ(resumed->steps_taken(), 4u);
  EXPECT_NEAR(trainer.measure(set).loss, resumed->measure(set).loss, 1e-6);

  // Bad files are named and explained, never a crash.
  std::ofstream(dir + "/garbage.pt") << "not a checkpoint";
  EXPECT_FALSE(Trainer::resume(dir + "/garbage.pt", kCpu, &read, &error));
  EXPECT_NE(error.find("garbage.pt"), std::string::npos) << error;
  EXPECT_FALSE(Trainer::resume(dir + "/missing.pt", kCpu, &read, &error));
  EXPECT_NE(error.find("missing.pt: no such checkpoint file"), std::string::npos) << error;
  {  // truncated
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir + "/cut.pt", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  EXPECT_FALSE(Trainer::resume(dir + "/cut.pt", kCpu, &read, &error));
  EXPECT_NE(error.find("cut.pt"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

// A search policy file of another format, or of another kind, is refused naming the file and
// what it holds.
TEST(PolicyFile, AnotherFormatOrKindIsAnErrorNamingIt) {
  const std::string dir = temp_dir("policy_format"), path = dir + "/future.pt";
  std::string error;
  ASSERT_TRUE(save_archive_file(
      path, "the policy", "gpusynth-search-policy format=999\nfeatures=1\n",
      [](torch::serialize::OutputArchive&) {}, &error))
      << error;
  EXPECT_FALSE(load_policy_file(path, &error));
  EXPECT_NE(
      error.find(path +
                 ": unsupported policy file 'gpusynth-search-policy format=999' (this build reads format="),
      std::string::npos)
      << error;
  ASSERT_TRUE(save_archive_file(
      path, "the policy", "gpusynth-neural-checkpoint format=1\n", [](torch::serialize::OutputArchive&) {},
      &error))
      << error;
  EXPECT_FALSE(load_policy_file(path, &error));
  EXPECT_NE(error.find(path + ": not a gpusynth search policy"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

TEST(Sampling, ShapesTemperatureAndDeterminism) {
  torch::manual_seed(3);
  Seq2Seq model(tiny_config());
  std::vector<Example> set = tiny_set(3);
  std::vector<TokenSeq> sources;
  for (const Example& x : set) sources.push_back(x.source_ids);
  SamplingOptions o;
  o.samples = 5;
  o.temperature = 1.0;
  o.top_p = 0.9;
  o.seed = 7;
  o.max_length = 40;
  auto a = sample(model, sources, o, kCpu);
  ASSERT_EQ(a.size(), 3u);
  for (const auto& per_program : a) {
    ASSERT_EQ(per_program.size(), 5u);
    for (const TokenSeq& s : per_program) {
      EXPECT_EQ(s.front(), Vocabulary::get().bos());
      EXPECT_LE(s.size(), 40u);
    }
  }
  // Same seed, same samples — also when the rows are batched differently.
  SamplingOptions rebatched = o;
  rebatched.batch_rows = 4;
  EXPECT_EQ(sample(model, sources, rebatched, kCpu), a);
  SamplingOptions other = o;
  other.seed = 8;
  EXPECT_NE(sample(model, sources, other, kCpu), a);
  // An untrained model's samples differ from one another.
  EXPECT_NE(a[0][0], a[0][1]);
  // Temperature 0 is greedy: every sample is the greedy sequence.
  SamplingOptions cold = o;
  cold.temperature = 0;
  auto g = greedy(model, sources, kCpu, 40);
  auto c = sample(model, sources, cold, kCpu);
  for (size_t i = 0; i < sources.size(); ++i)
    for (const TokenSeq& s : c[i]) EXPECT_EQ(s, g[i]);
  // A tiny nucleus keeps only the most likely token: greedy again.
  SamplingOptions narrow = o;
  narrow.top_p = 1e-9;
  auto n = sample(model, sources, narrow, kCpu);
  for (size_t i = 0; i < sources.size(); ++i)
    for (const TokenSeq& s : n[i]) EXPECT_EQ(s, g[i]);
  // Decoding the candidates never throws; each is a verified container or a reason.
  for (const DecodedBytecode& d : decode_candidates(a[0], set[0].function_names))
    EXPECT_TRUE(d.ok() ? vm::Program::load(d.bytecode).has_value() : !d.error.empty());
}

// Dropping finished rows from the batch (SamplingOptions::compact, the default) gives the same
// sequences as decoding every row to the end, for greedy decoding and for sampling, on a
// partly trained model whose sequences end at many different lengths.
TEST(Sampling, DroppingFinishedRowsChangesNoSequence) {
  torch::manual_seed(5);
  std::vector<Example> set = tiny_set(6);
  Trainer trainer(tiny_config(), 3e-3, kCpu);
  for (int i = 0; i < 40; ++i) trainer.step(set, 3e-3);
  Seq2Seq& model = trainer.model();
  model->eval();
  std::vector<TokenSeq> sources;
  for (const Example& x : tiny_set(12)) sources.push_back(x.source_ids);

  const std::vector<TokenSeq> g = greedy(model, sources, kCpu, 0, /*compact=*/true);
  EXPECT_EQ(g, greedy(model, sources, kCpu, 0, /*compact=*/false));
  SamplingOptions o;
  o.samples = 6;
  o.temperature = 1.0;
  o.top_p = 0.95;
  o.seed = 11;
  o.batch_rows = 40;  // several batches, the last one partial
  SamplingOptions reference = o;
  reference.compact = false;
  const auto sampled = sample(model, sources, o, kCpu);
  EXPECT_EQ(sampled, sample(model, sources, reference, kCpu));
  // The comparison means something only if rows ended at different steps, some before the end.
  std::set<size_t> lengths;
  size_t ended = 0;
  for (const auto& per_source : sampled)
    for (const TokenSeq& s : per_source) {
      lengths.insert(s.size());
      ended += s.back() == Vocabulary::get().eos();
    }
  EXPECT_GE(lengths.size(), 5u);
  EXPECT_GE(ended, 10u);
}

TEST(TrainCompiler, RunsResumesAndRejectsBadOptions) {
  std::string dir = temp_dir("train");
  TrainOptions o;
  o.out_dir = dir;
  o.model = tiny_config();
  o.steps = 4;
  o.batch = 4;
  o.log_every = 2;
  o.eval_every = 4;
  o.eval_programs = 4;
  o.checkpoint_every = 2;
  std::ostringstream log;
  std::string error;
  ASSERT_EQ(train_compiler(o, log, &error), TrainResult::Ok) << error;
  EXPECT_NE(log.str().find("step 4/4"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("exact_match"), std::string::npos) << log.str();
  EXPECT_TRUE(std::filesystem::exists(dir + "/checkpoint.pt"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/progress.tsv"));

  TrainOptions more = o;
  more.steps = 6;
  more.resume = dir + "/checkpoint.pt";
  std::ostringstream log2;
  ASSERT_EQ(train_compiler(more, log2, &error), TrainResult::Ok) << error;
  EXPECT_NE(log2.str().find("resumed"), std::string::npos);
  EXPECT_NE(log2.str().find("step 6/6"), std::string::npos) << log2.str();
  EXPECT_EQ(log2.str().find("step 2/6"), std::string::npos) << log2.str();
  CheckpointMeta meta;
  auto m = read_checkpoint_meta(dir + "/checkpoint.pt", &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->step, 6u);
  EXPECT_EQ(m->examples, 24u);

  TrainOptions bad = o;
  bad.model.heads = 3;
  EXPECT_EQ(train_compiler(bad, log, &error), TrainResult::BadInput);
  EXPECT_NE(error.find("heads"), std::string::npos) << error;
  bad = o;
  bad.resume = dir + "/nope.pt";
  EXPECT_EQ(train_compiler(bad, log, &error), TrainResult::BadInput);
  EXPECT_NE(error.find("nope.pt"), std::string::npos) << error;
  bad = o;
  bad.device = "tpu";
  EXPECT_EQ(train_compiler(bad, log, &error), TrainResult::BadInput);
  EXPECT_NE(error.find("--device"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gs::neural
