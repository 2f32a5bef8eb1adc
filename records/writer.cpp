// Writer: rows wait in memory and reach the file only in flush(), each table's columns
// first and the iterations row last, so an iterations row is the commit mark of its iteration:
// on resume, rows of iterations without one are dropped (docs/trace-format.md "After a crash").
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "records/layout.h"
#include "records/records.h"

#ifndef GPUSYNTH_VERSION
#define GPUSYNTH_VERSION "unknown"
#endif

namespace gs::records {

namespace {

std::string iso_time_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// HDF5 strings end at a NUL byte; no Syn program holds one (the lexer rejects it), so a source
// that does is kept readable, with U+FFFD in its place, rather than cut short.
std::string without_nul(std::string text) {
  for (size_t at = text.find('\0'); at != std::string::npos; at = text.find('\0', at + 3))
    text.replace(at, 1, "\xEF\xBF\xBD");
  return text;
}

struct ProblemState {
  ProblemInfo info;
  bool in_file = false;  // its group and tables exist in the file
  // Rows waiting for the next flush.
  std::vector<CandidateRecord> candidates;
  std::vector<IterationRecord> iterations;
  std::vector<SolutionRecord> solutions;
  std::optional<u32> last_iteration;  // recorded, flushed or not
  float best_reward = -std::numeric_limits<float>::infinity();
  u64 cumulative_candidates = 0;
  std::map<u32, u32> recorded;  // candidates recorded per iteration not yet ended
  std::set<i64> solution_ids;
};

}  // namespace

struct Writer::Impl {
  std::string path;
  h5::Handle file;
  SamplingPolicy policy;
  bool budget_exceeded = false;
  std::map<std::string, ProblemState> problems;
  ProblemState* current = nullptr;
  double elapsed_before = 0;  // seconds recorded by earlier sessions
  std::chrono::steady_clock::time_point opened = std::chrono::steady_clock::now();

  [[noreturn]] void fail(const std::string& why) const { throw std::runtime_error(path + ": " + why); }

  double elapsed() const {
    return elapsed_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - opened).count();
  }

  void create(const RunInfo& run);
  void resume(const RunInfo& run);
  void write_session_attributes();
  void load_problem(hid_t problems_group, const std::string& name);
  void create_problem(ProblemState& p);
  void flush_problem(ProblemState& p);
  void flush();
  void check_budget();
  ProblemState& current_problem() {
    if (current == nullptr) fail("rows added before begin_problem()");
    return *current;
  }
};

namespace {

// The 1.8 object format (superblock version 2): large attributes (a long config), and none of
// the 1.10 superblock's status flags, which stay set after a crash (SWMR needs them) so that
// the file cannot be reopened for writing without h5clear. The upper bound 1.10 admits the one
// 1.10 feature used, the file-space strategy set in create().
h5::Handle file_access(const std::string& path) {
  h5::Handle fapl(h5::check(H5Pcreate(H5P_FILE_ACCESS), path, "cannot make a property list"));
  h5::check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V110), path,
            "cannot choose the file format");
  return fapl;
}

}  // namespace

