// Problem files: loading, round trip, and errors that name the file, line and column.
#include "suites/problem.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/input_file.h"
#include "suites/json_text.h"
#include "suites/suite.h"

namespace gs {
namespace {

const char* kCountOdds = R"J({
  "name": "count-odds",
  "signature": "fn solve(xs: [int]) -> int",
  "description": "Return the number of odd integers in xs.",
  "train": [
    {"inputs": [[1, 2, 3]], "outputs": [2]},
    {"inputs": [[]], "outputs": [0]}
  ],
  "test": [{"inputs": [[-3, 5]], "outputs": [2]}],
  "float_tolerance": 0.001,
  "source": "PSB1 (Helmuth & Spector 2015)"
})J";

std::string load_error(const std::string& text) {
  std::string error;
  auto p = suites::parse_problem(text, "p.json", &error);
  EXPECT_FALSE(p.has_value());
  return error;
}

TEST(Problem, LoadsTheDesignExample) {
  std::string error;
  auto p = suites::parse_problem(kCountOdds, "count-odds.json", &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->name, "count-odds");
  EXPECT_EQ(p->signature.entry, "solve");
  ASSERT_EQ(p->signature.params.size(), 1u);
  EXPECT_EQ(p->signature.params[0], Type::IntArray);
  EXPECT_EQ(p->signature.param_names[0], "xs");
  EXPECT_EQ(p->signature.results, std::vector<Type>{Type::Int});
  ASSERT_EQ(p->train.size(), 2u);
  EXPECT_EQ(p->train[0].inputs[0].items.size(), 3u);
  EXPECT_EQ(p->train[0].outputs[0].i, 2);
  EXPECT_EQ(p->test.size(), 1u);
  EXPECT_DOUBLE_EQ(p->float_tolerance, 0.001);
}

TEST(Problem, RoundTripsThroughItsJson) {
  std::string error;
  auto p = suites::parse_problem(kCountOdds, "a.json", &error);
  ASSERT_TRUE(p);
  std::string text = suites::problem_json(*p);
  auto q = suites::parse_problem(text, "b.json", &error);
  ASSERT_TRUE(q) << error << "\n" << text;
  EXPECT_EQ(suites::problem_json(*q), text);
  EXPECT_TRUE(vm::identical(q->test[0].inputs[0], p->test[0].inputs[0]));
}

TEST(Problem, TakesTuplesStringsAndFloats) {
  std::string error;
  auto p = suites::parse_problem(R"J({"name": "t", "signature": "fn f(s: str, x: float) -> (str, [float])",
    "train": [{"inputs": ["\u00e9a", 1], "outputs": ["x", [0.5, 2]]}]})J",
                                 "t.json", &error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->train[0].inputs[0].s,
            "\xe9"
            "a");  // U+00E9 is the byte 0xE9
  EXPECT_EQ(p->train[0].inputs[1].type, Type::Float);
  EXPECT_EQ(p->signature.results.size(), 2u);
}

TEST(Problem, TakesConstantsByTypeAndRoundTripsThem) {
  std::string error;
  auto p = suites::parse_problem(R"J({"name": "c", "signature": "fn f(s: str) -> str",
    "train": [{"inputs": ["a"], "outputs": ["b"]}],
    "constants": {"str": ["aeiouy", " "], "int": [64], "[int]": [[1, 2]]}})J",
                                 "c.json", &error);
  ASSERT_TRUE(p) << error;
  ASSERT_EQ(p->constants.size(), 4u);
  // A JSON object's keys come back sorted: [int], int, str.
  EXPECT_EQ(p->constants[0].type, Type::IntArray);
  EXPECT_EQ(p->constants[1].i, 64);
  EXPECT_EQ(p->constants[2].s, "aeiouy");
  EXPECT_EQ(p->constants[3].s, " ");
  const std::string text = suites::problem_json(*p);
  auto q = suites::parse_problem(text, "d.json", &error);
  ASSERT_TRUE(q) << error << "\n" << text;
  EXPECT_EQ(suites::problem_json(*q), text);
  ASSERT_EQ(q->constants.size(), 4u);
  EXPECT_TRUE(vm::identical(q->constants[0], p->constants[0]));
  std::vector<vm::Value> c;
  EXPECT_TRUE(suites::parse_constants(R"({"float": [0.25]})", &c, &error)) << error;
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].f, 0.25);
}

