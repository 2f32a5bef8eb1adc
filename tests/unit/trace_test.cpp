// The HDF5 records of a run (records/records.h, docs/trace-format.md): every field round trips, the
// sampling policy and byte budget, resuming without duplicates, a writer killed mid-run, damaged
// files, `gpusynth trace`, and the file read by h5py and scripts/plot_trace.py without project
// code (skipped, with the reason, where python3 has no h5py or matplotlib).
#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "base/rng.h"
#include "jobs/command.h"
#include "records/join.h"
#include "records/records.h"
#include "records/search_records.h"
#include "records/shards.h"
#include "tests/unit/command_outcome.h"
#include "vm/trap.h"

namespace gs {
namespace {

namespace fs = std::filesystem;
using records::CandidateRecord;
using records::IterationRecord;
using records::Reader;
using records::SolutionRecord;
using records::Writer;

const records::ProblemInfo kProblem{"count-odds",
                                    "fn solve(xs: [int]) -> int",
                                    6,
                                    2,
                                    "problems/count-odds.json",
                                    "policy.pt (step 3, 9 keys)"};
const records::RunInfo kRun{42, "[search]\npopulation = 64\n# naïve\n", "gpusynth search --seed 42", "node1",
                            "cpu"};

// The directories this process made, removed when it exits normally.
struct TempDirs {
  std::vector<fs::path> made;
  ~TempDirs() {
    std::error_code ec;
    for (const fs::path& d : made) fs::remove_all(d, ec);
  }
} temp_dirs;

// A fresh, empty directory for one test (the pid keeps two builds' runs of it apart).
std::string fresh_dir(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("trace_test_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  temp_dirs.made.push_back(dir);
  return dir.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

records::CandidateRecord candidate(i64 id, u32 iteration, u32 index, float reward, u32 passed = 0) {
  records::CandidateRecord c;
  c.id = id;
  c.iteration = iteration;
  c.index = index;
  c.source = "fn solve(xs: [int]) -> int { return " + std::to_string(id) + "; }";
  c.bytecode_bytes = 100 + u32(id);
  c.bytecode_hash =
      pipeline::bytecode_hash(reinterpret_cast<const u8*>(c.source.data()), u32(c.source.size()));
  c.trap = u8(vm::Trap::NONE);
  c.train_passed = passed;
  c.reward = reward;
  return c;
}

records::IterationRecord iteration_row(u32 iteration, u32 evaluated, float best, bool solved = false) {
  records::IterationRecord r;
  r.iteration = iteration;
  r.candidates_evaluated = evaluated;
  r.generate_seconds = 0.001 * (iteration + 1);
  r.compile_seconds = 0.002;
  r.execute_seconds = 0.003;
  r.score_seconds = 0.0004;
  r.select_seconds = 0.0005;
  r.best_reward = best;
  r.best_train_passed = solved ? kProblem.train_cases : 3;
  r.solved = solved;
  return r;
}

// A deterministic run of `iterations` iterations of `per_iteration` candidates (rewards drawn
// from a seeded Rng: the same on every replay), flushed after each; a solution at iteration 2.
void write_run(records::Writer& w, u32 first_iteration, u32 iterations, u32 per_iteration) {
  w.begin_problem(kProblem);
  for (u32 it = first_iteration; it < first_iteration + iterations; ++it) {
    Rng rng(7, it);
    std::vector<records::CandidateRecord> batch;
    for (u32 k = 0; k < per_iteration; ++k) {
      i64 id = i64(it) * per_iteration + k;
      u32 passed = it == 2 && k == 0 ? kProblem.train_cases : u32(rng.next_u32() % kProblem.train_cases);
      float reward = passed == kProblem.train_cases ? 10.5f : float(rng.next_u32() % 1000) / 1000.0f;
      batch.push_back(candidate(id, it, k, reward, passed));
    }
    w.add_candidates(batch);
    w.add_iteration(iteration_row(it, per_iteration, 1.0f, it >= 2));
    if (it == 2) {
      records::SolutionRecord s;
      s.candidate_id = i64(it) * per_iteration;
      s.iteration = it;
      s.source = batch[0].source;
      s.simplified_source = "fn solve(xs: [int]) -> int { return 0; }";
      s.train_passed = s.train_total = kProblem.train_cases;
      s.test_total = kProblem.test_cases;
      s.test_passed = 1;
      w.add_solution(s);
    }
    w.flush();
  }
}

TEST(Trace, EveryFieldRoundTrips) {
  std::string path = fresh_dir("roundtrip") + "/" + records::records_file_name();
  std::vector<records::CandidateRecord> in;
  for (u32 k = 0; k < 12; ++k) {
    records::CandidateRecord c = candidate(1000 + k, 0, k, -1.5f + float(k), k % 7);
    c.generator = search::GeneratorKind(k % 4);
    c.compile_path = records::CompilePath(k % 3);
    c.status = pipeline::ProgramStatus(k % pipeline::kProgramStatusCount);
    c.trap = k == 11 ? pipeline::kNotRun : u8(k % vm::kTrapCount);
    c.bytecode_hash = ~u64(k);  // all 64 bits
    c.parents[0] = k == 0 ? records::kNoParent : i64(1000 + k - 1);
    c.parents[1] = k < 2 ? records::kNoParent : i64(1000 + k - 2);
    c.syntax_nodes = 7 * k;
    if (k > 0)  // k == 0: none given, read back as NaN (not judged)
      c.case_errors = {0.f,
                       float(k),
                       0.5f,
                       std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::quiet_NaN(),
                       1e30f};
    in.push_back(c);
  }
  in[1].source = "";                                                       // empty
  in[2].source = "s = \"\xff\xfe\x01\x7f\"; // caf\xc3\xa9 \xe2\x88\x80";  // bytes, not all UTF-8
  in[3].source = std::string("a\0b", 3);                                   // a NUL: kept readable, as U+FFFD
  records::SolutionRecord sol;
  sol.candidate_id = 1005;
  sol.iteration = 0;
  sol.source = in[2].source;
  sol.simplified_source = "";
  sol.train_passed = 6, sol.train_total = 6, sol.test_passed = 1, sol.test_total = 2;
  sol.generalises = false;
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    w.begin_problem(kProblem);
    EXPECT_FALSE(w.last_iteration());
    w.add_candidates(in);
    w.add_solution(sol);
    w.add_iteration(iteration_row(0, 12, 10.5f, true));
    EXPECT_EQ(w.last_iteration(), 0u);
    w.close();
  }
  records::Reader r = Reader::open(path);
  EXPECT_TRUE(r.warnings().empty()) << r.warnings()[0];
  const records::RunAttributes& a = r.attributes();
  EXPECT_EQ(a.format_version, records::kTraceFormatVersion);
  EXPECT_EQ(a.run.seed, kRun.seed);
  EXPECT_EQ(a.run.config_text, kRun.config_text);
  EXPECT_EQ(a.run.command_line, kRun.command_line);
  EXPECT_EQ(a.run.hosts, "node1");
  EXPECT_EQ(a.run.devices, "cpu");
  EXPECT_EQ(a.sessions, 1u);
  EXPECT_EQ(a.created.size(), 20u) << a.created;  // 2025-01-02T03:04:05Z
  EXPECT_FALSE(a.gpusynth_version.empty());
  EXPECT_EQ(a.sampling.every, 1u);
  EXPECT_FALSE(a.budget_exceeded);
  ASSERT_EQ(r.problems().size(), 1u);
  const records::ProblemInfo& p = r.problems()[0];
  EXPECT_EQ(p.name, kProblem.name);
  EXPECT_EQ(p.signature, kProblem.signature);
  EXPECT_EQ(p.train_cases, 6u);
  EXPECT_EQ(p.test_cases, 2u);
  EXPECT_EQ(p.source_file, kProblem.source_file);
  EXPECT_EQ(p.policy, kProblem.policy);

  ASSERT_EQ(r.candidate_count(kProblem.name), in.size());
  std::vector<records::CandidateRecord> out = r.candidates(kProblem.name);
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(out[i].id, in[i].id);
    EXPECT_EQ(out[i].iteration, in[i].iteration);
    EXPECT_EQ(out[i].index, in[i].index);
    EXPECT_EQ(out[i].generator, in[i].generator);
    EXPECT_EQ(out[i].source, i == 3 ? std::string("a\xEF\xBF\xBD"
                                                  "b")
                                    : in[i].source);
    EXPECT_EQ(out[i].bytecode_bytes, in[i].bytecode_bytes);
    EXPECT_EQ(out[i].bytecode_hash, in[i].bytecode_hash);
    EXPECT_EQ(out[i].compile_path, in[i].compile_path);
    EXPECT_EQ(out[i].status, in[i].status);
    EXPECT_EQ(out[i].trap, in[i].trap);
    EXPECT_EQ(out[i].train_passed, in[i].train_passed);
    EXPECT_EQ(out[i].reward, in[i].reward);
    EXPECT_EQ(out[i].parents[0], in[i].parents[0]);
    EXPECT_EQ(out[i].parents[1], in[i].parents[1]);
    EXPECT_EQ(out[i].syntax_nodes, in[i].syntax_nodes);
    ASSERT_EQ(out[i].case_errors.size(), kProblem.train_cases);
    for (u32 k = 0; k < kProblem.train_cases; ++k) {
      const float want = i == 0 ? std::numeric_limits<float>::quiet_NaN() : in[i].case_errors[k];
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(out[i].case_errors[k])) << k;
      else
        EXPECT_EQ(out[i].case_errors[k], want) << k;
    }
  }
  std::vector<records::CandidateRecord> part = r.candidates(kProblem.name, 10, 100);  // clipped to the rows
  ASSERT_EQ(part.size(), 2u);
  EXPECT_EQ(part[1].id, 1011);