void Writer::Impl::create(const RunInfo& run) {
  h5::Handle fapl = file_access(path);
  // Freed space is never reused: a chunk a flush rewrites goes to new space, so the copy that the
  // file's last flushed metadata points to stays intact if the process dies mid-flush. The cost
  // is the old copies, a few KB per flush (docs/trace-format.md).
  h5::Handle fcpl(h5::check(H5Pcreate(H5P_FILE_CREATE), path, "cannot make a property list"));
  h5::check(H5Pset_file_space_strategy(fcpl.get(), H5F_FSPACE_STRATEGY_NONE, false, 1), path,
            "cannot set the space strategy");
  file = h5::Handle(
      h5::check(H5Fcreate(path.c_str(), H5F_ACC_EXCL, fcpl.get(), fapl.get()), path, "cannot create"));
  hid_t root = file.get();
  h5::write_attribute(root, "format", std::string("gpusynth-records"), path);
  h5::write_attribute(root, "format_version", u64(kTraceFormatVersion), path);
  h5::write_attribute(root, "gpusynth_version", std::string(GPUSYNTH_VERSION), path);
  h5::write_attribute(root, "created", iso_time_now(), path);
  h5::write_attribute(root, "seed", run.seed, path);
  h5::write_attribute(root, "config", run.config_text, path);
  h5::write_attribute(root, "command_line", run.command_line, path);
  h5::write_attribute(root, "hosts", run.hosts, path);
  h5::write_attribute(root, "devices", run.devices, path);
  h5::write_attribute(root, "sessions", u64(0), path);
  h5::write_attribute(root, "budget_exceeded", u64(0), path);
  h5::write_attribute(root, "budget_note", std::string(), path);
  h5::create_group(root, "problems", path);
  write_session_attributes();
}

void Writer::Impl::resume(const RunInfo& run) {
  h5::Handle fapl = file_access(path);
  file = h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl.get()));
  if (!file.valid()) fail("cannot open for appending: " + h5::last_error());
  hid_t root = file.get();
  if (h5::read_string_attribute(root, "format") != "gpusynth-records" || !h5::exists(root, "problems"))
    fail("exists and is not a gpusynth records file; not overwriting it");
  u64 version = h5::read_integer_attribute(root, "format_version").value_or(0);
  if (version != kTraceFormatVersion)
    fail("records format " + std::to_string(version) + ", this gpusynth appends to format " +
         std::to_string(kTraceFormatVersion) + " only" +
         (version < kTraceFormatVersion ? " (the file stays readable: give this run another --out)" : ""));
  u64 seed = h5::read_integer_attribute(root, "seed").value_or(0);
  if (seed != run.seed)
    fail("was written with seed " + std::to_string(seed) + ", not " + std::to_string(run.seed) +
         "; a resumed run must use the same seed");
  elapsed_before = h5::read_f64_attribute(root, "elapsed_seconds").value_or(0);
  h5::Handle group = h5::open_group(root, "problems", path);
  for (const std::string& name : h5::members(group.get(), path)) load_problem(group.get(), name);
  write_session_attributes();
}

// Attributes each session (re)writes: its sampling policy and when it began.
void Writer::Impl::write_session_attributes() {
  hid_t root = file.get();
  u64 sessions = h5::read_integer_attribute(root, "sessions").value_or(0);
  h5::write_attribute(root, "sessions", sessions + 1, path);
  h5::write_attribute(root, "last_opened", iso_time_now(), path);
  h5::write_f64_attribute(root, "elapsed_seconds", elapsed_before, path);
  h5::write_attribute(root, "sampling_every", u64(policy.every), path);
  h5::write_attribute(root, "sampling_improvements", u64(policy.improvements), path);
  h5::write_attribute(root, "byte_budget", policy.byte_budget, path);
  check_budget();
  h5::check(H5Fflush(root, H5F_SCOPE_GLOBAL), path, "cannot flush");
}

