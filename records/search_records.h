// A search's records: the observer that turns what the search loop sees (search/search_loop.h) into
// rows of the run's HDF5 file (records/records.h) — every candidate the sampling policy keeps,
// one row per iteration, and the solution. It flushes after a solution and after an iteration
// when kFlushEvery has passed since the last flush, so that the rows waiting in memory are a
// second's at most; the writer's close flushes the rest. A flush after every iteration cost
// listfunctions-c105 (31,478 iterations in its minute) 40 % of its time in HDF5 and zlib; a
// campaign's search records into a shard that a stopped or killed search discards whole
// (records/shards.h), so a flush there saves nothing from a crash.
#pragma once

#include <chrono>

#include "records/records.h"
#include "search/generator_kind.h"
#include "search/search_loop.h"

namespace gs::records {

class SearchRecords final : public search::SearchObserver {
 public:
  // Rows go to `writer`, under `problem` (begin_problem is called here).
  // `policy`: the search policy that guides the search (search::Policy::describe), or "".
  SearchRecords(records::Writer& writer, const suites::Problem& problem, search::GeneratorKind generator,
                const std::string& policy = "");

  void on_batch(const search::IterationReport& report, const std::vector<search::Proposal>& proposals,
                const pipeline::BatchResults& results) override;
  void on_solution(const search::SearchOutcome& outcome) override;

  static constexpr std::chrono::seconds kFlushEvery{1};

 private:
  records::Writer& writer_;
  std::chrono::steady_clock::time_point flushed_ = std::chrono::steady_clock::now();
  search::GeneratorKind generator_;
  u32 train_cases_;
  std::vector<records::CandidateRecord> rows_;
};

}  // namespace gs::records
