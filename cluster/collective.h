// Collectives: all-reduce and broadcast among a job's processes (docs/cluster.md "Collectives").
//
// One interface, three backends made by one factory (docs/design.md "Backends behind one interface",
// as xgboost's Coll): local (one process: every operation is the identity), MPI (host buffers;
// the reference) and NCCL (device buffers, one GPU per rank, the communicator bootstrapped over
// MPI). Asking for a backend this build does not have fails with a message that says how to get
// it. Nothing outside cluster/ calls MPI or NCCL.
//
// Every rank must make the same calls in the same order with the same counts, roots and types:
// a mismatch is a caller error that MPI may report (and abort the job) or that may hang.
// Every call is blocking: it returns when the result is in the caller's buffer. Calls come from
// the thread that made the collective (MPI runs as MPI_THREAD_FUNNELED).
//
// Determinism (docs/design.md): all_reduce_sum gives the same bits on every rank. The MPI backend
// adds in rank order, ((x0 + x1) + x2) + ..., for any number of ranks and any message size, so
// its result is also the same from run to run and equal to a sum computed locally in that
// order. NCCL chooses its own order (ring, tree, NVLink SHARP), the same on every rank but not
// necessarily from call to call or equal to the MPI backend's.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/hd.h"

namespace gs::cluster {

enum class CollectiveBackend {
  automatic,  // nccl when built and every rank has a GPU, else mpi under an MPI launcher, else local
  local,      // this process alone
  mpi,        // MPI, host buffers
  nccl,       // NCCL, CUDA device buffers
};

// Where the buffers passed to a collective live.
enum class Memory {
  host,    // host memory (mpi)
  device,  // CUDA device memory on Collective::device() (nccl)
  any,     // anywhere: the backend never touches them (local)
};

const char* backend_name(CollectiveBackend backend);  // "auto", "local", "mpi", "nccl"

class Collective {
 public:
  virtual ~Collective() = default;

  virtual u32 rank() const = 0;
  virtual u32 size() const = 0;
  virtual CollectiveBackend backend() const = 0;  // never automatic
  virtual Memory memory() const = 0;
  // The CUDA device this rank's buffers must be on (made current for the calling thread by the
  // factory), or -1 for host memory.
  virtual int device() const { return -1; }

  // In place: afterwards data[i] on every rank is the sum over ranks of their data[i].
  virtual void all_reduce_sum(float* data, size_t count) = 0;
  virtual void all_reduce_sum(double* data, size_t count) = 0;
  virtual void all_reduce_sum(i64* data, size_t count) = 0;
  // In place: afterwards every rank's n bytes are root's.
  virtual void broadcast(void* bytes, size_t n, u32 root) = 0;
  // Returns when every rank has called it.
  virtual void barrier() = 0;
};

// The backend asked for (automatic: see CollectiveBackend). Throws std::runtime_error when this
// build lacks it, or (nccl) this process has no CUDA device or the ranks outnumber a node's GPUs.
// mpi and nccl initialise MPI if no one has (cluster/mpi_session.h); the last MPI user to go,
// collective or work queue, finalises it, and MPI cannot start again after that.
// Every rank must ask for the same backend; automatic agrees among the ranks by itself.
std::unique_ptr<Collective> make_collective(CollectiveBackend backend = CollectiveBackend::automatic);

// The one-process backend (rank 0 of 1): what make_collective gives a process not started by
// an MPI launcher.
std::unique_ptr<Collective> make_local_collective();

namespace detail {
// The factory's MPI and NCCL backends, defined in mpi_collective.cpp and nccl_collective.cpp, or
// by collective.cpp as stubs that throw when the build lacks them.
std::unique_ptr<Collective> make_mpi_collective();
std::unique_ptr<Collective> make_nccl_collective();
}  // namespace detail

// Whether this build has the NCCL collective (GPUSYNTH_NCCL=ON).
bool built_with_nccl();

}  // namespace gs::cluster