  std::vector<records::IterationRecord> its = r.iterations(kProblem.name);
  ASSERT_EQ(its.size(), 1u);
  records::IterationRecord want = iteration_row(0, 12, 10.5f, true);
  EXPECT_EQ(its[0].iteration, 0u);
  EXPECT_EQ(its[0].candidates_evaluated, 12u);
  EXPECT_EQ(its[0].candidates_recorded, 12u);
  EXPECT_EQ(its[0].cumulative_candidates, 12u);
  EXPECT_GE(its[0].elapsed_seconds, 0.0);
  EXPECT_EQ(its[0].generate_seconds, want.generate_seconds);
  EXPECT_EQ(its[0].compile_seconds, want.compile_seconds);
  EXPECT_EQ(its[0].execute_seconds, want.execute_seconds);
  EXPECT_EQ(its[0].score_seconds, want.score_seconds);
  EXPECT_EQ(its[0].select_seconds, want.select_seconds);
  EXPECT_EQ(its[0].best_reward, 10.5f);
  EXPECT_EQ(its[0].best_train_passed, 6u);
  EXPECT_TRUE(its[0].solved);

  std::vector<records::SolutionRecord> sols = r.solutions(kProblem.name);
  ASSERT_EQ(sols.size(), 1u);
  EXPECT_EQ(sols[0].candidate_id, 1005);
  EXPECT_EQ(sols[0].source, in[2].source);
  EXPECT_EQ(sols[0].simplified_source, "");
  EXPECT_EQ(sols[0].train_passed, 6u);
  EXPECT_EQ(sols[0].train_total, 6u);
  EXPECT_EQ(sols[0].test_passed, 1u);
  EXPECT_EQ(sols[0].test_total, 2u);
  EXPECT_FALSE(sols[0].generalises);
  EXPECT_THROW(r.candidates("no-such-problem"), std::runtime_error);
}

TEST(Trace, HelpersAndNames) {
  EXPECT_EQ(records::records_file_name(), "records.h5");
  EXPECT_EQ(records::records_file_name(3u), "records.rank-3.h5");
  EXPECT_EQ(pipeline::bytecode_hash(nullptr, 0), 0xcbf29ce484222325ull);
  const u8 a[] = {'a'};
  EXPECT_EQ(pipeline::bytecode_hash(a, 1), 0xaf63dc4c8601ec8cull);  // the published FNV-1a 64 test vector
  const u8 t1[] = {0, 4, 4, 1, 1, 0};
  EXPECT_EQ(records::dominant_trap(t1), u8(vm::Trap::DIVISION_BY_ZERO));  // ties: the lowest code
  const u8 t2[] = {0, 0, 0};
  EXPECT_EQ(records::dominant_trap(t2), u8(vm::Trap::NONE));
  const u8 t3[] = {pipeline::kNotRun, pipeline::kNotRun};
  EXPECT_EQ(records::dominant_trap(t3), pipeline::kNotRun);
  std::string dir = fresh_dir("names");
  std::ofstream(dir + "/records.rank-1.h5") << "x";
  std::ofstream(dir + "/other.h5") << "x";
  std::vector<std::string> files = records::records_files(dir);  // no records.h5: the rank files
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::path(files[0]).filename(), "records.rank-1.h5");
  std::ofstream(dir + "/records.h5") << "x";
  files = records::records_files(dir);  // the joined file, when there is one
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::path(files[0]).filename(), "records.h5");
  EXPECT_TRUE(records::records_files(dir + "/none").empty());
}

