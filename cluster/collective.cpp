// The collective factory and the one-process backend (cluster/collective.h), and the stubs that
// stand for the MPI and NCCL backends in a build without them.
#include "cluster/collective.h"

#include <cstdlib>
#include <stdexcept>

#include "cluster/work_queue.h"
#include "pipeline/pipeline.h"

namespace gs::cluster {

namespace {

// One process, rank 0 of 1: the sum over one rank and a broadcast from rank 0 leave every
// buffer as it is, wherever it lives.
class LocalCollective final : public Collective {
 public:
  u32 rank() const override { return 0; }
  u32 size() const override { return 1; }
  CollectiveBackend backend() const override { return CollectiveBackend::local; }
  Memory memory() const override { return Memory::any; }
  void all_reduce_sum(float*, size_t) override {}
  void all_reduce_sum(double*, size_t) override {}
  void all_reduce_sum(i64*, size_t) override {}
  void broadcast(void*, size_t, u32 root) override {
    if (root != 0) throw std::out_of_range("broadcast from rank " + std::to_string(root) + " of 1");
  }
  void barrier() override {}
};

// The number of processes the launcher started, when the environment says (0 when it does not).
u32 launched_processes() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
    if (const char* v = std::getenv(name)) return u32(std::strtoul(v, nullptr, 10));
  return 0;
}

// nccl when this build has it and every rank has a GPU, else mpi under an MPI launcher, else
// local. The ranks agree through the MPI collective, so that none picks NCCL alone and waits.
std::unique_ptr<Collective> make_automatic() {
  if (!launched_by_mpi()) return make_local_collective();
  if (!built_with_mpi()) {
    if (launched_processes() > 1)
      throw std::runtime_error(
          "started by an MPI launcher with several processes, but this gpusynth was built without MPI "
          "(configure with -DGPUSYNTH_MPI=ON), or run it as one process");
    return make_local_collective();
  }
  std::unique_ptr<Collective> mpi = detail::make_mpi_collective();
  if (!built_with_nccl()) return mpi;
  i64 with_gpu = pipeline::cuda_device_count() > 0 ? 1 : 0;
  mpi->all_reduce_sum(&with_gpu, 1);
  if (with_gpu < i64(mpi->size())) return mpi;
  return detail::make_nccl_collective();  // made while `mpi` still holds MPI open
}

}  // namespace

const char* backend_name(CollectiveBackend backend) {
  switch (backend) {
    case CollectiveBackend::automatic: return "auto";
    case CollectiveBackend::local: return "local";
    case CollectiveBackend::mpi: return "mpi";
    case CollectiveBackend::nccl: return "nccl";
  }
  return "?";
}

std::unique_ptr<Collective> make_local_collective() { return std::make_unique<LocalCollective>(); }

std::unique_ptr<Collective> make_collective(CollectiveBackend backend) {
  switch (backend) {
    case CollectiveBackend::local: return make_local_collective();
    case CollectiveBackend::mpi: return detail::make_mpi_collective();
    case CollectiveBackend::nccl: return detail::make_nccl_collective();
    case CollectiveBackend::automatic: break;
  }
  return make_automatic();
}

#ifndef GPUSYNTH_HAVE_MPI
std::unique_ptr<Collective> detail::make_mpi_collective() {
  throw std::runtime_error(
      "the MPI collective was asked for, but this gpusynth was built without MPI "
      "(configure with -DGPUSYNTH_MPI=ON)");
}
#endif

#ifndef GPUSYNTH_HAVE_NCCL
bool built_with_nccl() { return false; }
std::unique_ptr<Collective> detail::make_nccl_collective() {
  throw std::runtime_error(
      "the NCCL collective was asked for, but this gpusynth was built without NCCL "
      "(configure with -DGPUSYNTH_NCCL=ON; it needs CUDA and MPI)");
}
#endif

}  // namespace gs::cluster
