// gpusynth campaign --suite DIR --out RUN/ [search options]
//
// A search on every problem of a suite (a folder of problem files), with records in
// RUN/records.h5 (docs/trace-format.md), one summary line per finished problem in
// RUN/campaign.jsonl, a progress line per problem (done, solved, candidates/s, ETA) and a final
// table. Re-running with the same RUN/ skips the problems campaign.jsonl lists.
//
// Started by mpirun or srun with several processes, the problems are shared among the ranks
// through a cluster::WorkQueue (docs/cluster.md): rank 0 hands them out on request, searches
// too, and alone writes campaign.jsonl, the progress lines and the table; each rank records
// into RUN/records.rank-K.h5, which rank 0 joins into RUN/records.h5 at the end. One process
// (not started by an MPI launcher) runs the problems in order itself, as before.
//
// SIGTERM stops every rank at its next batch boundary: finished problems are in
// campaign.jsonl, every rank's records are flushed, and the exit status is kExitInterrupted.
// Re-running the same command resumes.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "records/join.h"
#include "cluster/work_queue.h"
#include "jobs/command.h"
#include "jobs/options.h"
#include "jobs/search_options.h"
#include "records/search_records.h"
#include "records/records.h"
#include "suites/suite.h"
#include "base/hash.h"
#include "base/host.h"

namespace gs::jobs {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One finished problem, as campaign.jsonl holds it.
struct Finished {
  std::string name;
  bool solved = false, generalises = false;
  u64 candidates = 0;
  double seconds = 0;
  u32 test_passed = 0, test_cases = 0;
  std::string skipped;  // why the generator refused the problem (not searched), or empty
};

std::optional<Finished> parse_summary(const std::string& line) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("problem")) return std::nullopt;
  Finished f;
  f.name = j.value("problem", "");
  f.solved = j.value("solved", false);
  f.generalises = j.value("generalises", false);
  f.candidates = j.value("candidates", u64(0));
  f.seconds = j.value("seconds", 0.0);
  f.test_passed = j.value("test_passed", 0u);
  f.test_cases = j.value("test_cases", 0u);
  f.skipped = j.value("skipped", "");
  return f;
}

std::map<std::string, Finished> read_finished(const std::string& path) {
  std::map<std::string, Finished> done;
  std::ifstream in(path);
  std::string line;
  for (u32 number = 1; std::getline(in, line); ++number) {
    std::optional<Finished> f = parse_summary(line);
    if (!f) {
      // A line cut short by a crash: that problem is done again.
      std::cerr << path << ":" << number << ": unreadable summary line, ignored\n";
      continue;
    }
    done[f->name] = *f;
  }
  return done;
}

std::string summary_line(const Finished& f) {
  nlohmann::json j{{"problem", f.name},         {"solved", f.solved},         {"candidates", f.candidates},
                   {"seconds", f.seconds},      {"test_passed", f.test_passed}, {"test_cases", f.test_cases},
                   {"generalises", f.generalises}};
  if (!f.skipped.empty()) j["skipped"] = f.skipped;
  return j.dump() + "\n";
}

u64 problem_seed(u64 seed, const std::string& name) {
  const u64 h = fnv1a64(reinterpret_cast<const u8*>(name.data()), name.size());
  return Rng(seed).derive(h).next_u64();
}

void print_table(const std::vector<Finished>& rows) {
  std::printf("\n%-32s %-8s %12s %10s %14s\n", "problem", "solved", "candidates", "seconds", "test cases");
  u32 solved = 0, generalised = 0, skipped = 0;
  for (const Finished& f : rows) {
    if (!f.skipped.empty()) {
      std::printf("%-32s %-8s %s\n", f.name.c_str(), "skipped", f.skipped.c_str());
      ++skipped;
      continue;
    }
    std::string test = f.solved && f.test_cases > 0
                           ? std::to_string(f.test_passed) + "/" + std::to_string(f.test_cases)
                           : "-";
    std::printf("%-32s %-8s %12llu %10.2f %14s\n", f.name.c_str(), f.solved ? "yes" : "no",
                (unsigned long long)f.candidates, f.seconds, test.c_str());
    solved += f.solved;
    generalised += f.generalises;
  }
  std::printf("\nsolved %u/%zu problems, %u of them generalise", solved, rows.size(), generalised);
  if (skipped > 0) std::printf(" (%u skipped: the generator cannot search them)", skipped);
  std::printf("\n");
}

