// `gpusynth import-psb` as a user runs it: every Syn type through PSB-style JSON Lines, every
// kind of bad line (exit code 2, FILE:LINE, nothing written), and every bundled problem file
// under problems/ loading with the project's own loader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "jobs/command.h"
#include "suites/problem.h"
#include "suites/psb_import.h"
#include "tests/unit/command_outcome.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

using Outcome = testing::CommandOutcome;

Outcome import_psb(const std::vector<std::string>& args) {
  return testing::run_command(jobs::import_psb_command, args);
}

std::string temp(const std::string& name, const std::optional<std::string>& content = std::nullopt) {
  return testing::temp_file(name, content);
}

const char* kEverything =
    "fn solve(n: int, x: float, b: bool, s: str, xs: [int], fs: [float], bs: [bool], ss: [str]) -> (str, "
    "int)";

TEST(ImportPsb, EveryTypeAndSeveralOutputs) {
  // Line 2 is blank (skipped); a JSON integer is fine for a float; U+00E9 and U+00FF are bytes.
  std::string train = temp(
      "every.jsonl",
      "{\"input1\": -3, \"input2\": 2, \"input3\": true, \"input4\": \"caf\\u00e9\", \"input5\": [1, -2],"
      " \"input6\": [0.5, 1], \"input7\": [false], \"input8\": [\"\", \"\\u00ff\\n\"], \"output1\": \"x\", "
      "\"output2\": 7}\n"
      "\n"
      "{\"output2\": 0, \"output1\": \"\", \"input8\": [], \"input7\": [], \"input6\": [], \"input5\": [],"
      " \"input4\": \"\", \"input3\": false, \"input2\": -1.25e2, \"input1\": 9223372036854775807}\n");
  std::string edge = temp(
      "every-edge.jsonl",
      "{\"input1\": 0, \"input2\": 0.0, \"input3\": false, \"input4\": \"e\", \"input5\": [], \"input6\": [],"
      " \"input7\": [], \"input8\": [], \"output1\": \"edge\", \"output2\": 1}");  // no final newline
  std::string out = ::testing::TempDir() + "every.json";
  fs::remove(out);
  Outcome r = import_psb({"--signature", kEverything, "--train", train, "--edge", edge, "--test", train,
                          "--name", "everything", "--description", "all types", "--source", "a test",
                          "--float-tolerance", "0.001", "-o", out});
  ASSERT_EQ(r.code, jobs::kExitOk) << r.err;
  EXPECT_NE(r.err.find("3 train cases, 2 test cases"), std::string::npos) << r.err;
  std::string error;
  auto p = suites::load_problem(out, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->name, "everything");
  EXPECT_EQ(p->description, "all types");
  EXPECT_EQ(p->source, "a test");
  EXPECT_DOUBLE_EQ(p->float_tolerance, 0.001);
  ASSERT_EQ(p->train.size(), 3u);
  ASSERT_EQ(p->test.size(), 2u);
  EXPECT_EQ(p->train[0].outputs[0].s, "edge");  // edge cases first
  const suites::Case& c = p->train[1];
  ASSERT_EQ(c.inputs.size(), 8u);
  EXPECT_EQ(c.inputs[0].i, -3);
  EXPECT_EQ(c.inputs[1].type, Type::Float);
  EXPECT_EQ(c.inputs[1].f, 2.0);
  EXPECT_EQ(c.inputs[2].i, 1);
  EXPECT_EQ(c.inputs[3].s, "caf\xe9");
  EXPECT_EQ(c.inputs[4].items.size(), 2u);
  EXPECT_EQ(c.inputs[4].items[1].i, -2);
  EXPECT_EQ(c.inputs[5].items[0].f, 0.5);
  EXPECT_EQ(c.inputs[6].type, Type::BoolArray);
  EXPECT_EQ(c.inputs[7].items[1].s, "\xff\n");
  ASSERT_EQ(c.outputs.size(), 2u);
  EXPECT_EQ(c.outputs[0].s, "x");
  EXPECT_EQ(c.outputs[1].i, 7);
  EXPECT_EQ(p->train[2].inputs[0].i, INT64_MAX);  // key order does not matter
  EXPECT_EQ(p->train[2].inputs[1].f, -125.0);
  EXPECT_TRUE(vm::identical(p->test[0].inputs[3], c.inputs[3]));
}

TEST(ImportPsb, AnEmptyEdgeFileAndNoTestSplit) {
  std::string train = temp("small.jsonl", "{\"input1\": [1, 2, 3], \"output1\": 2}\r\n");
  std::string edge = temp("empty-edge.jsonl", "");
  std::string out = ::testing::TempDir() + "small.json";
  Outcome r = import_psb(
      {"-s", "fn solve(xs: [int]) -> int", "--train", train, "--edge", edge, "-n", "count-odds", "-o", out});
  ASSERT_EQ(r.code, jobs::kExitOk) << r.err;
  std::string error;
  auto p = suites::load_problem(out, &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->train.size(), 1u);
  EXPECT_TRUE(p->test.empty());
}

