// PSB-style JSON Lines into a problem (docs/problems.md "import-psb"). Each line is one case,
// {"input1": …, "input2": …, "output1": …}: inputN is the signature's N-th parameter, outputN its
// N-th result. PSB1 (Helmuth & Spector 2015) ships its edge and random cases in this form.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suites/problem.h"

namespace gs::suites {

// One JSON Lines file: its path (used only in messages) and its text.
struct PsbFile {
  std::string path;
  std::string text;
};

struct PsbImport {
  std::string name;
  std::string signature;  // "fn solve(xs: [int]) -> int"
  std::string description;
  std::string source;
  double float_tolerance = 0;
  std::string constants;        // the problem's constants as JSON ({"str": ["aeiouy"]}), or empty
  std::optional<PsbFile> edge;  // edge cases go first in train; may be empty (PSB1's median)
  PsbFile train;                // must hold at least one case
  std::optional<PsbFile> test;  // when given, must hold at least one case
};

// The cases of one file, values converted to the signature's types. Every malformed line is
// appended to *errors as "FILE:LINE: message"; blank lines are skipped. A JSON float where the
// type says int is an error (PSB data never needs one), and so is an integer outside int64.
std::vector<Case> read_psb_cases(const PsbFile& file, const Signature& signature,
                                 std::vector<std::string>* errors);

// The whole conversion. nullopt when anything is wrong, with every message in *errors (a bad
// signature, a bad line in any file, a train or test file without cases).
std::optional<Problem> import_psb(const PsbImport& in, std::vector<std::string>* errors);

}  // namespace gs::suites