TEST(Trace, SamplingEveryNPlusImprovementsAndSolutions) {
  std::string path = fresh_dir("sampling") + "/records.h5";
  // Rewards of ids 0..19: improvements at ids 0, 1, 5, 13 (strictly above every earlier one).
  const float rewards[20] = {0.1f, 0.2f, 0.2f, 0.1f, 0.0f, 0.5f, 0.5f, 0.4f, 0.3f, 0.2f,
                             0.1f, 0.0f, 0.5f, 0.9f, 0.1f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {.every = 4, .improvements = true});
    w.begin_problem(kProblem);
    for (u32 it = 0; it < 2; ++it) {
      std::vector<records::CandidateRecord> batch;
      for (u32 k = 0; k < 10; ++k) {
        i64 id = i64(it) * 10 + k;
        batch.push_back(candidate(id, it, k, rewards[id], id == 18 ? 6 : 0));  // 18 passes every train case
      }
      batch[9].status =
          pipeline::ProgramStatus::COMPILE_ERROR;  // a failure is not a solution, whatever it passed
      batch[9].train_passed = 6;
      w.add_candidates(std::span(batch).first(5));  // an iteration's candidates in two calls
      w.add_candidates(std::span(batch).subspan(5));
      w.add_iteration(iteration_row(it, 10, 0.9f));
    }
  }
  records::Reader r = Reader::open(path);
  EXPECT_TRUE(r.warnings().empty());
  std::vector<i64> ids;
  for (const records::CandidateRecord& c : r.candidates(kProblem.name)) ids.push_back(c.id);
  // every 4: 0 4 8 12 16; improvements: 0 1 5 13; solution: 18.
  EXPECT_EQ(ids, (std::vector<i64>{0, 1, 4, 5, 8, 12, 13, 16, 18}));
  std::vector<records::IterationRecord> its = r.iterations(kProblem.name);
  ASSERT_EQ(its.size(), 2u);  // the iterations table is complete
  EXPECT_EQ(its[0].candidates_recorded, 5u);
  EXPECT_EQ(its[1].candidates_recorded, 4u);
  EXPECT_EQ(its[1].cumulative_candidates, 20u);
  EXPECT_EQ(r.attributes().sampling.every, 4u);

  // every = 0 and no improvements: the solutions only.
  std::string only = fresh_dir("sampling_solutions") + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(only, kRun, {.every = 0, .improvements = false});
    w.begin_problem(kProblem);
    std::vector<records::CandidateRecord> batch;
    for (u32 k = 0; k < 20; ++k) batch.push_back(candidate(k, 0, k, rewards[k], k == 18 ? 6 : 0));
    w.add_candidates(batch);
    w.add_iteration(iteration_row(0, 20, 0.9f));
  }
  records::Reader o = Reader::open(only);
  ASSERT_EQ(o.candidate_count(kProblem.name), 1u);
  EXPECT_EQ(o.candidates(kProblem.name)[0].id, 18);
}

TEST(Trace, ByteBudgetSwitchesToImprovementsOnly) {
  std::string path = fresh_dir("budget") + "/records.h5";
  {
    // Any file outgrows 1 byte: from the first check on, only improvements are recorded.
    records::Writer w =
        Writer::create_or_resume(path, kRun, {.every = 1, .improvements = false, .byte_budget = 1});
    w.begin_problem(kProblem);
    std::vector<records::CandidateRecord> batch;
    for (u32 k = 0; k < 10; ++k) batch.push_back(candidate(k, 0, k, k == 3 ? 2.0f : k == 7 ? 3.0f : 1.0f));
    w.add_candidates(batch);
    w.add_iteration(iteration_row(0, 10, 3.0f));
  }
  records::Reader r = Reader::open(path);
  EXPECT_TRUE(r.attributes().budget_exceeded);
  EXPECT_NE(r.attributes().budget_note.find("byte budget 1 exceeded"), std::string::npos)
      << r.attributes().budget_note;
  std::vector<i64> ids;
  for (const records::CandidateRecord& c : r.candidates(kProblem.name)) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<i64>{0, 3, 7}));
  EXPECT_EQ(r.iterations(kProblem.name).size(), 1u);
}

// records/search_records.h: a search's rows reach the file once a second at most, after its
// solution, and when the writer closes. 500 iterations ended at once are not all in the file
// until the solution comes (when each flushed, a search of 2 ms iterations spent 40 % of its time
// in HDF5); then every one of them is, and the solution.
TEST(Trace, ASearchFlushesOnceASecondAndAfterItsSolution) {
  const std::string path = fresh_dir("search-records") + "/records.h5";
  // The file is read while this process writes it: HDF5 opens it once, with one locking flag.
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
  suites::Problem problem;
  problem.name = kProblem.name;
  problem.signature.text = kProblem.signature;
  records::Writer w = Writer::create_or_resume(path, kRun, {.every = 1});
  records::SearchRecords rows(w, problem, search::GeneratorKind::Enumerate);
  const pipeline::BatchResults none;  // an iteration of no candidates
  for (u64 i = 0; i < 500; ++i) {
    search::IterationReport report;
    report.iteration = i;
    rows.on_batch(report, {}, none);
  }
  const auto in_file = [&] {
    const Reader r = Reader::open(path);
    return r.problems().empty() ? 0 : r.iterations(kProblem.name).size();
  };
  EXPECT_LT(in_file(), 500u);
  search::SearchOutcome outcome;
  outcome.solved = true;
  outcome.solution_id = 0;
  outcome.solution_iteration = 499;
  outcome.solution = "fn solve(xs: [int]) -> int { return 0; }";
  rows.on_solution(outcome);
  EXPECT_EQ(in_file(), 500u);
  EXPECT_EQ(Reader::open(path).solutions(kProblem.name).size(), 1u);
  unsetenv("HDF5_USE_FILE_LOCKING");
}