TEST(ProblemErrors, RejectConstantsOfUnknownTypesAndWrongValues) {
  const auto with = [](const std::string& constants) {
    return load_error(
        R"J({"name": "x", "signature": "fn f() -> int", "train": [{"inputs": [], "outputs": [1]}],
  "constants": )J" +
        constants + "}");
  };
  std::string e = with(R"({"char": ["a"]})");
  EXPECT_EQ(e.rfind("p.json:2:16: constants: \"char\" is not a value type", 0), 0u) << e;
  e = with(R"({"int": [1, "two"]})");
  EXPECT_EQ(e, "p.json:2:16: constants: int[1]: expected int, found a string") << e;
  EXPECT_NE(with(R"(["aeiouy"])").find("expected an object"), std::string::npos);
  EXPECT_NE(with(R"({"str": "aeiouy"})").find("\"str\" must be a list"), std::string::npos);
  std::vector<vm::Value> c;
  std::string error;
  EXPECT_FALSE(suites::parse_constants("{\"str\": [", &c, &error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

TEST(ProblemErrors, NameTheLineOfAJsonSyntaxError) {
  std::string e = load_error("{\n  \"name\": \"x\",\n  \"signature\" \"fn f() -> int\"\n}");
  EXPECT_EQ(e.rfind("p.json:3:", 0), 0u) << e;  // the line of the missing colon
  EXPECT_NE(e.find("not valid JSON: syntax error"), std::string::npos) << e;
}

// What the JSON library accepts silently or reports without a place: a key given twice, a
// number no double holds, an int beyond 64 bits, a case's unknown field, a signature cut short.
TEST(ProblemErrors, JsonTheLibraryLetsPassIsAnErrorAtItsPlace) {
  const std::string head = R"J({"name": "x", "signature": "fn f(a: int) -> int",)J";
  std::string e = load_error(head + "\n \"name\": \"y\", \"train\": [{\"inputs\": [1], \"outputs\": [1]}]}");
  EXPECT_EQ(e, "p.json:2:2: duplicate key \"name\"");
  e = load_error(head + "\"train\": [{\"inputs\": [1], \"outputs\": [1], \"outputs\": [2]}]}");
  EXPECT_EQ(e, "p.json:1:92: duplicate key \"outputs\"");
  e = load_error(head + "\"train\": [{\"inputs\": [1],\n \"outputs\": [1e400]}]}");
  EXPECT_EQ(e, "p.json:2:14: number out of range: 1e400");
  e = load_error(head + "\"train\": [{\"inputs\": [1], \"outputs\": [9223372036854775808]}]}");
  EXPECT_NE(e.find("outputs[0]: expected int, found an integer beyond the 64-bit range"), std::string::npos)
      << e;
  e = load_error(head + "\"train\": [{\"inputs\": [1], \"outputs\": [1e19]}]}");
  EXPECT_NE(e.find("expected int, found a number beyond the 64-bit integer range"), std::string::npos) << e;
  e = load_error(head + "\"train\": [{\"inputs\": [1], \"outputs\": [1], \"output\": [1]}]}");
  EXPECT_NE(e.find("train case 0: unknown field \"output\""), std::string::npos) << e;
  e = load_error(R"J({"name": "x", "signature": "fn f(a: int) ->", "train": []})J");
  EXPECT_NE(
      e.find(
          "signature 'fn f(a: int) ->': expected a type (int, float, bool, str or [T]), found end of input"),
      std::string::npos)
      << e;
  // Keys repeated in different objects are fine, and so is any depth of nesting.
  EXPECT_FALSE(suites::detail::find_json_issue(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]})"));
  EXPECT_FALSE(suites::detail::find_json_issue(std::string(1 << 20, '[') + std::string(1 << 20, ']')));
  EXPECT_EQ(suites::detail::find_json_issue(R"({"a": 1, "b": {"c": "a", "c": 2}})")->offset, 25u);
}

TEST(ProblemErrors, NameTheLineOfAValueOfTheWrongType) {
  std::string e = load_error(R"J({
  "name": "count-odds",
  "signature": "fn solve(xs: [int]) -> int",
  "train": [
    {"inputs": [[1, 2, 3]], "outputs": [2]},
    {"inputs": [[1, "two"]], "outputs": [0]}
  ]
})J");
  EXPECT_EQ(e, "p.json:6:17: train case 1: inputs[0]: element 1: expected int, found a string") << e;
}