TEST(ImportPsb, EveryBadLineIsReportedAndNothingIsWritten) {
  const std::string sig = "fn solve(xs: [int], k: int) -> (str, bool)";
  const std::string good = "{\"input1\": [1], \"input2\": 2, \"output1\": \"a\", \"output2\": true}\n";
  struct Bad {
    std::string line, message;
  } bad[] = {
      {"{\"input1\": [1], \"output1\": \"a\", \"output2\": true}", "missing key \"input2\""},
      {"{\"input1\": [1], \"input2\": 2, \"input3\": 0, \"output1\": \"a\", \"output2\": true}",
       "unexpected key \"input3\": '" + sig + "' takes the keys input1..input2, output1..output2"},
      {"{\"input1\": [1], \"input2\": 2, \"output1\": \"a\"}", "missing key \"output2\""},
      {"{\"input1\": [1], \"input2\": \"2\", \"output1\": \"a\", \"output2\": true}",
       "\"input2\": expected int, found a string"},
      {"{\"input1\": [1], \"input2\": 2.0, \"output1\": \"a\", \"output2\": true}",
       "\"input2\": expected int, found a float"},
      {"{\"input1\": [1, 2.5], \"input2\": 2, \"output1\": \"a\", \"output2\": true}",
       "\"input1\": element 1: expected int, found a float"},
      {"{\"input1\": [1], \"input2\": 9223372036854775808, \"output1\": \"a\", \"output2\": true}",
       "\"input2\": integer beyond the range of int"},
      {"{\"input1\": [1], \"input2\": 2, \"output1\": \"\\u0100\", \"output2\": true}",
       "\"output1\": string character beyond U+00FF"},
      {"{\"input1\": [1], \"input2\": 2, \"output1\": \"a\", \"output2\": 1}",
       "\"output2\": expected bool, found an integer"},
      {"{\"input1\": [1], \"input2\": 2, \"output1\": \"a\", \"output2\": true",
       "not valid JSON: syntax error"},
      {"[[1], 2, \"a\", true]", "a case is a JSON object"},
  };
  std::string out = ::testing::TempDir() + "bad.json";
  for (const Bad& b : bad) {
    fs::remove(out);
    // The bad line is line 3, after a good line and a blank one; the test file is fine.
    std::string train = temp("bad.jsonl", good + "\n" + b.line + "\n" + good);
    std::string test = temp("good.jsonl", good);
    Outcome r = import_psb({"-s", sig, "--train", train, "--test", test, "-n", "x", "-o", out});
    EXPECT_EQ(r.code, jobs::kExitUsage) << b.line;
    EXPECT_NE(r.err.find(train + ":3: " + b.message), std::string::npos)
        << "expected '" << b.message << "' in: " << r.err;
    EXPECT_NE(r.err.find("1 error; nothing written"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << b.line;
  }
  // Several bad lines in several files: each one reported, with its own file and line.
  std::string edge = temp("bad-edge.jsonl", "nonsense\n" + good);
  std::string test = temp("bad-test.jsonl", good + good + "{\"input1\": [1]}\n");
  std::string train = temp("bad-train.jsonl", "{}\n" + good);
  Outcome r = import_psb({"-s", sig, "--train", train, "--test", test, "--edge", edge, "-n", "x", "-o", out});
  EXPECT_EQ(r.code, jobs::kExitUsage);
  EXPECT_NE(r.err.find(edge + ":1: not valid JSON"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(train + ":1: missing key \"input1\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(test + ":3: missing key \"input2\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 errors; nothing written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(ImportPsb, BadFilesSignaturesAndOptionsAreUsageErrors) {
  std::string good = temp("one.jsonl", "{\"input1\": 1, \"output1\": 2}\n");
  std::string empty = temp("empty.jsonl", "");
  std::string blank = temp("blank.jsonl", "\n  \n");
  std::string out = ::testing::TempDir() + "never.json";
  fs::remove(out);
  const std::string sig = "fn solve(n: int) -> int";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"-s", sig, "--train", empty, "-n", "x", "-o", out}, empty + ":1: no cases: the file is empty"},
      {{"-s", sig, "--train", blank, "-n", "x", "-o", out}, blank + ":1: no cases: the file is empty"},
      {{"-s", sig, "--train", good, "--test", empty, "-n", "x", "-o", out}, empty + ":1: no cases"},
      {{"-s", "fn solve(n: integer) -> int", "--train", good, "-n", "x", "-o", out},
       "signature 'fn solve(n: integer) -> int'"},
      {{"-s", "fn solve(n: int)", "--train", good, "-n", "x", "-o", out}, "must return a value"},
      {{"-s", "solve(n)", "--train", good, "-n", "x", "-o", out}, "signature 'solve(n)'"},
      {{"-s", sig, "--train", good, "-n", "", "-o", out}, "the problem needs a name"},
      {{"-s", sig, "--train", good, "-n", "x", "--float-tolerance=-1", "-o", out},
       "'--float-tolerance' takes a number in [0, 1e+09], not '-1'"},
      {{"-s", sig, "--train", good, "-n", "x", "--float-tolerance", "nan", "-o", out},
       "'--float-tolerance' takes a number in [0, 1e+09], not 'nan'"},
      {{"-s", sig, "--train", good, "-n", "x", "-o", good}, "the output would overwrite the train file"},
      {{"-s", sig, "--train", "/nonexistent.jsonl", "-n", "x", "-o", out},
       "/nonexistent.jsonl: cannot read file"},
      {{"-s", sig, "--train", good, "--edge", "/nonexistent-edge.jsonl", "-n", "x", "-o", out},
       "/nonexistent-edge.jsonl: cannot read file"},
      {{"-s", sig, "--train", good, "-n", "x"}, "output"},
      {{"--train", good, "-n", "x", "-o", out}, "signature"},
      {{"-s", sig, "--train", good, "-n", "x", "-o", "/nonexistent-dir/p.json"},
       "/nonexistent-dir/p.json: cannot write file"},
  };
  for (const Case& c : cases) {
    Outcome r = import_psb(c.args);
    EXPECT_EQ(r.code, jobs::kExitUsage) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.message;
  }
}

TEST(ImportPsb, TheLibraryCollectsEveryMessage) {
  suites::PsbImport in;
  in.name = "x";
  in.signature = "fn f(a: bool) -> [float]";
  in.train = {"t.jsonl", "{\"input1\": true, \"output1\": [1, 2.5]}\n{\"input1\": 1, \"output1\": []}\n"};
  in.test = suites::PsbFile{"s.jsonl", "{\"input1\": false, \"output1\": [null]}\n"};
  std::vector<std::string> errors;
  EXPECT_FALSE(suites::import_psb(in, &errors));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "t.jsonl:2: \"input1\": expected bool, found an integer");
  EXPECT_EQ(errors[1], "s.jsonl:1: \"output1\": element 0: expected float, found null");
  in.test.reset();
  in.train.text = "{\"input1\": true, \"output1\": [1, 2.5]}";
  errors.clear();
  auto p = suites::import_psb(in, &errors);
  ASSERT_TRUE(p) << errors[0];
  EXPECT_EQ(p->train[0].outputs[0].items[1].f, 2.5);
  in.constants = R"({"float": [0.5], "char": ["a"]})";
  EXPECT_FALSE(suites::import_psb(in, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("--constants: constants: \"char\" is not a value type", 0), 0u) << errors[0];
  in.constants = R"({"float": [0.5], "str": ["aeiouy"]})";
  errors.clear();
  p = suites::import_psb(in, &errors);
  ASSERT_TRUE(p) << errors[0];
  ASSERT_EQ(p->constants.size(), 2u);
  EXPECT_EQ(p->constants[1].s, "aeiouy");
}

// ---- the bundled suites -----------------------------------------------------------------------

TEST(BundledProblems, EveryFileLoadsAndTheSuitesHaveTheirSizes) {
  const fs::path root = fs::path(GPUSYNTH_SOURCE_DIR) / "problems";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  std::map<std::string, int> per_suite;
  int psb1_with_constants = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::string error;
    auto p = suites::load_problem(entry.path().string(), &error);
    ASSERT_TRUE(p) << error;
    std::string suite = entry.path().parent_path().filename().string();
    EXPECT_EQ(entry.path().stem().string(), p->name) << "a problem file is named after its problem";
    per_suite[suite]++;
    size_t train = p->train.size(), test = p->test.size();
    if (suite == "psb1") {
      // 200 train (edge cases + random) / 2,000 test; upstream's whole domain is smaller for these two.
      if (p->name == "sum-of-squares") {
        EXPECT_EQ(train, 50u);
        EXPECT_EQ(test, 100u);
      } else if (p->name == "wallis-pi") {
        EXPECT_EQ(train, 150u);
        EXPECT_EQ(test, 50u);
      } else {
        EXPECT_EQ(train, 200u) << p->name;
        EXPECT_EQ(test, 2000u) << p->name;
      }
      // PushGP's constants (problems/psb1/README.md): 16 problems have some.
      psb1_with_constants += !p->constants.empty();
      if (p->name == "scrabble-score") {
        ASSERT_EQ(p->constants.size(), 1u);
        ASSERT_EQ(p->constants[0].items.size(), 127u);
        EXPECT_EQ(p->constants[0].items['q'].i, 10);
        EXPECT_EQ(p->constants[0].items['Q'].i, 10);
      }
    } else if (suite == "deepcoder-neo100") {
      EXPECT_EQ(train, 5u) << p->name;
      EXPECT_EQ(test, 0u) << p->name;
    } else if (suite == "listfunctions") {
      EXPECT_EQ(train, 8u) << p->name;
      EXPECT_EQ(test, 3u) << p->name;
    }
  }
  EXPECT_EQ(per_suite["psb1"], 29);
  EXPECT_EQ(psb1_with_constants, 16);
  EXPECT_EQ(per_suite["deepcoder-neo100"], 100);
  EXPECT_EQ(per_suite["listfunctions"], 150);
  for (const auto& [suite, count] : per_suite)
    EXPECT_TRUE(fs::exists(root / suite / "README.md"))
        << suite << " needs a README.md stating its provenance";
}

}  // namespace
}  // namespace gs
