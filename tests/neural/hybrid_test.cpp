// The neural and hybrid compile modes of the pipeline (neural/neural_pipeline.h): the hybrid
// passes and fails exactly the tests the traditional compiler's bytecode does, whatever the
// model — a freshly initialised one (through the real checkpoint path), one that answers with
// another program's bytecode, one that is right only in its second sample — while the neural
// mode alone does show the wrong model's mistakes (so the comparison can fail).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "compiler/compiler.h"
#include "neural/neural_pipeline.h"
#include "search/search_loop.h"
#include "suites/cases.h"
#include "suites/problem.h"
#include "tests/neural/support.h"
#include "tests/unit/random_batches.h"

namespace gs::pipeline {
namespace {

// A model stand-in: for source i it offers the traditional bytecode of the sources chosen by
// `pick(i, k)` for sample k (or nothing when pick returns -1).
class ScriptedModel final : public neural::NeuralCompiler {
 public:
  using Pick = std::function<i64(size_t source, u32 sample, size_t count)>;
  explicit ScriptedModel(Pick pick) : pick_(std::move(pick)) {}
  const neural::ModelConfig& config() const override { return config_; }
  std::vector<neural::Candidates> compile(const std::vector<std::string_view>& sources,
                                          const neural::CompileSampling& s) override {
    std::vector<neural::Candidates> out(sources.size());
    for (size_t i = 0; i < sources.size(); ++i)
      for (u32 k = 0; k < s.samples; ++k) {
        i64 j = pick_(i, k, sources.size());
        if (j < 0) {
          out[i].samples.push_back({{}, "scripted: nothing"});
          continue;
        }
        compiler::Output o = compiler::compile(sources[size_t(j)]);
        out[i].samples.push_back(o.ok() ? neural::DecodedBytecode{o.bytecode, ""}
                                        : neural::DecodedBytecode{{}, "scripted: compile error"});
      }
    return out;
  }

 private:
  Pick pick_;
  neural::ModelConfig config_;
};

PipelineConfig config_for(CompileMode mode) {
  PipelineConfig c;
  c.threads = 2;
  c.neural.mode = mode;
  c.neural.samples = 2;
  c.neural.random_inputs = 6;
  return c;
}

// Pass bits, traps, output hashes and statuses of a against b.
void expect_same_verdicts(const BatchResults& a, const BatchResults& b, const std::string& what) {
  ASSERT_EQ(a.programs, b.programs);
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.cases_passed, b.cases_passed) << what;
  EXPECT_EQ(a.pass, b.pass) << what;
  EXPECT_EQ(a.trap, b.trap) << what;
  EXPECT_EQ(a.output_hash, b.output_hash) << what;
}

std::vector<testing::RandomBatch> batches() {
  return testing::random_batches(20261122, 60, 6, batch_limits());
}

TEST(Hybrid, WrongModelNeverChangesAVerdict) {
  auto traditional = make_pipeline(Device::Cpu, config_for(CompileMode::Traditional));
  // Every sample is the bytecode of the next program of the batch: valid, mostly wrong.
  auto next = [](size_t i, u32, size_t n) { return i64((i + 1) % n); };
  auto hybrid =
      make_neural_pipeline(config_for(CompileMode::Hybrid), std::make_unique<ScriptedModel>(next), {});
  auto neural =
      make_neural_pipeline(config_for(CompileMode::Neural), std::make_unique<ScriptedModel>(next), {});
  u32 differences = 0, routed = 0;
  for (const testing::RandomBatch& b : batches()) {
    if (b.sources.count() < 2) continue;
    BatchResults want, got, alone;
    traditional->run(b.sources, *b.cases, &want);
    hybrid->run(b.sources, *b.cases, &got);
    neural->run(b.sources, *b.cases, &alone);
    expect_same_verdicts(got, want, "hybrid with a wrong model");
    routed += got.neural.routed;
    differences += alone.pass != want.pass || alone.output_hash != want.output_hash;
  }
  EXPECT_GT(routed, 0u);
  EXPECT_GT(differences, 0u) << "the neural mode alone should show the wrong model's mistakes";
}

TEST(Hybrid, AcceptsTheRightSampleAndKeepsVerdicts) {
  auto traditional = make_pipeline(Device::Cpu, config_for(CompileMode::Traditional));
  // Sample 0 is another program's bytecode, sample 1 the program's own.
  auto second = [](size_t i, u32 k, size_t n) { return i64(k == 0 ? (i + 1) % n : i); };
  auto hybrid =
      make_neural_pipeline(config_for(CompileMode::Hybrid), std::make_unique<ScriptedModel>(second), {});
  u32 ok = 0, accepted = 0;
  for (const testing::RandomBatch& b : batches()) {
    BatchResults want, got;
    traditional->run(b.sources, *b.cases, &want);
    hybrid->run(b.sources, *b.cases, &got);
    expect_same_verdicts(got, want, "hybrid with a right second sample");
    for (u8 s : want.status) ok += s == u8(pipeline::ProgramStatus::OK);
    accepted += got.neural.accepted;
    EXPECT_EQ(got.neural.samples, 2u * got.neural.routed);
  }
  EXPECT_EQ(accepted, ok) << "every program the compiler accepts has a right sample";
}

// A model stand-in that offers, for each source, the bytecode of the given equivalent sources,
// one per sample (nothing beyond them).
class AlternativesModel final : public neural::NeuralCompiler {
 public:
  explicit AlternativesModel(std::map<std::string, std::vector<std::string>> alternatives)
      : alternatives_(std::move(alternatives)) {}
  const neural::ModelConfig& config() const override { return config_; }
  std::vector<neural::Candidates> compile(const std::vector<std::string_view>& sources,
                                          const neural::CompileSampling& s) override {
    std::vector<neural::Candidates> out(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      const std::vector<std::string>& alternatives = alternatives_[std::string(sources[i])];
      for (u32 k = 0; k < s.samples; ++k) {
        if (k >= alternatives.size()) {
          out[i].samples.push_back({{}, "scripted: nothing"});
          continue;
        }
        compiler::Output o = compiler::compile(alternatives[k]);
        EXPECT_TRUE(o.ok()) << alternatives[k];
        out[i].samples.push_back({o.bytecode, ""});
      }
    }
    return out;
  }