TEST(Trace, ResumeNeitherDuplicatesNorLoses) {
  std::string path = fresh_dir("resume") + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {.every = 3});
    write_run(w, 0, 3, 8);  // iterations 0, 1, 2
    // Iteration 3 flushed half-way, then the process ends without its iterations row: those
    // rows are not committed.
    w.add_candidates(std::vector{candidate(24, 3, 0, 0.5f), candidate(27, 3, 3, 0.5f)});
    w.flush();
  }
  {
    records::Reader r = Reader::open(path);
    ASSERT_EQ(r.warnings().size(), 1u);
    EXPECT_NE(r.warnings()[0].find("2 candidate rows after the last iteration row (2)"), std::string::npos)
        << r.warnings()[0];
  }
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {.every = 3});
    w.begin_problem(kProblem);
    EXPECT_EQ(w.last_iteration(), 2u);
    write_run(w, 1, 5, 8);  // replays 1 and 2 (from an older checkpoint), then 3..5
  }
  // The same run written in one go.
  std::string once = fresh_dir("resume_once") + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(once, kRun, {.every = 3});
    write_run(w, 0, 6, 8);
  }
  {
    records::Reader r = Reader::open(path), o = Reader::open(once);
    EXPECT_TRUE(r.warnings().empty());
    EXPECT_EQ(r.attributes().sessions, 2u);
    std::vector<records::IterationRecord> its = r.iterations(kProblem.name),
                                          its_once = o.iterations(kProblem.name);
    ASSERT_EQ(its.size(), 6u);
    for (u32 i = 0; i < 6; ++i) {
      EXPECT_EQ(its[i].iteration, i);
      EXPECT_EQ(its[i].cumulative_candidates, its_once[i].cumulative_candidates);
      EXPECT_EQ(its[i].candidates_recorded, its_once[i].candidates_recorded);
    }
    std::vector<records::CandidateRecord> c = r.candidates(kProblem.name),
                                          c_once = o.candidates(kProblem.name);
    ASSERT_EQ(c.size(), c_once.size());
    for (size_t i = 0; i < c.size(); ++i) {
      EXPECT_EQ(c[i].id, c_once[i].id);
      EXPECT_EQ(c[i].reward, c_once[i].reward);
    }
    EXPECT_EQ(r.solutions(kProblem.name).size(), 1u);
  }  // (a file a reader of this process holds open cannot be opened for writing)
  // A resumed run must be the same run.
  records::RunInfo other = kRun;
  other.seed = 43;
  try {
    Writer::create_or_resume(path, other, {});
    FAIL() << "a different seed was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": was written with seed 42, not 43"), std::string::npos)
        << e.what();
  }
  records::Writer w = Writer::create_or_resume(path, kRun, {});
  records::ProblemInfo changed = kProblem;
  changed.train_cases = 7;
  EXPECT_THROW(w.begin_problem(changed), std::runtime_error);
  EXPECT_THROW(w.add_iteration(iteration_row(9, 1, 0)), std::runtime_error);  // no problem begun
  records::ProblemInfo bad = kProblem;
  bad.name = "a/b";
  EXPECT_THROW(w.begin_problem(bad), std::runtime_error);
}

// A child process writes iterations, reporting each flush on a pipe, and is killed with SIGKILL
// while it goes on writing: every iteration it reported must be in the file, which must open.
TEST(Trace, SurvivesSigkillMidRun) {
  std::string path = fresh_dir("sigkill") + "/records.h5";
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(report[0]);
    try {
      records::Writer w = Writer::create_or_resume(path, kRun, {});
      w.begin_problem(kProblem);
      for (u32 it = 0;; ++it) {
        std::vector<records::CandidateRecord> batch;
        for (u32 k = 0; k < 200; ++k) batch.push_back(candidate(i64(it) * 200 + k, it, k, float(it)));
        w.add_candidates(batch);
        w.add_iteration(iteration_row(it, 200, float(it)));
        w.flush();
        if (write(report[1], &it, sizeof it) != sizeof it) _exit(3);
      }
    } catch (...) {
      _exit(4);
    }
  }
  close(report[1]);
  u32 flushed = 0, it = 0;
  while (flushed < 6 && read(report[0], &it, sizeof it) == sizeof it) flushed = it + 1;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(report[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself, status " << status;
  ASSERT_GE(flushed, 6u);

  std::vector<records::IterationRecord> its;
  {
    records::Reader r = Reader::open(path);
    for (const std::string& w : r.warnings()) std::cout << "after SIGKILL: " << w << "\n";
    its = r.iterations(kProblem.name);
    ASSERT_GE(its.size(), flushed);
    for (u32 i = 0; i < its.size(); ++i) EXPECT_EQ(its[i].iteration, i);
    std::vector<records::CandidateRecord> c = r.candidates(kProblem.name);
    ASSERT_GE(c.size(), flushed * 200u);
    for (u32 i = 0; i < flushed * 200; ++i) ASSERT_EQ(c[i].id, i64(i));
  }

  // And the run resumes after the last committed iteration.
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    w.begin_problem(kProblem);
    ASSERT_EQ(w.last_iteration(), u32(its.size() - 1));
  }
  records::Reader again = Reader::open(path);
  EXPECT_TRUE(again.warnings().empty()) << again.warnings()[0];
  EXPECT_EQ(again.iterations(kProblem.name).size(), its.size());
}

void expect_open_fails(const std::string& path, const std::string& why) {
  try {
    Reader::open(path);
    ADD_FAILURE() << path << " opened";
  } catch (const std::runtime_error& e) {
    std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
    EXPECT_NE(m.find(why), std::string::npos) << m;
  }
}

// Files written before syntax_nodes and case_errors existed lack them: they read as 0 and NaN,
// and a resumed file gains them (filled so for the rows already there), then goes on.
TEST(Trace, AddedColumnsAreOptional) {
  std::string path = fresh_dir("added") + "/" + records::records_file_name();
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    write_run(w, 0, 2, 10);
  }
  {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_GE(H5Ldelete(f, "/problems/count-odds/candidates/syntax_nodes", H5P_DEFAULT), 0);
    EXPECT_GE(H5Ldelete(f, "/problems/count-odds/candidates/case_errors", H5P_DEFAULT), 0);
    H5Fclose(f);
  }
  auto expect_defaults = [](const std::vector<records::CandidateRecord>& rows, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(rows[i].syntax_nodes, 0u) << i;
      EXPECT_TRUE(rows[i].case_errors.empty() ||
                  (rows[i].case_errors.size() == kProblem.train_cases && std::isnan(rows[i].case_errors[0])))
          << i;
    }
  };
  {
    records::Reader r = Reader::open(path);
    EXPECT_TRUE(r.warnings().empty()) << r.warnings()[0];
    std::vector<records::CandidateRecord> rows = r.candidates(kProblem.name);
    ASSERT_EQ(rows.size(), 20u);
    expect_defaults(rows, rows.size());
  }
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    w.begin_problem(kProblem);
    records::CandidateRecord c = candidate(20, 2, 0, 0.5f, 1);
    c.syntax_nodes = 9;
    c.case_errors.assign(kProblem.train_cases, 2.0f);
    w.add_candidates(std::span(&c, 1));
    w.add_iteration(iteration_row(2, 1, 1.0f));
  }
  records::Reader r = Reader::open(path);
  EXPECT_TRUE(r.warnings().empty()) << r.warnings()[0];
  std::vector<records::CandidateRecord> rows = r.candidates(kProblem.name);
  ASSERT_EQ(rows.size(), 21u);
  expect_defaults(rows, 20);
  EXPECT_EQ(rows[20].syntax_nodes, 9u);
  EXPECT_EQ(rows[20].case_errors, std::vector<float>(kProblem.train_cases, 2.0f));
}

