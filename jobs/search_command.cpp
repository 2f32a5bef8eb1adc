// gpusynth search --problem P.json [--generator gp|random|enumerate|portfolio|external] [--budget N] [--seed
// S] …
//
// Program search on one problem: batches of candidates from a generator are compiled, run and
// tested in one pipeline call each until one passes every train case or the budget is spent;
// the first solution is shrunk and judged on the test cases. Progress goes to stderr, the
// result to stdout.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "jobs/command.h"
#include "jobs/options.h"
#include "jobs/search_options.h"
#include "search/search_loop.h"
#include "suites/candidates.h"
#include "suites/problem.h"

namespace gs::jobs {

namespace {

// The outcome as one JSON object (--json): what the summary lines say, for scripts.
nlohmann::json outcome_json(const suites::Problem& p, const SearchOptions& o,
                            const search::SearchOutcome& r) {
  nlohmann::json j = {{"problem", p.name},
                      {"generator", o.generator},
                      {"seed", o.settings.seed},
                      {"budget", o.search.budget.candidates},
                      {"solved", r.solved},
                      {"stopped", r.stopped},
                      {"candidates", r.candidates},
                      {"iterations", r.iterations},
                      {"seconds", r.seconds},
                      {"train_cases", p.train.size()},
                      {"best_train_passed", r.best_passed},
                      {"best_reward", r.best_reward},
                      {"best_source", r.best_source},
                      {"notes", r.notes}};
  if (r.solved) {
    j["solution"] = {{"id", r.solution_id},
                     {"iteration", r.solution_iteration},
                     {"candidates_to_solution", r.candidates_to_solution},
                     {"source", r.solution},
                     {"simplified", r.simplified},
                     {"test_passed", r.test_passed},
                     {"test_cases", r.test_cases},
                     {"generalises", r.generalises}};
    if (r.alike)
      j["solution"]["alike"] = {
          {"programs", r.alike->programs}, {"size", r.alike->size}, {"complete", r.alike->complete}};
  }
  return j;
}

// Writes j to path ("-": stdout); false after saying why. A program's string literals may hold
// bytes that are not UTF-8 (GP makes any byte): JSON gets U+FFFD for them rather than no output.
bool write_json(const std::string& path, const nlohmann::json& j) {
  const std::string text = j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (path == "-") {
    std::cout << text << "\n";
    return true;
  }
  std::ofstream out(path);
  out << text << "\n";
  if (out.flush()) return true;
  std::cerr << "gpusynth search: " << path << ": cannot write the JSON outcome\n";
  return false;
}

// One stderr line per second at most (and the last iteration's): iteration, candidates, best.
class ProgressLine final : public search::SearchObserver {
 public:
  explicit ProgressLine(bool quiet) : quiet_(quiet) {}

  void on_batch(const search::IterationReport& r, const std::vector<search::Proposal>&,
                const pipeline::BatchResults&) override {
    if (quiet_ || (r.elapsed - last_ < 1.0 && !r.solved && r.iteration != 0)) return;
    last_ = r.elapsed;
    std::fprintf(
        stderr, "  iteration %6llu  %10llu candidates  best %u/%u passed, reward %.3f  %.0f candidates/s\n",
        (unsigned long long)r.iteration, (unsigned long long)r.total_candidates, r.best_passed, r.train_cases,
        double(r.best_reward), r.elapsed > 0 ? double(r.total_candidates) / r.elapsed : 0.0);
  }
  void on_solution(const search::SearchOutcome&) override {}

 private:
  bool quiet_;
  double last_ = -1;
};

}  // namespace

int search_command(const std::vector<std::string>& args) {
  SearchOptions o;
  std::string json_path;
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("problem,p", po::value(&o.problem_path)->required(),
                                                    "problem file (JSON, docs/problems.md)")(
      "json", po::value(&json_path),
      "also write the outcome as JSON to this file ('-': stdout, instead of the summary)");
  visible.add(search_options(&o));
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth search --problem P.json [--generator gp|random|enumerate|portfolio|external] "
      "[--budget N] [--seed S]\n"
      "Searches for a program that passes the problem's train cases; shrinks the first one found and\n"
      "judges it on the test cases. Options may also come from an ini file (--config); the command\n"
      "line overrides it.";
  if (!parse_command_line_and_config(args, visible, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  std::string error;
  if (!check_search_options(o, &error)) {
    std::cerr << "gpusynth search: " << error << "\n";
    return kExitUsage;
  }
  auto problem = suites::load_problem(o.problem_path, &error);
  if (!problem) {
    std::cerr << error << "\n";
    return kExitUsage;
  }
  try {
    std::optional<search::GeneratorChoice> choice = generator_choice(o, &error);
    if (!choice) {
      std::cerr << "gpusynth search: " << error << "\n";
      return kExitUsage;
    }
    const pipeline::Device device = *pipeline::parse_device(o.device);
    auto pipeline = pipeline::make_pipeline(device, pipeline_config(o));
    search::place_bank_beside(&*choice, device);
    std::unique_ptr<search::Generator> generator = search::make_generator(*choice, *problem);
    std::cerr << "gpusynth search: " << problem->name << " (" << problem->train.size() << " train, "
              << problem->test.size() << " test cases), generator " << o.generator << ", batch "
              << o.search.batch << ", seed " << o.settings.seed << ", on the " << pipeline->name() << "\n";
    ProgressLine progress(o.quiet);
    search::SearchOutcome r = search::run_search(*problem, *generator, *pipeline, o.search, &progress);
    if (json_path != "-") print_outcome(std::cout, *problem, r);
    if (!json_path.empty() && !write_json(json_path, outcome_json(*problem, o, r))) return kExitUsage;
    return r.solved ? kExitOk : kExitFailed;
  } catch (const std::exception& e) {
    std::cerr << "gpusynth search: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace gs::jobs
