// The collectives (cluster/collective.h). One binary, two ways to run it:
//   - as one process (ctest label unit): the local backend, the factory, the messages of a
//     build without MPI or NCCL; the MPI tests skip, saying so;
//   - under `mpirun -np 2` and `-np 3` (label mpi): the MPI backend with real ranks, each rank
//     checking its result against a sum it computes itself in rank order, bit for bit, and
//     against rank 0's (a hash broadcast); the NCCL backend where there are GPUs for it.
// Under mpirun only rank 0 prints GoogleTest's usual output; the other ranks print their
// failures, prefixed with their rank, and their exit status fails the mpirun.
#include "cluster/collective.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cluster/work_queue.h"
#include "pipeline/pipeline.h"
#include "tests/cluster/mpi_ranks.h"

#ifdef GPUSYNTH_HAVE_NCCL
#include <cuda_runtime.h>
#endif

namespace gs::cluster {
namespace {

// ---- data ----------------------------------------------------------------------------------

// Rank r's buffer of a test: a fixed function of (rank, size, kind), so every rank can make
// every other rank's. Magnitudes spread over 16 decades, so that the order of the additions
// shows in the bits of the sums.
template <class T>
std::vector<T> rank_buffer(u32 rank, size_t count, u64 kind) {
  std::mt19937_64 rng(0x9e3779b97f4a7c15ull * (rank + 1) ^ (count * 1000003ull) ^ (kind << 48));
  std::vector<T> v(count);
  if constexpr (std::is_integral_v<T>) {
    for (T& x : v) x = T(rng());  // wraps when summed: tested too
  } else {
    std::uniform_real_distribution<double> unit(-1.0, 1.0), decade(-8.0, 8.0);
    for (T& x : v) x = T(unit(rng) * std::pow(10.0, decade(rng)));
  }
  return v;
}

template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return T(u64(a) + u64(b));
  else
    return a + b;
}

// ((x0 + x1) + x2) + ...: what the MPI backend promises, computed here without it.
template <class T>
std::vector<T> rank_order_sum(u32 ranks, size_t count, u64 kind) {
  std::vector<T> sum = rank_buffer<T>(0, count, kind);
  for (u32 r = 1; r < ranks; ++r) {
    const std::vector<T> x = rank_buffer<T>(r, count, kind);
    for (size_t i = 0; i < count; ++i) sum[i] = wrapping_add(sum[i], x[i]);
  }
  return sum;
}

u64 fnv1a(const void* bytes, size_t n) {
  u64 h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const u8*>(bytes)[i]) * 0x100000001b3ull;
  return h;
}

// Whether rank 0's hash of these bytes is this rank's.
bool same_as_rank0(Collective& c, const void* bytes, size_t n) {
  const u64 mine = fnv1a(bytes, n);
  u64 rank0 = mine;
  c.broadcast(&rank0, sizeof rank0, 0);
  return rank0 == mine;
}

// Sizes: none, one, odd, and across the MPI backend's 1 MiB pieces (and several of them).
const size_t kCounts[] = {0, 1, 7, 1000, (size_t(1) << 18) + 3, (size_t(3) << 20) + 5};

template <class T>
void check_sum(Collective& c, u64 kind) {
  for (size_t count : kCounts) {
    SCOPED_TRACE("count " + std::to_string(count));
    std::vector<T> data = rank_buffer<T>(c.rank(), count, kind);
    c.all_reduce_sum(data.data(), count);
    const std::vector<T> expected = rank_order_sum<T>(c.size(), count, kind);
    EXPECT_TRUE(count == 0 || std::memcmp(data.data(), expected.data(), count * sizeof(T)) == 0)
        << "not bit-identical to the sum in rank order";
    EXPECT_TRUE(same_as_rank0(c, data.data(), count * sizeof(T))) << "differs from rank 0's sum";
  }
}

// ---- one process ---------------------------------------------------------------------------

