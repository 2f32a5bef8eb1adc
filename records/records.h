// Records of a search run in HDF5 (docs/design.md "Records"; the layout is docs/trace-format.md):
// every candidate the search evaluated (or a sample of them), one row per iteration, and the
// solutions, per problem, in RUN/records.h5 — readable with h5py and no project code.
//
// One Writer per file and process, used from one thread. It touches the file only in
// flush(): rows wait in memory until then, so a process killed between flushes leaves the file
// exactly as the last flush did, and a reopened file resumes after its last flushed iteration.
// Errors are std::runtime_error whose message starts with the file's path.
#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pipeline/batch.h"
#include "search/generator_kind.h"

namespace gs::records {

// Which compiler turned its source into bytecode (paper §3-§5).
enum class CompilePath : u8 { TRADITIONAL, NEURAL, HYBRID };
const char* compile_path_name(CompilePath p);

inline constexpr i64 kNoParent = -1;

struct CandidateRecord {
  i64 id = 0;         // unique within the problem, assigned by the search; parents refer to it
  u32 iteration = 0;  // iterations are numbered from 0 and recorded in increasing order
  u32 index = 0;      // position within its iteration
  search::GeneratorKind generator = search::GeneratorKind::Random;  // who made it
  // Bytes, kept as they are, except that a NUL byte (which no Syn program can hold: the lexer
  // rejects it) is stored as U+FFFD, since HDF5 strings end at a NUL.
  std::string source;
  u32 bytecode_bytes = 0;
  u64 bytecode_hash = 0;  // pipeline::bytecode_hash (64-bit FNV-1a) of the container; 0 when there is none
  CompilePath compile_path = CompilePath::TRADITIONAL;
  pipeline::ProgramStatus status = pipeline::ProgramStatus::OK;
  u8 trap = pipeline::kNotRun;  // dominant_trap() over its tests
  u32 train_passed = 0;
  float reward = 0;
  i64 parents[2] = {kNoParent, kNoParent};
  u32 syntax_nodes = 0;  // the program's size: its syntax tree's nodes (0 when it did not compile)
  // Per train case, in order: the graded error of its outputs (0 on a pass, +inf on a trap or
  // when it did not run, pipeline/output_error.h), NaN when not judged (a probe, or a run that
  // did not grade). Empty reads as all NaN; the file holds one value per train case.
  std::vector<float> case_errors;
};

struct IterationRecord {
  u32 iteration = 0;
  u32 candidates_evaluated = 0;
  u32 candidates_recorded = 0;    // filled by the writer (the sampling policy's choice)
  u64 cumulative_candidates = 0;  // filled by the writer: evaluated in this and earlier iterations
  double elapsed_seconds = 0;     // filled by the writer: since the run began, at add_iteration
  // Wall seconds of each phase of the iteration.
  double generate_seconds = 0, compile_seconds = 0, execute_seconds = 0, score_seconds = 0,
         select_seconds = 0;
  float best_reward = 0;      // best so far in this problem
  u32 best_train_passed = 0;  // best so far in this problem
  bool solved = false;        // a candidate so far passed every train case
};

struct SolutionRecord {
  i64 candidate_id = 0;
  u32 iteration = 0;
  std::string source, simplified_source;
  u32 train_passed = 0, train_total = 0, test_passed = 0, test_total = 0;
  bool generalises = false;  // passed every test case too
};

struct ProblemInfo {
  std::string name;  // an HDF5 group name: not empty, no '/', not "." or ".."
  std::string signature;
  u32 train_cases = 0, test_cases = 0;
  std::string source_file;
  std::string policy;  // the search policy that guided the search, with its version; "" for none
};

struct RunInfo {
  u64 seed = 0;
  std::string config_text, command_line, hosts, devices;
};

// Which candidates are recorded (the iterations table is always complete): those whose id is a
// multiple of `every` (0: none of these), every candidate that raises the problem's best reward
// when `improvements`, and every candidate that passes all train cases. Once the file outgrows
// `byte_budget` bytes (0: no budget) only improvements and solutions are recorded, and the root
// attribute budget_note says when that happened.
struct SamplingPolicy {
  u32 every = 1;
  bool improvements = true;
  u64 byte_budget = 0;
};

// The attributes of the file's root group.
struct RunAttributes {
  u32 format_version = 0;
  std::string gpusynth_version, created, last_opened;
  u32 sessions = 0;  // times opened for writing
  RunInfo run;
  SamplingPolicy sampling;
  bool budget_exceeded = false;
  std::string budget_note;
};

inline constexpr u32 kTraceFormatVersion = 2;

// "records.h5", the run's records; or "records.rank-3.h5", what rank 3 of a distributed campaign
// wrote before campaigns recorded into per-problem shards (records/shards.h): a run directory of
// an earlier version may hold them, and the join reads them.
std::string records_file_name(std::optional<u32> rank = std::nullopt);
// The rank files (records.rank-K.h5) of a run directory, in rank order; empty when none.
std::vector<std::string> rank_records_files(const std::string& run_dir);
// What a reader of a run directory reads: its records.h5 (a finished campaign's, joined) or,
// when there is none, an earlier version's rank files; then the committed shards of a campaign
// still running or stopped (records/shards.h). Empty when there is none of these.
std::vector<std::string> records_files(const std::string& run_dir);
// Throws std::runtime_error when the run directory's records (the first of records_files) were
// written by another run than `run` would resume: another seed ("FILE: was written with seed S,
// not T; a resumed run must use the same seed"), or another value of an option of its config text
// ("name = value" lines) other than the `session_options` (those that say how a session runs,
// not what it searches: threads, say). Options only one of the two configs has are not compared
// (an option added by a later version).
void require_same_run(const std::string& run_dir, const RunInfo& run,
                      std::span<const std::string> session_options);

// The trap that stopped most of a program's tests (the lowest code on a tie), vm::Trap::NONE
// when none trapped, pipeline::kNotRun when the program never ran; traps is its per-test trap row.
u8 dominant_trap(std::span<const u8> traps);

class Writer {
 public:
  // Opens `path` for writing: creates it, or resumes a file written before (the same seed is
  // required). Resuming drops what the last flush left unfinished (rows of an iteration whose
  // iterations row is missing, columns longer than their table); rows of iterations already
  // recorded are then ignored when added again, so a run restarted from a checkpoint adds
  // nothing twice.
  static Writer create_or_resume(const std::string& path, const RunInfo& run, const SamplingPolicy& policy);
  Writer(Writer&&) noexcept;
  Writer& operator=(Writer&&) noexcept;
  ~Writer();  // flushes and closes; an error is printed to stderr (call close() to see it)

