// gpusynth selfplay --from CKPT --out DIR [--steps N] [--batch B] [--samples K] [--lambda L] …
//
// RL fine-tuning of the neural compiler (docs/neural.md "Self-play"): REINFORCE on rewards from
// verification by execution, with a cost for executed instructions relative to the traditional
// compiler's bytecode. Started by mpirun or srun with several processes, the ranks train
// data-parallel: their gradients are summed through the cluster's collective (MPI on CPUs, NCCL
// on GPUs), which this file adapts to neural::GradientReducer (neural/ sits below cluster/).
// SIGTERM stops every rank after the same step with a checkpoint written (exit status 3);
// `--resume` goes on. Built into gpusynth-neural only
// (jobs/neural_relay.h).
#include <iostream>

#include "cluster/collective.h"
#include "cluster/stop_signal.h"
#include "jobs/command.h"
#include "jobs/options.h"
#include "neural/selfplay.h"

namespace gs::jobs {

namespace {

// The cluster's collective as the run's gradient reducer.
class CollectiveReducer final : public neural::GradientReducer {
 public:
  explicit CollectiveReducer(std::unique_ptr<cluster::Collective> c) : c_(std::move(c)) {}
  u32 rank() const override { return c_->rank(); }
  u32 size() const override { return c_->size(); }
  int device() const override { return c_->device(); }
  void all_reduce_sum(float* data, size_t count) override { c_->all_reduce_sum(data, count); }
  void broadcast(void* bytes, size_t n, u32 root) override { c_->broadcast(bytes, n, root); }

 private:
  std::unique_ptr<cluster::Collective> c_;
};

bool parse_backend(const std::string& name, cluster::CollectiveBackend* backend) {
  for (auto b : {cluster::CollectiveBackend::automatic, cluster::CollectiveBackend::local,
                 cluster::CollectiveBackend::mpi, cluster::CollectiveBackend::nccl})
    if (name == cluster::backend_name(b)) return *backend = b, true;
  return false;
}

}  // namespace

int selfplay_command(const std::vector<std::string>& args) {
  neural::SelfplayOptions o;
  std::string collective = "auto";
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")(
      "from", po::value(&o.from), "the checkpoint to start from (train-compiler's or selfplay's)")(
      "out,o", po::value(&o.out_dir)->required(), "directory for checkpoint.pt and progress.tsv")(
      "resume", po::bool_switch(&o.resume), "continue from OUT/checkpoint.pt (weights, Adam, step)")(
      "steps", bounded(&o.steps, 1, 1000000000), "total optimizer steps (a resumed run continues to it)")(
      "batch", bounded(&o.batch, 1, 1u << 16), "programs per rank per step")(
      "samples,k", bounded(&o.samples, 1, 4096), "bytecode samples per program (>= 2)")(
      "temperature", bounded(&o.temperature, 0, 100), "sampling temperature")(
      "lambda", bounded(&o.lambda, 0, 1e6),
      "weight of the cost (executed instructions / the traditional compiler's) in the reward")(
      "lr", bounded(&o.learning_rate, 0, 10), "Adam learning rate")("clip", bounded(&o.clip, 0, 1e6),
                                                                    "gradient norm clip (0: none)")(
      "levels", bounded(&o.levels, 1, 4), "programs of curriculum levels 0 .. N-1 (1..4)")(
      "seed", at_least(&o.seed, 0), "seed of the programs, samples and inputs")(
      "device,d", defaulted(&o.device), "cpu or cuda")("threads", bounded(&o.threads, 0, max_threads()),
                                                       "torch threads per rank (0: torch's default)")(
      "collective", defaulted(&collective), "auto, local, mpi or nccl: how ranks sum their gradients")(
      "log-every", at_least(&o.log_every, 1), "a progress line every N steps")(
      "eval-every", at_least(&o.eval_every, 0),
      "held-out evaluation every N steps (0: at the start and the end only)")(
      "eval-programs", bounded(&o.eval_programs, 0, 1u << 20), "held-out programs (0: no evaluation)")(
      "checkpoint-every", at_least(&o.checkpoint_every, 0),
      "save OUT/checkpoint.pt every N steps (and at the end)");
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth selfplay --from CKPT --out DIR [--steps N] [--batch B] [--samples K] [--lambda L] "
      "[--resume]\n"
      "Fine-tunes the neural compiler by REINFORCE: reward 10 per sample verified correct by execution, 1 "
      "per\n"
      "valid container, minus lambda times its executed instructions relative to the traditional "
      "compiler's.\n"
      "Under mpirun/srun the ranks train data-parallel (docs/neural.md \"Self-play\").";
  if (!parse_command_line(args, visible, nullptr, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;
  cluster::CollectiveBackend backend;
  if (!parse_backend(collective, &backend)) {
    std::cerr << "gpusynth selfplay: --collective must be auto, local, mpi or nccl, not '" << collective
              << "'\n";
    return kExitUsage;
  }
  std::unique_ptr<cluster::Collective> c;
  try {
    c = cluster::make_collective(backend);
  } catch (const std::exception& e) {
    std::cerr << "gpusynth selfplay: " << e.what() << "\n";
    return kExitUsage;
  }
  CollectiveReducer reducer(std::move(c));
  cluster::install_stop_signal();
  o.stop = cluster::stop_signalled;
  std::string error;
  neural::SelfplayResult r = neural::selfplay(o, reducer, std::cout, &error);
  cluster::remove_stop_signal();
  switch (r) {
    case neural::SelfplayResult::Ok: return kExitOk;
    case neural::SelfplayResult::Interrupted: return kExitInterrupted;
    case neural::SelfplayResult::BadInput: break;
    case neural::SelfplayResult::Failed: break;
  }
  std::cerr << "gpusynth selfplay: ";
  if (reducer.size() > 1) std::cerr << "rank " << reducer.rank() << ": ";
  std::cerr << error << "\n";
  return r == neural::SelfplayResult::BadInput ? kExitUsage : kExitFailed;
}

}  // namespace gs::jobs