TEST(CollectiveLocal, IsOneRankAndLeavesBuffersAlone) {
  std::unique_ptr<Collective> c = make_local_collective();
  EXPECT_EQ(c->rank(), 0u);
  EXPECT_EQ(c->size(), 1u);
  EXPECT_EQ(c->backend(), CollectiveBackend::local);
  EXPECT_EQ(c->memory(), Memory::any);
  EXPECT_EQ(c->device(), -1);
  std::vector<float> f = rank_buffer<float>(0, 100, 1);
  std::vector<double> d = rank_buffer<double>(0, 100, 2);
  std::vector<i64> n = rank_buffer<i64>(0, 100, 3);
  const auto f0 = f;
  const auto d0 = d;
  const auto n0 = n;
  c->all_reduce_sum(f.data(), f.size());
  c->all_reduce_sum(d.data(), d.size());
  c->all_reduce_sum(n.data(), n.size());
  EXPECT_EQ(f, f0);
  EXPECT_EQ(d, d0);
  EXPECT_EQ(n, n0);
  c->broadcast(f.data(), f.size() * sizeof(float), 0);
  EXPECT_EQ(f, f0);
  c->all_reduce_sum(static_cast<float*>(nullptr), 0);
  c->barrier();
}

TEST(CollectiveLocal, BroadcastFromAMissingRankThrows) {
  std::unique_ptr<Collective> c = make_local_collective();
  char byte = 0;
  EXPECT_THROW(c->broadcast(&byte, 1, 1), std::out_of_range);
}

TEST(CollectiveFactory, NamesItsBackends) {
  EXPECT_STREQ(backend_name(CollectiveBackend::automatic), "auto");
  EXPECT_STREQ(backend_name(CollectiveBackend::local), "local");
  EXPECT_STREQ(backend_name(CollectiveBackend::mpi), "mpi");
  EXPECT_STREQ(backend_name(CollectiveBackend::nccl), "nccl");
  EXPECT_EQ(make_collective(CollectiveBackend::local)->backend(), CollectiveBackend::local);
}

TEST(CollectiveFactory, AutomaticWithoutALauncherIsLocal) {
  if (launched_by_mpi()) GTEST_SKIP() << "started by an MPI launcher (CollectiveMpi.AutomaticPicksABackend)";
  EXPECT_EQ(make_collective()->backend(), CollectiveBackend::local);
}

// The message of a missing backend, or the exception's, in a form EXPECT can show.
std::string what_make_throws(CollectiveBackend backend) {
  try {
    make_collective(backend);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(CollectiveFactory, MpiInABuildWithoutItSaysHowToGetIt) {
  if (built_with_mpi()) GTEST_SKIP() << "this build has MPI";
  EXPECT_NE(
      what_make_throws(CollectiveBackend::mpi).find("built without MPI (configure with -DGPUSYNTH_MPI=ON)"),
      std::string::npos)
      << what_make_throws(CollectiveBackend::mpi);
}

// Every rank would think itself alone: refuse, as the work queue does.
TEST(CollectiveFactory, AutomaticUnderALauncherInABuildWithoutMpiRefuses) {
  if (built_with_mpi()) GTEST_SKIP() << "this build has MPI";
  if (env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1)) < 2)
    GTEST_SKIP() << "needs an MPI launcher with 2 processes or more (mpirun -np 2 collective_test)";
  const std::string why = what_make_throws(CollectiveBackend::automatic);
  EXPECT_NE(why.find("built without MPI (configure with -DGPUSYNTH_MPI=ON)"), std::string::npos) << why;
}

TEST(CollectiveFactory, NcclInABuildWithoutItSaysHowToGetIt) {
  if (built_with_nccl()) GTEST_SKIP() << "this build has NCCL";
  EXPECT_EQ(pipeline::cuda_device_count(), 0);
  const std::string why = what_make_throws(CollectiveBackend::nccl);
  EXPECT_NE(why.find("built without NCCL (configure with -DGPUSYNTH_NCCL=ON"), std::string::npos) << why;
}

// ---- real ranks (mpirun) -------------------------------------------------------------------

TEST(CollectiveMpi, KnowsItsRankAndSize) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  EXPECT_EQ(c->backend(), CollectiveBackend::mpi);
  EXPECT_EQ(c->memory(), Memory::host);
  EXPECT_EQ(int(c->rank()), launcher_rank());
  EXPECT_EQ(int(c->size()), env_int("OMPI_COMM_WORLD_SIZE", int(c->size())));
  EXPECT_LT(c->rank(), c->size());
  i64 rank = c->rank();
  c->all_reduce_sum(&rank, 1);
  EXPECT_EQ(rank, i64(c->size()) * (c->size() - 1) / 2);
  c->barrier();
}