// An existing problem: its state, and its tables cut back to the iterations that were committed.
void Writer::Impl::load_problem(hid_t problems_group, const std::string& name) {
  h5::Handle g = h5::open_group(problems_group, name, path);
  ProblemState p;
  p.in_file = true;
  p.info.name = h5::read_string_attribute(g.get(), "name").value_or(name);
  p.info.signature = h5::read_string_attribute(g.get(), "signature").value_or("");
  p.info.train_cases = u32(h5::read_integer_attribute(g.get(), "train_cases").value_or(0));
  p.info.test_cases = u32(h5::read_integer_attribute(g.get(), "test_cases").value_or(0));
  p.info.source_file = h5::read_string_attribute(g.get(), "source_file").value_or("");
  p.info.policy = h5::read_string_attribute(g.get(), "policy").value_or("");
  std::vector<std::string> damage;
  bool tables = h5::exists(g.get(), layout::kCandidates) && h5::exists(g.get(), layout::kIterations) &&
                h5::exists(g.get(), layout::kSolutions);
  if (!tables) damage.push_back("a table is missing");
  h5::Handle it, ca, so;
  layout::TableRows it_rows, ca_rows, so_rows;
  if (tables) {
    it = h5::open_group(g.get(), layout::kIterations, path);
    ca = h5::open_group(g.get(), layout::kCandidates, path);
    so = h5::open_group(g.get(), layout::kSolutions, path);
    it_rows = layout::table_rows(it.get(), layout::iteration_columns(), path, &damage);
    ca_rows = layout::table_rows(ca.get(), layout::candidate_columns(), path, &damage);
    so_rows = layout::table_rows(so.get(), layout::solution_columns(), path, &damage);
  }
  if (!damage.empty()) {
    // Only a flush cut short while it created the problem leaves it so: nothing was committed.
    if (tables && it_rows.common > 0)
      fail("problem " + name + " is damaged (" + damage[0] + ") after iterations were recorded");
    h5::check(H5Ldelete(problems_group, name.c_str(), H5P_DEFAULT), path,
              "cannot remove the unfinished problem " + name);
    p.in_file = false;
    problems[p.info.name] = std::move(p);
    return;
  }
  u64 keep_candidates = 0, keep_solutions = 0;
  if (it_rows.common > 0) {
    IterationRecord last =
        layout::read_rows(it.get(), layout::iteration_columns(), it_rows.common - 1, 1, path)[0];
    p.last_iteration = last.iteration;
    p.cumulative_candidates = last.cumulative_candidates;
    p.best_reward = last.best_reward;
    // The candidates of the recorded iterations, and no more than those iterations say they
    // recorded: rows of zeros past them (a flush cut short, an extent past the written chunks)
    // are not candidates.
    u64 recorded = 0;
    for (u32 n : layout::read_u32_column(it.get(), "candidates_recorded", it_rows.common, path))
      recorded += n;
    std::vector<u32> iteration =
        layout::read_u32_column(ca.get(), "iteration", std::min(ca_rows.common, recorded), path);
    while (keep_candidates < iteration.size() && iteration[keep_candidates] <= last.iteration)
      ++keep_candidates;
    for (float r : layout::read_f32_column(ca.get(), "reward", keep_candidates, path))
      if (r > p.best_reward) p.best_reward = r;
    iteration = layout::read_u32_column(so.get(), "iteration", so_rows.common, path);
    while (keep_solutions < iteration.size() && iteration[keep_solutions] <= last.iteration) ++keep_solutions;
    for (i64 id : layout::read_i64_column(so.get(), "candidate_id", keep_solutions, path))
      p.solution_ids.insert(id);
  }
  layout::truncate_table(it.get(), layout::iteration_columns(), it_rows.common, path);
  layout::truncate_table(ca.get(), layout::candidate_columns(), keep_candidates, path);
  layout::add_missing_columns(ca.get(), layout::candidate_columns(), layout::kCandidateChunkRows,
                              p.info.train_cases, keep_candidates, path);
  layout::truncate_table(so.get(), layout::solution_columns(), keep_solutions, path);
  problems[p.info.name] = std::move(p);
}

void Writer::Impl::create_problem(ProblemState& p) {
  h5::Handle problems_group = h5::open_group(file.get(), "problems", path);
  h5::Handle g = h5::create_group(problems_group.get(), p.info.name, path);
  h5::write_attribute(g.get(), "name", p.info.name, path);
  h5::write_attribute(g.get(), "signature", p.info.signature, path);
  h5::write_attribute(g.get(), "train_cases", u64(p.info.train_cases), path);
  h5::write_attribute(g.get(), "test_cases", u64(p.info.test_cases), path);
  h5::write_attribute(g.get(), "source_file", p.info.source_file, path);
  if (!p.info.policy.empty()) h5::write_attribute(g.get(), "policy", p.info.policy, path);
  const u32 cases = p.info.train_cases;
  layout::create_table(g.get(), layout::kCandidates, layout::candidate_columns(), layout::kCandidateChunkRows,
                       cases, path);
  layout::create_table(g.get(), layout::kIterations, layout::iteration_columns(), layout::kIterationChunkRows,
                       cases, path);
  layout::create_table(g.get(), layout::kSolutions, layout::solution_columns(), layout::kSolutionChunkRows,
                       cases, path);
  p.in_file = true;
}

