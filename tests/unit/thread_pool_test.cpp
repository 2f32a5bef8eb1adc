// --threads 0 means the CPUs the process may use (its affinity mask, as taskset and Slurm's
// cgroups set it), not the machine's core count.
#include "base/thread_pool.h"

#include <gtest/gtest.h>
#include <sched.h>

#include "base/host.h"

namespace gs {
namespace {

// Narrows the calling thread (sched_getaffinity(0) reads the caller's mask) to its first n
// allowed CPUs for one scope.
class Affinity {
 public:
  explicit Affinity(int n) {
    sched_getaffinity(0, sizeof saved_, &saved_);
    cpu_set_t narrow;
    CPU_ZERO(&narrow);
    for (int cpu = 0, taken = 0; cpu < CPU_SETSIZE && taken < n; ++cpu) {
      if (!CPU_ISSET(cpu, &saved_)) continue;
      CPU_SET(cpu, &narrow);
      ++taken;
    }
    EXPECT_EQ(sched_setaffinity(0, sizeof narrow, &narrow), 0);
  }
  ~Affinity() { sched_setaffinity(0, sizeof saved_, &saved_); }

 private:
  cpu_set_t saved_;
};

TEST(ThreadPool, ZeroThreadsMeansTheCpusTheProcessMayUse) {
  const unsigned all = usable_cpus();
  ASSERT_GE(all, 1u);
  {
    Affinity one(1);
    EXPECT_EQ(usable_cpus(), 1u);
    EXPECT_EQ(ThreadPool(0).size(), 1u);
  }
  if (all >= 2) {
    Affinity two(2);
    EXPECT_EQ(usable_cpus(), 2u);
    EXPECT_EQ(ThreadPool(0).size(), 2u);
  }
  EXPECT_EQ(usable_cpus(), all);
  EXPECT_EQ(ThreadPool(3).size(), 3u);  // an explicit count is taken as given
}

}  // namespace
}  // namespace gs