TEST(Trace, CaseErrorsMustMatchTheTrainCases) {
  std::string path = fresh_dir("case_errors") + "/" + records::records_file_name();
  records::Writer w = Writer::create_or_resume(path, kRun, {});
  w.begin_problem(kProblem);
  records::CandidateRecord c = candidate(0, 0, 0, 0.5f);
  c.case_errors = {1.0f, 2.0f};
  try {
    w.add_candidates(std::span(&c, 1));
    ADD_FAILURE() << "two errors for six train cases were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("has 2 per-case errors, not one for each of the 6 train cases"),
              std::string::npos)
        << e.what();
  }
}

// A records file's groups and columns are its own: a soft or external link planted in one (to
// /etc/passwd, say, or round a loop) is refused by name, never followed.
TEST(Trace, LinksInAFileAreRefused) {
  for (const bool external : {true, false}) {
    std::string path =
        fresh_dir(external ? "external_link" : "soft_link") + "/" + records::records_file_name();
    {
      records::Writer w = Writer::create_or_resume(path, kRun, {});
      write_run(w, 0, 1, 4);
    }
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    if (external)
      ASSERT_GE(H5Lcreate_external("/etc/passwd", "/", f, "/problems/planted", H5P_DEFAULT, H5P_DEFAULT), 0);
    else
      ASSERT_GE(H5Lcreate_soft("/problems/planted", f, "/problems/planted", H5P_DEFAULT, H5P_DEFAULT), 0);
    H5Fclose(f);
    // The problem behind the link is skipped with a warning naming it; the others read.
    records::Reader r = Reader::open(path);
    ASSERT_EQ(r.warnings().size(), 1u);
    EXPECT_NE(
        r.warnings()[0].find(std::string("planted is ") + (external ? "an external link" : "a soft link")),
        std::string::npos)
        << r.warnings()[0];
    ASSERT_EQ(r.problems().size(), 1u);
    EXPECT_EQ(r.problems()[0].name, kProblem.name);
  }
}

// Every column is checksummed (HDF5's Fletcher32 filter): a damaged chunk is an error naming the
// column and its rows, never other numbers; the rows of the other chunks still read.
TEST(Trace, ADamagedChunkIsAnErrorNamingItsRows) {
  std::string path = fresh_dir("checksum") + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    write_run(w, 0, 4, 600);  // 2400 candidates: rows 0-1023, 1024-2047, 2048-2399 per chunk
  }
  haddr_t address = 0;
  hsize_t size = 0;
  {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    hid_t d = H5Dopen2(f, ("/problems/" + kProblem.name + "/candidates/reward").c_str(), H5P_DEFAULT);
    ASSERT_GE(d, 0);
    hsize_t offset[1];
    unsigned mask = 0;
    hid_t space = H5Dget_space(d);
    ASSERT_GE(H5Dget_chunk_info(d, space, 1, offset, &mask, &address, &size), 0);
    H5Sclose(space);
    EXPECT_EQ(offset[0], 1024u);
    H5Dclose(d);
    H5Fclose(f);
  }
  ASSERT_GT(size, 8u);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(std::streamoff(address + size / 2));
    char c = 0;
    file.get(c);
    file.seekp(std::streamoff(address + size / 2));
    file.put(char(c ^ 0x10));
  }
  records::Reader r = Reader::open(path);
  EXPECT_EQ(r.candidates(kProblem.name, 0, 1024).size(), 1024u);  // the chunk before reads
  try {
    r.candidates(kProblem.name);
    FAIL() << "a damaged chunk read as numbers";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("candidates/reward: cannot read rows 1024-2047"), std::string::npos) << what;
    EXPECT_NE(what.find("(damaged)"), std::string::npos) << what;  // its deflate stream is broken
  }
}

// A column's extent is not believed past its allocated chunks: a file whose columns claim 10^9
// rows (a few hundred kilobytes, crafted or damaged) reads as the rows it holds, without
// allocating for the rest; a writer resuming it cuts the extents back.
TEST(Trace, AnExtentPastTheWrittenRowsIsNotBelieved) {
  std::string path = fresh_dir("extent") + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    write_run(w, 0, 2, 100);  // 200 candidates: one chunk
  }
  {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    const std::string table = "/problems/" + kProblem.name + "/candidates";
    hid_t g = H5Gopen2(f, table.c_str(), H5P_DEFAULT);
    H5Literate(
        g, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
        [](hid_t group, const char* name, const H5L_info_t*, void*) -> herr_t {
          hid_t d = H5Dopen2(group, name, H5P_DEFAULT);
          hid_t space = H5Dget_space(d);
          hsize_t dims[2] = {0, 0};
          H5Sget_simple_extent_dims(space, dims, nullptr);
          dims[0] = 1000000000;
          H5Dset_extent(d, dims);
          H5Sclose(space);
          H5Dclose(d);
          return 0;
        },
        nullptr);
    H5Gclose(g);
    H5Fclose(f);
  }
  {
    records::Reader r = Reader::open(path);
    EXPECT_LE(r.candidate_count(kProblem.name), 1024u);
    EXPECT_GE(r.candidate_count(kProblem.name), 200u);
  }
  {
    records::Writer w = Writer::create_or_resume(path, kRun, {});  // resumes: cut to the 200 rows
    write_run(w, 2, 1, 100);
  }
  records::Reader r = Reader::open(path);
  EXPECT_TRUE(r.warnings().empty()) << r.warnings()[0];
  EXPECT_EQ(r.candidate_count(kProblem.name), 300u);
}

