// cluster/ without MPI: the in-process work queue, the stop flag, per-problem records shards and
// joining them (and an earlier version's rank files) into RUN/records.h5. The MPI queue is
// tested by campaign_test.sh with real ranks.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "cluster/stop_signal.h"
#include "cluster/work_queue.h"
#include "records/join.h"
#include "records/records.h"
#include "records/shards.h"

namespace gs::cluster {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  fs::path dir = fs::path(GPUSYNTH_BINARY_DIR) / "tests" / "cluster" / "scratch" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

const records::RunInfo kRun{42, "seed = 42\n", "gpusynth campaign", "host-a", "cpu"};

records::ProblemInfo problem(const std::string& name) {
  return {name, "fn solve(n: int) -> int", 3, 2, name + ".json", ""};
}

// Records `iterations` iterations of `candidates` rows each of a problem into a records file.
void record(const std::string& path, const std::string& name, u32 iterations, u32 candidates,
            bool solve = false, const records::RunInfo& run = kRun) {
  records::Writer w = records::Writer::create_or_resume(path, run, {});
  w.begin_problem(problem(name));
  for (u32 it = 0; it < iterations; ++it) {
    std::vector<records::CandidateRecord> rows(candidates);
    for (u32 i = 0; i < candidates; ++i) {
      rows[i].id = i64(it) * candidates + i;
      rows[i].iteration = it;
      rows[i].index = i;
      rows[i].source = "fn solve(n: int) -> int { return " + std::to_string(rows[i].id) + "; }";
      rows[i].reward = float(rows[i].id);
    }
    w.add_candidates(rows);
    records::IterationRecord row;
    row.iteration = it;
    row.candidates_evaluated = candidates;
    w.add_iteration(row);
    w.flush();
  }
  if (solve) {
    records::SolutionRecord s;
    s.candidate_id = i64(iterations) * candidates - 1;
    s.iteration = iterations - 1;
    s.source = "fn solve(n: int) -> int { return n; }";
    w.add_solution(s);
  }
  w.close();
}

TEST(RankFiles, NamesAndListing) {
  EXPECT_EQ(records::records_file_name(0), "records.rank-0.h5");
  EXPECT_EQ(records::records_file_name(12), "records.rank-12.h5");
  std::string dir = fresh_dir("listing");
  for (const char* name : {"records.rank-10.h5", "records.rank-2.h5", "records.h5", "records.rank-x.h5",
                           "records-rank1.h5", "records.rank-3.h5.joining"})
    std::ofstream(dir + "/" + name) << "x";
  std::vector<std::string> files = records::rank_records_files(dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(fs::path(files[0]).filename(), "records.rank-2.h5");  // by rank, not by name
  EXPECT_EQ(fs::path(files[1]).filename(), "records.rank-10.h5");
  // A reader of RUN/ reads the joined records.h5 when it is there, the rank files otherwise.
  ASSERT_EQ(records::records_files(dir).size(), 1u);
  EXPECT_EQ(fs::path(records::records_files(dir)[0]).filename(), "records.h5");
  fs::remove(dir + "/records.h5");
  EXPECT_EQ(records::records_files(dir), files);
  EXPECT_TRUE(records::rank_records_files(dir + "/missing").empty());
}

TEST(JoinRecords, EachProblemOnceFromItsMostCompleteFile) {
  std::string dir = fresh_dir("join");
  // "a" was interrupted on rank 0 after 2 iterations and searched again, whole, on rank 1.
  record(dir + "/" + records::records_file_name(0), "a", 2, 5);
  record(dir + "/" + records::records_file_name(0), "b", 3, 4, true);
  record(dir + "/" + records::records_file_name(1), "a", 4, 5, true);
  // An earlier one-process session recorded "c" straight into records.h5.
  record(dir + "/records.h5", "c", 1, 7);
  records::JoinReport report = join_records(dir, kRun);
  EXPECT_EQ(report.sources, 3u);
  EXPECT_EQ(report.problems, 3u);
  EXPECT_TRUE(report.warnings.empty()) << report.warnings[0];

  records::Reader joined = records::Reader::open(dir + "/records.h5");
  EXPECT_TRUE(joined.warnings().empty());
  ASSERT_EQ(joined.problems().size(), 3u);
  EXPECT_EQ(joined.candidate_count("a"), 20u);
  EXPECT_EQ(joined.iterations("a").size(), 4u);
  EXPECT_EQ(joined.solutions("a").size(), 1u);
  EXPECT_EQ(joined.candidate_count("b"), 12u);
  EXPECT_EQ(joined.solutions("b").size(), 1u);
  EXPECT_EQ(joined.candidate_count("c"), 7u);
  std::vector<records::CandidateRecord> a = joined.candidates("a");
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i].id, i64(i));  // no row twice
  EXPECT_EQ(a.back().source, "fn solve(n: int) -> int { return 19; }");
  EXPECT_EQ(joined.attributes().run.seed, 42u);
  EXPECT_FALSE(fs::exists(dir + "/records.h5.joining"));
}

