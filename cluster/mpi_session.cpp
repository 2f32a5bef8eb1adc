// MpiSession: a process-wide count of MPI's users (cluster/mpi_session.h).
#include "cluster/mpi_session.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "base/host.h"
#include "cluster/mpi_check.h"

namespace gs::cluster {

namespace {

std::mutex session_mutex;
int sessions = 0;          // sessions alive now
bool initialised = false;  // a session called MPI_Init_thread (and so finalises)

}  // namespace

MpiSession::MpiSession() {
  std::lock_guard lock(session_mutex);
  if (sessions > 0) {
    ++sessions;
    return;
  }
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (finalised)
    throw std::runtime_error(
        "MPI was already finalised in this process and cannot start again: keep one MPI user "
        "(a work queue or a collective) alive across the others");
  ++sessions;
  int already = 0;
  MPI_Initialized(&already);
  if (already) return;  // initialised by someone else (a library, a test): theirs to finalise
  int provided = 0;
  MPI_CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
  initialised = true;
}

MpiSession::~MpiSession() {
  std::lock_guard lock(session_mutex);
  if (--sessions > 0 || !initialised) return;
  initialised = false;
  MPI_Finalize();
}

WorldComm::WorldComm() {
  MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm_));
  MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  int rank = 0, size = 0, node_rank = 0, node_size = 1;
  MPI_CHECK(MPI_Comm_rank(comm_, &rank));
  MPI_CHECK(MPI_Comm_size(comm_, &size));
  MPI_Comm node = MPI_COMM_NULL;
  MPI_CHECK(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  MPI_CHECK(MPI_Comm_rank(node, &node_rank));
  MPI_CHECK(MPI_Comm_size(node, &node_size));
  MPI_CHECK(MPI_Comm_free(&node));
  rank_ = u32(rank);
  size_ = u32(size);
  node_rank_ = u32(node_rank);
  node_size_ = u32(node_size);
  host_ = host_name();
}

WorldComm::~WorldComm() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

std::string WorldComm::where() const {
  return "rank " + std::to_string(rank_) + " of " + std::to_string(size_) + " on " + host_;
}

namespace detail {

void fail_job(const char* call, const char* why, const char* file, int line) {
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::fprintf(stderr, "gpusynth: rank %d of %d on %s: %s:%d: %s failed: %s\n", rank, size,
               host_name().c_str(), file, line, call, why);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

void mpi_check(int rc, const char* call, const char* file, int line) {
  if (rc == MPI_SUCCESS) return;
  char why[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(rc, why, &length) != MPI_SUCCESS) std::snprintf(why, sizeof why, "MPI error %d", rc);
  fail_job(call, why, file, line);
}

}  // namespace detail

}  // namespace gs::cluster
