// The NCCL collective (cluster/collective.h): CUDA device buffers, one GPU per rank.
//
// The communicator is bootstrapped over MPI: rank 0 makes the unique id (ncclGetUniqueId) and
// MPI_Bcast hands it to the others. Each rank takes the GPU numbered by its rank among the ranks
// on its node (MPI_Comm_split_type SHARED, which works under mpirun and srun alike), and the
// ranks agree that each of them can before any of them calls into NCCL: a rank that could not
// would leave the others waiting in ncclCommInitRank. Every operation runs on the collective's
// own stream and waits for it, so a call returns with the result in the buffer. That stream
// is a blocking one: work the caller queued on the legacy default stream is done before the
// operation starts; work on other streams the caller must synchronise first.
//
// Sums: NCCL picks the order (ring, tree, NVLink SHARP); each element is reduced once and the
// result copied to every rank, so the ranks get the same bits (NVIDIA/nccl#855, #1497), though
// not necessarily the MPI backend's bits or those of an earlier call.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "base/cuda_check.h"
#include "cluster/collective.h"
#include "cluster/mpi_check.h"
#include "cluster/mpi_session.h"
#include "pipeline/pipeline.h"

namespace gs::cluster {

namespace {

// A failed CUDA or NCCL call: the other ranks may be waiting in a collective with this one, so
// the job ends, saying which rank failed where (docs/design.md "Errors are data").
[[noreturn]] void fail(const char* call, const std::string& why, const char* file, int line) {
  detail::fail_job(call, why.c_str(), file, line);
}

void check_nccl(ncclResult_t rc, const char* call, const char* file, int line) {
  if (rc == ncclSuccess) return;
  std::string why = ncclGetErrorString(rc);
  if (const char* last = ncclGetLastError(nullptr); last != nullptr && *last != '\0')
    why += std::string(": ") + last;
  fail(call, why, file, line);
}

#define NCCL_CHECK(call) check_nccl((call), #call, __FILE__, __LINE__)

// Runs CUDA calls of a collective: the other ranks may be waiting in it with this one, so a
// failed call (gs::CudaError) ends the job instead of unwinding this rank alone.
template <class Calls>
void in_collective(Calls calls) {
  try {
    calls();
  } catch (const CudaError& e) {
    fail("CUDA", e.what(), __FILE__, __LINE__);
  }
}

class NcclCollective final : public Collective {
 public:
  NcclCollective() : comm_(world_.comm()), rank_(world_.rank()), size_(world_.size()) {
    choose_device();
    in_collective([&] { CUDA_CHECK(cudaSetDevice(device_)); });
    ncclUniqueId id{};
    if (rank_ == 0) NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_CHECK(MPI_Bcast(&id, int(sizeof id), MPI_BYTE, 0, comm_));
    NCCL_CHECK(ncclCommInitRank(&nccl_, int(size_), id, int(rank_)));
    in_collective([&] { CUDA_CHECK(cudaStreamCreate(&stream_)); });
  }

  ~NcclCollective() override {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
    if (nccl_ != nullptr) ncclCommDestroy(nccl_);
  }

  u32 rank() const override { return rank_; }
  u32 size() const override { return size_; }
  CollectiveBackend backend() const override { return CollectiveBackend::nccl; }
  Memory memory() const override { return Memory::device; }
  int device() const override { return device_; }

  void all_reduce_sum(float* data, size_t count) override { sum(data, count, ncclFloat32); }
  void all_reduce_sum(double* data, size_t count) override { sum(data, count, ncclFloat64); }
  void all_reduce_sum(i64* data, size_t count) override { sum(data, count, ncclInt64); }

  void broadcast(void* bytes, size_t n, u32 root) override {
    if (root >= size_)
      throw std::out_of_range("broadcast from rank " + std::to_string(root) + " of " + std::to_string(size_));
    if (n == 0) return;
    NCCL_CHECK(ncclBroadcast(bytes, bytes, n, ncclUint8, int(root), nccl_, stream_));
    in_collective([&] { CUDA_CHECK(cudaStreamSynchronize(stream_)); });
  }

  void barrier() override { MPI_CHECK(MPI_Barrier(comm_)); }

 private:
  void sum(void* data, size_t count, ncclDataType_t type) {
    if (count == 0) return;
    NCCL_CHECK(ncclAllReduce(data, data, count, type, ncclSum, nccl_, stream_));
    in_collective([&] { CUDA_CHECK(cudaStreamSynchronize(stream_)); });
  }

  // This rank's GPU: its rank among the ranks on its node. Throws, on every rank together, when
  // some rank has no GPU of its own.
  void choose_device() {
    const int local_size = int(world_.node_size());
    const int devices = pipeline::cuda_device_count();
    std::string why;
    if (devices == 0)
      why = "no CUDA device (cudaGetDeviceCount found none: no GPU, or no driver)";
    else if (local_size > devices)
      why = std::to_string(local_size) + " ranks on this node share " + std::to_string(devices) +
            " CUDA device(s); NCCL needs one per rank";
    int ok = why.empty() ? 1 : 0, all_ok = 0;
    MPI_CHECK(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_));
    if (!all_ok) {
      throw std::runtime_error("the NCCL collective cannot start: " + world_.where() + ": " +
                               (why.empty() ? "another rank cannot (its message says why)" : why));
    }
    device_ = int(world_.node_rank());
  }

  WorldComm world_;  // declared first: the members below are its
  MPI_Comm comm_;
  u32 rank_, size_;
  int device_ = -1;
  ncclComm_t nccl_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

}  // namespace

bool built_with_nccl() { return true; }

std::unique_ptr<Collective> detail::make_nccl_collective() { return std::make_unique<NcclCollective>(); }

}  // namespace gs::cluster