 private:
  std::map<std::string, std::vector<std::string>> alternatives_;
  neural::ModelConfig config_;
};

// The hybrid takes a verified sample only when it executes no more instructions than the
// traditional bytecode, and the cheapest of several: a costlier equivalent is refused, a cheaper
// one replaces the compiler's bytecode, and of a costlier and a cheaper one the cheaper wins.
TEST(Hybrid, TakesTheCheapestVerifiedSampleAndNeverACostlierOne) {
  const std::string lean = "fn solve(a: int) -> int { return a * 2; }";
  const std::string padded =
      "fn solve(a: int) -> int { let x = a; let y = x + 0; let z = y * 1; return z * 2; }";
  const std::string twice = "fn solve(a: int) -> int { let b = a; return b * 2; }";
  std::string error;
  auto problem = suites::parse_problem(
      R"json({"name": "double", "signature": "fn solve(a: int) -> int",
              "train": [{"inputs": [1], "outputs": [2]}, {"inputs": [-7], "outputs": [-14]}, {"inputs": [40], "outputs": [80]}]})json",
      "double.json", &error);
  ASSERT_TRUE(problem) << error;
  const pipeline::CaseSet tests = suites::problem_cases(*problem, suites::Split::Train);
  // Program 0 is lean, offered only a padded equivalent; program 1 is padded, offered the lean
  // one; program 2 is "twice" (between the two), offered padded first, then lean.
  Sources sources;
  for (const std::string& s : {lean, padded + " ", twice}) sources.add(s);
  std::map<std::string, std::vector<std::string>> alternatives = {
      {lean, {padded}}, {padded + " ", {lean}}, {twice, {padded, lean}}};
  PipelineConfig c = config_for(CompileMode::Hybrid);
  auto hybrid = make_neural_pipeline(c, std::make_unique<AlternativesModel>(alternatives), {});
  auto traditional = make_pipeline(Device::Cpu, config_for(CompileMode::Traditional));
  BatchResults want, got;
  traditional->run(sources, tests, &want);
  hybrid->run(sources, tests, &got);
  expect_same_verdicts(got, want, "hybrid with equivalent samples");
  ASSERT_EQ(want.cases_passed, (std::vector<u32>{3, 3, 3}));
  ASSERT_LT(want.instructions[0], want.instructions[2]);
  ASSERT_LT(want.instructions[2], want.instructions[1]);
  EXPECT_EQ(got.neural.accepted, 2u);
  EXPECT_EQ(got.instructions[0], want.instructions[0]) << "a costlier equivalent replaced the compiler's";
  EXPECT_EQ(got.instructions[1], want.instructions[0]) << "the lean sample should run for the padded program";
  EXPECT_EQ(got.instructions[2], want.instructions[0]) << "the cheaper of two samples should run";
}