TEST(CollectiveMpi, SumsFloatsInRankOrderBitForBit) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  check_sum<float>(*c, 1);
}

TEST(CollectiveMpi, SumsDoublesInRankOrderBitForBit) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  check_sum<double>(*c, 2);
}

TEST(CollectiveMpi, SumsIntegersWrapping) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  check_sum<i64>(*c, 3);
}

// The data above are such that the order of the additions matters: another order (here the
// reverse) gives other bits. So the exact comparisons above do test the order. Needs 3 ranks
// (with 2, a + b == b + a exactly).
TEST(CollectiveMpi, TheOrderOfTheAdditionsShowsInTheData) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  if (c->size() < 3) GTEST_SKIP() << "needs 3 ranks or more";
  const size_t count = 1000;
  const std::vector<double> forward = rank_order_sum<double>(c->size(), count, 2);
  std::vector<double> backward = rank_buffer<double>(c->size() - 1, count, 2);
  for (u32 r = c->size() - 1; r-- > 0;) {
    const std::vector<double> x = rank_buffer<double>(r, count, 2);
    for (size_t i = 0; i < count; ++i) backward[i] += x[i];
  }
  EXPECT_NE(std::memcmp(forward.data(), backward.data(), count * sizeof(double)), 0);
}

TEST(CollectiveMpi, BroadcastsFromEveryRoot) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  for (u32 root = 0; root < c->size(); ++root)
    for (size_t n : {size_t(0), size_t(1), size_t(1000), (size_t(3) << 20) + 1}) {
      SCOPED_TRACE("root " + std::to_string(root) + ", " + std::to_string(n) + " bytes");
      const std::vector<char> roots = [&] {
        std::vector<char> b(n);
        for (size_t i = 0; i < n; ++i) b[i] = char(i * 31 + root * 7 + 1);
        return b;
      }();
      std::vector<char> bytes = c->rank() == root ? roots : std::vector<char>(n, char(0xee));
      c->broadcast(bytes.data(), n, root);
      EXPECT_TRUE(bytes == roots);
    }
  char byte = 0;
  EXPECT_THROW(c->broadcast(&byte, 1, c->size()), std::out_of_range);
}

TEST(CollectiveMpi, AutomaticPicksABackend) {
  SKIP_UNLESS_MPI();
  std::unique_ptr<Collective> c = make_collective();
  // NCCL only when this build has it and every rank has a GPU of its own.
  if (built_with_nccl() && pipeline::cuda_device_count() > 0)
    EXPECT_NE(c->backend(), CollectiveBackend::local);
  else
    EXPECT_EQ(c->backend(), CollectiveBackend::mpi);
  i64 one = 1;
  if (c->memory() == Memory::host) {
    c->all_reduce_sum(&one, 1);
    EXPECT_EQ(one, i64(c->size()));
  }
}

// A caller error the MPI backend can see: ranks passing different counts. The job must end with
// a message naming it, not hang. It aborts the job on purpose, so it runs only in its own mpirun
// (ctest cluster.collective.mismatch, which looks for the message).
TEST(CollectiveMpi, MismatchedCountsEndTheJobSayingSo) {
  SKIP_UNLESS_MPI();
  if (std::getenv("GPUSYNTH_TEST_COUNT_MISMATCH") == nullptr)
    GTEST_SKIP() << "aborts the job on purpose: ctest cluster.collective.mismatch runs it";
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::mpi);
  std::vector<double> data(c->rank() == 0 ? 5 : 10, 1.0);
  c->all_reduce_sum(data.data(), data.size());
  ADD_FAILURE() << "all_reduce_sum returned with mismatched counts";
}

// ---- NCCL ----------------------------------------------------------------------------------

