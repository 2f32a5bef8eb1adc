// What a GoogleTest binary needs to run under mpirun (tests/cluster: collective_test,
// work_queue_test): the rank the launcher gave this process, GoogleTest's output from rank 0
// only (the other ranks print their failures, prefixed with their rank, and fail the mpirun
// through their exit status), MPI kept initialised from the first test to the last, and a skip
// for tests that need real ranks. Include it in one source file of a test binary.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cluster/collective.h"
#include "cluster/work_queue.h"

namespace gs::cluster {

inline int env_int(const char* name, int otherwise) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : otherwise;
}

inline int launcher_rank() {
  return env_int("OMPI_COMM_WORLD_RANK", env_int("PMIX_RANK", env_int("PMI_RANK", 0)));
}
inline int launcher_size() { return env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1)); }

// The other ranks' GoogleTest output: only what failed, prefixed with the rank.
class RankFailurePrinter final : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (r.failed())
      std::printf("[rank %d] %s:%d: Failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                  r.line_number(), r.message());
  }
  void OnTestEnd(const testing::TestInfo& t) override {
    if (t.result()->Failed()) std::printf("[rank %d] FAILED %s.%s\n", rank_, t.test_suite_name(), t.name());
    std::fflush(stdout);
  }

 private:
  int rank_;
};

// Runs before main(): ranks other than 0 swap GoogleTest's printer for the one above.
inline const bool quiet_other_ranks = [] {
  const int rank = launcher_rank();
  if (rank == 0) return false;
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailurePrinter(rank));
  return true;
}();

// Holds an MPI collective for the whole program when started by mpirun, so that MPI stays
// initialised from the first test to the last (cluster/mpi_session.h: once finalised, it cannot
// start again), whatever the tests make and drop in between.
class MpiHolder final : public testing::Environment {
 public:
  void SetUp() override {
    if (launched_by_mpi() && built_with_mpi()) held_ = make_collective(CollectiveBackend::mpi);
  }
  void TearDown() override { held_.reset(); }

 private:
  std::unique_ptr<Collective> held_;
};
inline testing::Environment* const mpi_holder = testing::AddGlobalTestEnvironment(new MpiHolder);

#define SKIP_UNLESS_MPI()                                                                        \
  do {                                                                                           \
    if (!built_with_mpi()) GTEST_SKIP() << "built without MPI (-DGPUSYNTH_MPI=ON)";              \
    if (!launched_by_mpi()) GTEST_SKIP() << "needs real ranks: run under mpirun (ctest -L mpi)"; \
  } while (0)

}  // namespace gs::cluster