TEST(Hybrid, RouterAndNeuralMode) {
  const testing::RandomBatch b = testing::adversarial_batch();
  // A router fitted on failures only sends nothing to the model.
  std::vector<neural::RouteExample> failures(8);
  for (size_t i = 0; i < failures.size(); ++i) failures[i].features[0] = double(i);
  auto self = [](size_t i, u32, size_t) { return i64(i); };
  auto hybrid = make_neural_pipeline(config_for(CompileMode::Hybrid), std::make_unique<ScriptedModel>(self),
                                     neural::Router::fit(failures));
  BatchResults got;
  hybrid->run(b.sources, *b.cases, &got);
  EXPECT_EQ(got.neural.routed, 0u);
  // The neural mode with a faithful model runs what the compiler would; a model with nothing
  // to offer leaves every program without bytecode.
  auto traditional = make_pipeline(Device::Cpu, config_for(CompileMode::Traditional));
  auto faithful =
      make_neural_pipeline(config_for(CompileMode::Neural), std::make_unique<ScriptedModel>(self), {});
  auto empty =
      make_neural_pipeline(config_for(CompileMode::Neural),
                           std::make_unique<ScriptedModel>([](size_t, u32, size_t) { return i64(-1); }), {});
  BatchResults want, alone, none;
  traditional->run(b.sources, *b.cases, &want);
  faithful->run(b.sources, *b.cases, &alone);
  empty->run(b.sources, *b.cases, &none);
  for (u32 i = 0; i < want.programs; ++i) {
    if (want.program_status(i) == pipeline::ProgramStatus::OK) {
      EXPECT_EQ(alone.cases_passed[i], want.cases_passed[i]) << i;
    }
    EXPECT_EQ(none.program_status(i), pipeline::ProgramStatus::INVALID_BYTECODE) << i;
  }
}

TEST(Hybrid, UntrainedCheckpointThroughTheCommandPath) {
  neural::register_pipeline();  // make_pipeline's neural modes, as the command registers them
  // A freshly initialised model (one training step) saved as a real checkpoint.
  std::string dir = neural::testing::temp_dir("hybrid"), error;
  neural::ModelConfig small;
  small.d_model = 32;
  small.heads = 2;
  small.encoder_layers = small.decoder_layers = 1;
  small.ff = 64;
  small.max_source = 200;
  small.max_bytecode = 64;
  ASSERT_TRUE(neural::testing::write_untrained_checkpoint(dir, small, 1, &error)) << error;

  PipelineConfig c = config_for(CompileMode::Hybrid);
  c.neural.checkpoint = dir + "/checkpoint.pt";
  auto hybrid = make_pipeline(Device::Cpu, c);
  auto traditional = make_pipeline(Device::Cpu, config_for(CompileMode::Traditional));
  for (const testing::RandomBatch& b : batches()) {
    BatchResults want, got;
    traditional->run(b.sources, *b.cases, &want);
    hybrid->run(b.sources, *b.cases, &got);
    expect_same_verdicts(got, want, "hybrid with an untrained model");
  }
  // Bad input: a missing checkpoint, a router that is not one, a mode without a model.
  c.neural.checkpoint = dir + "/missing.pt";
  EXPECT_THROW(make_pipeline(Device::Cpu, c), std::runtime_error);
  c.neural.checkpoint = dir + "/checkpoint.pt";
  c.neural.router = dir + "/progress.tsv";
  try {
    make_pipeline(Device::Cpu, c);
    ADD_FAILURE() << "a bad router file was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("progress.tsv:1"), std::string::npos) << e.what();
  }
  c.neural.router.clear();
  c.neural.checkpoint.clear();
  EXPECT_THROW(make_pipeline(Device::Cpu, c), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gs::pipeline
