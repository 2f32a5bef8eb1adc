// gpusynth eval --problem P.json --candidates FILE [--device cpu|cuda|auto] [-o PASSING]
//
// AlphaCode-style filtering: every candidate is compiled, run on the problem's cases and
// judged in one batch pipeline call per --batch candidates; the pass count of each is printed
// and the ones that pass every case are written out in the candidates' own format.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "compiler/compiler.h"
#include "jobs/command.h"
#include "jobs/compile_options.h"
#include "jobs/judge_samples.h"
#include "jobs/options.h"
#include "pipeline/first_error.h"
#include "pipeline/pipeline.h"
#include "search/search_loop.h"
#include "suites/candidates.h"
#include "suites/cases.h"
#include "suites/problem.h"

namespace gs::jobs {

namespace {

// "1,10,100" as numbers in [1, 2^20]; false with *error.
bool parse_ks(const std::string& text, std::vector<u32>* ks, std::string* error) {
  ks->clear();
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(at, end - at);
    char* stop = nullptr;
    const unsigned long k = std::strtoul(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || item[0] == '-' || k < 1 || k > (1u << 20)) {
      *error = "expected numbers in [1, 2^20] separated by commas, not '" + text + "'";
      return false;
    }
    ks->push_back(u32(k));
    at = end + 1;
  }
  return true;
}

struct Tally {
  u64 ran = 0, passing = 0, by_status[pipeline::kProgramStatusCount] = {};
  double pipeline_seconds = 0;
  pipeline::NeuralCounts neural;  // summed over the batches
  double route_seconds = 0, neural_seconds = 0, check_seconds = 0;

  void add(const pipeline::BatchResults& r) {
    pipeline_seconds += r.times.total;
    neural.routed += r.neural.routed;
    neural.accepted += r.neural.accepted;
    neural.samples += r.neural.samples;
    neural.valid += r.neural.valid;
    route_seconds += r.times.route;
    neural_seconds += r.times.neural;
    check_seconds += r.times.check;
  }
};

}  // namespace

