// `gpusynth eval` as a user runs it: the example samples filtered on the example problem, both
// candidate formats, small batches, and every kind of bad input (exit code 2 and a message).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jobs/command.h"
#include "suites/candidates.h"
#include "tests/unit/command_outcome.h"

namespace gs {
namespace {

const std::string kExamples = std::string(GPUSYNTH_SOURCE_DIR) + "/docs/examples/eval/";
const std::string kProblem = kExamples + "count-odds.json";

using Outcome = testing::CommandOutcome;

Outcome eval(const std::vector<std::string>& args) { return testing::run_command(jobs::eval_command, args); }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp(const std::string& name, const std::optional<std::string>& content = std::nullopt) {
  return testing::temp_file(name, content);
}

TEST(EvalCommand, FiltersTheExampleSamples) {
  std::string out = temp("passing.jsonl");
  for (std::string batch : {"65536", "2"}) {
    Outcome r = eval({"--problem", kProblem, "--candidates", kExamples + "samples.jsonl", "-o", out,
                      "--device", "cpu", "--batch", batch});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("11 candidates: 2 malformed, 2 compile errors, 1 without the entry"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("3 passed all 6 train cases"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("7\t7\tok\t0/6\tout_of_fuel x6"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("4\t4\tcompile_error\t0/6\t1:40: expected ';'"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("samples.jsonl:9: the candidate must be a JSON string"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("samples.jsonl:10: not valid JSON"), std::string::npos) << r.err;
    suites::CandidateFile passing = suites::parse_candidates(slurp(out), out);
    ASSERT_EQ(passing.candidates.size(), 3u);
    EXPECT_EQ(passing.candidates[0].record.substr(0, 9), "{\"id\": 1,");
    EXPECT_EQ(passing.candidates[2].record.substr(0, 10), "{\"id\": 11,");
  }
  // On the test split the x % 2 == 1 sample (negative inputs only in train) passes too.
  Outcome r = eval({"-p", kProblem, "-c", kExamples + "samples.jsonl", "-o", out, "--split", "test", "-q"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("passed all 2 test cases"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("candidate\tline"), std::string::npos);  // --quiet
}

TEST(EvalCommand, TextCandidatesSeparatedByDashes) {
  std::string in =
      temp("candidates.syn",
           "// first\nfn solve(xs: [int]) -> int { return 0; }\n---\n"
           "fn solve(xs: [int]) -> int { let n = 0; for x in xs { n = n + (x & 1); } return n; }\n"
           "  ---  \n\n---\nfn solve(xs: [int]) -> int { return \"no\"; }\n");
  std::string out = temp("passing.syn");
  Outcome r = eval({"-p", kProblem, "-c", in, "-o", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("3 candidates: 0 malformed, 1 compile errors"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2\t4\tok\t6/6"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(out),
            "fn solve(xs: [int]) -> int { let n = 0; for x in xs { n = n + (x & 1); } return n; }\n");
}

TEST(EvalCommand, BadInputIsAUsageError) {
  std::string samples = kExamples + "samples.jsonl";
  std::string bad_problem = temp("bad.json", "{\"name\": \"x\",\n \"signature\": \"fn solve(\"}\n");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"-p", kProblem}, "candidates"},
      {{"-c", samples}, "problem"},
      {{"-p", kProblem, "-c", "/nonexistent.jsonl"}, "/nonexistent.jsonl: cannot read file"},
      {{"-p", "/nonexistent.json", "-c", samples}, "/nonexistent.json"},
      {{"-p", bad_problem, "-c", samples}, bad_problem + ":"},
      {{"-p", kProblem, "-c", samples, "--device", "gpu"}, "--device must be cpu, cuda or auto"},
      {{"-p", kProblem, "-c", samples, "--split", "dev"}, "--split must be"},
      {{"-p", kProblem, "-c", samples, "--batch", "0"},
       "the option '--batch' takes a number in [1, 1048576], not '0'"},
      {{"-p", kProblem, "-c", samples, "--fuel", "5000000000"}, "fuel must be below 2^32"},
      {{"-p", kProblem, "-c", samples, "-o", "/nonexistent-dir/x"}, "cannot write"},
      {{"-p", kProblem, "-c", samples, "-o", samples},
       samples + ": the output would overwrite the candidates file"},
      {{"-p", kProblem, "-c", samples, "-o", kProblem}, "the output would overwrite the problem file"},
      {{"-p", kProblem, "-c", "/dev/zero"},
       "/dev/zero: a character device, not a file that can be read as input"},
  };
  for (const Case& c : cases) {
    Outcome r = eval(c.args);
    EXPECT_EQ(r.code, jobs::kExitUsage) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
  }
}

TEST(Candidates, FormatsRoundTrip) {
  suites::CandidateFile f =
      suites::parse_candidates("\n\"fn a() {}\"\n{\"source\": \"x\\ny\", \"k\": 1}\n[1]\n", "f");
  EXPECT_TRUE(f.json_lines);
  ASSERT_EQ(f.candidates.size(), 2u);
  EXPECT_EQ(f.candidates[0].line, 2u);
  EXPECT_EQ(f.candidates[1].source, "x\ny");
  ASSERT_EQ(f.errors.size(), 1u);
  EXPECT_EQ(f.errors[0], "f:4: the candidate must be a JSON string");
  suites::CandidateFile t = suites::parse_candidates("a\nb\n---\nc", "t");
  ASSERT_EQ(t.candidates.size(), 2u);
  EXPECT_EQ(t.candidates[0].source, "a\nb\n");
  EXPECT_EQ(t.candidates[1].line, 4u);
  std::vector<const suites::Candidate*> all = {&t.candidates[0], &t.candidates[1]};
  suites::CandidateFile back = suites::parse_candidates(suites::candidates_text(all, false), "b");
  ASSERT_EQ(back.candidates.size(), 2u);
  EXPECT_EQ(back.candidates[1].source, "c\n");
  EXPECT_TRUE(suites::parse_candidates("", "e").candidates.empty());
}

const std::string kSamples = std::string(GPUSYNTH_SOURCE_DIR) + "/docs/examples/samples/";

TEST(EvalCommand, JudgesModelSamplesForManyTasksWithPassAtK) {
  const std::string results = temp("samples.results.jsonl"), summary = temp("samples.summary.json");
  for (std::string batch : {"65536", "3"}) {
    Outcome r = eval({"--model-samples", kSamples + "samples.jsonl", "--suite", kSamples + "tasks",
                      "--results", results, "--summary", summary, "--k", "1,2,5", "--batch", batch});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string lines = slurp(results);
    EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 14);
    // In file order, keyed by task and sample index; code fenced or after prose is found.
    EXPECT_EQ(
        lines.substr(0, lines.find('\n')),
        R"({"cases":5,"error":"","line":1,"passed":5,"passes":true,"sample":0,"status":"ok","task_id":"sum-list"})");
    EXPECT_NE(lines.find(R"("error":"invalid_argument x1","line":8,"passed":4,"passes":false,"sample":0)"),
              std::string::npos);
    // Python samples: an untyped one is a located compile error; typed ones (fenced, after
    // prose, or bare) are judged like Syn's, a trap where CPython raises.
    EXPECT_NE(lines.find(R"("error":"1:11: annotate 'xs' with its type)"), std::string::npos) << lines;
    EXPECT_NE(
        lines.find(
            R"("error":"","line":11,"passed":5,"passes":true,"sample":3,"status":"ok","task_id":"count-evens")"),
        std::string::npos);
    EXPECT_NE(lines.find(R"("error":"invalid_argument x1","line":13,"passed":4,"passes":false,"sample":4)"),
              std::string::npos);
    const std::string s = slurp(summary);
    // sum-list: 3 of 5 pass; count-evens: 2 of 4; largest-or-zero: 2 of 5. pass@1 = mean(3/5, 2/4, 2/5).
    EXPECT_NE(s.find("\"pass@1\": 0.5"), std::string::npos) << s;
    EXPECT_NE(s.find("\"pass@5\": 1.0"), std::string::npos) << s;  // count-evens has 4 samples: not counted
    EXPECT_NE(r.err.find("pass@2: 0.811111 over 3 tasks"), std::string::npos) << r.err;
  }
}

TEST(EvalCommand, ModelSamplesFromStdinToStdoutAndBadLines) {
  const std::string in = temp(
      "bad-samples.jsonl",
      std::string(R"({"task_id": "sum-list", "source": "fn solve(xs: [int]) -> int { return sum(xs); }"})") +
          "\nnot json\n" + R"({"task_id": "nope", "completion": "x"})" + "\n\n");
  Outcome r = eval({"--model-samples", in, "--suite", kSamples + "tasks", "--results", "-", "--k", "1"});
  EXPECT_EQ(r.code, 1) << r.err;  // judged, but some lines were bad
  EXPECT_NE(r.out.find(R"("passes":true,"sample":0,"status":"ok","task_id":"sum-list")"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("bad-samples.jsonl:2: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad-samples.jsonl:3: task_id 'nope' is not a problem of"), std::string::npos)
      << r.err;
}

TEST(EvalCommand, RefusesToJudgeOnNoCases) {
  const std::string dir = ::testing::TempDir() + "no-test-cases";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/p.json")
      << R"({"name": "p", "signature": "fn solve(x: int) -> int", "train": [{"inputs": [1], "outputs": [1]}]})";
  const std::string samples =
      temp("p-samples.jsonl",
           std::string(R"({"task_id": "p", "source": "fn solve(x: int) -> int { return x; }"})") + "\n");
  Outcome r = eval({"--model-samples", samples, "--suite", dir, "--split", "test"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no test cases to judge on (a sample would pass vacuously): p"), std::string::npos)
      << r.err;
  const std::string candidates = temp("p.syn", std::string("fn solve(x: int) -> int { return x; }\n"));
  r = eval({"--problem", dir + "/p.json", "--candidates", candidates, "--split", "test"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no test cases to judge on"), std::string::npos) << r.err;
  r = eval({"--model-samples", samples});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--model-samples goes with --suite"), std::string::npos) << r.err;
  r = eval({"--model-samples", samples, "--suite", dir, "--k", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--k: expected numbers"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gs
