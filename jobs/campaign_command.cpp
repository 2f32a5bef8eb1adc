// gpusynth campaign --suite DIR --out RUN/ [search options]
//
// A search on every problem of a suite (a folder of problem files), one after another on this
// node, with records in RUN/records.h5 (docs/trace-format.md), one summary line per finished
// problem in RUN/campaign.jsonl, a progress line per problem (done, solved, candidates/s, ETA)
// and a final table. Re-running with the same RUN/ skips the problems campaign.jsonl lists.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "jobs/command.h"
#include "jobs/options.h"
#include "jobs/search_options.h"
#include "node/search_records.h"
#include "search/trace.h"
#include "vm/hash.h"

namespace gs::jobs {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The problem files of a suite, in name order; a bad file stops the campaign before it starts.
bool load_suite(const std::string& dir, std::vector<search::Problem>* problems) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    std::cerr << dir << ": not a directory of problem files\n";
    return false;
  }
  std::vector<std::string> paths;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".json") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  bool ok = true;
  for (const std::string& path : paths) {
    std::string error;
    auto p = search::load_problem(path, &error);
    if (p)
      problems->push_back(std::move(*p));
    else {
      std::cerr << error << "\n";
      ok = false;
    }
  }
  if (ok && problems->empty()) {
    std::cerr << dir << ": no problem files (*.json)\n";
    return false;
  }
  return ok;
}

// One finished problem, as campaign.jsonl holds it.
struct Finished {
  std::string name;
  bool solved = false, generalises = false;
  u64 candidates = 0;
  double seconds = 0;
  u32 test_passed = 0, test_cases = 0;
};

std::map<std::string, Finished> read_finished(const std::string& path) {
  std::map<std::string, Finished> done;
  std::ifstream in(path);
  std::string line;
  for (u32 number = 1; std::getline(in, line); ++number) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("problem")) {
      // A line cut short by a crash: that problem is done again.
      std::cerr << path << ":" << number << ": unreadable summary line, ignored\n";
      continue;
    }
    Finished f;
    f.name = j.value("problem", "");
    f.solved = j.value("solved", false);
    f.generalises = j.value("generalises", false);
    f.candidates = j.value("candidates", u64(0));
    f.seconds = j.value("seconds", 0.0);
    f.test_passed = j.value("test_passed", 0u);
    f.test_cases = j.value("test_cases", 0u);
    done[f.name] = f;
  }
  return done;
}

std::string summary_line(const Finished& f) {
  nlohmann::json j{{"problem", f.name},         {"solved", f.solved},         {"candidates", f.candidates},
                   {"seconds", f.seconds},      {"test_passed", f.test_passed}, {"test_cases", f.test_cases},
                   {"generalises", f.generalises}};
  return j.dump() + "\n";
}

u64 problem_seed(u64 seed, const std::string& name) {
  const u64 h = vm::fnv1a64(reinterpret_cast<const u8*>(name.data()), name.size());
  return search::Rng(seed).derive(h).next_u64();
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

void print_table(const std::vector<Finished>& rows) {
  std::printf("\n%-32s %-8s %12s %10s %14s\n", "problem", "solved", "candidates", "seconds", "test cases");
  u32 solved = 0, generalised = 0;
  for (const Finished& f : rows) {
    std::string test = f.solved && f.test_cases > 0
                           ? std::to_string(f.test_passed) + "/" + std::to_string(f.test_cases)
                           : "-";
    std::printf("%-32s %-8s %12llu %10.2f %14s\n", f.name.c_str(), f.solved ? "yes" : "no",
                (unsigned long long)f.candidates, f.seconds, test.c_str());
    solved += f.solved;
    generalised += f.generalises;
  }
  std::printf("\nsolved %u/%zu problems, %u of them generalise\n", solved, rows.size(), generalised);
}

}  // namespace

