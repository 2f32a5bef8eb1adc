// A search's records: the observer that turns what the search loop sees (search/search_loop.h) into
// rows of the run's HDF5 file (records/records.h) — every candidate the sampling policy keeps,
// one row per iteration, and the solution — and flushes after each iteration, so a crash loses
// at most the iteration in progress.
#pragma once

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

 private:
  records::Writer& writer_;
  search::GeneratorKind generator_;
  u32 train_cases_;
  std::vector<records::CandidateRecord> rows_;
};

}  // namespace gs::records
