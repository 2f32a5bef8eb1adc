// Model samples (suites/samples.h): lines parsed or refused with a reason, code extracted from
// a model's prose and Markdown, and pass@k against its definition by counting subsets.
#include "suites/samples.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gs::suites {
namespace {

TEST(Samples, ParsesCompletionsAndSources) {
  Sample s;
  std::string error;
  ASSERT_TRUE(parse_sample(
      R"({"task_id": "t", "completion": "Sure:\n```syn\nfn solve() -> int { return 1; }\n```"})", &s, &error))
      << error;
  EXPECT_EQ(s.task_id, "t");
  EXPECT_EQ(s.source, "fn solve() -> int { return 1; }\n");
  EXPECT_EQ(s.language, SampleLanguage::Syn);
  ASSERT_TRUE(
      parse_sample(R"({"task_id": "t", "source": "```x```", "language": "python", "extra": 1})", &s, &error));
  EXPECT_EQ(s.source, "```x```");  // a source is taken as it is
  EXPECT_EQ(s.language, SampleLanguage::Python);
}

TEST(Samples, RefusesMalformedLinesWithAReason) {
  Sample s;
  for (auto [line, reason] : std::vector<std::pair<std::string, std::string>>{
           {"{", "column"},
           {"[1]", "JSON object"},
           {R"({"completion": "x"})", "task_id"},
           {R"({"task_id": "", "completion": "x"})", "task_id"},
           {R"({"task_id": 3, "completion": "x"})", "task_id"},
           {R"({"task_id": "t"})", "one of"},
           {R"({"task_id": "t", "completion": "x", "source": "y"})", "not both"},
           {R"({"task_id": "t", "completion": 5})", "\"completion\" must be a string"},
           {R"({"task_id": "t", "source": "x", "language": "rust"})", "\"language\" must be"},
       }) {
    std::string error;
    EXPECT_FALSE(parse_sample(line, &s, &error)) << line;
    EXPECT_NE(error.find(reason), std::string::npos) << line << " -> " << error;
  }
}

TEST(Samples, ExtractsTheCodeFromAModelsText) {
  EXPECT_EQ(extract_code("fn solve() -> int { return 1; }"), "fn solve() -> int { return 1; }");
  EXPECT_EQ(extract_code("Here it is.\nIt loops.\nfn solve() -> int {\n  return 1;\n}\n"),
            "fn solve() -> int {\n  return 1;\n}\n");
  EXPECT_EQ(extract_code("Text\n```\nfn a() {}\n```\nmore\n```syn\nfn b() {}\n```"), "fn a() {}\n");
  EXPECT_EQ(extract_code("~~~python\ndef f():\n    return 1\n~~~\n"), "def f():\n    return 1\n");
  EXPECT_EQ(extract_code("```syn\nfn cut() {"), "fn cut() {\n");  // an unclosed fence runs to the end
  EXPECT_EQ(extract_code("no code at all"), "no code at all");
  EXPECT_EQ(extract_code(""), "");
}

// C(n, k) in doubles, and pass@k as its definition: 1 - C(n-c, k) / C(n, k).
double choose(u64 n, u64 k) {
  if (k > n) return 0;
  double r = 1;
  for (u64 i = 1; i <= k; ++i) r = r * double(n - k + i) / double(i);
  return r;
}

TEST(Samples, PassAtKIsTheUnbiasedEstimator) {
  EXPECT_FALSE(pass_at_k(3, 1, 5).has_value());
  EXPECT_FALSE(pass_at_k(3, 1, 0).has_value());
  EXPECT_EQ(*pass_at_k(10, 0, 1), 0.0);
  EXPECT_EQ(*pass_at_k(10, 10, 10), 1.0);
  EXPECT_DOUBLE_EQ(*pass_at_k(10, 3, 1), 0.3);
  for (u64 n = 1; n <= 30; ++n)
    for (u64 c = 0; c <= n; ++c)
      for (u64 k = 1; k <= n; ++k)
        EXPECT_NEAR(*pass_at_k(n, c, k), 1.0 - choose(n - c, k) / choose(n, k), 1e-9)
            << n << " " << c << " " << k;
}

}  // namespace
}  // namespace gs::suites