int campaign_command(const std::vector<std::string>& args) {
  SearchOptions o;
  std::string suite, run_dir;
  search::SamplingPolicy sampling;
  po::options_description visible("Options");
  visible.add_options()
      ("help,h", "show this help")
      ("suite", po::value(&suite)->required(), "folder of problem files (*.json)")
      ("out,o", po::value(&run_dir)->required(), "run directory: records.h5, campaign.jsonl (created, or resumed)")
      ("record-every", po::value(&sampling.every)->default_value(sampling.every), "record every Nth candidate (0: none), besides improvements and solutions")
      ("record-budget", po::value(&sampling.byte_budget)->default_value(0), "bytes of records after which only improvements are recorded (0: no bound)");
  visible.add(search_options(&o));
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth campaign --suite DIR --out RUN/ [search options]\n"
      "Searches every problem of a suite; records go to RUN/records.h5 (gpusynth trace summary RUN/),\n"
      "per-problem summaries to RUN/campaign.jsonl. Re-running with the same RUN/ skips finished problems.";
  if (!parse_command_line_and_config(args, visible, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  std::string error;
  if (!check_search_options(o, &error)) {
    std::cerr << "gpusynth campaign: " << error << "\n";
    return kExitUsage;
  }
  std::vector<search::Problem> problems;
  if (!load_suite(suite, &problems)) return kExitUsage;
  std::error_code ec;
  fs::create_directories(run_dir, ec);
  if (ec) {
    std::cerr << run_dir << ": cannot create the run directory: " << ec.message() << "\n";
    return kExitUsage;
  }
  const std::string summary_path = (fs::path(run_dir) / "campaign.jsonl").string();
  std::map<std::string, Finished> finished = read_finished(summary_path);
  try {
    auto pipeline = node::make_pipeline(*node::parse_device(o.device), o.pipeline);
    search::RunInfo info;
    info.seed = o.settings.seed;
    info.config_text = effective_config(vm);
    info.command_line = "gpusynth campaign";
    for (const std::string& a : args) info.command_line += " " + a;
    info.hosts = host_name();
    info.devices = pipeline->name();
    search::TraceWriter writer = search::TraceWriter::create_or_resume(
        (fs::path(run_dir) / search::records_file_name()).string(), info, sampling);
    std::ofstream summary(summary_path, std::ios::app);
    if (!summary) throw std::runtime_error(summary_path + ": cannot write");

    std::cerr << "gpusynth campaign: " << problems.size() << " problems from " << suite << " ("
              << finished.size() << " already done), generator " << o.generator << ", budget "
              << o.search.budget.candidates << " candidates each, on the " << pipeline->name() << " -> " << run_dir
              << "\n";
    const auto start = Clock::now();
    std::vector<Finished> rows;
    u32 done = 0, solved = 0, ran = 0;
    u64 candidates = 0;
    for (const search::Problem& p : problems) {
      ++done;
      if (auto f = finished.find(p.name); f != finished.end()) {
        rows.push_back(f->second);
        solved += f->second.solved;
        continue;
      }
      SearchOptions per_problem = o;
      per_problem.settings.seed = problem_seed(o.settings.seed, p.name);
      std::unique_ptr<search::Generator> generator = make_generator(per_problem, p, &error);
      if (!generator) throw std::runtime_error(error);
      node::SearchRecords records(writer, p, generator->kind());
      node::SearchOutcome r = node::run_search(p, *generator, *pipeline, o.search, &records);
      Finished f{p.name, r.solved, r.generalises, r.candidates, r.seconds, r.test_passed, r.test_cases};
      summary << summary_line(f) << std::flush;
      rows.push_back(f);
      solved += r.solved;
      ++ran;
      candidates += r.candidates;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      const double eta = elapsed / ran * double(problems.size() - done);
      if (!o.quiet)
        std::fprintf(stderr, "[%u/%zu] %-28s %-10s %10llu candidates %8.1f s | solved %u, %.0f candidates/s, ETA %.0f s\n",
                     done, problems.size(), p.name.c_str(), r.solved ? "solved" : "unsolved",
                     (unsigned long long)r.candidates, r.seconds, solved, elapsed > 0 ? candidates / elapsed : 0.0,
                     eta);
    }
    writer.close();
    print_table(rows);
    std::cout << "records: " << run_dir << "/" << search::records_file_name()
              << " (gpusynth trace summary " << run_dir << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "gpusynth campaign: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace gs::jobs
