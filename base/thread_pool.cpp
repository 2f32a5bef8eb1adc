#include "base/thread_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <system_error>

#include "base/host.h"

namespace gs {

ThreadPool::ThreadPool(u32 threads) {
  if (threads == 0) threads = usable_cpus();
  try {
    for (u32 w = 1; w < threads; ++w) workers_.emplace_back([this, w] { work(w); });
  } catch (const std::system_error& e) {
    // The threads already started wait on wake_: stop and join them, or this constructor's
    // unwinding would destroy joinable threads (std::terminate) or leave them waiting forever.
    stop();
    throw std::runtime_error("cannot start " + std::to_string(threads) + " threads (started " +
                             std::to_string(workers_.size() + 1) + "): " + e.what());
  }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void ThreadPool::run_chunks(u32 worker) {
  for (;;) {
    u64 begin;
    {
      std::lock_guard lock(mutex_);
      if (next_ >= n_ || error_) return;
      begin = next_;
      next_ = std::min(n_, next_ + chunk_);
    }
    try {
      (*body_)(begin, std::min(n_, begin + chunk_), worker);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::work(u32 worker) {
  u64 seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      ++busy_;
    }
    run_chunks(worker);
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_all();
    }
  }
}

void ThreadPool::parallel_for(u64 n, u64 chunk, const Body& body) {
  if (n == 0) return;
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    n_ = n;
    chunk_ = std::max<u64>(1, chunk);
    next_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  run_chunks(0);
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    // Every chunk is taken; wait for the workers still running one. A worker that wakes late
    // finds no chunk left and leaves at once.
    done_.wait(lock, [&] { return busy_ == 0; });
    body_ = nullptr;
    error = error_;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace gs
