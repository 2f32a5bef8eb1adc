// Problems: a Syn signature and input/output cases, loaded from the JSON file format of
// docs/design.md ("Problems and suites", docs/problems.md). Every error names the file, the line
// and the column, and says which case and which value is wrong.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/value.h"

namespace gs::suites {

struct Signature {
  std::string text;  // as written: "fn solve(xs: [int], k: int) -> int"
  std::string entry;
  std::vector<std::string> param_names;
  std::vector<Type> params;
  std::vector<Type> results;
};

struct Case {
  std::vector<vm::Value> inputs;
  std::vector<vm::Value> outputs;
};

struct Problem {
  std::string name;
  Signature signature;
  std::string description;
  std::vector<Case> train;     // a program solves the problem when it passes all of these
  std::vector<Case> test;      // ... and generalises when it passes these too
  double float_tolerance = 0;  // a float output matches when |actual - expected| <= this
  // Problem-specific literals a search may use besides its own small constants (PSB gives
  // PushGP such constants per problem: "aeiouy" for syllables, 64 for checksum).
  std::vector<vm::Value> constants;
  std::string source;  // provenance
  std::string path;    // the file it came from
};

// Parses a signature with Syn's own parser; false with a message on error.
// A signature longer than this is refused (its parse sizes a compiler workspace by its length).
inline constexpr size_t kMaxSignatureBytes = 1024;
bool parse_signature(std::string_view text, Signature* out, std::string* error);

// Loads and checks a problem file. On failure returns nullopt and sets *error to
// "FILE:LINE:COLUMN: message".
std::optional<Problem> load_problem(const std::string& path, std::string* error);
// The same for JSON text already in memory (path only names it in messages).
std::optional<Problem> parse_problem(std::string_view json_text, const std::string& path, std::string* error);

// The constants field's value, {"str": ["aeiouy"], "int": [64]}: the constants grouped by type
// in order of first appearance. false with a message ("constants: …") on error.
bool parse_constants(std::string_view json_text, std::vector<vm::Value>* out, std::string* error);

// The problem as JSON text in the same format (what import commands write).
std::string problem_json(const Problem& p);

}  // namespace gs::suites
