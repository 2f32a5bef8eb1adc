// How a campaign's problems are shared among its processes (docs/cluster.md).
//
// One process (rank 0) coordinates and also searches; the others are workers. Problems are
// handed out dynamically, a worker asking for more as it finishes them (holding one in reserve,
// QueueOptions::prefetch), so ranks that draw quick problems take more of them. Every finished problem's
// result goes to rank 0, which alone writes the campaign's summary file and prints progress. A stop (SIGTERM,
// from Slurm or mpirun, to any rank) reaches every rank: each finishes the batch it is judging and leaves its
// problem unfinished, so that a re-run resumes it.
//
// Two implementations behind one interface: one rank in process (a campaign not started by an
// MPI launcher, or a build without MPI) and MPI (mpirun / srun with more than one process).
// Nothing outside cluster/ calls MPI. Every method is called from the thread that made the
// queue; a worker's search calls poll() between batches.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/hd.h"

namespace gs::cluster {

// One finished problem: its index in the campaign's problem list, and what the caller made of
// it (opaque here: the campaign sends its summary line).
struct ProblemResult {
  u32 problem = 0;
  u32 rank = 0;  // the rank that searched it (set by the queue)
  std::string summary;
};

// The verdict of the start-up check (WorkQueue::agree), the same on every rank.
struct Agreement {
  std::string why;                // empty when every rank is ready and all loaded the same suite
  bool coordinator_ready = true;  // whether rank 0 itself was ready
  bool ok() const { return why.empty(); }
};

// What rank 0 spent on coordinating (docs/cluster.md "Coordinator cost"): the messages it took
// and sent, and the time inside its serving of the other ranks (probing for messages, answering
// them, recording their results), in CPU time, idle waiting excluded. Zero on a worker and in one
// process.
struct QueueStats {
  u64 received = 0, sent = 0;
  u64 serves = 0;  // times rank 0 looked for messages
  double serving_seconds = 0;
};

// How a campaign ended, as finish() reports it.
struct Ending {
  bool stopped = false;  // a stop signal came before every problem was handed out and finished
};

struct QueueOptions {
  double grace_seconds = 25;  // after a stop, how long rank 0 waits for the workers
  int interrupted_exit_code = 3;
  // How many problems a worker holds beyond the one it searches, so that rank 0's answer is
  // there before it is needed (docs/cluster.md "Protocol"). 0: a worker asks when it finishes.
  u32 prefetch = 1;
  // Rank 0 answers the workers between its own batches at most this often (and at once when it
  // is not searching).
  double serve_interval_seconds = 0.005;
};

class WorkQueue {
 public:
  using ResultSink = std::function<void(const ProblemResult&)>;
  virtual ~WorkQueue() = default;

  virtual u32 rank() const = 0;
  virtual u32 ranks() const = 0;
  // This rank's number among the ranks on its node (0 in one process): which GPU it takes.
  virtual u32 node_rank() const = 0;
  bool coordinates() const { return rank() == 0; }
  // "rank 2 of 4 on node7", or "" for one process: what prefixes this rank's own messages.
  virtual std::string where() const = 0;

  // The start-up check, called by every rank with whether its own preparation succeeded and a
  // fingerprint of what it loaded (the suite). Returns the same verdict on every rank: ok when
  // every rank is ready and all fingerprints agree, otherwise why not (ranks named).
  virtual Agreement agree(bool ready, u64 fingerprint) = 0;

  // Rank 0 only, once a round, before next(): the problems to hand out, in order, and where every
  // rank's finished problems go (called on rank 0 only, from next(), poll() or finish()).
  virtual void start(std::vector<u32> todo, ResultSink sink) = 0;

  // The next problem for this rank to search, or nullopt when none is left or the campaign is
  // stopping. A worker that holds none waits for rank 0's answer (at most one of rank 0's
  // batches, or QueueOptions::serve_interval if that is longer).
  virtual std::optional<u32> next() = 0;
  // This rank finished a problem: its result goes to rank 0's sink.
  virtual void finished(const ProblemResult& result) = 0;
  // Between two batches of this rank's search: rank 0 answers the other ranks; every rank
  // looks for a stop. True when this rank must stop searching now (its problem stays
  // unfinished).
  virtual bool poll() = 0;
  // Whether a stop has been seen (a signal here, or a message from another rank).
  virtual bool stopping() const = 0;

  // After next() returned nullopt (or poll() true) and this rank closed its records files.
  // Rank 0 waits until every worker has finished — after a stop, at most grace_seconds, then
  // the whole job is aborted with the interrupted exit code — and delivers the results still
  // in flight; a worker tells rank 0 it is done. Call it once a round.
  virtual Ending finish() = 0;

  // Rounds: after finish() ended without a stop, every rank may call this, and the queue is as
  // new — rank 0 start()s it with more problems, every rank next()s and finish()es again. A
  // campaign that learns between its problems (docs/cluster.md "Rounds") meets its ranks in a
  // collective between two rounds.
  virtual void new_round() = 0;

  virtual QueueStats stats() const = 0;

  // The options parsed after the queue was made (the grace period, prefetch, serving interval);
  // before start() and next().
  virtual void set_options(const QueueOptions& options) = 0;

  // Ends every rank of the campaign now with this exit code (MPI_Abort); one process: returns.
  virtual void abort(int exit_code) = 0;
};

// The MPI queue when this process was started by an MPI launcher (mpirun, mpiexec, srun with
// PMI/PMIx) and this build has MPI — MPI is initialised here and finalised when the queue is
// destroyed — otherwise the in-process queue with one rank. Installs the SIGTERM handler
// (cluster/stop_signal.h) either way.
std::unique_ptr<WorkQueue> make_work_queue(const QueueOptions& options);

// Whether the environment says an MPI launcher started this process.
bool launched_by_mpi();
// Whether this build has the MPI queue.
bool built_with_mpi();

// The in-process queue (one rank); the factory's fallback, and what tests use.
std::unique_ptr<WorkQueue> make_local_work_queue(const QueueOptions& options);

}  // namespace gs::cluster