TEST(ProblemErrors, CountValuesAgainstTheSignature) {
  std::string e = load_error(R"J({"name": "x", "signature": "fn f(a: int, b: int) -> int",
  "train": [{"inputs": [1], "outputs": [2]}]})J");
  EXPECT_NE(e.find("p.json:2:24: train case 0: expected 2 inputs, found 1"), std::string::npos) << e;
}

TEST(ProblemErrors, RejectBadSignaturesFieldsAndShapes) {
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f(a: list) -> int", "train": []})J")
                .find("expected a type"),
            std::string::npos);
  EXPECT_NE(
      load_error(R"J({"name": "x", "signature": "fn f(a: int)", "train": []})J").find("must return a value"),
      std::string::npos);
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f() -> int", "tests": []})J")
                .find("unknown field \"tests\""),
            std::string::npos);
  EXPECT_NE(load_error(R"J({"name": "x", "train": []})J").find("missing field \"signature\""),
            std::string::npos);
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f() -> int", "train": []})J").find("no cases"),
            std::string::npos);
  EXPECT_NE(
      load_error(R"J({"name": 3, "signature": "fn f() -> int", "train": []})J").find("must be a string"),
      std::string::npos);
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f() -> int", "float_tolerance": -1, "train": []})J")
                .find("float_tolerance"),
            std::string::npos);
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f() -> int", "train": [{"inputs": []}]})J")
                .find("\"inputs\" and \"outputs\""),
            std::string::npos);
  EXPECT_NE(load_error("[1, 2]").find("one JSON object"), std::string::npos);
  std::string error;
  EXPECT_FALSE(suites::load_problem("/nonexistent/p.json", &error));
  EXPECT_EQ(error, "/nonexistent/p.json: cannot read file: No such file or directory");
}

// Inputs are regular files within a cap, checked before reading: a directory, a device that
// never ends and a FIFO with no writer are refused by their kind, at once.
TEST(ProblemFile, OnlyRegularFilesAreRead) {
  std::string error;
  EXPECT_FALSE(suites::load_problem("/dev/zero", &error));
  EXPECT_EQ(error, "/dev/zero: a character device, not a file that can be read as input");
  EXPECT_FALSE(suites::load_problem("/tmp", &error));
  EXPECT_EQ(error, "/tmp: a directory, not a file that can be read as input");
  const std::string fifo = ::testing::TempDir() + "problem_fifo.json";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(suites::load_problem(fifo, &error));
  EXPECT_EQ(error, fifo + ": a FIFO, not a file that can be read as input");
  std::remove(fifo.c_str());
  // Past the cap: refused from its size alone (a sparse file: nothing is read or written).
  const std::string big = ::testing::TempDir() + "problem_big.json";
  { std::ofstream(big) << ""; }
  ASSERT_EQ(truncate(big.c_str(), off_t(kMaxProblemBytes) + 1), 0);
  EXPECT_FALSE(suites::load_problem(big, &error));
  EXPECT_NE(error.find("268435457 bytes, more than the 268435456"), std::string::npos) << error;
  std::remove(big.c_str());
}

// A suite is checked whole before anything runs: two files naming the same problem, a directory
// and a dangling symlink named *.json are each reported, with the file.
TEST(Suite, IsCheckedWholeBeforeAnythingRuns) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "suite_checked_whole";
  fs::remove_all(dir);
  fs::create_directories(dir / "folder.json");
  std::ofstream(dir / "a.json") << kCountOdds;
  std::ofstream(dir / "b.json") << kCountOdds;  // the same name, count-odds
  fs::create_symlink(dir / "nowhere", dir / "dangling.json");
  std::vector<suites::Problem> problems;
  std::ostringstream err;
  EXPECT_FALSE(suites::load_suite(dir.string(), &problems, err));
  const std::string e = err.str();
  EXPECT_NE(e.find((dir / "b.json").string() + ": problem name 'count-odds' is also the name in " +
                   (dir / "a.json").string()),
            std::string::npos)
      << e;
  EXPECT_NE(e.find((dir / "folder.json").string() + ": a directory"), std::string::npos) << e;
  EXPECT_NE(e.find((dir / "dangling.json").string() + ": cannot read file"), std::string::npos) << e;
  fs::remove(dir / "b.json");
  fs::remove(dir / "dangling.json");
  fs::remove(dir / "folder.json");
  problems.clear();
  EXPECT_TRUE(suites::load_suite(dir.string(), &problems, err));
  EXPECT_EQ(problems.size(), 1u);
}