TEST(Trace, DamagedFilesAreClearErrors) {
  std::string dir = fresh_dir("damaged");
  std::string good = dir + "/records.h5";
  {
    records::Writer w = Writer::create_or_resume(good, kRun, {});
    write_run(w, 0, 4, 300);
  }
  std::string bytes = slurp(good);
  ASSERT_GT(bytes.size(), 1000u);
  std::string half = dir + "/half.h5";
  std::ofstream(half, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  expect_open_fails(half, "cannot open as HDF5");

  Rng rng(1);
  std::string noise(bytes.size(), '\0');
  for (char& c : noise) c = char(rng.next_u32());
  std::string random = dir + "/random.h5";
  std::ofstream(random, std::ios::binary) << noise;
  expect_open_fails(random, "not an HDF5 file");
  std::string empty = dir + "/empty.h5";
  std::ofstream(empty, std::ios::binary).flush();
  expect_open_fails(empty, "not an HDF5 file");
  expect_open_fails(dir + "/missing.h5", "no such file");
  expect_open_fails(dir, "is a directory");

  // The writer refuses to overwrite what is not a records file.
  try {
    Writer::create_or_resume(random, kRun, {});
    ADD_FAILURE() << "appended to random bytes";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(random + ": exists and is not an HDF5 file"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(slurp(random), noise);
}

// ---- gpusynth trace ----------------------------------------------------------------------------

using Outcome = testing::CommandOutcome;

Outcome trace(const std::vector<std::string>& args) {
  return testing::run_command(jobs::trace_command, args);
}

// A run directory with two problems, one solved at iteration 2.
std::string example_run(const std::string& name) {
  std::string dir = fresh_dir(name);
  records::Writer w = Writer::create_or_resume(dir + "/records.h5", kRun, {});
  write_run(w, 0, 4, 10);
  w.begin_problem({"never-solved", "fn solve(n: int) -> int", 4, 0, "p/never.json", ""});
  records::CandidateRecord c = candidate(0, 0, 0, 0.25f);
  c.source = "fn solve(n: int) -> int {\n  let s = \"a,\\\"b\";\n  return n; }";
  c.trap = u8(vm::Trap::OUT_OF_FUEL);
  c.syntax_nodes = 12;
  c.case_errors = {0.f, 1.5f, std::numeric_limits<float>::infinity(),
                   std::numeric_limits<float>::quiet_NaN()};
  w.add_candidates(std::span(&c, 1));
  w.add_iteration(iteration_row(0, 1, 0.25f));
  return dir;
}

TEST(TraceCommand, Summary) {
  std::string run = example_run("cmd_summary");
  Outcome r = trace({"summary", run});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("problem\tsolved\tcandidates\trecorded\titerations\ttrain_cases\tbest_reward\tfirst_"
                       "solution\ttest_cases\t"
                       "generalises\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("count-odds\tyes\t40\t40\t4\t6/6\t1\titeration 2 after 30 candidates\t1/2\tno\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("never-solved\tno\t1\t1\t1\t3/4\t0.25\t-\t-\t-\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1/2 problems solved\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
  // The file itself works as RUN too.
  EXPECT_EQ(trace({"summary", run + "/records.h5"}).out, r.out);
}

TEST(TraceCommand, Solutions) {
  std::string run = example_run("cmd_solutions");
  Outcome r = trace({"solutions", run});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "# count-odds: candidate 20, iteration 2, train 6/6, test 1/2, does not generalise\n"
            "fn solve(xs: [int]) -> int { return 20; }\n"
            "# simplified\n"
            "fn solve(xs: [int]) -> int { return 0; }\n");
  EXPECT_NE(r.err.find("1 solutions"), std::string::npos);
}

std::string hex16(u64 v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

TEST(TraceCommand, ExportCsvAndJsonLines) {
  std::string run = example_run("cmd_export");
  u64 hash = Reader::open(run + "/records.h5").candidates("never-solved")[0].bytecode_hash;
  std::string csv = run + "/never.csv";
  Outcome r = trace({"export", run, "--format", "csv", "--problem", "never-solved", "-o", csv});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1 candidate rows -> " + csv), std::string::npos) << r.err;
  EXPECT_EQ(
      slurp(csv),
      "problem,id,iteration,index,generator,compile_path,status,trap,train_passed,reward,bytecode_bytes,"
      "bytecode_hash,parent0,parent1,syntax_nodes,case_errors,source\n"
      "never-solved,0,0,0,random,traditional,ok,out_of_fuel,0,0.25,100," +
          hex16(hash) +
          ",-1,-1,12,0 1.5 inf nan,\"fn solve(n: int) -> int {\n  let s = \"\"a,\\\"\"b\"\";\n  return n; "
          "}\"\n");
  // JSON Lines of every problem on stdout; the source field reads back as `gpusynth eval` input.
  r = trace({"export", run, "--format", "jsonl"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), Reader::open(run + "/records.h5").candidate_count("count-odds") + 1);
  EXPECT_EQ(lines.back(),
            "{\"problem\":\"never-solved\",\"id\":0,\"iteration\":0,\"index\":0,\"generator\":\"random\","
            "\"compile_path\":\"traditional\",\"status\":\"ok\",\"trap\":\"out_of_fuel\",\"train_passed\":0,"
            "\"reward\":0.25,\"bytecode_bytes\":100,\"bytecode_hash\":\"" +
                hex16(hash) +
                "\",\"parents\":[-1,-1],\"syntax_nodes\":12,\"case_errors\":\"0 1.5 inf "
                "nan\",\"source\":\"fn solve(n: int) -> int {\\n  let s = "
                "\\\"a,\\\\\\\"b\\\";\\n  "
                "return n; }\"}");
  EXPECT_EQ(lines[0].rfind("{\"problem\":\"count-odds\",\"id\":0,", 0), 0u) << lines[0];
}

TEST(TraceCommand, RankFilesOfAnEarlierVersionAndShards) {
  std::string dir = fresh_dir("cmd_ranks");
  auto write = [](const std::string& path, const std::string& problem, bool solved) {
    records::Writer w = Writer::create_or_resume(path, kRun, {});
    records::ProblemInfo p = kProblem;
    p.name = problem;
    w.begin_problem(p);
    w.add_candidates(std::vector{candidate(0, 0, 0, 1.0f, solved ? 6 : 0)});
    w.add_iteration(iteration_row(0, 1, 1.0f, solved));
  };
  // An earlier version's distributed campaign, stopped: a file per rank.
  for (u32 rank = 0; rank < 2; ++rank)
    write(dir + "/" + records::records_file_name(rank), "p" + std::to_string(rank), rank == 1);
  // Resumed by this version: p1 again, and p2, in committed shards.
  std::filesystem::create_directories(records::shards_directory(dir));
  for (const char* name : {"p1", "p2"})
    write(records::shards_directory(dir) + "/" + records::shard_file_name(name), name, true);
  write(records::shards_directory(dir) + "/p3.h5.part", "p3", true);  // in progress: not read
  Outcome r = trace({"summary", dir});
  ASSERT_EQ(r.code, 0) << r.err;
  // A problem in one file is named plainly; one in several is named by file too.
  EXPECT_NE(r.out.find("\np0\tno\t1\t1\t1\t3/6\t1\t-\t-\t-\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("records.rank-1.h5:p1\tyes\t1\t1\t1\t6/6\t1\titeration 0 after 1 candidates\t-\t-\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("p1.h5:p1\tyes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\np2\tyes"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("p3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3/4 problems solved"), std::string::npos) << r.out;
}

// tests/unit/data/records-format-1.h5 was written by gpusynth's first records format (a campaign
// over a 6-case number-io, --record-every 50): strings variable-length in HDF5's global heap,
// tests_passed for train_passed, no syntax_nodes or case_errors. It is read; no writer appends to
// it; a join copies its problems beside format 2 shards, and the joined file reads both.
TEST(TraceFormat, AFormat1FileIsReadJoinedAndNotAppendedTo) {
  const std::string dir = fresh_dir("format1");
  const std::string file = dir + "/" + records::records_file_name();
  fs::copy_file(std::string(GPUSYNTH_SOURCE_DIR) + "/tests/unit/data/records-format-1.h5", file);
  const std::string first_source = "fn solve(n: int, x: float) -> float {\n  return x;\n}\n";
  const std::string solution = "fn solve(n: int, x: float) -> float {\n  return x + float(n);\n}\n";
  auto check = [&](const Reader& r) {
    ASSERT_EQ(r.warnings().size(), 0u) << r.warnings()[0];
    std::vector<CandidateRecord> c = r.candidates("number-io-small");
    ASSERT_EQ(c.size(), 45u);
    EXPECT_EQ(c[0].source, first_source);
    EXPECT_EQ(c[44].id, 2150);
    std::vector<SolutionRecord> s = r.solutions("number-io-small");
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].simplified_source, solution);
    EXPECT_EQ(s[0].candidate_id, 1279);
  };
  {
    Reader r = Reader::open(file);
    EXPECT_EQ(r.attributes().format_version, 1u);
    EXPECT_EQ(r.attributes().run.seed, 7u);
    check(r);
  }
  records::RunInfo run = kRun;
  run.seed = 7;
  try {
    Writer::create_or_resume(file, run, {});
    ADD_FAILURE() << "a writer appended to a format 1 file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("records format 1, this gpusynth appends to format 2 only"),
              std::string::npos)
        << e.what();
  }
  fs::create_directories(records::shards_directory(dir));
  {
    Writer w = Writer::create_or_resume(records::shards_directory(dir) + "/" + records::shard_file_name("p2"),
                                        run, {});
    records::ProblemInfo p = kProblem;
    p.name = "p2";
    w.begin_problem(p);
    w.add_candidates(std::vector{candidate(0, 0, 0, 1.0f, 0)});
    w.add_iteration(iteration_row(0, 1, 1.0f, false));
  }
  records::JoinReport joined = records::join_records(dir, run);
  EXPECT_EQ(joined.problems, 2u);
  Reader r = Reader::open(file);
  EXPECT_EQ(r.attributes().format_version, 2u);
  check(r);
  ASSERT_EQ(r.candidates("p2").size(), 1u);
  EXPECT_EQ(r.candidates("p2")[0].source, candidate(0, 0, 0, 1.0f, 0).source);
}

// Found by tests/fuzz/records_fuzzer: a chunk whose stored size is shorter than its Fletcher32
// checksum made libhdf5's filter read far outside it (a crash). The reader checks first.
TEST(TraceCommand, AChunkShorterThanItsChecksumIsAnError) {
  const std::string file =
      std::string(GPUSYNTH_SOURCE_DIR) + "/tests/fuzz/regressions/records-short-checksummed-chunk.h5";
  Outcome r = trace({"summary", file});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(
      r.err.find(file + ": /problems/n/iterations/iteration: cannot read rows 0-3: their stored chunk is 1 "
                        "bytes, shorter than its checksum (damaged)"),
      std::string::npos)
      << r.err;
}

// Found by tests/fuzz/records_fuzzer: a chunk stored with its deflate filter skipped (a filter
// mask) unpacks to fewer bytes than a chunk, and libhdf5 read past what it unpacked (a crash, or
// a corrupted malloc heap). The reader checks each chunk's mask and unpacked size first.
TEST(TraceCommand, AChunkThatSkipsAFilterIsAnError) {
  const std::string file =
      std::string(GPUSYNTH_SOURCE_DIR) + "/tests/fuzz/regressions/records-chunk-skipping-deflate.h5";
  Outcome r = trace({"summary", file});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.err.find(file + ": /problems/n/iterations/iteration: cannot read rows 0-3: their stored chunk "
                              "skips a filter (damaged)"),
            std::string::npos)
      << r.err;
}

TEST(TraceCommand, BadInputIsAUsageError) {
  std::string run = example_run("cmd_bad");
  std::string empty = fresh_dir("cmd_bad_empty");
  std::string corrupt_dir = fresh_dir("cmd_bad_corrupt");
  std::ofstream(corrupt_dir + "/records.h5", std::ios::binary) << "this is not HDF5 at all";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{}, "usage: gpusynth trace"},
      {{"plot", run}, "unknown sub-command 'plot'"},
      {{"summary"}, "missing FILE"},
      {{"summary", "/nonexistent/run"}, "/nonexistent/run: no such run directory or records file"},
      {{"summary", empty}, empty + ": no records file"},
      {{"solutions", corrupt_dir}, corrupt_dir + "/records.h5: not an HDF5 file"},
      {{"export", run}, "format"},
      {{"export", run, "--format", "xml"}, "--format must be csv or jsonl, not 'xml'"},
      {{"export", run, "--format", "csv", "--problem", "nope"}, "no problem named 'nope'"},
      {{"export", run, "--format", "csv", "-o", "/nonexistent-dir/x.csv"},
       "/nonexistent-dir/x.csv: cannot write"},
      {{"summary", run, "--bogus"}, "unrecognised option '--bogus'"},
  };
  for (const Case& c : cases) {
    Outcome r = trace(c.args);
    EXPECT_EQ(r.code, jobs::kExitUsage) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << r.err;
  }
  EXPECT_EQ(trace({"--help"}).code, 0);
  EXPECT_EQ(trace({"export", "--help"}).code, 0);
}

// ---- without project code: h5py, scripts/plot_trace.py -----------------------------------------

// A python3 that has h5py and matplotlib, or "" (Debian's is /usr/bin/python3; a PATH one may not).
std::string python_with_h5py() {
  for (std::string python : {"python3", "/usr/bin/python3"})
    if (std::system((python + " -c 'import h5py, matplotlib' >/dev/null 2>&1").c_str()) == 0) return python;
  return "";
}

TEST(TraceWithoutProjectCode, H5pyReadsEveryTable) {
  std::string python = python_with_h5py();
  if (python.empty())
    GTEST_SKIP() << "no python3 with h5py and matplotlib (apt-get install python3-h5py python3-matplotlib)";
  std::string run = example_run("h5py");
  std::string script = run + "/read.py";
  std::ofstream(script) << R"(import sys, h5py
f = h5py.File(sys.argv[1], 'r')
# String attributes are fixed-length (bytes to h5py); a string column is NAME_bytes + NAME_end.
assert f.attrs['format'] == b'gpusynth-records' and f.attrs['seed'] == 42, dict(f.attrs)
assert f.attrs['format_version'] == 2
assert f.attrs['config'].decode().startswith('[search]'), f.attrs['config']
def texts(table, name):
    data, ends = table[name + '_bytes'][:].tobytes(), table[name + '_end'][:]
    return [data[a:b].decode() for a, b in zip([0, *ends[:-1]], ends)]
p = f['problems/count-odds']
assert p.attrs['signature'] == b'fn solve(xs: [int]) -> int' and p.attrs['train_cases'] == 6
c = p['candidates']
assert c['id'].shape == (40,) and c['parents'].shape == (40, 2), (c['id'].shape, c['parents'].shape)
sources = texts(c, 'source')
assert len(sources) == 40 and sources[1] == 'fn solve(xs: [int]) -> int { return 1; }', sources[1]
names = h5py.check_enum_dtype(c['status'].dtype)
assert names['ok'] == 0 and names['compile_error'] == 1, names
assert h5py.check_enum_dtype(c['trap'].dtype)['not_run'] == 255
assert h5py.check_enum_dtype(c['generator'].dtype)['external'] == 3
it = p['iterations']
assert list(it['iteration'][:]) == [0, 1, 2, 3] and list(it['cumulative_candidates'][:]) == [10, 20, 30, 40]
assert list(it['solved'][:]) == [0, 0, 1, 1]
s = p['solutions']
assert s['candidate_id'][0] == 20 and texts(s, 'simplified_source')[0] == 'fn solve(xs: [int]) -> int { return 0; }'
print('ok')
)";
  std::string out = run + "/read.out";
  int code = std::system((python + " " + script + " " + run + "/records.h5 >" + out + " 2>&1").c_str());
  EXPECT_EQ(code, 0) << slurp(out);
  EXPECT_EQ(slurp(out), "ok\n");
}