TEST(JoinRecords, IsIdempotentAndTheResultResumes) {
  std::string dir = fresh_dir("join_again");
  record(dir + "/" + records::records_file_name(0), "a", 2, 3);
  record(dir + "/" + records::records_file_name(1), "b", 1, 3);
  join_records(dir, kRun);
  records::JoinReport again = join_records(dir, kRun);  // the old records.h5 is a source too now
  EXPECT_EQ(again.sources, 3u);
  EXPECT_EQ(again.problems, 2u);
  EXPECT_EQ(records::Reader::open(dir + "/records.h5").candidate_count("a"), 6u);
  // A one-process run goes on from the joined file: its writer resumes it.
  record(dir + "/records.h5", "a", 3, 3);
  records::Reader r = records::Reader::open(dir + "/records.h5");
  EXPECT_EQ(r.candidate_count("a"), 9u);
  EXPECT_EQ(r.iterations("a").size(), 3u);
}

TEST(JoinRecords, RefusesAnotherRunsFiles) {
  std::string dir = fresh_dir("join_seed");
  records::RunInfo other = kRun;
  other.seed = 7;
  record(dir + "/" + records::records_file_name(0), "a", 1, 1);
  record(dir + "/" + records::records_file_name(1), "b", 1, 1, false, other);
  try {
    join_records(dir, kRun);
    FAIL() << "joined files of two seeds";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("records.rank-1.h5: was written with seed 7, not 42"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/records.h5"));
}

TEST(JoinRecords, LeavesOutAnUnreadableFileWithAWarning) {
  std::string dir = fresh_dir("join_bad");
  record(dir + "/" + records::records_file_name(0), "a", 1, 2);
  std::ofstream(dir + "/" + records::records_file_name(1), std::ios::binary) << "not HDF5";
  records::JoinReport report = join_records(dir, kRun);
  EXPECT_EQ(report.problems, 1u);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("records.rank-1.h5"), std::string::npos) << report.warnings[0];
}

TEST(Shards, CommittedWholeOrNotAtAll) {
  std::string dir = fresh_dir("shards");
  EXPECT_EQ(records::shard_file_name("count-odds"), "count-odds.h5");
  EXPECT_EQ(records::shard_file_name("a b").substr(0, 8), "problem-");
  EXPECT_EQ(records::shard_file_name(".hidden").substr(0, 8), "problem-");
  EXPECT_NE(records::shard_file_name("a b"), records::shard_file_name("a  b"));
  const std::string shards = records::shards_directory(dir);
  {
    records::Shard shard = records::Shard::begin(dir, "a", kRun, {});
    shard.writer().begin_problem(problem("a"));
    shard.writer().flush();
    EXPECT_TRUE(fs::exists(shards + "/a.h5.part"));
    EXPECT_TRUE(records::committed_shards(dir).empty());  // not until committed
    shard.commit();
  }
  EXPECT_FALSE(fs::exists(shards + "/a.h5.part"));
  ASSERT_EQ(records::committed_shards(dir), std::vector<std::string>{shards + "/a.h5"});
  EXPECT_EQ(records::Reader::open(shards + "/a.h5").problems().size(), 1u);
  {
    // A problem stopped midway (or failed: an exception unwinds through it): no shard.
    records::Shard shard = records::Shard::begin(dir, "b", kRun, {});
    shard.writer().begin_problem(problem("b"));
    shard.writer().flush();
  }
  EXPECT_FALSE(fs::exists(shards + "/b.h5.part"));
  EXPECT_EQ(records::committed_shards(dir).size(), 1u);
  // A part a killed process left, even a planted link, is removed, not followed nor kept.
  std::ofstream(dir + "/outside") << "keep me";
  fs::create_symlink(dir + "/outside", shards + "/c.h5.part");
  {
    records::Shard shard = records::Shard::begin(dir, "c", kRun, {});
    shard.writer().begin_problem(problem("c"));
    shard.commit();
  }
  std::ifstream outside(dir + "/outside");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(outside), {}), "keep me");
  EXPECT_EQ(records::committed_shards(dir).size(), 2u);
  // The join takes them in and removes them.
  records::JoinReport report = join_records(dir, kRun);
  EXPECT_EQ(report.problems, 2u);
  EXPECT_EQ(report.names, (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(fs::exists(shards));
  EXPECT_EQ(records::Reader::open(dir + "/records.h5").problems().size(), 2u);
}

TEST(Shards, ALinkedShardsDirectoryIsRefused) {
  std::string dir = fresh_dir("shards_link");
  fs::create_directories(dir + "/elsewhere");
  fs::create_directory_symlink(dir + "/elsewhere", records::shards_directory(dir));
  try {
    records::Shard::begin(dir, "a", kRun, {});
    FAIL() << "wrote through a linked shards directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("shards: is a symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir + "/elsewhere"));
}

