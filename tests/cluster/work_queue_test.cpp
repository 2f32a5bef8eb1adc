// The MPI work queue (cluster/mpi_work_queue.cpp) with real ranks, driven directly rather than
// through `gpusynth campaign` (campaign_test.sh does that): every rank runs a made-up campaign
// whose problems are sleeps of given lengths, polling between 1 ms "batches" as a search does.
// Run under `mpirun -np 2` and `-np 3` (ctest label mpi); as one process every test skips.
// What is checked, on rank 0, from the results that reach it: every problem is searched exactly
// once and its result comes from the rank that searched it, for several prefetch depths and
// serving intervals; a worker holding problems in reserve still leaves a slow problem's rank
// free of the rest; a stop from a worker ends every rank with no problem reported twice.
#include "cluster/work_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "cluster/stop_signal.h"
#include "tests/cluster/mpi_ranks.h"

namespace gs::cluster {
namespace {

struct Outcome {
  std::vector<ProblemResult> results;  // rank 0: every result that reached it
  u32 searched = 0;                    // this rank: problems it finished
  bool stopped = false;
};

// A campaign of `problems` problems on every rank; problem p takes work_ms(p) batches of 1 ms.
// stop_after: after this rank has finished that many problems it raises the stop flag, as a
// SIGTERM would (0: never).
Outcome run_campaign(const QueueOptions& options, u32 problems, const std::function<int(u32)>& work_ms,
                     u32 stop_on_rank = 0, u32 stop_after = 0) {
  reset_stop_flag();
  std::unique_ptr<WorkQueue> queue = make_work_queue(options);
  Outcome out;
  if (queue->coordinates()) {
    std::vector<u32> todo(problems);
    std::iota(todo.begin(), todo.end(), 0u);
    queue->start(todo, [&](const ProblemResult& r) { out.results.push_back(r); });
  }
  while (std::optional<u32> p = queue->next()) {
    bool stopped = false;
    for (int batch = 0; batch < std::max(1, work_ms(*p)) && !stopped; ++batch) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      stopped = queue->poll();
    }
    if (stopped) break;  // unfinished
    ++out.searched;
    queue->finished({*p, queue->rank(), std::to_string(queue->rank()) + "/" + std::to_string(out.searched)});
    if (stop_after > 0 && queue->rank() == stop_on_rank && out.searched == stop_after) raise_stop_flag();
  }
  out.stopped = queue->finish().stopped;
  reset_stop_flag();
  return out;
}

// The summary of a made-up problem: "R/K", the rank that searched it and how many that rank had
// finished with it (1 for its first).
u32 summary_rank(const std::string& s) { return u32(std::stoul(s.substr(0, s.find('/')))); }
u32 summary_order(const std::string& s) { return u32(std::stoul(s.substr(s.find('/') + 1))); }

// Rank 0: each problem's result at most once (exactly once when complete), from the rank that
// searched it (the summary names it). Returns how many problems each rank finished.
std::map<u32, u32> check_results(const Outcome& o, u32 problems, bool complete) {
  std::map<u32, u32> per_rank;
  std::vector<int> seen(problems, 0);
  for (const ProblemResult& r : o.results) {
    EXPECT_LT(r.problem, problems);
    if (r.problem >= problems) continue;
    ++seen[r.problem];
    EXPECT_EQ(summary_rank(r.summary), r.rank) << "problem " << r.problem;
    ++per_rank[r.rank];
  }
  for (u32 p = 0; p < problems; ++p) {
    EXPECT_LE(seen[p], 1) << "problem " << p << " reported " << seen[p] << " times";
    if (complete) {
      EXPECT_EQ(seen[p], 1) << "problem " << p << " never reported";
    }
  }
  return per_rank;
}

struct Setting {
  u32 prefetch;
  double serve_interval;
};

class WorkQueueMpi : public testing::TestWithParam<Setting> {};

TEST_P(WorkQueueMpi, EveryProblemOnceFromTheRankThatSearchedIt) {
  SKIP_UNLESS_MPI();
  QueueOptions options;
  options.prefetch = GetParam().prefetch;
  options.serve_interval_seconds = GetParam().serve_interval;
  const u32 problems = 60;
  // Uneven problems: every seventh takes 12 batches, the rest 1 to 3.
  const Outcome o = run_campaign(options, problems, [](u32 p) { return p % 7 == 0 ? 12 : 1 + int(p % 3); });
  EXPECT_FALSE(o.stopped);
  if (launcher_rank() != 0) return;
  const std::map<u32, u32> per_rank = check_results(o, problems, /*complete=*/true);
  EXPECT_GT(per_rank.size(), 1u) << "all the work was done by one rank";
}

INSTANTIATE_TEST_SUITE_P(Settings, WorkQueueMpi,
                         testing::Values(Setting{0, 0.0}, Setting{1, 0.0}, Setting{1, 0.005},
                                         Setting{3, 0.02}),
                         [](const testing::TestParamInfo<Setting>& i) {
                           return "prefetch" + std::to_string(i.param.prefetch) + "_interval" +
                                  std::to_string(int(i.param.serve_interval * 1000)) + "ms";
                         });

// Problem 30 of 90 takes two seconds, the others 1 ms each: the rank that draws it finishes after
// it only the problems it held in reserve (prefetch), while the others take everything else.
TEST(WorkQueueMpiBalance, ASlowProblemKeepsOnlyItsRanksReserve) {
  SKIP_UNLESS_MPI();
  for (u32 prefetch : {0u, 1u, 2u}) {
    SCOPED_TRACE("prefetch " + std::to_string(prefetch));
    QueueOptions options;
    options.prefetch = prefetch;
    const u32 problems = 90, slow_problem = 30;
    const Outcome o = run_campaign(options, problems, [](u32 p) { return p == slow_problem ? 2000 : 1; });
    if (launcher_rank() != 0) continue;
    check_results(o, problems, /*complete=*/true);
    const auto slow = std::find_if(o.results.begin(), o.results.end(),
                                   [&](const ProblemResult& r) { return r.problem == slow_problem; });
    ASSERT_NE(slow, o.results.end());
    const u32 after = u32(std::count_if(o.results.begin(), o.results.end(), [&](const ProblemResult& r) {
      return r.rank == slow->rank && summary_order(r.summary) > summary_order(slow->summary);
    }));
    EXPECT_LE(after, prefetch) << "rank " << slow->rank << " searched problem " << slow_problem;
  }
}

// A worker's stop (rank 1 after its third problem) reaches every rank: the campaign ends
// stopped on every rank, unfinished, with no problem reported twice; the problems workers held
// in reserve are dropped, not reported.
TEST(WorkQueueMpiStop, AWorkersStopEndsEveryRank) {
  SKIP_UNLESS_MPI();
  QueueOptions options;
  options.prefetch = 2;
  const u32 problems = 200;
  const Outcome o = run_campaign(
      options, problems, [](u32) { return 5; }, /*stop_on_rank=*/1, /*stop_after=*/3);
  EXPECT_TRUE(o.stopped);
  if (launcher_rank() == 1) {
    EXPECT_EQ(o.searched, 3u);
  }
  if (launcher_rank() != 0) return;
  check_results(o, problems, /*complete=*/false);
  EXPECT_LT(o.results.size(), problems);
  EXPECT_GE(o.results.size(), 3u);
}

}  // namespace
}  // namespace gs::cluster
