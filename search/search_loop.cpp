// The search loop (search/search_loop.h).
#include "search/search_loop.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "base/host.h"
#include "suites/cases.h"
#include "trees/simplify.h"

namespace gs::search {

static_assert(PortfolioSettings{}.enumerate_candidates == enumerate_share(SearchBudget{}.candidates),
              "the portfolio's default share is enumerate_share of the default budget");

namespace {

using Clock = std::chrono::steady_clock;

bool passes_all(const pipeline::BatchResults& r, u32 i) {
  return r.program_status(i) == pipeline::ProgramStatus::OK && r.cases_passed[i] == r.cases;
}

// Shrinks a solution while it still passes every train case: each round judges all one-step
// smaller variants in one batch and keeps the smallest that passes.
trees::Tree simplify(trees::Tree program, const suites::Signature& signature, pipeline::Pipeline& pipeline,
                     const pipeline::CaseSet& train) {
  constexpr u32 kMaxRounds = 500;
  for (u32 round = 0; round < kMaxRounds; ++round) {
    std::vector<trees::Tree> variants = trees::simplifications(program, signature);
    if (variants.empty()) break;
    pipeline::Sources sources;
    for (const trees::Tree& v : variants) sources.add(trees::to_source(v));
    pipeline::BatchResults r;
    pipeline.run(sources, train, &r);
    std::optional<u32> best;
    u32 best_nodes = 0;
    for (u32 i = 0; i < r.programs; ++i) {
      if (!passes_all(r, i)) continue;
      const u32 nodes = trees::node_count(variants[i]);
      if (!best || nodes < best_nodes) {
        best = i;
        best_nodes = nodes;
      }
    }
    if (!best) break;
    program = std::move(variants[*best]);
  }
  return program;
}

}  // namespace

SearchOutcome run_search(const suites::Problem& problem, search::Generator& generator,
                         pipeline::Pipeline& pipeline, const SearchConfig& config, SearchObserver* observer) {
  const SearchBudget& budget = config.budget;
  if (budget.candidates == 0 && budget.iterations == 0 && budget.seconds <= 0)
    throw std::invalid_argument("the search needs a budget: candidates, iterations or seconds");
  if (config.batch == 0) throw std::invalid_argument("the search needs a batch of at least one candidate");
  if (problem.train.empty()) throw std::invalid_argument(problem.path + ": the problem has no train cases");
  const pipeline::CaseSet train = suites::problem_cases(problem, suites::Split::Train);
  const auto start = Clock::now();
  // The time budget binds within a batch too: pairs not begun by then are not run. Only the
  // search's batches: the deadline is lifted after them (simplifying and judging the solution
  // run whole), and on any way out.
  struct Deadline {
    pipeline::Pipeline& p;
    ~Deadline() { p.set_deadline(std::nullopt); }
  } deadline{pipeline};
  if (budget.seconds > 0)
    pipeline.set_deadline(
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget.seconds)));
  SearchOutcome out;
  std::shared_ptr<const trees::Tree> solution_tree;
  bool have_best = false;
  for (u64 iteration = 0;; ++iteration) {
    if (budget.iterations != 0 && iteration >= budget.iterations) break;
    if (budget.candidates != 0 && out.candidates >= budget.candidates) break;
    if (budget.seconds > 0 && seconds_since(start) >= budget.seconds) break;
    u64 count = config.batch;
    if (budget.candidates != 0) count = std::min(count, budget.candidates - out.candidates);

    IterationReport report;
    report.iteration = iteration;
    auto t = Clock::now();
    std::vector<search::Proposal> proposals = generator.propose(u32(count), iteration);
    report.generate_seconds = seconds_since(t);
    const u64 internal = generator.evaluated_internally();
    if (proposals.empty() && internal == 0) break;     // the generator has run out
    report.first_id = i64(out.candidates + internal);  // the proposals' ids follow what it evaluated itself
    pipeline::Sources sources;
    for (const search::Proposal& p : proposals) sources.add(p.source);
    pipeline::BatchResults results;
    if (!proposals.empty()) {
      pipeline.run(sources, train, &results);
      t = Clock::now();
      generator.observe(proposals, results, report.first_id);
      report.select_seconds = seconds_since(t);
    }

    std::optional<u32> solved_at;
    for (u32 i = 0; i < results.programs; ++i) {
      // Best: most train cases passed, then the highest reward (the reward counts only whether
      // all pass, so it alone would prefer a cheap program passing none).
      if (!have_best || results.cases_passed[i] > out.best_passed ||
          (results.cases_passed[i] == out.best_passed && results.reward[i] > out.best_reward)) {
        have_best = true;
        out.best_reward = results.reward[i];
        out.best_passed = results.cases_passed[i];
        out.best_source = proposals[i].source;
      }
      if (!solved_at && passes_all(results, i)) solved_at = i;
    }
    out.iterations = iteration + 1;
    out.candidates += internal + results.programs;
    out.neural.routed += results.neural.routed;
    out.neural.accepted += results.neural.accepted;
    out.neural.samples += results.neural.samples;
    out.neural.valid += results.neural.valid;
    report.candidates = internal + results.programs;
    report.total_candidates = out.candidates;
    report.stages = results.times;
    report.elapsed = seconds_since(start);
    report.best_reward = out.best_reward;
    report.best_passed = out.best_passed;
    report.train_cases = proposals.empty() ? u32(problem.train.size()) : results.cases;
    report.solved = solved_at.has_value();
    if (observer) {
      observer->on_batch(report, proposals, results);
      if (observer->stop_requested()) {
        out.stopped = true;
        break;
      }
    }
    if (solved_at) {
      out.solved = true;
      out.solution_id = report.first_id + i64(*solved_at);
      out.solution_iteration = iteration;
      out.candidates_to_solution = out.candidates;
      out.solution = proposals[*solved_at].source;
      out.alike = generator.alike(proposals[*solved_at]);
      out.uses = generator.uses(proposals[*solved_at]);
      solution_tree = proposals[*solved_at].tree;
      break;
    }
  }
  pipeline.set_deadline(std::nullopt);

  if (out.solved) {
    out.simplified = out.solution;
    if (config.simplify && solution_tree)
      out.simplified = trees::to_source(simplify(*solution_tree, problem.signature, pipeline, train));
    if (!problem.test.empty()) {
      const pipeline::CaseSet test = suites::problem_cases(problem, suites::Split::Test);
      pipeline::Sources one;
      one.add(out.simplified);
      pipeline::BatchResults r;
      pipeline.run(one, test, &r);
      out.test_passed = r.cases_passed[0];
      out.test_cases = r.cases;
      out.generalises = passes_all(r, 0);
    }
  }
  out.notes = generator.notes();
  out.seconds = seconds_since(start);
  if (out.solved && observer) observer->on_solution(out);
  return out;
}

}  // namespace gs::search