// Sends std::cout and std::cerr nowhere while alive: ranks other than 0 parse the same options
// as rank 0 and would repeat its usage messages.
class Mute {
 public:
  explicit Mute(bool on) : on_(on) {
    if (!on_) return;
    out_ = std::cout.rdbuf(&null_);
    err_ = std::cerr.rdbuf(&null_);
  }
  ~Mute() {
    if (!on_) return;
    std::cout.rdbuf(out_);
    std::cerr.rdbuf(err_);
  }

 private:
  struct NullBuffer : std::streambuf {
    int overflow(int c) override { return c; }
  } null_;
  bool on_;
  std::streambuf* out_ = nullptr;
  std::streambuf* err_ = nullptr;
};

// Writes text to stderr in one piece: mpirun forwards each rank's output write by write, so a
// line written in parts can be interleaved with another rank's.
void say(const std::string& text) { std::cerr << text << std::flush; }

// Prints a rank's messages: as they are on one process, each line prefixed with the rank on
// several.
void print_messages(const std::string& text, const cluster::WorkQueue& queue) {
  const std::string command = "gpusynth campaign: ";
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (queue.ranks() > 1) {
      if (line.starts_with(command)) line.erase(0, command.size());
      line = "gpusynth campaign (" + queue.where() + "): " + line;
    }
    out += line + "\n";
  }
  say(out);
}

// The search's records, and a look at the work queue after every batch: rank 0 answers the
// other ranks there, and every rank learns there that it must stop.
class CampaignObserver final : public search::SearchObserver {
 public:
  CampaignObserver(records::Writer& writer, const suites::Problem& problem, search::GeneratorKind generator,
                   cluster::WorkQueue& queue)
      : records_(writer, problem, generator), queue_(queue) {}

  void on_batch(const search::IterationReport& report, const std::vector<search::Proposal>& proposals,
                const pipeline::BatchResults& results) override {
    records_.on_batch(report, proposals, results);  // flushed: a stop loses nothing
  }
  bool stop_requested() override { return queue_.poll(); }
  void on_solution(const search::SearchOutcome& outcome) override { records_.on_solution(outcome); }

 private:
  records::SearchRecords records_;
  cluster::WorkQueue& queue_;
};

// Rank 0's account of the campaign: campaign.jsonl, the progress lines, the table's rows.
class Ledger {
 public:
  Ledger(const std::vector<suites::Problem>& problems, const std::map<std::string, Finished>& finished,
         const std::string& summary_path, bool quiet)
      : problems_(problems), rows_(problems.size()), quiet_(quiet), start_(Clock::now()) {
    for (size_t i = 0; i < problems.size(); ++i)
      if (auto f = finished.find(problems[i].name); f != finished.end()) {
        rows_[i] = f->second;
        solved_ += f->second.solved;
        ++done_;
      }
    // A line cut short by a crash must not swallow the next one: end it first.
    std::ifstream last(summary_path, std::ios::binary | std::ios::ate);
    const bool needs_newline = last && last.tellg() > 0 && (last.seekg(-1, std::ios::end), last.get() != '\n');
    last.close();
    summary_.open(summary_path, std::ios::app);
    if (!summary_) throw std::runtime_error(summary_path + ": cannot write");
    if (needs_newline) summary_ << "\n" << std::flush;
  }

  std::vector<u32> unfinished() const {
    std::vector<u32> todo;
    for (u32 i = 0; i < rows_.size(); ++i)
      if (!rows_[i]) todo.push_back(i);
    return todo;
  }
  bool complete() const { return done_ == rows_.size(); }
  u32 done() const { return done_; }