// Without a GPU (CI), the NCCL backend must refuse with a reason, on every rank together.
TEST(CollectiveNccl, WithoutAGpuRefusesWithAReason) {
  if (!built_with_nccl()) GTEST_SKIP() << "built without NCCL (CollectiveFactory tests the message)";
  SKIP_UNLESS_MPI();
  if (pipeline::cuda_device_count() > 0)
    GTEST_SKIP() << "this machine has a GPU (CollectiveNccl.SumsAndBroadcasts)";
  const std::string why = what_make_throws(CollectiveBackend::nccl);
  EXPECT_NE(why.find("the NCCL collective cannot start"), std::string::npos) << why;
  EXPECT_NE(why.find("no CUDA device"), std::string::npos) << why;
}

#ifdef GPUSYNTH_HAVE_NCCL
// With a GPU per rank (or one process and one GPU: MPI then starts as a singleton), the NCCL
// backend's sums and broadcasts, on device buffers. NCCL picks its own order of additions:
// integers must be exact, floats the same on every rank and close to the rank-order sum.
template <class T>
void check_nccl_sum(Collective& c, size_t count, u64 kind) {
  SCOPED_TRACE("count " + std::to_string(count));
  const std::vector<T> mine = rank_buffer<T>(c.rank(), count, kind);
  T* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, std::max<size_t>(count, 1) * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(device, mine.data(), count * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  c.all_reduce_sum(device, count);
  std::vector<T> sum(count);
  ASSERT_EQ(cudaMemcpy(sum.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(device);
  const std::vector<T> expected = rank_order_sum<T>(c.size(), count, kind);
  if constexpr (std::is_integral_v<T>) {
    EXPECT_TRUE(sum == expected);
  } else {
    std::vector<T> magnitude(count, T(0));  // the sum of the magnitudes bounds any order's rounding
    for (u32 r = 0; r < c.size(); ++r) {
      const std::vector<T> x = rank_buffer<T>(r, count, kind);
      for (size_t i = 0; i < count; ++i) magnitude[i] += std::abs(x[i]);
    }
    const T ulps = T(4 * c.size()) * std::numeric_limits<T>::epsilon();
    for (size_t i = 0; i < count; ++i) ASSERT_NEAR(sum[i], expected[i], ulps * magnitude[i]) << "at " << i;
  }
  EXPECT_TRUE(same_as_rank0(c, sum.data(), count * sizeof(T)));
}

TEST(CollectiveNccl, SumsAndBroadcasts) {
  if (!built_with_nccl()) GTEST_SKIP() << "built without NCCL (-DGPUSYNTH_NCCL=ON)";
  const int local_ranks = env_int("OMPI_COMM_WORLD_LOCAL_SIZE", env_int("SLURM_NTASKS_PER_NODE", 1));
  if (pipeline::cuda_device_count() < local_ranks)
    GTEST_SKIP() << "needs a CUDA device per rank: " << pipeline::cuda_device_count() << " device(s) for "
                 << local_ranks << " rank(s) here (cudaGetDeviceCount: none without a GPU or a driver)";
  std::unique_ptr<Collective> c = make_collective(CollectiveBackend::nccl);
  ASSERT_EQ(c->backend(), CollectiveBackend::nccl);
  ASSERT_EQ(c->memory(), Memory::device);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, c->device());
  for (size_t count : kCounts) {
    check_nccl_sum<float>(*c, count, 1);
    check_nccl_sum<double>(*c, count, 2);
    check_nccl_sum<i64>(*c, count, 3);
  }
  const size_t n = (size_t(3) << 20) + 1;
  char* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, n), cudaSuccess);
  for (u32 root = 0; root < c->size(); ++root) {
    std::vector<char> roots(n), bytes(n, char(0xee));
    for (size_t i = 0; i < n; ++i) roots[i] = char(i * 31 + root * 7 + 1);
    const std::vector<char>& mine = c->rank() == root ? roots : bytes;
    ASSERT_EQ(cudaMemcpy(device, mine.data(), n, cudaMemcpyHostToDevice), cudaSuccess);
    c->broadcast(device, n, root);
    ASSERT_EQ(cudaMemcpy(bytes.data(), device, n, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_TRUE(bytes == roots) << "root " << root;
  }
  cudaFree(device);
  c->barrier();
}
#endif

}  // namespace
}  // namespace gs::cluster