void Writer::Impl::flush_problem(ProblemState& p) {
  if (!p.in_file) create_problem(p);
  if (p.candidates.empty() && p.iterations.empty() && p.solutions.empty()) return;
  h5::Handle g = h5::open_group(h5::open_group(file.get(), "problems", path).get(), p.info.name, path);
  // The iterations rows last: they commit what comes before them.
  h5::Handle ca = h5::open_group(g.get(), layout::kCandidates, path);
  layout::append_rows<CandidateRecord>(ca.get(), layout::candidate_columns(), p.candidates, path);
  h5::Handle so = h5::open_group(g.get(), layout::kSolutions, path);
  layout::append_rows<SolutionRecord>(so.get(), layout::solution_columns(), p.solutions, path);
  h5::Handle it = h5::open_group(g.get(), layout::kIterations, path);
  layout::append_rows<IterationRecord>(it.get(), layout::iteration_columns(), p.iterations, path);
  p.candidates.clear();
  p.iterations.clear();
  p.solutions.clear();
}

void Writer::Impl::flush() {
  for (auto& [name, p] : problems) flush_problem(p);
  h5::write_f64_attribute(file.get(), "elapsed_seconds", elapsed(), path);
  h5::check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), path, "cannot flush");
  check_budget();
}

// Past the byte budget only improvements and solutions are recorded; the note says from when.
void Writer::Impl::check_budget() {
  if (budget_exceeded || policy.byte_budget == 0) return;
  hsize_t size = 0;
  h5::check(H5Fget_filesize(file.get(), &size), path, "cannot read the file size");
  if (size <= policy.byte_budget) return;
  budget_exceeded = true;
  std::string where;
  if (current != nullptr && current->last_iteration)
    where =
        " after iteration " + std::to_string(*current->last_iteration) + " of problem " + current->info.name;
  std::string note = "byte budget " + std::to_string(policy.byte_budget) + " exceeded (" +
                     std::to_string(size) + " bytes)" + where + " at " + iso_time_now() +
                     "; since then only improvements and solutions are recorded";
  h5::write_attribute(file.get(), "budget_exceeded", u64(1), path);
  h5::write_attribute(file.get(), "budget_note", note, path);
  h5::check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), path, "cannot flush");
}

Writer Writer::create_or_resume(const std::string& path, const RunInfo& run, const SamplingPolicy& policy) {
  h5::initialize();
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->policy = policy;
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (std::filesystem::exists(path, ec)) {
    if (h5::is_hdf5(path) <= 0) {
      h5::last_error();
      impl->fail("exists and is not an HDF5 file; not overwriting it");
    }
    impl->resume(run);
  } else {
    impl->create(run);
  }
  return Writer(std::move(impl));
}

Writer::Impl& Writer::live() const {
  if (!impl_) throw std::logic_error("Writer used after close()");
  return *impl_;
}

Writer::Writer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&& o) noexcept {
  if (this != &o) {
    try {
      close();
    } catch (const std::exception& e) {
      std::cerr << e.what() << "\n";
    }
    impl_ = std::move(o.impl_);
  }
  return *this;
}

Writer::~Writer() {
  try {
    close();
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
  }
}