  // A problem finished on some rank: one line in campaign.jsonl, one progress line.
  void record(const cluster::ProblemResult& result) {
    std::optional<Finished> parsed = parse_summary(result.summary);
    if (result.problem >= rows_.size() || !parsed || parsed->name != problems_[result.problem].name) {
      say("gpusynth campaign: a malformed result from rank " + std::to_string(result.rank) + ", ignored\n");
      return;
    }
    if (rows_[result.problem]) return;  // already counted: never twice in campaign.jsonl
    const Finished& f = *parsed;
    summary_ << summary_line(f) << std::flush;
    rows_[result.problem] = f;
    ++done_;
    ++ran_;
    solved_ += f.solved;
    candidates_ += f.candidates;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double eta = elapsed / ran_ * double(rows_.size() - done_);
    if (!quiet_)
      std::fprintf(stderr, "[%u/%zu] %-28s %-10s %10llu candidates %8.1f s | solved %u, %.0f candidates/s, ETA %.0f s\n",
                   done_, rows_.size(), f.name.c_str(), !f.skipped.empty() ? "skipped" : f.solved ? "solved" : "unsolved",
                   (unsigned long long)f.candidates, f.seconds, solved_, elapsed > 0 ? candidates_ / elapsed : 0.0, eta);
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  std::vector<Finished> rows() const {
    std::vector<Finished> out;
    for (const auto& r : rows_)
      if (r) out.push_back(*r);
    return out;
  }

 private:
  const std::vector<suites::Problem>& problems_;
  std::vector<std::optional<Finished>> rows_;  // by problem index
  bool quiet_;
  Clock::time_point start_;
  std::ofstream summary_;
  u32 done_ = 0, ran_ = 0, solved_ = 0;
  u64 candidates_ = 0;
};

// A campaign.jsonl naming problems the suite does not have was written for another suite.
bool check_same_suite(const std::map<std::string, Finished>& finished, const std::vector<suites::Problem>& problems,
                      const std::string& summary_path, const std::string& suite, std::ostream& err) {
  std::set<std::string> names;
  for (const suites::Problem& p : problems) names.insert(p.name);
  for (const auto& [name, f] : finished)
    if (!names.count(name)) {
      err << summary_path << ": lists problem '" << name << "', which " << suite
          << " does not have: this run directory belongs to another suite (choose another --out)\n";
      return false;
    }
  return true;
}

}  // namespace

