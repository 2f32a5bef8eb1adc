// A suite: a folder of problem files (docs/problems.md), what a campaign searches.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "suites/problem.h"

namespace gs::suites {

// The problem files of a suite (every *.json entry of the folder), in name order. The suite is
// checked whole before anything runs: every file must load (a directory or a dangling symlink
// named *.json is a bad file too) and every problem name must be unique. Every bad file is
// reported on err; false then, or when the folder has no problem files.
bool load_suite(const std::string& dir, std::vector<Problem>* problems, std::ostream& err);

// What every rank of a distributed campaign must agree on: the problems, in order, with their
// signatures and case counts.
u64 suite_fingerprint(const std::vector<Problem>& problems);

}  // namespace gs::suites
