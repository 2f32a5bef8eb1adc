// A search's records: the observer that turns what the search loop sees (node/search.h) into
// rows of the run's HDF5 file (search/trace.h) — every candidate the sampling policy keeps,
// one row per iteration, and the solution — and flushes after each iteration, so a crash loses
// at most the iteration in progress.
#pragma once

#include "node/search.h"
#include "search/generator_kind.h"
#include "search/trace.h"

namespace gs::node {

class SearchRecords final : public SearchObserver {
 public:
  // Rows go to `writer`, under `problem` (begin_problem is called here).
  SearchRecords(search::TraceWriter& writer, const search::Problem& problem, search::GeneratorKind generator);

  void on_batch(const IterationReport& report, const std::vector<search::Proposal>& proposals,
                const pipeline::BatchResults& results) override;
  void on_solution(const SearchOutcome& outcome) override;

 private:
  search::TraceWriter& writer_;
  search::GeneratorKind generator_;
  u32 train_cases_;
  std::vector<search::CandidateRecord> rows_;
};

}  // namespace gs::node
