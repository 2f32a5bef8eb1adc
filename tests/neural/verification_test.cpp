// Probabilistic verification (neural/): the verifier's verdicts against the traditional
// compiler's bytecode, the estimators (pass@k against brute force over k-subsets, K99, the
// bootstrap), the router's features, fit and files, and `eval-compiler`'s evaluation end to end
// on a tiny freshly trained checkpoint. No torch headers here: the checkpoint comes from
// train_compiler, behind its torch-free header.
#include "neural/verification.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/rng.h"
#include "compiler/compiler.h"
#include "neural/compiler_evaluation.h"
#include "neural/estimates.h"
#include "neural/router.h"
#include "neural/source_tokenizer.h"
#include "tests/neural/support.h"

namespace gs::neural {
namespace {

std::vector<u8> compiled(const std::string& source) {
  compiler::Output out = compiler::compile(source);
  EXPECT_TRUE(out.ok()) << source;
  return out.bytecode;
}

Reference reference_of(const std::string& source, u32 inputs = 16) {
  ReferenceOptions o;
  o.random_inputs = inputs;
  o.seed = 7;
  std::string error;
  std::optional<Reference> r = make_reference(compiled(source), o, {}, &error);
  EXPECT_TRUE(r) << error;
  return std::move(*r);
}

using testing::temp_dir;

// ---- Verifier ---------------------------------------------------------------------------------

const std::string kPlusOne = "fn solve(x: int) -> int { return x + 1; }";

TEST(NeuralVerifier, AcceptsTheReferenceAndEquivalentCode) {
  Reference r = reference_of(kPlusOne);
  EXPECT_EQ(r.inputs.size(), 16u);
  EXPECT_GT(r.instructions, 0u);
  Verifier v;
  Check same = v.check(r, compiled(kPlusOne));
  EXPECT_EQ(same.verdict, Verdict::Correct) << same.why;
  EXPECT_EQ(same.instructions, r.instructions);
  // Other bytes, the same behaviour on every input.
  Check other = v.check(r, compiled("fn solve(y: int) -> int { let t = y; return 1 + t; }"));
  EXPECT_EQ(other.verdict, Verdict::Correct) << other.why;
}

TEST(NeuralVerifier, RejectsWhatIsNoContainer) {
  Reference r = reference_of(kPlusOne);
  Verifier v;
  EXPECT_EQ(v.check(r, std::vector<u8>{}).verdict, Verdict::Invalid);
  EXPECT_EQ(v.check(r, std::vector<u8>{1, 2, 3, 4, 5, 6, 7, 8}).verdict, Verdict::Invalid);
  std::vector<u8> cut = compiled(kPlusOne);
  cut.resize(cut.size() / 2);
  Check c = v.check(r, cut);
  EXPECT_EQ(c.verdict, Verdict::Invalid);
  EXPECT_NE(c.why.find("verifier"), std::string::npos) << c.why;
}

TEST(NeuralVerifier, RejectsAnotherEntry) {
  Reference r = reference_of(kPlusOne);
  Verifier v;
  Check c = v.check(r, compiled("fn solve(x: float) -> int { return int(x) + 1; }"));
  EXPECT_EQ(c.verdict, Verdict::WrongEntry);
  EXPECT_NE(c.why.find("not"), std::string::npos) << c.why;
  EXPECT_EQ(v.check(r, compiled("fn solve(x: int) -> float { return float(x) + 1.0; }")).verdict,
            Verdict::WrongEntry);
  EXPECT_EQ(v.check(r, compiled("fn other(x: int) -> int { return x + 1; }")).verdict, Verdict::WrongEntry);
}

TEST(NeuralVerifier, ReportsTheFirstInputThatDiffers) {
  Reference r = reference_of(kPlusOne);
  Verifier v;
  Check c = v.check(r, compiled("fn solve(x: int) -> int { return x + 2; }"));
  EXPECT_EQ(c.verdict, Verdict::Differs);
  EXPECT_EQ(c.input, 0u);  // x + 1 and x + 2 differ everywhere
  EXPECT_NE(c.why.find("input 0"), std::string::npos) << c.why;

  // Differs only where x is 3: found when an input hits it (an extra, problem-style input).
  ReferenceOptions o;
  o.random_inputs = 4;
  std::vector<std::vector<vm::Value>> extra{{vm::Value::of_int(3)}};
  std::string error;
  auto with_three = make_reference(compiled(kPlusOne), o, extra, &error);
  ASSERT_TRUE(with_three) << error;
  EXPECT_EQ(with_three->inputs.size(), 5u);
  Check at =
      v.check(*with_three, compiled("fn solve(x: int) -> int { if x == 3 { return 0; } return x + 1; }"));
  EXPECT_EQ(at.verdict, Verdict::Differs);
  EXPECT_EQ(at.input, 4u) << at.why;
}

TEST(NeuralVerifier, ComparesTraps) {
  // The reference traps on every input: a candidate trapping the same way is correct, one that
  // returns or traps otherwise is not.
  Reference r = reference_of("fn solve(x: int) -> int { let z = x - x; return 1 / z; }");
  ASSERT_EQ(r.outcomes[0].trap, vm::Trap::DIVISION_BY_ZERO);
  Verifier v;
  EXPECT_EQ(v.check(r, compiled("fn solve(x: int) -> int { let z = x * 0; return 2 / z; }")).verdict,
            Verdict::Correct);
  Check returns = v.check(r, compiled("fn solve(x: int) -> int { return 0; }"));
  EXPECT_EQ(returns.verdict, Verdict::Differs);
  EXPECT_NE(returns.why.find("division_by_zero"), std::string::npos) << returns.why;
  Check index = v.check(r, compiled("fn solve(x: int) -> int { let a: [int] = []; return a[0]; }"));
  EXPECT_EQ(index.verdict, Verdict::Differs);
  EXPECT_NE(index.why.find("index_out_of_range"), std::string::npos) << index.why;
  // And the other way round: a trap where the reference returns.
  Check traps =
      v.check(reference_of(kPlusOne), compiled("fn solve(x: int) -> int { let z = x - x; return x / z; }"));
  EXPECT_EQ(traps.verdict, Verdict::Differs);
}

TEST(NeuralVerifier, MakeReferenceRefusesBadBytecode) {
  std::string error;
  ReferenceOptions o;
  EXPECT_FALSE(make_reference(std::vector<u8>{9, 9, 9}, o, {}, &error));
  EXPECT_NE(error.find("verifier"), std::string::npos) << error;
  EXPECT_FALSE(make_reference(compiled("fn other(x: int) -> int { return x; }"), o, {}, &error));
  EXPECT_NE(error.find("'solve'"), std::string::npos) << error;
  std::vector<std::vector<vm::Value>> wrong{{vm::Value::of_str("no")}};
  EXPECT_FALSE(make_reference(compiled(kPlusOne), o, wrong, &error));
  EXPECT_NE(error.find("input 16"), std::string::npos) << error;
}

// ---- estimates --------------------------------------------------------------------------------

// pass@k by definition: the share of k-subsets of n samples (the first c correct) with a hit.
double brute_pass_at_k(u32 n, u32 c, u32 k) {
  u64 with_hit = 0, subsets = 0;
  for (u32 mask = 0; mask < (1u << n); ++mask) {
    if (u32(std::popcount(mask)) != k) continue;
    ++subsets;
    with_hit += (mask & ((1u << c) - 1)) != 0;
  }
  return double(with_hit) / double(subsets);
}

TEST(NeuralEstimates, PassAtKIsTheShareOfSubsetsWithAHit) {
  Rng rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    u32 n = 1 + rng.below(12), c = rng.below(n + 1), k = 1 + rng.below(n);
    EXPECT_NEAR(pass_at_k(n, c, k), brute_pass_at_k(n, c, k), 1e-12) << n << " " << c << " " << k;
  }
  EXPECT_EQ(pass_at_k(4, 0, 8), 0);  // no correct sample: never a hit, whatever k
}

TEST(NeuralEstimates, K99AndThePapersFormula) {
  EXPECT_NEAR(k99(0.5), 6.6439, 1e-4);
  EXPECT_EQ(k99(1), 1);
  EXPECT_TRUE(std::isinf(k99(0)));
  EXPECT_DOUBLE_EQ(paper_pass_at_k(0.5, 2), 0.75);
  EXPECT_DOUBLE_EQ(paper_pass_at_k(0, 16), 0);
  EXPECT_NEAR(paper_pass_at_k(0.1, k99(0.1)), 0.99, 0.01);
}

TEST(NeuralEstimates, ConstantBucketHasACollapsedInterval) {
  std::vector<u32> correct(10, 4), ks{1, 2, 8};
  BucketEstimate e = estimate(correct, 8, ks, 1);
  EXPECT_EQ(e.programs, 10u);
  EXPECT_EQ(e.samples, 80u);
  EXPECT_EQ(e.correct, 40u);
  EXPECT_DOUBLE_EQ(e.p, 0.5);
  EXPECT_DOUBLE_EQ(e.p_ci.low, 0.5);
  EXPECT_DOUBLE_EQ(e.p_ci.high, 0.5);
  EXPECT_DOUBLE_EQ(e.k99_ci.low, e.k99);
  EXPECT_DOUBLE_EQ(e.k99_ci.high, e.k99);
  ASSERT_EQ(e.pass_at.size(), 3u);
  EXPECT_DOUBLE_EQ(e.pass_at[0], 0.5);
  EXPECT_DOUBLE_EQ(e.pass_at[2], 1.0);  // 8 of 8 samples hold the 4 correct ones
}

TEST(NeuralEstimates, MixedBucketIntervalHoldsPAndIsSeeded) {
  std::vector<u32> correct{0, 8, 2, 5, 0, 0, 7, 1, 3, 8, 0, 4}, ks{1, 8};
  BucketEstimate e = estimate(correct, 8, ks, 5);
  EXPECT_LT(e.p_ci.low, e.p);
  EXPECT_GT(e.p_ci.high, e.p);
  EXPECT_LE(e.k99_ci.low, e.k99);
  EXPECT_GE(e.k99_ci.high, e.k99);
  BucketEstimate again = estimate(correct, 8, ks, 5);
  EXPECT_EQ(again.p_ci.low, e.p_ci.low);
  EXPECT_EQ(again.p_ci.high, e.p_ci.high);
  // Hard programs (c = 0) make the paper's formula overstate pass@8.
  EXPECT_LT(e.pass_at[1], e.paper_pass_at[1]);
  EXPECT_NEAR(e.pass_at[1], 8.0 / 12, 1e-12);  // the 8 programs with a correct sample
}

// ---- router -----------------------------------------------------------------------------------

TEST(NeuralRouter, FeaturesCountTheSource) {
  const std::string source =
      "fn helper(a: int) -> int { return a * 2; }\n"
      "fn solve(xs: [int], k: int) -> int {\n"
      "  let t = 0;\n"
      "  let s = \"ab\";\n"
      "  let f = 1.5;\n"
      "  for x in xs { if x > k { t = t + helper(x); } }\n"
      "  while t > 100 { t = t - 1; }\n"
      "  return t + len(xs) + xs[0];\n"
      "}\n";
  RouteFeatures f = route_features(source);
  auto tokens = encode_source(source);
  ASSERT_TRUE(tokens);
  EXPECT_EQ(f[0], double(tokens->ids.size()));
  EXPECT_EQ(f[1], 2);  // functions
  EXPECT_EQ(f[2], 3);  // depth: solve's body, the for, the if
  EXPECT_EQ(f[3], 2);  // loops
  EXPECT_EQ(f[4], 1);  // branches
  EXPECT_EQ(f[5], 2);  // calls: helper(x), len(xs); declarations are no calls
  EXPECT_EQ(f[6], 2);  // `[`: the type [int] and xs[0]
  EXPECT_EQ(f[7], 1);  // string literals
  EXPECT_EQ(f[8], 1);  // float literals
}

std::vector<RouteExample> separable(u32 n, u64 seed) {
  Rng rng(seed);
  std::vector<RouteExample> rows;
  for (u32 i = 0; i < n; ++i) {
    RouteExample e;
    for (double& x : e.features) x = rng.below(20);
    e.success = e.features[0] + 2 * e.features[3] < 25;  // small programs with few loops succeed
    rows.push_back(e);
  }
  return rows;
}

TEST(NeuralRouter, FitsSeparableHistory) {
  Router r = Router::fit(separable(400, 1));
  EXPECT_TRUE(r.fitted());
  u32 right = 0;
  std::vector<RouteExample> test = separable(400, 2);
  for (const RouteExample& e : test) right += r.neural(e.features) == e.success;
  EXPECT_GT(right, 0.9 * test.size());
  EXPECT_EQ(Router().probability(test[0].features), 1);  // unfitted: everything to neural
}

TEST(NeuralRouter, SaveLoadRoundTrip) {
  std::string dir = temp_dir("router"), error;
  Router r = Router::fit(separable(100, 3), 0.4);
  ASSERT_TRUE(r.save(dir + "/r.txt", &error)) << error;
  std::optional<Router> back = Router::load(dir + "/r.txt", &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->threshold(), 0.4);
  for (const RouteExample& e : separable(50, 4))
    EXPECT_EQ(back->probability(e.features), r.probability(e.features));
  std::filesystem::remove_all(dir);
}

TEST(NeuralRouter, LoadNamesTheBadLine) {
  std::string dir = temp_dir("router_bad"), error;
  ASSERT_TRUE(Router::fit(separable(50, 5)).save(dir + "/good.txt", &error)) << error;
  std::vector<std::string> lines;
  {
    std::ifstream in(dir + "/good.txt");
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  ASSERT_EQ(lines.size(), 2 + kRouteFeatures + 1);
  auto write = [&](const std::string& name, std::vector<std::string> ls) {
    std::ofstream out(dir + "/" + name);
    for (const std::string& l : ls) out << l << "\n";
    return dir + "/" + name;
  };
  auto expect_error = [&](const std::string& path, const std::string& where) {
    EXPECT_FALSE(Router::load(path, &error));
    EXPECT_NE(error.find(path + ":" + where), std::string::npos) << error;
  };
  std::vector<std::string> bad = lines;
  bad[0] = "gpusynth-rooter 1";
  expect_error(write("magic.txt", bad), "1:");
  bad = lines;
  bad.erase(bad.begin() + 4);                     // the third feature's line
  expect_error(write("missing.txt", bad), "5:");  // "functions" then "loops" where "depth" belongs
  bad = lines;
  bad.resize(3);
  expect_error(write("short.txt", bad), "4:");
  bad = lines;
  bad[2] = "tokens nan 1 0";
  expect_error(write("nan.txt", bad), "3:");
  bad = lines;
  bad[2] = "tokens 1 0 0";  // a zero scale
  expect_error(write("scale.txt", bad), "3:");
  bad = lines;
  bad.back() = "bias x";
  expect_error(write("bias.txt", bad), std::to_string(lines.size()) + ":");
  EXPECT_FALSE(Router::load(dir + "/none.txt", &error));
  EXPECT_NE(error.find("none.txt"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

TEST(NeuralRouter, HistoryRoundTripAndMalformedFiles) {
  std::string dir = temp_dir("history"), error;
  std::vector<RouteExample> rows = separable(20, 6);
  ASSERT_TRUE(write_history(dir + "/h.tsv", rows, &error)) << error;
  auto back = read_history(dir + "/h.tsv", &error);
  ASSERT_TRUE(back) << error;
  ASSERT_EQ(back->size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ((*back)[i].features, rows[i].features);
    EXPECT_EQ((*back)[i].success, rows[i].success);
  }
  std::ofstream(dir + "/header.tsv") << "a\tb\n";
  EXPECT_FALSE(read_history(dir + "/header.tsv", &error));
  EXPECT_NE(error.find("header.tsv:1:"), std::string::npos) << error;
  std::string header;
  for (const char* name : kRouteFeatureNames) header += std::string(name) + "\t";
  header += "success\n";
  std::ofstream(dir + "/short.tsv") << header << "1\t2\t3\t4\t5\t6\t7\t8\t9\t1\n1\t2\t3\n";
  EXPECT_FALSE(read_history(dir + "/short.tsv", &error));
  EXPECT_NE(error.find("short.tsv:3:"), std::string::npos) << error;
  std::ofstream(dir + "/success.tsv") << header << "1\t2\t3\t4\t5\t6\t7\t8\t9\t2\n";
  EXPECT_FALSE(read_history(dir + "/success.tsv", &error));
  EXPECT_NE(error.find("success.tsv:2:"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

// ---- eval-compiler ----------------------------------------------------------------------------

TEST(NeuralEvaluateCompiler, RunsOnATinyCheckpointAndRejectsBadInput) {
  std::string dir = temp_dir("eval"), error;
  ModelConfig small;
  small.d_model = 32;
  small.heads = 2;
  small.encoder_layers = small.decoder_layers = 1;
  small.ff = 64;
  ASSERT_TRUE(testing::write_untrained_checkpoint(dir, small, kCurriculumLevels, &error)) << error;

  EvaluationOptions o;
  o.checkpoint = dir + "/checkpoint.pt";
  o.programs = 4;
  o.samples = 2;
  o.inputs = 4;
  o.repetitions = 1;
  o.json_path = dir + "/eval.json";
  o.history_path = dir + "/history.tsv";
  o.router_path = dir + "/router.txt";
  std::ostringstream log;
  ASSERT_EQ(evaluate_compiler(o, log, &error), EvaluationResult::Ok) << error;
  EXPECT_NE(log.str().find("traditional / neural"), std::string::npos) << log.str();

  nlohmann::json j = nlohmann::json::parse(std::ifstream(o.json_path));
  EXPECT_EQ(j["step"], 1);
  EXPECT_EQ(j["checkpoint"], o.checkpoint);
  ASSERT_EQ(j["buckets"].size(), kCurriculumLevels + 1);
  EXPECT_EQ(j["buckets"].back()["bucket"], "all");
  EXPECT_EQ(j["buckets"].back()["programs"], 4);
  EXPECT_EQ(j["buckets"].back()["samples"], 8);
  for (const auto& b : j["buckets"]) {
    double p = b["p"];
    EXPECT_GE(p, 0);
    EXPECT_LE(p, 1);
    EXPECT_EQ(b["pass_at"].size(), 2u);  // k = 1, 2: none above K
  }
  EXPECT_GT(j["throughput"]["traditional_programs_per_s"].get<double>(), 0);
  EXPECT_TRUE(j["machine"].contains("torch_threads"));
  auto history = read_history(o.history_path, &error);
  ASSERT_TRUE(history) << error;
  EXPECT_EQ(history->size(), 4u);
  EXPECT_TRUE(Router::load(o.router_path, &error)) << error;

  EvaluationOptions bad = o;
  bad.checkpoint = dir + "/missing.pt";
  EXPECT_EQ(evaluate_compiler(bad, log, &error), EvaluationResult::BadInput);
  EXPECT_NE(error.find("missing.pt"), std::string::npos) << error;
  std::ofstream(dir + "/garbage.pt") << "not a checkpoint";
  bad.checkpoint = dir + "/garbage.pt";
  EXPECT_EQ(evaluate_compiler(bad, log, &error), EvaluationResult::BadInput);
  EXPECT_NE(error.find("garbage.pt"), std::string::npos) << error;
  bad = o;
  bad.samples = 0;
  EXPECT_EQ(evaluate_compiler(bad, log, &error), EvaluationResult::BadInput);
  EXPECT_NE(error.find("--samples"), std::string::npos) << error;
  bad = o;
  bad.json_path = dir + "/no/such/dir/eval.json";
  EXPECT_EQ(evaluate_compiler(bad, log, &error), EvaluationResult::BadInput);
  EXPECT_NE(error.find("no/such/dir/eval.json"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gs::neural