int campaign_command(const std::vector<std::string>& args) {
  cluster::QueueOptions queue_options;
  queue_options.interrupted_exit_code = kExitInterrupted;
  std::unique_ptr<cluster::WorkQueue> queue;
  try {
    queue = cluster::make_work_queue(queue_options);  // MPI_Init when started by mpirun or srun
  } catch (const std::exception& e) {
    std::cerr << "gpusynth campaign: " << e.what() << "\n";
    return kExitUsage;
  }
  const bool distributed = queue->ranks() > 1;
  const bool coordinator = queue->coordinates();

  SearchOptions o;
  std::string suite, run_dir;
  records::SamplingPolicy sampling;
  po::options_description visible("Options");
  visible.add_options()
      ("help,h", "show this help")
      ("suite", po::value(&suite)->required(), "folder of problem files (*.json)")
      ("out,o", po::value(&run_dir)->required(), "run directory: records.h5, campaign.jsonl (created, or resumed)")
      ("record-every", po::value(&sampling.every)->default_value(sampling.every), "record every Nth candidate (0: none), besides improvements and solutions")
      ("record-budget", po::value(&sampling.byte_budget)->default_value(0), "bytes of records after which only improvements are recorded (0: no bound)")
      ("stop-grace", po::value(&queue_options.grace_seconds)->default_value(queue_options.grace_seconds), "distributed: seconds rank 0 waits for the other ranks after SIGTERM before aborting the job")
      ("prefetch", po::value(&queue_options.prefetch)->default_value(queue_options.prefetch), "distributed: problems a rank holds beyond the one it searches, so it never waits for rank 0 (0: ask when done)")
      ("serve-interval", po::value(&queue_options.serve_interval_seconds)->default_value(queue_options.serve_interval_seconds), "distributed: seconds rank 0 lets pass between answering the other ranks while it searches");
  visible.add(search_options(&o));
  po::variables_map vm;
  bool help = false;
  const std::string usage =
      "usage: gpusynth campaign --suite DIR --out RUN/ [search options]\n"
      "Searches every problem of a suite; records go to RUN/records.h5 (gpusynth trace summary RUN/),\n"
      "per-problem summaries to RUN/campaign.jsonl. Re-running with the same RUN/ skips finished problems.\n"
      "Under mpirun or srun the problems are shared among the ranks (docs/cluster.md).";
  {
    Mute mute(!coordinator);  // every rank parses the same arguments; rank 0 speaks for all
    if (!parse_command_line_and_config(args, visible, &vm, usage, &help)) return kExitUsage;
    if (help) return kExitOk;
    std::string error;
    if (!check_search_options(o, &error)) {
      std::cerr << "gpusynth campaign: " << error << "\n";
      return kExitUsage;
    }
    if (!(queue_options.grace_seconds > 0)) {
      std::cerr << "gpusynth campaign: --stop-grace must be more than 0 seconds\n";
      return kExitUsage;
    }
    if (!(queue_options.serve_interval_seconds >= 0 && queue_options.serve_interval_seconds <= 60)) {
      std::cerr << "gpusynth campaign: --serve-interval must be between 0 and 60 seconds\n";
      return kExitUsage;
    }
    if (queue_options.prefetch > 64) {
      std::cerr << "gpusynth campaign: --prefetch must be at most 64\n";
      return kExitUsage;
    }
  }
  queue->set_options(queue_options);

  // Every rank prepares — the suite, the run directory, the pipeline, its records file — and the
  // ranks agree before any searches: a rank that cannot start stops them all, with its reason.
  std::ostringstream messages;
  std::vector<suites::Problem> problems;
  std::map<std::string, Finished> finished;
  const std::string summary_path = (fs::path(run_dir) / "campaign.jsonl").string();
  std::unique_ptr<pipeline::Pipeline> pipeline;
  std::optional<records::Writer> writer;
  records::RunInfo info;
  bool ready = suites::load_suite(suite, &problems, messages);
  if (ready) {
    std::error_code ec;
    fs::create_directories(run_dir, ec);
    if (ec) {
      messages << run_dir << ": cannot create the run directory: " << ec.message() << "\n";
      ready = false;
    }
  }
  if (ready && coordinator) {
    finished = read_finished(summary_path);
    ready = check_same_suite(finished, problems, summary_path, suite, messages);
  }
  const std::string records_name = distributed ? records::records_file_name(queue->rank()) : records::records_file_name();
  if (ready) {
    try {
      pipeline::PipelineConfig config = pipeline_config(o);
      config.gpu = queue->node_rank();  // the ranks of a node spread over its GPUs
      pipeline = pipeline::make_pipeline(*pipeline::parse_device(o.device), config);
      info.seed = o.settings.seed;
      info.config_text = effective_config(vm);
      info.command_line = "gpusynth campaign";
      for (const std::string& a : args) info.command_line += " " + a;
      info.hosts = gs::host_name();
      info.devices = pipeline->name();
      writer = records::Writer::create_or_resume((fs::path(run_dir) / records_name).string(), info, sampling);
    } catch (const std::exception& e) {
      messages << "gpusynth campaign: " << e.what() << "\n";
      ready = false;
    }
  }
  const cluster::Agreement agreement = queue->agree(ready, ready ? suites::suite_fingerprint(problems) : 0);
  if (!agreement.ok()) {
    // Rank 0 speaks for a failure every rank shares; a rank that fails alone says why itself.
    if (!ready && (coordinator || agreement.coordinator_ready)) print_messages(messages.str(), *queue);
    if (coordinator && distributed && ready)
      say("gpusynth campaign: " + agreement.why + "; nothing was run\n");
    return kExitUsage;
  }

  int status = kExitOk;
  try {
    std::optional<Ledger> ledger;
    if (coordinator) {
      ledger.emplace(problems, finished, summary_path, o.quiet);
      std::ostringstream header;
      header << "gpusynth campaign: " << problems.size() << " problems from " << suite << " (" << ledger->done()
             << " already done), generator " << o.generator << ", budget " << o.search.budget.candidates
             << " candidates each, on the " << pipeline->name();
      if (distributed) header << ", " << queue->ranks() << " ranks";
      header << " -> " << run_dir << "\n";
      say(header.str());
      queue->start(ledger->unfinished(), [&](const cluster::ProblemResult& r) { ledger->record(r); });
    }
    while (std::optional<u32> index = queue->next()) {
      const suites::Problem& p = problems[*index];
      SearchOptions per_problem = o;
      per_problem.settings.seed = problem_seed(o.settings.seed, p.name);
      std::string error;
      std::unique_ptr<search::Generator> generator = make_generator(per_problem, p, &error);
      if (!generator) {
        // This generator cannot search this problem (an external generator's file went away
        // after the options were checked): the problem is done, unsearched, with the reason.
        Finished f{.name = p.name, .skipped = error};
        queue->finished({*index, queue->rank(), summary_line(f)});
        continue;
      }
      CampaignObserver observer(*writer, p, generator->kind(), *queue);
      const search::SearchOutcome r = search::run_search(p, *generator, *pipeline, o.search, &observer);
      if (r.stopped) break;  // unfinished: its records are flushed up to the last batch, and a re-run resumes it
      Finished f{p.name, r.solved, r.generalises, r.candidates, r.seconds, r.test_passed, r.test_cases, {}};
      queue->finished({*index, queue->rank(), summary_line(f)});
    }
    writer->close();
    const cluster::Ending ending = queue->finish();
    if (!coordinator) return ending.stopped ? kExitInterrupted : kExitOk;

    if (!ledger->complete()) {
      say("gpusynth campaign: stopped by SIGTERM with " + std::to_string(ledger->done()) + "/" +
          std::to_string(problems.size()) + " problems finished (" + summary_path +
          "); run the same command again to resume\n");
      return kExitInterrupted;
    }
    // The ranks' records become one RUN/records.h5: after a distributed run, and after a
    // one-process run that finished what a distributed one left.
    std::string joined;
    if (distributed || !records::rank_records_files(run_dir).empty()) {
      records::JoinReport join = records::join_records(run_dir, info);
      for (const std::string& w : join.warnings) say("gpusynth campaign: warning: " + w + "\n");
      joined = ", joined from " + std::to_string(join.sources) + " files";
    }
    print_table(ledger->rows());
    std::cout << "records: " << run_dir << "/" << records::records_file_name() << joined
              << " (gpusynth trace summary " << run_dir << ")\n";
    if (distributed) {
      // What coordinating cost rank 0 (docs/cluster.md "Coordinator cost"; bench/cluster_scaling.py reads this line).
      const cluster::QueueStats q = queue->stats();
      const double wall = ledger->elapsed();
      std::printf("coordinator: %llu messages in, %llu out, %llu polls, %.4f s serving = %.3f %% of %.2f s wall\n",
                  (unsigned long long)q.received, (unsigned long long)q.sent, (unsigned long long)q.serves,
                  q.serving_seconds, wall > 0 ? 100.0 * q.serving_seconds / wall : 0.0, wall);
    }
  } catch (const std::exception& e) {
    if (distributed) {
      // The other ranks may be waiting for this one: end the job (every rank's records are
      // flushed up to its last batch, so the run directory resumes).
      say("gpusynth campaign (" + queue->where() + "): " + e.what() + "\n");
      queue->abort(kExitUsage);
    }
    std::cerr << "gpusynth campaign: " << e.what() << "\n";
    status = kExitUsage;
  }
  return status;
}

}  // namespace gs::jobs