TEST(TraceWithoutProjectCode, ReaderTakesTheCommonPrefixOfRaggedColumns) {
  std::string python = python_with_h5py();
  if (python.empty())
    GTEST_SKIP() << "no python3 with h5py and matplotlib (apt-get install python3-h5py python3-matplotlib)";
  std::string run = example_run("ragged");
  std::string file = run + "/records.h5";
  // What a flush cut short between two columns leaves: one column longer than the others.
  std::string grow = python + " -c \"import h5py; d = h5py.File('" + file +
                     "', 'r+')['problems/count-odds/candidates/reward']; d.resize((d.shape[0] + 3,))\"";
  ASSERT_EQ(std::system(grow.c_str()), 0);
  {
    records::Reader r = Reader::open(file);
    ASSERT_EQ(r.warnings().size(), 1u);
    EXPECT_NE(r.warnings()[0].find("problem count-odds: candidates: its columns hold 40 to 43 rows"),
              std::string::npos)
        << r.warnings()[0];
    EXPECT_EQ(r.candidates("count-odds").size(), 40u);
  }
  // Resuming cuts the column back.
  { records::Writer w = Writer::create_or_resume(file, kRun, {}); }
  EXPECT_TRUE(Reader::open(file).warnings().empty());
}

// Files written before train cases passed had their own name: tests_passed and best_tests_passed.
TEST(TraceWithoutProjectCode, RenamedColumnsReadUnderTheirOldNames) {
  std::string python = python_with_h5py();
  if (python.empty())
    GTEST_SKIP() << "no python3 with h5py and matplotlib (apt-get install python3-h5py python3-matplotlib)";
  std::string run = example_run("renamed");
  std::string file = run + "/records.h5";
  const std::vector<records::CandidateRecord> before = Reader::open(file).candidates("count-odds");
  const u32 best_before = Reader::open(file).iterations("count-odds").back().best_train_passed;
  std::string rename = python + " -c \"import h5py; p = h5py.File('" + file +
                       "', 'r+')['problems/count-odds']; " +
                       "p['candidates'].move('train_passed', 'tests_passed'); " +
                       "p['iterations'].move('best_train_passed', 'best_tests_passed')\"";
  ASSERT_EQ(std::system(rename.c_str()), 0);
  {
    records::Reader r = Reader::open(file);
    EXPECT_TRUE(r.warnings().empty()) << r.warnings()[0];
    const std::vector<records::CandidateRecord> after = r.candidates("count-odds");
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i].train_passed, before[i].train_passed) << i;
    EXPECT_EQ(r.iterations("count-odds").back().best_train_passed, best_before);
    EXPECT_GT(best_before, 0u);
  }
  // A resumed old file keeps its names: its rows go on in the same columns.
  { records::Writer w = Writer::create_or_resume(file, kRun, {}); }
  EXPECT_TRUE(Reader::open(file).warnings().empty());
}

