// The MPI collective (cluster/collective.h): host buffers, the reference backend.
//
// Why not MPI_Allreduce: the MPI standard only recommends that a reduction give the same result
// on every rank, and lets the library group the additions as it likes; Open MPI picks its
// algorithm (and so the order of the additions) by message size and number of ranks. Floating-
// point addition is not associative, so the bits of a sum would depend on the MPI library, the
// message size and the rank count. Here the sum is a pipelined chain in rank order instead:
// rank r receives the partial sum x0 + ... + x(r-1) from rank r-1 one chunk at a time, adds its
// own buffer and passes it on; the last rank then broadcasts the total, byte for byte. Every
// rank gets the same bits, equal to ((x0 + x1) + x2) + ... computed anywhere. The cost is about
// two passes of the buffer over the network plus one chunk per rank of pipeline latency, against
// a ring all-reduce's two passes: fine for model updates, not for a bandwidth benchmark.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/collective.h"
#include "cluster/mpi_check.h"
#include "cluster/mpi_session.h"

namespace gs::cluster {

namespace {

// The chain passes the buffer on in pieces of this many bytes: small enough to pipeline over
// the ranks, large enough that each message costs its bandwidth more than its latency.
constexpr size_t kChunkBytes = size_t(1) << 20;
// MPI counts are int: a broadcast goes in pieces of at most this many bytes.
constexpr size_t kMaxMessageBytes = size_t(1) << 30;
constexpr int kChainTag = 1;

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpi_type<i64>() {
  return MPI_INT64_T;
}

// Integers wrap, as Syn's do (signed overflow would be undefined behaviour).
inline float add(float a, float b) { return a + b; }
inline double add(double a, double b) { return a + b; }
inline i64 add(i64 a, i64 b) { return i64(u64(a) + u64(b)); }

class MpiCollective final : public Collective {
 public:
  MpiCollective() : comm_(world_.comm()), rank_(world_.rank()), size_(world_.size()) {}

  u32 rank() const override { return rank_; }
  u32 size() const override { return size_; }
  CollectiveBackend backend() const override { return CollectiveBackend::mpi; }
  Memory memory() const override { return Memory::host; }

  void all_reduce_sum(float* data, size_t count) override { sum_in_rank_order(data, count); }
  void all_reduce_sum(double* data, size_t count) override { sum_in_rank_order(data, count); }
  void all_reduce_sum(i64* data, size_t count) override { sum_in_rank_order(data, count); }

  void broadcast(void* bytes, size_t n, u32 root) override {
    if (root >= size_)
      throw std::out_of_range("broadcast from rank " + std::to_string(root) + " of " + std::to_string(size_));
    broadcast_bytes(static_cast<char*>(bytes), n, root);
  }

  void barrier() override { MPI_CHECK(MPI_Barrier(comm_)); }

 private:
  template <class T>
  void sum_in_rank_order(T* data, size_t count) {
    if (size_ == 1 || count == 0) return;
    const size_t chunk = kChunkBytes / sizeof(T);
    std::vector<T> incoming(rank_ > 0 ? std::min(chunk, count) : 0);
    for (size_t begin = 0; begin < count; begin += chunk) {
      const int n = int(std::min(chunk, count - begin));
      T* part = data + begin;
      if (rank_ > 0) {
        MPI_Status status;
        MPI_CHECK(MPI_Recv(incoming.data(), n, mpi_type<T>(), int(rank_ - 1), kChainTag, comm_, &status));
        int got = 0;
        MPI_CHECK(MPI_Get_count(&status, mpi_type<T>(), &got));
        if (got != n) count_mismatch(got, n);
        for (int i = 0; i < n; ++i) part[i] = add(incoming[size_t(i)], part[i]);
      }
      if (rank_ + 1 < size_) MPI_CHECK(MPI_Send(part, n, mpi_type<T>(), int(rank_ + 1), kChainTag, comm_));
    }
    broadcast_bytes(reinterpret_cast<char*>(data), count * sizeof(T), size_ - 1);
  }

  void broadcast_bytes(char* bytes, size_t n, u32 root) {
    for (size_t begin = 0; begin < n; begin += kMaxMessageBytes)
      MPI_CHECK(
          MPI_Bcast(bytes + begin, int(std::min(kMaxMessageBytes, n - begin)), MPI_BYTE, int(root), comm_));
  }

  // A caller error (cluster/collective.h): the ranks passed different counts. The chain cannot
  // go on, and the other ranks are waiting in it: end the job, saying where.
  [[noreturn]] void count_mismatch(int got, int expected) {
    std::fprintf(stderr,
                 "gpusynth: %s: all_reduce_sum: rank %u sent a piece of %d elements where this "
                 "rank expected %d (every rank must pass the same count)\n",
                 world_.where().c_str(), rank_ - 1, got, expected);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();  // MPI_Abort does not return
  }

  WorldComm world_;  // declared first: the members below are its
  MPI_Comm comm_;
  u32 rank_, size_;
};

}  // namespace

std::unique_ptr<Collective> detail::make_mpi_collective() { return std::make_unique<MpiCollective>(); }

}  // namespace gs::cluster