// A problem's name names its records group and its summary line: not empty, no '/', not . or ..
TEST(ProblemFile, NamesAreValidGroupNames) {
  for (const char* name : {"", "z/z", ".", "..", "tab\\there"})
    EXPECT_NE(load_error(
                  std::string(R"({"name": ")") + name +
                  R"(", "signature": "fn solve(x: int) -> int", "train": [{"inputs": [1], "outputs": [1]}]})")
                  .find("\"name\""),
              std::string::npos)
        << name;
}

TEST(ProblemErrors, NameTheLineOfABadValueInOutputsAndInTheTestSplit) {
  std::string e = load_error(R"J({"name": "x", "signature": "fn f(a: int) -> (str, bool)",
  "train": [{"inputs": [1], "outputs": ["a", true]}],
  "test": [
    {"inputs": [1], "outputs": ["a", true]},
    {"inputs": [1], "outputs": ["a", 1]}
  ]})J");
  EXPECT_EQ(e, "p.json:5:38: test case 1: outputs[1]: expected bool, found an integer") << e;
  e = load_error(R"J({"name": "x", "signature": "fn f(a: int) -> int",
  "train": [{"inputs": [1], "outputs": [1, 2]}]})J");
  EXPECT_EQ(e, "p.json:2:40: train case 0: expected 1 outputs, found 2") << e;
}

TEST(ProblemErrors, RejectSplitsAndValueListsThatAreNotArrays) {
  EXPECT_NE(load_error(R"J({"name": "x", "signature": "fn f() -> int", "train": {}})J")
                .find("p.json:1:54: \"train\" must be an array of cases"),
            std::string::npos);
  EXPECT_NE(
      load_error(R"J({"name": "x", "signature": "fn f() -> int", "train": [{"inputs": [], "outputs": [1]}],
  "test": 3})J")
          .find("p.json:2:11: \"test\" must be an array of cases"),
      std::string::npos);
  EXPECT_NE(
      load_error(
          R"J({"name": "x", "signature": "fn f(a: int) -> int", "train": [{"inputs": 1, "outputs": [1]}]})J")
          .find("train case 0: \"inputs\" must be an array, found an integer"),
      std::string::npos);
}

TEST(ProblemErrors, RejectStringsBeyondLatin1AndNonStringDescriptions) {
  std::string e = load_error(R"J({"name": "x", "signature": "fn f(s: str) -> int",
  "train": [{"inputs": ["\u0100"], "outputs": [1]}]})J");
  EXPECT_NE(e.find("p.json:2:25: train case 0: inputs[0]: string character beyond U+00FF"), std::string::npos)
      << e;
  e = load_error(R"J({"name": "x", "signature": "fn f() -> int", "description": ["no"], "train": []})J");
  EXPECT_NE(e.find("\"description\" must be a string"), std::string::npos) << e;
  e = load_error(R"J({"signature": "fn f() -> int", "train": []})J");
  EXPECT_NE(e.find("missing field \"name\""), std::string::npos) << e;
  e = load_error(R"J({"name": "x", "signature": "fn f() -> int fn g() -> int", "train": []})J");
  EXPECT_NE(e.find("signature 'fn f() -> int fn g() -> int'"), std::string::npos) << e;
}

TEST(ProblemErrors, ASignaturePastItsLengthIsRefused) {
  suites::Signature s;
  std::string error;
  std::string text = "fn solve(";
  for (int i = 0; text.size() < suites::kMaxSignatureBytes; ++i) text += "a" + std::to_string(i) + ": int, ";
  text += "z: int) -> int";
  EXPECT_FALSE(suites::parse_signature(text, &s, &error));
  EXPECT_NE(error.find("longer than 1024 bytes"), std::string::npos) << error;
  EXPECT_TRUE(suites::parse_signature("fn solve(a: int) -> int", &s, &error)) << error;
}

}  // namespace
}  // namespace gs
