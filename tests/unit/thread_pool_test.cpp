// --threads 0 means the CPUs the process may use (its affinity mask, as taskset and Slurm's
// cgroups set it), not the machine's core count.
#include "base/thread_pool.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

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

// A pool the system cannot start is an error, not a deadlock: in a child process whose address
// space is capped near what it uses, so that thread stacks cannot be mapped (this works for root
// too, whom RLIMIT_NPROC does not bind).
TEST(ThreadPool, ThreadsTheSystemCannotStartAreAnError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: RLIMIT_AS cannot be capped";
#else
  EXPECT_EXIT(
      {
        rlimit cap{};
        getrlimit(RLIMIT_AS, &cap);
        FILE* status = std::fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (status == nullptr || std::fscanf(status, "%lu", &pages) != 1) std::exit(3);
        std::fclose(status);
        cap.rlim_cur = pages * 4096 + (64ul << 20);  // 64 MiB more: a handful of 8 MiB stacks
        if (setrlimit(RLIMIT_AS, &cap) != 0) std::exit(4);
        try {
          ThreadPool pool(1000);
        } catch (const std::runtime_error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(0);
        }
        std::exit(5);
      },
      testing::ExitedWithCode(0), "cannot start 1000 threads \\(started [0-9]+\\)");
#endif
}

}  // namespace
}  // namespace gs