  // The problem the next rows belong to: created, or reopened when the file has it (then the
  // signature and case counts must match). Problems may be switched back and forth.
  void begin_problem(const ProblemInfo& problem);
  // The last iteration recorded for the current problem (flushed or not), if any.
  std::optional<u32> last_iteration() const;

  // The candidates of an iteration (all of them, in any number of calls before its
  // add_iteration); the sampling policy picks those that are written. A candidate's
  // case_errors must be empty or hold one value per train case (else std::invalid_argument).
  void add_candidates(std::span<const CandidateRecord> candidates);
  void add_iteration(const IterationRecord& iteration);  // ends the iteration
  void add_solution(const SolutionRecord& solution);

  // Writes every waiting row and flushes the file: what was flushed survives a crash. Each flush
  // costs most of a millisecond and a few KB of file (docs/trace-format.md): SearchRecords flushes
  // once a second at most.
  void flush();
  void close();  // flush() and close the file; the writer is then empty
  // Closes the file without writing what waits, ignoring errors: for a file about to be removed
  // (a shard discarded after a failed write, say, when a flush could only fail again).
  void abandon() noexcept;

  const std::string& path() const;

 private:
  struct Impl;
  explicit Writer(std::unique_ptr<Impl> impl);
  Impl& live() const;  // throws std::logic_error after close()
  std::unique_ptr<Impl> impl_;
};

class Reader {
 public:
  // Opens a records file; throws std::runtime_error "PATH: why" when it cannot be read as one.
  // A file cut short by a crash still opens: what is missing or inconsistent is in warnings().
  static Reader open(const std::string& path);
  Reader(Reader&&) noexcept;
  Reader& operator=(Reader&&) noexcept;
  ~Reader();

  const std::string& path() const;
  const RunAttributes& attributes() const;
  const std::vector<ProblemInfo>& problems() const;  // in name order

  // A problem's rows (the longest prefix every column of the table has). Throws when the
  // problem is not in the file.
  u64 candidate_count(const std::string& problem) const;
  std::vector<CandidateRecord> candidates(const std::string& problem, u64 first = 0,
                                          u64 count = std::numeric_limits<u64>::max()) const;
  std::vector<IterationRecord> iterations(const std::string& problem) const;
  std::vector<SolutionRecord> solutions(const std::string& problem) const;

  // "PATH: problem P: ..." for each thing missing or truncated, found on open.
  const std::vector<std::string>& warnings() const;

 private:
  struct Impl;
  explicit Reader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gs::records
