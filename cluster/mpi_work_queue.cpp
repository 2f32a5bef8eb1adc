// The MPI work queue (cluster/work_queue.h; the protocol is docs/cluster.md).
//
// Rank 0 answers the workers from the thread that also runs its own search, by polling between
// batches (poll(), called from the search loop's observer) rather than from a coordinator
// thread. Why: every MPI call then stays on one thread (MPI_THREAD_FUNNELED, which every MPI
// provides at full speed, where MPI_THREAD_MULTIPLE is optional and slower in Open MPI), and
// the campaign's summary file and progress lines are written by the same thread as before,
// with no locks. The cost is latency, which prefetching hides: a worker holds
// QueueOptions::prefetch problems beyond the one it searches, and each RESULT it sends also
// asks for one more, so its next problem is already there when it finishes one, however long
// rank 0 takes to answer. So rank 0 need not answer often: it serves at most every
// QueueOptions::serve_interval between its batches (a probe costs it microseconds, and a GPU
// batch can take less than a millisecond), and at once whenever it is not searching.
//
// Messages (all MPI_BYTE on a duplicate of MPI_COMM_WORLD; every send is non-blocking, so no
// rank ever blocks in a send to a rank that is busy searching):
//   worker -> 0: REQUEST (u32 n: give me n problems; a worker's first message),
//                RESULT (u32 problem + summary bytes; also asks for one more problem),
//                STOPPING (I saw SIGTERM), DONE (my records are closed; nothing more from me)
//   0 -> worker: ASSIGN (u32 problems, one or more), STOP (u8: 1 the campaign is stopping, 0 no
//                work left beyond what was assigned)
// Messages between two ranks arrive in the order they were sent (MPI's non-overtaking rule), so
// an ASSIGN is always taken before a STOP sent after it.
// Every wait is a probe loop that also watches SIGTERM and, once the campaign is stopping, a
// deadline (QueueOptions::grace_seconds) after which the job is aborted.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <list>
#include <stdexcept>
#include <thread>

#include "cluster/mpi_check.h"
#include "cluster/mpi_session.h"
#include "cluster/stop_signal.h"
#include "cluster/work_queue.h"

namespace gs::cluster {

namespace {

using Clock = std::chrono::steady_clock;
using Bytes = std::vector<char>;

enum Tag : int { kRequest = 1, kResult, kStopping, kDone, kAssign, kStop };

struct Message {
  int source = 0;
  int tag = 0;
  Bytes bytes;
};

Bytes u32_bytes(u32 v) {
  Bytes b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

// The first u32 of a message (0 if it has none).
u32 read_u32(const Bytes& b) {
  u32 v = 0;
  if (b.size() >= sizeof v) std::memcpy(&v, b.data(), sizeof v);
  return v;
}

// Every u32 of an ASSIGN.
std::vector<u32> read_u32s(const Bytes& b) {
  std::vector<u32> v(b.size() / sizeof(u32));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(u32));
  return v;
}

// This thread's CPU time: what serving costs rank 0, unlike wall time not inflated when the
// scheduler takes the core away mid-call (ranks oversubscribing the cores).
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// How long a probe loop sleeps between probes: short against a batch, long enough that an idle
// rank 0 leaves the cores to the searching ranks.
constexpr auto kProbeInterval = std::chrono::milliseconds(2);

class MpiWorkQueue final : public WorkQueue {
 public:
  explicit MpiWorkQueue(const QueueOptions& options)
      : options_(options), comm_(world_.comm()), rank_(world_.rank()), size_(world_.size()) {
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    workers_.resize(size_);
    // After MPI_Init: Open MPI's runtime may install its own handlers; ours must win.
    install_stop_signal();
  }

  ~MpiWorkQueue() override {
    remove_stop_signal();
    // Started but never finished (an error on this rank): the other ranks may be waiting for
    // this one, and MPI_Finalize would wait for them. End the job instead.
    if (size_ > 1 && started_ && !finish_called_) abort(2);
    // The ranks leave together: mpirun ends the whole job as soon as one rank exits with a
    // non-zero status (an interrupted campaign's), and would otherwise kill the ranks still
    // closing, after its kill timeout, slowing the exit by seconds.
    if (size_ > 1) leave_together();
  }

  u32 rank() const override { return rank_; }
  u32 ranks() const override { return size_; }
  u32 node_rank() const override { return world_.node_rank(); }
  std::string where() const override { return world_.where(); }

