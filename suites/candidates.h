// Candidate programs from outside — a language model's samples, another tool's output — read
// from a file, and written back out (the passing ones) in the same format. Two formats:
//
//   JSON Lines   one candidate per line: a JSON string holding the source, or an object whose
//                "source" (or "completion") field holds it; other fields are ignored
//   text         sources separated by lines that hold only "---"
//
// The format is recognised from the first non-blank character ('{' or '"': JSON Lines). A
// malformed line is an error naming the file and line, never fatal to the rest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/hd.h"

namespace gs::suites {

struct Candidate {
  std::string source;
  u32 line = 0;        // where it starts in the file (1-based)
  std::string record;  // JSON Lines: the whole line as it was (ids and other fields kept)
};

struct CandidateFile {
  bool json_lines = false;
  std::vector<Candidate> candidates;
  std::vector<std::string> errors;  // "FILE:LINE: message", one per malformed candidate
};

CandidateFile parse_candidates(std::string_view text, const std::string& path);

// The candidates in the given format (JSON Lines: their records as they were): a file that
// parse_candidates reads back to the same sources.
std::string candidates_text(const std::vector<const Candidate*>& candidates, bool json_lines);

}  // namespace gs::suites