TEST(Shards, ASeedAndOptionsCheckBeforeAnythingRuns) {
  std::string dir = fresh_dir("shards_seed");
  records::RunInfo run = kRun;
  run.config_text = "budget = 100\nseed = 42\nthreads = 2\n";
  const std::vector<std::string> session = {"threads"};
  records::RunInfo other = run;
  other.seed = 7;
  records::require_same_run(dir, other, session);  // nothing recorded yet: any run
  {
    records::Shard shard = records::Shard::begin(dir, "a", run, {});
    shard.writer().begin_problem(problem("a"));
    shard.commit();
  }
  records::require_same_run(dir, run, session);
  auto refused = [&](const records::RunInfo& r, const std::string& message) {
    try {
      records::require_same_run(dir, r, session);
      ADD_FAILURE() << "resumed as another run: " << r.config_text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  refused(other, "a.h5: was written with seed 42, not 7; a resumed run must use the same seed");
  other = run;
  other.config_text = "budget = 200\nseed = 42\nthreads = 2\n";
  refused(other,
          "a.h5: the run was searched with budget = 100 (now 200); a resumed run must search as it began");
  // A session option may change; an option the records do not have is not compared.
  other.config_text = "budget = 100\nseed = 42\nthreads = 8\nnew-option = 1\n";
  records::require_same_run(dir, other, session);
}

TEST(LocalWorkQueue, HandsOutInOrderAndStopsOnTheSignal) {
  reset_stop_flag();
  std::unique_ptr<WorkQueue> q = make_local_work_queue({});
  EXPECT_EQ(q->ranks(), 1u);
  EXPECT_TRUE(q->coordinates());
  EXPECT_TRUE(q->agree(true, 1).ok());
  EXPECT_FALSE(q->agree(false, 1).ok());
  std::vector<ProblemResult> results;
  q->start({4, 1, 7}, [&](const ProblemResult& r) { results.push_back(r); });
  EXPECT_EQ(q->next(), 4u);
  q->finished({4, 9, "four"});
  EXPECT_FALSE(q->poll());
  EXPECT_EQ(q->next(), 1u);
  raise_stop_flag();  // SIGTERM while problem 1 is searched
  EXPECT_TRUE(q->poll());
  EXPECT_EQ(q->next(), std::nullopt);
  EXPECT_TRUE(q->finish().stopped);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].problem, 4u);
  EXPECT_EQ(results[0].rank, 0u);
  EXPECT_EQ(results[0].summary, "four");
  reset_stop_flag();
}

TEST(LocalWorkQueue, ARealSigtermSetsTheFlagOnce) {
  reset_stop_flag();
  std::unique_ptr<WorkQueue> q = make_local_work_queue({});
  q->start({0}, [](const ProblemResult&) {});
  ASSERT_EQ(raise(SIGTERM), 0);  // the handler, not the default action: we are still here
  EXPECT_TRUE(stop_signalled());
  EXPECT_TRUE(q->poll());
  reset_stop_flag();
}

TEST(WorkQueue, OneProcessIsNotDistributed) {
  if (launched_by_mpi()) GTEST_SKIP() << "this test itself was started by an MPI launcher";
  reset_stop_flag();
  std::unique_ptr<WorkQueue> q = make_work_queue({});
  EXPECT_EQ(q->ranks(), 1u);
  EXPECT_EQ(q->where(), "");
}

}  // namespace
}  // namespace gs::cluster
