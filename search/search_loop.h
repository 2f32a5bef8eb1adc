// Program search on one node: the generate → compile → execute → test → learn loop over one
// problem. Each iteration a generator (search/generator.h) proposes a batch, one pipeline call
// (pipeline/pipeline.h) judges it on the problem's train cases, and the generator observes the
// results. The first program that passes every train case is shrunk while it still passes
// (when the generator made it as a syntax tree) and judged on the test cases (generalisation).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pipeline/pipeline.h"
#include "search/generator.h"
#include "suites/problem.h"

namespace gs::search {

// When to stop: whichever bound is reached first (0 = no bound; at least one must be set).
struct SearchBudget {
  u64 candidates = 300'000;  // PushGP's budget: population 1,000 × 300 generations
  u64 iterations = 0;
  double seconds = 0;
};

struct SearchConfig {
  u32 batch = 1000;  // candidates per iteration (a GP population)
  SearchBudget budget;
  bool simplify = true;  // shrink the first solution while it still passes
};

// One iteration, as the loop reports it to its observer.
struct IterationReport {
  u64 iteration = 0;
  u64 candidates = 0;  // evaluated in this iteration
  u64 total_candidates = 0;
  i64 first_id = 0;  // id of the iteration's first candidate (ids count from 0 per search)
  double generate_seconds = 0, select_seconds = 0;  // the generator's propose / observe
  pipeline::StageTimes stages;                      // the pipeline's
  double elapsed = 0;                               // since the search began
  // The best program so far: most train cases passed, then the highest reward.
  float best_reward = 0;
  u32 best_passed = 0;
  u32 train_cases = 0;
  bool solved = false;  // a program passing every train case has been found (so far)
};

struct SearchOutcome {
  bool solved = false;
  u64 iterations = 0;
  u64 candidates = 0;  // evaluated in all
  double seconds = 0;
  float best_reward = 0;  // of the best program: most train cases passed, then highest reward
  u32 best_passed = 0;
  std::string best_source;
  // When solved: the first solution, its id and iteration, the shrunk version, and how the
  // shrunk one does on the test cases.
  i64 solution_id = -1;
  u64 solution_iteration = 0;
  u64 candidates_to_solution = 0;  // evaluated up to and including the solving iteration
  std::string solution, simplified;
  u32 test_passed = 0, test_cases = 0;
  bool generalises = false;
  // When the generator counts them (Generator::alike): the solution's observational twins.
  std::optional<search::Alike> alike;
  // When the generator names them (Generator::uses): the productions and constants the solution
  // is made of, by grammar key.
  std::vector<std::string> uses;
  // Generator::notes() when the search ended: what limited it (the value bank filled).
  std::vector<std::string> notes;
  // Neural and hybrid compilation: what the model did, over every batch (pipeline/pipeline.h).
  pipeline::NeuralCounts neural;
  // The observer asked to stop (SearchObserver::stop_requested) before the budget was spent or
  // a solution was taken: nothing above is final, and solved stays false.
  bool stopped = false;
};

// Sees everything the loop evaluates: for records (records/records.h) and progress displays.
class SearchObserver {
 public:
  virtual ~SearchObserver() = default;
  // The batch just judged: proposals and the pipeline's results, in order.
  virtual void on_batch(const IterationReport& report, const std::vector<search::Proposal>& proposals,
                        const pipeline::BatchResults& results) = 0;
  virtual void on_solution(const SearchOutcome& outcome) = 0;
  // Asked once after every batch, after on_batch: true ends the search there, unfinished
  // (SearchOutcome::stopped) — a campaign stopping on SIGTERM. A distributed campaign's rank 0
  // also answers the other ranks here, between its own batches.
  virtual bool stop_requested() { return false; }
};

// Runs the loop until the problem is solved or the budget is spent. The pipeline must keep
// per-pair results (PipelineConfig::keep_pairs). Errors of the pipeline (device memory) are
// std::runtime_error.
SearchOutcome run_search(const suites::Problem& problem, search::Generator& generator,
                         pipeline::Pipeline& pipeline, const SearchConfig& config,
                         SearchObserver* observer = nullptr);

}  // namespace gs::search
