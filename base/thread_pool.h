// A fixed set of worker threads for the CPU backends: parallel_for() splits [0, n) into chunks
// that the workers (and the calling thread) take from a shared counter, so uneven work — a
// looping program next to a trivial one — still spreads over all cores.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "base/hd.h"

namespace gs {

class ThreadPool {
 public:
  // threads = 0: one per CPU the process may use (usable_cpus(): its affinity mask). Throws
  // std::runtime_error when the system cannot start that many threads.
  explicit ThreadPool(u32 threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Workers, the calling thread included: worker indices passed to body are < size().
  u32 size() const { return u32(workers_.size()) + 1; }

  // Calls body(begin, end, worker) over chunks of [0, n) of at most `chunk` items, and returns
  // when all are done. An exception thrown by body is rethrown here (the first one).
  using Body = std::function<void(u64 begin, u64 end, u32 worker)>;
  void parallel_for(u64 n, u64 chunk, const Body& body);

 private:
  void work(u32 worker);
  void run_chunks(u32 worker);
  void stop();  // ends and joins the workers

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  u64 generation_ = 0;
  bool stop_ = false;
  // The job in progress.
  const Body* body_ = nullptr;
  u64 n_ = 0, chunk_ = 1;
  u64 next_ = 0;
  u32 busy_ = 0;
  std::exception_ptr error_;
};

}  // namespace gs