TEST(TraceWithoutProjectCode, PlotScriptDrawsPngs) {
  std::string python = python_with_h5py();
  if (python.empty())
    GTEST_SKIP() << "no python3 with h5py and matplotlib (apt-get install python3-h5py python3-matplotlib)";
  std::string run = example_run("plot");
  std::string script = std::string(GPUSYNTH_SOURCE_DIR) + "/scripts/plot_trace.py";
  std::string log = run + "/plot.log";
  int code =
      std::system((python + " " + script + " " + run + " -o " + run + "/plots >" + log + " 2>&1").c_str());
  ASSERT_EQ(code, 0) << slurp(log);
  for (const char* png : {"/plots/solve_rate.png", "/plots/throughput.png"}) {
    std::string bytes = slurp(run + png);
    ASSERT_GT(bytes.size(), 1000u) << png;
    EXPECT_EQ(bytes.substr(1, 3), "PNG") << png;
  }
  // A bad file: a message naming it, exit status 2, no traceback.
  std::string bad = fresh_dir("plot_bad");
  std::ofstream(bad + "/records.h5") << "not HDF5";
  code = std::system((python + " " + script + " " + bad + " >" + log + " 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(code), 2) << slurp(log);
  EXPECT_NE(slurp(log).find(bad + "/records.h5"), std::string::npos) << slurp(log);
  EXPECT_EQ(slurp(log).find("Traceback"), std::string::npos) << slurp(log);
  EXPECT_EQ(std::system((python + " " + script + " --help >/dev/null 2>&1").c_str()), 0);
}

}  // namespace
}  // namespace gs
