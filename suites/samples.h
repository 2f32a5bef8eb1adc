// A language model's samples to judge across many tasks (docs/problems.md "Samples"): JSON
// Lines, one sample a line —
//
//   {"task_id": "sum-list", "completion": "Here is the solution:\n```syn\nfn solve(...) ...```"}
//   {"task_id": "sum-list", "source": "fn solve(xs: [int]) -> int { return sum(xs); }", "language": "syn"}
//
// "completion" is a model's raw text, whose code is extracted (extract_code); "source" is taken
// as it is. A task_id names a problem of the suite the samples are judged against; a sample's
// index is its position among its task's samples in file order (0-based). Other fields are
// ignored. Read line by line, so a file of 10^6 samples is never held whole.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "base/types.h"

namespace gs::suites {

enum class SampleLanguage : u8 { Syn, Python };
const char* language_name(SampleLanguage l);

struct Sample {
  std::string task_id;
  std::string source;  // the code to compile: "source", or the code extracted from "completion"
  SampleLanguage language = SampleLanguage::Syn;
};

// One line of a samples file; false with *error ("message", without file or line) when it is
// not a JSON object with a string task_id and a string completion or source, or its language is
// neither "syn" nor "python".
bool parse_sample(std::string_view line, Sample* out, std::string* error);

// The program in a model's completion: the first fenced Markdown code block (``` or ~~~, with or
// without a language tag) when there is one; else, when prose comes first, the text from the
// first line that starts a Syn function ("fn ") or a Python one ("def "); else the text as it is.
std::string extract_code(std::string_view completion);

// The unbiased estimator of pass@k (Chen et al. 2021, "Evaluating Large Language Models Trained
// on Code"): 1 - C(n-c, k) / C(n, k), the chance that at least one of k samples drawn without
// replacement from n, c of which are correct, is correct. nullopt when n < k (no estimate).
std::optional<double> pass_at_k(u64 n, u64 c, u64 k);

}  // namespace gs::suites
