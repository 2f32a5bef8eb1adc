// The in-process work queue: one rank that hands its problems to itself, in order. It is what
// every campaign not started by an MPI launcher uses, so a campaign on one process behaves as
// it did before cluster/ existed, except that SIGTERM now stops it at a batch boundary.
#include <cstdlib>
#include <deque>
#include <stdexcept>

#include "cluster/stop_signal.h"
#include "cluster/work_queue.h"

namespace gs::cluster {

namespace {

class LocalWorkQueue final : public WorkQueue {
 public:
  explicit LocalWorkQueue(const QueueOptions& options) : options_(options) { install_stop_signal(); }
  ~LocalWorkQueue() override { remove_stop_signal(); }

  u32 rank() const override { return 0; }
  u32 ranks() const override { return 1; }
  u32 node_rank() const override { return 0; }
  std::string where() const override { return ""; }
  Agreement agree(bool ready, u64) override { return {ready ? "" : "could not start", ready}; }

  void start(std::vector<u32> todo, ResultSink sink) override {
    todo_.assign(todo.begin(), todo.end());
    sink_ = std::move(sink);
    started_ = true;
  }

  std::optional<u32> next() override {
    if (!started_) throw std::logic_error("WorkQueue::next() before start()");
    if (stopping() || todo_.empty()) return std::nullopt;
    const u32 p = todo_.front();
    todo_.pop_front();
    return p;
  }

  void finished(const ProblemResult& result) override {
    ProblemResult r = result;
    r.rank = 0;
    sink_(r);
  }

  bool poll() override { return stopping(); }
  bool stopping() const override { return stop_signalled(); }

  Ending finish() override { return {stopping()}; }
  void new_round() override { started_ = false; }

  QueueStats stats() const override { return {}; }
  void set_options(const QueueOptions& options) override { options_ = options; }
  void abort(int) override {}

 private:
  QueueOptions options_;
  std::deque<u32> todo_;
  ResultSink sink_;
  bool started_ = false;
};

}  // namespace

std::unique_ptr<WorkQueue> make_local_work_queue(const QueueOptions& options) {
  return std::make_unique<LocalWorkQueue>(options);
}

bool launched_by_mpi() {
  // Open MPI's mpirun, PMIx launchers (srun --mpi=pmix, prterun), PMI-1/2 launchers (MPICH's
  // hydra, srun --mpi=pmi2). A plain process has none of these.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

#ifndef GPUSYNTH_HAVE_MPI
namespace {

// The number of processes the launcher started, when the environment says (0 when it does not).
u32 launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (const char* v = std::getenv(name)) return u32(std::strtoul(v, nullptr, 10));
  return 0;
}

}  // namespace

bool built_with_mpi() { return false; }

std::unique_ptr<WorkQueue> make_work_queue(const QueueOptions& options) {
  // Started by mpirun but built without MPI: every rank would run the whole campaign into the
  // same files. Refuse rather than corrupt them.
  if (launched_by_mpi() && launched_processes() > 1)
    throw std::runtime_error(
        "started by an MPI launcher, but this gpusynth was built without MPI (configure with "
        "-DGPUSYNTH_MPI=ON), or run it as one process");
  return make_local_work_queue(options);
}
#endif

}  // namespace gs::cluster
