#include "records/search_records.h"

namespace gs::records {

SearchRecords::SearchRecords(records::Writer& writer, const suites::Problem& problem,
                             search::GeneratorKind generator, const std::string& policy)
    : writer_(writer), generator_(generator), train_cases_(u32(problem.train.size())) {
  writer_.begin_problem({problem.name, problem.signature.text, u32(problem.train.size()),
                         u32(problem.test.size()), problem.path, policy});
}

void SearchRecords::on_batch(const search::IterationReport& report,
                             const std::vector<search::Proposal>& proposals,
                             const pipeline::BatchResults& results) {
  rows_.resize(results.programs);
  const u32 tests = results.cases;
  for (u32 i = 0; i < results.programs; ++i) {
    records::CandidateRecord& row = rows_[i];
    row.id = report.first_id + i64(i);
    row.iteration = u32(report.iteration);
    row.index = i;
    row.generator = generator_;
    row.source = proposals[i].source;
    row.bytecode_bytes = results.bytecode_bytes[i];
    row.bytecode_hash = results.bytecode_hash[i];
    row.compile_path = records::CompilePath::TRADITIONAL;
    row.status = results.program_status(i);
    row.trap = results.trap.empty() ? pipeline::kNotRun
                                    : records::dominant_trap({results.trap.data() + u64(i) * tests, tests});
    row.train_passed = results.cases_passed[i];
    row.reward = results.reward[i];
    row.parents[0] = proposals[i].parents[0];
    row.parents[1] = proposals[i].parents[1];
    row.syntax_nodes = results.syntax_nodes[i];
    if (results.error.empty())
      row.case_errors.clear();  // not judged
    else
      row.case_errors.assign(results.error.begin() + i64(u64(i) * tests),
                             results.error.begin() + i64(u64(i + 1) * tests));
  }
  writer_.add_candidates(rows_);
  records::IterationRecord it;
  it.iteration = u32(report.iteration);
  it.candidates_evaluated = u32(report.candidates);
  it.generate_seconds = report.generate_seconds;
  it.compile_seconds = report.stages.upload + report.stages.compile + report.stages.verify;
  it.execute_seconds = report.stages.execute;
  it.score_seconds = report.stages.score + report.stages.download;
  it.select_seconds = report.select_seconds;
  it.best_reward = report.best_reward;
  it.best_train_passed = report.best_passed;
  it.solved = report.solved;
  writer_.add_iteration(it);
  if (const auto now = std::chrono::steady_clock::now(); now - flushed_ >= kFlushEvery) {
    writer_.flush();
    flushed_ = now;
  }
}

void SearchRecords::on_solution(const search::SearchOutcome& r) {
  records::SolutionRecord s;
  s.candidate_id = r.solution_id;
  s.iteration = u32(r.solution_iteration);
  s.source = r.solution;
  s.simplified_source = r.simplified;
  s.train_passed = train_cases_;
  s.train_total = train_cases_;
  s.test_passed = r.test_passed;
  s.test_total = r.test_cases;
  s.generalises = r.generalises;
  writer_.add_solution(s);
  writer_.flush();
  flushed_ = std::chrono::steady_clock::now();
}

}  // namespace gs::records