  Agreement agree(bool ready, u64 fingerprint) override {
    struct Entry {
      u64 fingerprint;
      u64 ready;
    } mine{fingerprint, ready ? 1u : 0u};
    std::vector<Entry> all(size_);
    MPI_CHECK(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm_));
    std::string not_ready, differ;
    for (u32 r = 0; r < size_; ++r) {
      if (!all[r].ready)
        not_ready += (not_ready.empty() ? "" : ", ") + std::to_string(r);
      else if (all[0].ready && all[r].fingerprint != all[0].fingerprint)
        differ += (differ.empty() ? "" : ", ") + std::to_string(r);
    }
    Agreement a;
    a.coordinator_ready = all[0].ready != 0;
    if (!not_ready.empty())
      a.why = "rank(s) " + not_ready + " could not start (their messages say why)";
    else if (!differ.empty())
      a.why = "rank(s) " + differ +
              " loaded a different suite than rank 0 (is the suite folder the same on every node?)";
    return a;
  }

  void start(std::vector<u32> todo, ResultSink sink) override {
    if (rank_ != 0) throw std::logic_error("WorkQueue::start() on a worker");
    todo_.assign(todo.begin(), todo.end());
    sink_ = std::move(sink);
    started_ = true;
  }

  std::optional<u32> next() override { return rank_ == 0 ? coordinator_next() : worker_next(); }

  void finished(const ProblemResult& result) override {
    if (rank_ == 0) {
      ProblemResult r = result;
      r.rank = 0;
      sink_(r);
      return;
    }
    Bytes b = u32_bytes(result.problem);
    b.insert(b.end(), result.summary.begin(), result.summary.end());
    send(0, kResult, std::move(b));
    if (!stop_received_) ++asked_;  // rank 0 answers a RESULT with one more problem, or a STOP
  }

  bool poll() override {
    if (rank_ == 0)
      serve(/*now=*/false);
    else
      worker_poll();
    return stopping_;
  }

  bool stopping() const override { return stopping_; }

  Ending finish() override {
    finish_called_ = true;
    return rank_ == 0 ? coordinator_finish() : worker_finish();
  }

  void new_round() override {
    if (!finish_called_ || stopping_)
      throw std::logic_error("WorkQueue::new_round() before finish() or after a stop");
    // Every message of the last round was taken: rank 0 waited for every DONE, a worker for its
    // STOP and for its sends to complete.
    started_ = finish_called_ = false;
    stop_received_ = false;
    asked_ = 0;
    held_.clear();
    todo_.clear();
    for (Worker& w : workers_) w = Worker{};
  }
  QueueStats stats() const override { return stats_; }
  void set_options(const QueueOptions& options) override {
    if (started_) throw std::logic_error("WorkQueue::set_options() after the campaign started");
    options_ = options;
  }

  void abort(int exit_code) override {
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, exit_code);
  }

 private:
  struct Worker {
    bool stop_sent = false;  // every worker gets exactly one STOP
    bool done = false;
  };
  struct PendingSend {
    MPI_Request request = MPI_REQUEST_NULL;
    Bytes bytes;  // must outlive the send
  };

  // ---- messages ------------------------------------------------------------------------------
  void send(u32 dest, int tag, Bytes bytes) {
    if (rank_ == 0) ++stats_.sent;
    pending_.push_back({MPI_REQUEST_NULL, std::move(bytes)});
    PendingSend& p = pending_.back();
    MPI_CHECK(MPI_Isend(p.bytes.data(), int(p.bytes.size()), MPI_BYTE, int(dest), tag, comm_, &p.request));
    reap();
  }

