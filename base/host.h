// What a process knows of the machine it runs on, for progress lines and for the records and
// benchmark files that say where they were made: the host's name, the CPUs it may use and
// wall-clock seconds. Every layer uses these, so they live at the bottom.
#pragma once

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

namespace gs {

// This machine's name (gethostname).
inline std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// The CPUs this process may run on: its affinity mask (taskset, numactl, Slurm's cgroups and
// --cpus-per-task), not the machine's core count; hardware_concurrency() where there is none.
inline unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return unsigned(CPU_COUNT(&set));
  unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
}

// Seconds of the steady clock since t.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace gs