int eval_command(const std::vector<std::string>& args) {
  std::string problem_path, candidates_path, out_path, device_text = "auto", split = "train";
  pipeline::PipelineConfig config;
  u32 batch = 65536;
  po::options_description visible("Options");
  SamplesJob samples;
  std::string ks_text = "1,10,100";
  visible.add_options()("help,h", "show this help")("problem,p", po::value(&problem_path),
                                                    "problem file (JSON, docs/problems.md)")(
      "candidates,c", po::value(&candidates_path),
      "candidate programs: JSON Lines or text separated by '---' lines")(
      "model-samples", po::value(&samples.samples_path),
      "instead of --problem and --candidates: model samples for many tasks, JSON Lines of {task_id, "
      "completion|source[, language]} ('-': stdin), judged against --suite")(
      "suite", po::value(&samples.suite_dir),
      "with --model-samples: the folder of problems the task_ids name")(
      "results", po::value(&samples.results_path),
      "with --model-samples: per-sample verdicts as JSON Lines (default SAMPLES.results.jsonl; '-': stdout)")(
      "summary", po::value(&samples.summary_path),
      "with --model-samples: pass@k per task and overall as JSON (default SAMPLES.summary.json; '-': "
      "stdout)")("k", defaulted(&ks_text), "with --model-samples: the k of pass@k, comma-separated")(
      "out,o", po::value(&out_path), "where to write the passing candidates (default: CANDIDATES.passing)")(
      "split", defaulted(&split), "cases to judge on: train, test or all")(
      "device,d", defaulted(&device_text), "cpu, cuda or auto (CUDA when a GPU is present)")(
      "batch", bounded(&batch, 1, 1u << 20), "candidates per pipeline call")(
      "threads", bounded(&config.threads, 0, max_threads()),
      "CPU worker threads (0: every CPU this process may use: its affinity, e.g. taskset or Slurm)")(
      "quiet,q", "print only the summary");
  // The defaults shown are the pipeline's (pipeline::batch_limits()), smaller than `run`'s.
  visible.add(compile_mode_options(&config.neural));
  visible.add(run_limit_options(&config.limits)).add(compile_limit_options(&config.compile));
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth eval --problem P.json --candidates FILE [--device cpu|cuda|auto] [-o PASSING]\n"
      "       gpusynth eval --model-samples S.jsonl --suite DIR [--results R.jsonl] [--summary S.json] [--k "
      "1,10]\n"
      "Compiles, runs and tests every candidate program on the problem's cases; prints each one's\n"
      "pass count and writes those that pass all cases. Malformed candidates are reported and counted.\n"
      "With --model-samples: a model's samples for many tasks, each judged on its task's cases; verdicts\n"
      "per sample and pass@k (Chen et al. 2021) per task and overall.";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  bool quiet = vm.count("quiet") > 0;
  auto device = pipeline::parse_device(device_text);
  if (!device) {
    std::cerr << "gpusynth eval: --device must be cpu, cuda or auto, not '" << device_text << "'\n";
    return kExitUsage;
  }
  const std::optional<suites::Split> which = suites::parse_split(split);
  if (!which) {
    std::cerr << "gpusynth eval: --split must be train, test or all, not '" << split << "'\n";
    return kExitUsage;
  }
  std::string error;
  if (!check_compile_mode_options(config.neural, &error)) {
    std::cerr << "gpusynth eval: " << error << "\n";
    return kExitUsage;
  }
  if (!samples.samples_path.empty() || !samples.suite_dir.empty()) {
    if (samples.samples_path.empty() || samples.suite_dir.empty() || !problem_path.empty() ||
        !candidates_path.empty()) {
      std::cerr
          << "gpusynth eval: --model-samples goes with --suite, and neither with --problem or --candidates\n";
      return kExitUsage;
    }
    if (!parse_ks(ks_text, &samples.ks, &error)) {
      std::cerr << "gpusynth eval: --k: " << error << "\n";
      return kExitUsage;
    }
    const bool from_stdin = samples.samples_path == "-";
    if (!vm.count("results"))
      samples.results_path = from_stdin ? "-" : samples.samples_path + ".results.jsonl";
    if (!vm.count("summary") && !from_stdin) samples.summary_path = samples.samples_path + ".summary.json";
    for (const std::string* out : {&samples.results_path, &samples.summary_path})
      if (!out->empty() && *out != "-" &&
          output_overwrites_input(*out, {{"samples", samples.samples_path}}, &error)) {
        std::cerr << "gpusynth eval: " << error << "\n";
        return kExitUsage;
      }
    samples.split = *which;
    samples.split_name = split;
    samples.device = *device;
    samples.config = config;
    samples.batch = batch;
    try {
      return judge_samples(samples);
    } catch (const std::exception& e) {
      std::cerr << "gpusynth eval: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (problem_path.empty() || candidates_path.empty()) {
    std::cerr << "gpusynth eval: give --problem and --candidates (or --model-samples and --suite)\n";
    return kExitUsage;
  }
  if (out_path.empty()) out_path = candidates_path + ".passing";
  if (output_overwrites_input(out_path, {{"problem", problem_path}, {"candidates", candidates_path}},
                              &error)) {
    std::cerr << "gpusynth eval: " << error << "\n";
    return kExitUsage;
  }
  auto problem = suites::load_problem(problem_path, &error);
  if (!problem) {
    std::cerr << error << "\n";
    return kExitUsage;
  }
  auto text = read_file(candidates_path, kMaxCandidateBytes);
  if (!text) return kExitUsage;
  suites::CandidateFile file = suites::parse_candidates(*text, candidates_path);
  for (const std::string& e : file.errors) std::cerr << e << "\n";

  const suites::Signature& sig = problem->signature;
  std::unique_ptr<pipeline::Pipeline> pipeline;
  try {
    const pipeline::CaseSet tests = suites::problem_cases(*problem, *which);
    const u32 cases = tests.view().case_count;
    if (cases == 0) {
      std::cerr << problem_path << ": no " << split
                << " cases to judge on (every candidate would pass vacuously)\n";
      return kExitUsage;
    }
    pipeline = pipeline::make_pipeline(*device, config);
    std::cerr << "gpusynth eval: " << file.candidates.size() << " candidates, " << cases << " " << split
              << " cases of " << problem->name << ", on the " << pipeline->name() << "\n";
    if (!quiet) std::cout << "candidate\tline\tstatus\tpassed\terror\n";
    Tally tally;
    std::vector<const suites::Candidate*> passing;
    auto start = std::chrono::steady_clock::now();
    for (size_t first = 0; first < file.candidates.size(); first += batch) {
      size_t end = std::min(file.candidates.size(), first + batch);
      pipeline::Sources sources;
      for (size_t c = first; c < end; ++c) sources.add(file.candidates[c].source);
      pipeline::BatchResults r;
      pipeline->run(sources, tests, &r);
      tally.add(r);
      for (u32 i = 0; i < r.programs; ++i) {
        const suites::Candidate& c = file.candidates[first + i];
        pipeline::ProgramStatus s = r.program_status(i);
        tally.by_status[u32(s)]++;
        bool ok = s == pipeline::ProgramStatus::OK;
        tally.ran += ok;
        bool all = ok && r.cases_passed[i] == r.cases;
        if (all) passing.push_back(&c);
        if (!quiet)
          std::cout << first + i + 1 << "\t" << c.line << "\t" << pipeline::status_name(s) << "\t"
                    << r.cases_passed[i] << "/" << r.cases << "\t" << pipeline::first_error(r, i, c.source)
                    << "\n";
      }
      if (file.candidates.size() > batch)
        std::cerr << "gpusynth eval: " << end << "/" << file.candidates.size() << " candidates, "
                  << passing.size() << " passing\n";
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ofstream out(out_path, std::ios::binary);
    out << suites::candidates_text(passing, file.json_lines);
    out.close();
    if (!out) {
      std::cerr << out_path << ": cannot write the passing candidates\n";
      return kExitUsage;
    }
    u64 total = file.candidates.size() + file.errors.size();
    std::cout << "\n"
              << total << " candidates: " << file.errors.size() << " malformed, "
              << tally.by_status[u32(pipeline::ProgramStatus::COMPILE_ERROR)] << " compile errors, "
              << tally.by_status[u32(pipeline::ProgramStatus::NO_ENTRY)] << " without the entry '" << sig.text
              << "', "
              << tally.by_status[u32(pipeline::ProgramStatus::BYTECODE_TOO_LARGE)] +
                     tally.by_status[u32(pipeline::ProgramStatus::INVALID_BYTECODE)]
              << " too large or invalid, " << tally.ran << " ran; " << passing.size() << " passed all "
              << cases << " " << split << " cases -> " << out_path << "\n";
    std::cout << "pipeline (" << pipeline->name() << "): " << seconds << " s, "
              << (seconds > 0 ? double(file.candidates.size()) / seconds : 0) << " candidates/s\n";
    if (config.neural.mode != pipeline::CompileMode::Traditional)
      std::cout << pipeline::compile_mode_name(config.neural.mode) << " compilation: " << tally.neural.routed
                << " programs to the model, " << tally.neural.accepted << " ran its bytecode; "
                << tally.neural.samples << " samples, " << tally.neural.valid << " valid; model "
                << tally.neural_seconds << " s, router " << tally.route_seconds << " s, checks "
                << tally.check_seconds << " s\n";
  } catch (const std::exception& e) {
    std::cerr << "gpusynth eval: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace gs::jobs
