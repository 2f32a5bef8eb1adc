// A campaign's ledger, RUN/campaign.jsonl: one JSON line per finished problem, appended and
// synced when the problem ends (after its records shard is committed: the ledger is the
// campaign's commit log, docs/trace-format.md), so that a re-run of the same command knows what is done and
// resumes the rest. Rank 0 alone keeps it, with the progress lines and the final table's rows.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/durable_file.h"
#include "cluster/work_queue.h"
#include "suites/problem.h"

namespace gs::cluster {

// One finished problem, as a line of campaign.jsonl holds it.
struct ProblemSummary {
  std::string name;
  bool solved = false, generalises = false;
  u64 candidates = 0;
  double seconds = 0;
  u32 test_passed = 0, test_cases = 0;
  u32 rank = 0;  // the rank that searched it (0 in a ledger of an earlier version)
  // The productions and constants of the solution, by grammar key, where the generator names them
  // (search::SearchOutcome::uses): what `gpusynth policy-data --from-run` turns into training data.
  std::vector<std::string> uses;
  // The search policy that guided it, with its version (search::Policy::describe: "FILE (step N,
  // K keys)"); empty when none did.
  std::string policy;
};

std::string summary_line(const ProblemSummary& s);  // one JSON line with its newline
std::optional<ProblemSummary> parse_summary(const std::string& line);

// The summaries of a ledger file by problem name; a line cut short by a crash is reported on
// stderr and ignored (that problem is searched again). A missing file is an empty ledger.
std::map<std::string, ProblemSummary> read_ledger(const std::string& path);

// False, saying why on err (and `advice` after it), when the ledger names a problem the suite
// does not have: the run directory belongs to another suite.
bool same_suite(const std::map<std::string, ProblemSummary>& finished,
                const std::vector<suites::Problem>& problems, const std::string& ledger_path,
                const std::string& suite, std::ostream& err, const std::string& advice = "");

// Rank 0's account of the campaign: the ledger file, a progress line per finished problem
// (done, solved, candidates/s, ETA) and the table's rows.
class Ledger {
 public:
  // Opens the ledger at `path` for appending, with `finished` (read from it) already counted.
  Ledger(const std::vector<suites::Problem>& problems, const std::map<std::string, ProblemSummary>& finished,
         const std::string& path, bool quiet);

  std::vector<u32> unfinished() const;  // problem indices not in the ledger, in suite order
  bool complete() const { return done_ == rows_.size(); }
  u32 done() const { return done_; }
  double elapsed() const;
  std::vector<ProblemSummary> rows() const;  // the finished problems, in suite order

  // A problem finished on some rank: one line in the ledger (never twice), one progress line.
  void record(const ProblemResult& result);

 private:
  const std::vector<suites::Problem>& problems_;
  std::vector<std::optional<ProblemSummary>> rows_;  // by problem index
  bool quiet_;
  std::chrono::steady_clock::time_point start_;
  AppendLog file_;
  u32 done_ = 0, ran_ = 0, solved_ = 0;
  u64 candidates_ = 0;
};

}  // namespace gs::cluster
