#include "cluster/stop_signal.h"

#include <signal.h>

#include <atomic>

namespace gs::cluster {

namespace {

// A lock-free atomic is async-signal-safe; the search threads never read it, only the thread
// that polls between batches.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);
bool g_installed = false;
struct sigaction g_previous {};

extern "C" void on_sigterm(int) { g_stop.store(true, std::memory_order_relaxed); }

}  // namespace

void install_stop_signal() {
  if (g_installed) return;
  struct sigaction sa {};
  sa.sa_handler = on_sigterm;
  sigemptyset(&sa.sa_mask);
  // SA_RESETHAND: the second SIGTERM takes the default action (ends the process).
  // SA_RESTART: a read or write interrupted by the signal goes on instead of failing.
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  if (sigaction(SIGTERM, &sa, &g_previous) == 0) g_installed = true;
}

void remove_stop_signal() {
  if (!g_installed) return;
  sigaction(SIGTERM, &g_previous, nullptr);
  g_installed = false;
}

bool stop_signalled() { return g_stop.load(std::memory_order_relaxed); }

void raise_stop_flag() { g_stop.store(true, std::memory_order_relaxed); }
void reset_stop_flag() { g_stop.store(false, std::memory_order_relaxed); }

}  // namespace gs::cluster