  // Forgets the sends that have completed.
  void reap() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_CHECK(MPI_Test(&it->request, &done, MPI_STATUS_IGNORE));
      it = done ? pending_.erase(it) : std::next(it);
    }
  }

  std::optional<Message> receive(int source) {
    int flag = 0;
    MPI_Status status;
    MPI_CHECK(MPI_Iprobe(source, MPI_ANY_TAG, comm_, &flag, &status));
    if (!flag) return std::nullopt;
    int count = 0;
    MPI_CHECK(MPI_Get_count(&status, MPI_BYTE, &count));
    Message m;
    m.source = status.MPI_SOURCE;
    m.tag = status.MPI_TAG;
    m.bytes.resize(size_t(count));
    MPI_CHECK(MPI_Recv(m.bytes.data(), count, MPI_BYTE, m.source, m.tag, comm_, MPI_STATUS_IGNORE));
    return m;
  }

  [[noreturn]] void give_up(const std::string& why) {
    std::fprintf(stderr, "gpusynth campaign: %s: %s; aborting the job\n", where().c_str(), why.c_str());
    abort(options_.interrupted_exit_code);
    std::terminate();  // MPI_Abort does not return
  }

  // The deadline of a wait: none until the campaign is stopping, then grace_seconds from then.
  void watch_deadline(std::optional<Clock::time_point>* deadline, const char* waiting_for) {
    if (!stopping_) return;
    if (!*deadline)
      *deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options_.grace_seconds));
    else if (Clock::now() > **deadline)
      give_up(std::string("still waiting for ") + waiting_for + " " + std::to_string(options_.grace_seconds) +
              " s after the stop");
  }

  // A barrier before MPI_Finalize. At a normal end it waits as long as rank 0 takes to join the
  // records and print the table (a worker that left would only wait in MPI_Finalize instead).
  // After a stop it waits at most the grace period and then aborts the job: finalising with the
  // barrier still pending crashes Open MPI, and a rank that stopped must not exit alone.
  void leave_together() {
    MPI_Request barrier = MPI_REQUEST_NULL;
    MPI_CHECK(MPI_Ibarrier(comm_, &barrier));
    std::optional<Clock::time_point> deadline;
    for (int done = 0;;) {
      MPI_CHECK(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE));
      if (done) return;
      watch_deadline(&deadline, "the other ranks to leave");
      std::this_thread::sleep_for(kProbeInterval);
    }
  }

  // ---- rank 0 --------------------------------------------------------------------------------
  // Answers every message waiting, then notices a local SIGTERM. Between rank 0's own batches
  // (now = false) at most every serve_interval: the workers' prefetched problems cover the wait.
  void serve(bool now) {
    if (!now) {
      const Clock::time_point t = Clock::now();
      if (t < next_serve_) return;
      next_serve_ = t + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(options_.serve_interval_seconds));
    }
    const double began = thread_cpu_seconds();
    while (std::optional<Message> m = receive(MPI_ANY_SOURCE)) {
      ++stats_.received;
      handle(*m);
    }
    if (stop_signalled() && !stopping_) begin_stop();
    reap();
    ++stats_.serves;
    stats_.serving_seconds += thread_cpu_seconds() - began;
  }

  void handle(const Message& m) {
    Worker& w = workers_[size_t(m.source)];
    switch (m.tag) {
      case kResult: {
        ProblemResult r;
        r.problem = read_u32(m.bytes);
        r.rank = u32(m.source);
        if (m.bytes.size() > sizeof(u32)) r.summary.assign(m.bytes.begin() + sizeof(u32), m.bytes.end());
        sink_(r);
        assign(u32(m.source), 1);  // a RESULT also asks for the next problem
        break;
      }
      case kRequest: assign(u32(m.source), read_u32(m.bytes)); break;
      case kStopping: begin_stop(); break;
      case kDone: w.done = true; break;
      default:
        std::fprintf(stderr, "gpusynth campaign: %s: unexpected message %d from rank %d, ignored\n",
                     where().c_str(), m.tag, m.source);
    }
  }

  // Up to n problems for a worker, in one ASSIGN; a STOP after them when the queue runs dry (or
  // the campaign is stopping). Nothing to a worker that already has its STOP: it asked just
  // before the STOP reached it.
  void assign(u32 worker, u32 n) {
    if (workers_[worker].stop_sent) return;
    Bytes b;
    while (!stopping_ && n > 0 && !todo_.empty()) {
      const Bytes p = u32_bytes(todo_.front());
      b.insert(b.end(), p.begin(), p.end());
      todo_.pop_front();
      --n;
    }
    if (!b.empty()) send(worker, kAssign, std::move(b));
    if (n > 0) send_stop(worker);
  }

  void send_stop(u32 worker) {
    workers_[worker].stop_sent = true;
    send(worker, kStop, Bytes{char(stopping_ ? 1 : 0)});
  }

  // Every worker that has not had its STOP gets it now: it stops at its next batch boundary.
  void begin_stop() {
    stopping_ = true;
    for (u32 r = 1; r < size_; ++r)
      if (!workers_[r].stop_sent) send_stop(r);
  }

  std::optional<u32> coordinator_next() {
    if (!started_) throw std::logic_error("WorkQueue::next() before start()");
    serve(/*now=*/true);  // the workers waiting get their problems before rank 0 takes one
    if (stopping_ || todo_.empty()) return std::nullopt;
    const u32 p = todo_.front();
    todo_.pop_front();
    return p;
  }

  Ending coordinator_finish() {
    std::optional<Clock::time_point> deadline;
    for (;;) {
      serve(/*now=*/true);
      bool all_done = pending_.empty();
      std::string missing;
      for (u32 r = 1; r < size_; ++r)
        if (!workers_[r].done) {
          all_done = false;
          missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        }
      if (all_done) break;
      watch_deadline(&deadline, ("rank(s) " + missing).c_str());
      std::this_thread::sleep_for(kProbeInterval);
    }
    return {stopping_};
  }

  // ---- workers -------------------------------------------------------------------------------
  // A local SIGTERM: tell rank 0 (once), which stops every rank.
  void notice_signal() {
    if (!stop_signalled() || told_stopping_) return;
    told_stopping_ = true;
    stopping_ = true;
    send(0, kStopping, {});
  }

  // A message from rank 0: problems join the ones this worker holds (dropped once the campaign
  // is stopping: not started, they stay unfinished and a re-run does them); a STOP answers
  // every ask still open.
  void take(const Message& m) {
    if (m.tag == kAssign) {
      const std::vector<u32> problems = read_u32s(m.bytes);
      asked_ -= std::min<u32>(asked_, u32(problems.size()));
      if (!stopping_) held_.insert(held_.end(), problems.begin(), problems.end());
    } else if (m.tag == kStop) {
      stop_received_ = true;
      asked_ = 0;
      if (!m.bytes.empty() && m.bytes[0] != 0) stopping_ = true;
    }
  }

  // The first call asks for 1 + prefetch problems; later ones take a held problem, the RESULT of
  // the last one having asked for its replacement. Waits only when none is held.
  std::optional<u32> worker_next() {
    if (!started_) {
      started_ = true;
      asked_ = 1 + options_.prefetch;
      send(0, kRequest, u32_bytes(asked_));
    }
    std::optional<Clock::time_point> deadline;
    for (;;) {
      notice_signal();
      while (std::optional<Message> m = receive(0)) take(*m);
      if (stopping_) held_.clear();
      if (!held_.empty()) {
        const u32 p = held_.front();
        held_.pop_front();
        return p;
      }
      if (stop_received_ || stopping_) return std::nullopt;
      if (asked_ == 0) {  // every ask answered and nothing held (cannot happen): ask again
        asked_ = 1;
        send(0, kRequest, u32_bytes(asked_));
      }
      reap();
      watch_deadline(&deadline, "rank 0's answer");
      std::this_thread::sleep_for(kProbeInterval);
    }
  }

  void worker_poll() {
    notice_signal();
    while (std::optional<Message> m = receive(0)) take(*m);
    reap();
  }

  Ending worker_finish() {
    std::optional<Clock::time_point> deadline;
    while (!stop_received_) {
      notice_signal();
      if (std::optional<Message> m = receive(0)) take(*m);  // problems that crossed our STOPPING are dropped
      if (stop_received_) break;
      watch_deadline(&deadline, "rank 0's STOP");
      std::this_thread::sleep_for(kProbeInterval);
    }
    send(0, kDone, Bytes{char(stopping_ ? 1 : 0)});
    deadline.reset();
    while (!pending_.empty()) {
      reap();
      if (pending_.empty()) break;
      watch_deadline(&deadline, "rank 0 to take the last messages");
      std::this_thread::sleep_for(kProbeInterval);
    }
    return {stopping_};
  }

  WorldComm world_;  // declared first: MPI is up before the constructor's body and after the destructor's
  QueueOptions options_;
  MPI_Comm comm_;
  u32 rank_, size_;
  bool started_ = false, finish_called_ = false;
  bool stopping_ = false;
  std::list<PendingSend> pending_;
  // rank 0
  QueueStats stats_;
  Clock::time_point next_serve_{};  // serve() between batches answers no sooner
  std::deque<u32> todo_;
  ResultSink sink_;
  std::vector<Worker> workers_;
  // workers
  bool stop_received_ = false, told_stopping_ = false;
  std::deque<u32> held_;  // assigned, not yet started
  u32 asked_ = 0;         // problems asked of rank 0 and not yet answered
};

}  // namespace

bool built_with_mpi() { return true; }

std::unique_ptr<WorkQueue> make_work_queue(const QueueOptions& options) {
  if (!launched_by_mpi()) return make_local_work_queue(options);
  return std::make_unique<MpiWorkQueue>(options);
}

}  // namespace gs::cluster
