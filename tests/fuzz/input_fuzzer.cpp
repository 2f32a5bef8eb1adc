// libFuzzer target: any bytes as one of the text inputs a user hands gpusynth — a problem file, a
// file of candidate programs (text or JSON Lines), a PSB JSON Lines file read against one of a few
// signatures, a signature. The first byte picks the reader (and the PSB reader's signature); the
// rest is the file. The property is the readers' contract (docs/problems.md, docs/cli.md "Input
// files"): a result, or errors that name the file, never a crash, a hang or an exception; and a
// problem that is accepted writes out (problem_json) as text that reads back to the same problem.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "suites/candidates.h"
#include "suites/problem.h"
#include "suites/psb_import.h"

namespace gs::fuzzing {
namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "gpusynth fuzz: %s\n", what.c_str());
  std::abort();
}

const char* const kPath = "fuzz.json";

void require_named(const std::string& error, const char* reader) {
  if (error.rfind(kPath, 0) != 0)
    fail(std::string(reader) + ": an error that does not name the file: " + error);
}

void problem(std::string_view text) {
  std::string error;
  std::optional<suites::Problem> p = suites::parse_problem(text, kPath, &error);
  if (!p) {
    require_named(error, "problem");
    return;
  }
  const std::string written = suites::problem_json(*p);
  std::optional<suites::Problem> again = suites::parse_problem(written, kPath, &error);
  if (!again) fail("an accepted problem, written out, does not read back: " + error + "\n" + written);
  if (suites::problem_json(*again) != written) fail("an accepted problem reads back as another:\n" + written);
}

void candidates(std::string_view text) {
  suites::CandidateFile f = suites::parse_candidates(text, kPath);
  for (const std::string& e : f.errors) require_named(e, "candidates");
  for (const suites::Candidate& c : f.candidates)
    if (c.line == 0) fail("a candidate without its line");
}

// Read against one of three signatures, picked by the selector byte: reading each input against
// all three tripled the time per input (most of it in the JSON parser) for little coverage.
void psb(std::string_view text, unsigned pick) {
  static const char* const kSignatures[] = {"fn solve(xs: [int]) -> int",
                                            "fn solve(s: str, n: int) -> (str, bool)",
                                            "fn solve(x: float) -> [float]"};
  suites::Signature signature;
  std::string error;
  if (!suites::parse_signature(kSignatures[pick % 3], &signature, &error))
    fail("a fixed signature does not parse");
  std::vector<std::string> errors;
  suites::read_psb_cases({kPath, std::string(text)}, signature, &errors);
  for (const std::string& e : errors) require_named(e, "psb");
}

void signature(std::string_view text) {
  suites::Signature s;
  std::string error;
  if (!suites::parse_signature(text, &s, &error) && error.empty())
    fail("a signature refused without a message");
}

}  // namespace
}  // namespace gs::fuzzing

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (data[0] % 4) {
      case 0: gs::fuzzing::problem(text); break;
      case 1: gs::fuzzing::candidates(text); break;
      case 2: gs::fuzzing::psb(text, data[0] / 4); break;
      default: gs::fuzzing::signature(text); break;
    }
  } catch (const std::exception& e) {
    gs::fuzzing::fail(std::string("an exception escaped a reader: ") + e.what());
  }
  return 0;
}
