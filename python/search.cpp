// gpusynth.search: the generate → compile → execute → test → learn loop on one problem, as
// `gpusynth search` runs it; the outcome is the dict `gpusynth search --json` writes. The GIL is
// released while the loop works; it is taken back after each batch to call `progress` (at most
// once a second) and to see Ctrl-C, which stops the search and raises KeyboardInterrupt.
#include <pybind11/stl.h>

#include "python/bindings.h"
#include "python/options.h"
#include "python/values.h"
#include "search/generator.h"
#include "search/generator_kind.h"
#include "search/search_loop.h"
#include "suites/problem.h"

namespace gs::python {

namespace {

class PythonObserver final : public search::SearchObserver {
 public:
  explicit PythonObserver(py::object progress) : progress_(std::move(progress)) {}

  void on_batch(const search::IterationReport& r, const std::vector<search::Proposal>&,
                const pipeline::BatchResults&) override {
    if (progress_.is_none() || (r.elapsed - last_ < 1.0 && !r.solved)) return;
    last_ = r.elapsed;
    py::gil_scoped_acquire locked;
    try {
      progress_(py::dict(py::arg("iteration") = r.iteration, py::arg("candidates") = r.total_candidates,
                         py::arg("best_passed") = r.best_passed, py::arg("train_cases") = r.train_cases,
                         py::arg("best_reward") = r.best_reward, py::arg("seconds") = r.elapsed,
                         py::arg("solved") = r.solved));
    } catch (py::error_already_set& e) {
      error_ = std::move(e);
    }
  }
  void on_solution(const search::SearchOutcome&) override {}
  bool stop_requested() override {
    if (error_) return true;
    py::gil_scoped_acquire locked;
    if (PyErr_CheckSignals() != 0) error_ = py::error_already_set();
    return error_.has_value();
  }
  // Raises what the callback raised or the signal handler did (KeyboardInterrupt), if anything.
  void rethrow() {
    if (error_) throw std::move(*error_);
  }

 private:
  py::object progress_;
  double last_ = -1;
  std::optional<py::error_already_set> error_;
};

py::dict outcome_dict(const suites::Problem& p, const std::string& generator, u64 seed,
                      const search::SearchBudget& budget, const search::SearchOutcome& r) {
  py::dict d(py::arg("problem") = p.name, py::arg("generator") = generator, py::arg("seed") = seed,
             py::arg("budget") = budget.candidates, py::arg("solved") = r.solved,
             py::arg("stopped") = r.stopped, py::arg("candidates") = r.candidates,
             py::arg("iterations") = r.iterations, py::arg("seconds") = r.seconds,
             py::arg("train_cases") = p.train.size(), py::arg("best_train_passed") = r.best_passed,
             py::arg("best_reward") = r.best_reward, py::arg("best_source") = source_text(r.best_source),
             py::arg("notes") = py::cast(r.notes));
  if (r.solved)
    d["solution"] =
        py::dict(py::arg("id") = r.solution_id, py::arg("iteration") = r.solution_iteration,
                 py::arg("candidates_to_solution") = r.candidates_to_solution,
                 py::arg("source") = source_text(r.solution),
                 py::arg("simplified") = source_text(r.simplified), py::arg("test_passed") = r.test_passed,
                 py::arg("test_cases") = r.test_cases, py::arg("generalises") = r.generalises);
  if (r.solved && r.alike)
    d["solution"]["alike"] =
        py::dict(py::arg("programs") = r.alike->programs, py::arg("size") = r.alike->size,
                 py::arg("complete") = r.alike->complete);
  return d;
}

py::dict search_problem(const suites::Problem& problem, const std::string& generator, u64 budget,
                        double seconds, u64 seed, u32 batch, u32 threads, const std::string& device,
                        bool simplify, std::optional<u64> fuel, py::object progress) {
  auto kind = search::parse_generator(generator);
  if (!kind || *kind == search::GeneratorKind::External)
    throw py::value_error("generator must be gp, random, enumerate or portfolio, not '" + generator +
                          "' (evaluate() judges programs you have)");
  if (batch == 0) throw py::value_error("batch must be at least 1");
  if (!(seconds >= 0) || seconds > 1e9) throw py::value_error("seconds must be in [0, 1e9] (0: no bound)");
  if (budget == 0 && seconds == 0) throw py::value_error("give a budget of candidates, seconds, or both");
  search::GeneratorChoice choice;
  choice.kind = *kind;
  choice.settings.seed = seed;
  search::fit_to_budget(&choice.settings, budget);
  search::SearchConfig config;
  config.batch = batch;
  config.budget = {budget, 0, seconds};
  config.simplify = simplify;
  pipeline::PipelineConfig pipeline_config;
  pipeline_config.threads = checked_threads(threads);
  pipeline_config.limits = run_limits(pipeline_config.limits, fuel, std::nullopt, std::nullopt, std::nullopt);
  const pipeline::Device d = parse_device(device);
  PythonObserver observer(std::move(progress));
  search::SearchOutcome outcome;
  {
    py::gil_scoped_release unlocked;
    auto pipeline = pipeline::make_pipeline(d, pipeline_config);
    search::place_bank_beside(&choice, d);
    std::unique_ptr<search::Generator> g = search::make_generator(choice, problem);
    outcome = search::run_search(problem, *g, *pipeline, config, &observer);
  }
  observer.rethrow();
  return outcome_dict(problem, generator, seed, config.budget, outcome);
}

}  // namespace

void bind_search(py::module_& m) {
  m.def("search", &search_problem, py::arg("problem"), py::kw_only(), py::arg("generator") = "portfolio",
        py::arg("budget") = 300000, py::arg("seconds") = 0.0, py::arg("seed") = 1, py::arg("batch") = 1000,
        py::arg("threads") = 0, py::arg("device") = "auto", py::arg("simplify") = true,
        py::arg("fuel") = py::none(), py::arg("progress") = py::none(),
        "Searches for a program that passes the problem's train cases (docs/search.md) until one does or "
        "the budget (candidates; seconds, 0 = no bound) is spent; returns the outcome as a dict, with "
        "'solution' when solved. progress(dict) is called at most once a second.");
}

}  // namespace gs::python