void Writer::begin_problem(const ProblemInfo& problem) {
  Impl& w = live();
  const std::string& name = problem.name;
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
    w.fail("problem name '" + name + "' cannot name an HDF5 group (empty, '.', '..' or holding '/')");
  auto [it, added] = w.problems.try_emplace(name);
  ProblemState& p = it->second;
  if (added) {
    p.info = problem;
  } else if (p.info.signature != problem.signature || p.info.train_cases != problem.train_cases ||
             p.info.test_cases != problem.test_cases) {
    w.fail("problem " + name + " was recorded as '" + p.info.signature + "' with " +
           std::to_string(p.info.train_cases) + " train and " + std::to_string(p.info.test_cases) +
           " test cases, not '" + problem.signature + "' with " + std::to_string(problem.train_cases) +
           " and " + std::to_string(problem.test_cases));
  }
  w.current = &p;
}

std::optional<u32> Writer::last_iteration() const { return live().current_problem().last_iteration; }

void Writer::add_candidates(std::span<const CandidateRecord> candidates) {
  Impl& w = live();
  ProblemState& p = w.current_problem();
  const SamplingPolicy& policy = w.policy;
  for (const CandidateRecord& c : candidates) {
    if (!c.case_errors.empty() && c.case_errors.size() != p.info.train_cases)
      throw std::invalid_argument(w.path + ": candidate " + std::to_string(c.id) + " has " +
                                  std::to_string(c.case_errors.size()) +
                                  " per-case errors, not one for each of the " +
                                  std::to_string(p.info.train_cases) + " train cases of " + p.info.name);
    if (p.last_iteration && c.iteration <= *p.last_iteration) continue;  // recorded before a resume
    bool improves = c.reward > p.best_reward;
    if (improves) p.best_reward = c.reward;
    bool solution = c.status == pipeline::ProgramStatus::OK && c.train_passed >= p.info.train_cases;
    bool sampled = !w.budget_exceeded && policy.every > 0 && u64(c.id) % policy.every == 0;
    bool wanted_improvement = improves && (policy.improvements || w.budget_exceeded);
    if (!(sampled || solution || wanted_improvement)) continue;
    p.candidates.push_back(c);
    p.candidates.back().source = without_nul(std::move(p.candidates.back().source));
    p.recorded[c.iteration]++;
  }
}

void Writer::add_iteration(const IterationRecord& iteration) {
  Impl& w = live();
  ProblemState& p = w.current_problem();
  if (p.last_iteration && iteration.iteration <= *p.last_iteration) return;  // recorded before a resume
  IterationRecord row = iteration;
  row.candidates_recorded = p.recorded[row.iteration];
  p.recorded.erase(p.recorded.begin(), p.recorded.upper_bound(row.iteration));
  p.cumulative_candidates += row.candidates_evaluated;
  row.cumulative_candidates = p.cumulative_candidates;
  row.elapsed_seconds = w.elapsed();
  p.iterations.push_back(row);
  p.last_iteration = row.iteration;
}

void Writer::add_solution(const SolutionRecord& solution) {
  Impl& w = live();
  ProblemState& p = w.current_problem();
  if (!p.solution_ids.insert(solution.candidate_id).second) return;  // recorded already
  SolutionRecord row = solution;
  row.source = without_nul(std::move(row.source));
  row.simplified_source = without_nul(std::move(row.simplified_source));
  p.solutions.push_back(std::move(row));
}

void Writer::flush() { live().flush(); }

void Writer::close() {
  if (!impl_) return;
  std::unique_ptr<Impl> impl = std::move(impl_);
  impl->flush();
  impl->problems.clear();
  h5::check(H5Fclose(impl->file.release()), impl->path, "cannot close");
}

void Writer::abandon() noexcept {
  if (!impl_) return;
  std::unique_ptr<Impl> impl = std::move(impl_);
  impl->problems.clear();
  H5Fclose(impl->file.release());
  h5::last_error();  // (clears what a failed close left)
}

const std::string& Writer::path() const {
  static const std::string closed;
  return impl_ ? impl_->path : closed;
}

}  // namespace gs::records
