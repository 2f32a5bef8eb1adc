// Self-play: RL fine-tuning of the neural compiler, as `gpusynth selfplay` runs it
// (docs/neural.md "Self-play"), data-parallel over ranks. This header holds no torch types, so
// the command line compiles without torch headers; neural/policy_gradient.h is the torch level.
//
// Data parallelism. neural/ sits below cluster/ in the dependency order, so the run talks to
// the ranks through GradientReducer, which jobs/ implements on cluster::Collective (MPI on
// CPUs, NCCL on GPUs). Each step every rank draws its own programs — program
// step*batch*size + rank*batch + i — samples and rewards them, and computes its gradient; the
// gradients of all parameters are flattened into one buffer, summed over the ranks and divided
// by the number of samples of all ranks, then each rank takes the same clipped Adam step. The
// ranks' weights stay identical because the collective's sum is the same bits on every rank
// (cluster/collective.h) and everything after it is deterministic. At the start rank 0's weights
// are broadcast, so the ranks start equal even if their copies of the checkpoint were not.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>

#include "neural/data.h"

namespace gs::neural {

// What the run needs of a collective. Every rank makes the same calls in the same order.
class GradientReducer {
 public:
  virtual ~GradientReducer() = default;
  virtual u32 rank() const = 0;
  virtual u32 size() const = 0;
  // The CUDA device the buffers must be on, or -1 for host memory.
  virtual int device() const { return -1; }
  // In place: data[i] becomes the sum over ranks.
  virtual void all_reduce_sum(float* data, size_t count) = 0;
  // In place: every rank's n bytes become root's.
  virtual void broadcast(void* bytes, size_t n, u32 root) = 0;
};

// One process alone: every operation is the identity.
class LocalReducer final : public GradientReducer {
 public:
  u32 rank() const override { return 0; }
  u32 size() const override { return 1; }
  void all_reduce_sum(float*, size_t) override {}
  void broadcast(void*, size_t, u32) override {}
};

struct SelfplayOptions {
  std::string from;     // the checkpoint to start from (train-compiler's or selfplay's)
  std::string out_dir;  // checkpoint.pt (latest) and progress.tsv go here
  bool resume = false;  // continue from OUT/checkpoint.pt instead of --from
  u64 steps = 200;      // total optimizer steps of the run (a resumed run continues to it)
  u32 batch = 4;        // programs per rank per step
  u32 samples = 8;      // K samples per program (>= 2)
  double temperature = 1.0;
  double lambda = 1.0;  // weight of the instruction-count cost in the reward
  double learning_rate = 1e-4;
  double clip = 1.0;  // gradient norm clip; 0: none
  u32 levels = 2;     // curriculum levels drawn from: 0 .. levels-1 (data.h)
  u64 seed = 1;       // of the programs, the samples and the reference inputs
  std::string device = "cpu";
  u32 threads = 0;             // torch intra-op threads; 0: torch's default
  u32 log_every = 10;          // a progress line every so many steps
  u32 eval_every = 0;          // held-out evaluation every so many steps; 0: at the start and end only
  u32 eval_programs = 64;      // held-out programs (shared among the ranks); 0: no evaluation
  u32 checkpoint_every = 50;   // and at the end
  std::function<bool()> stop;  // asked once per step (e.g. SIGTERM arrived); the ranks agree
};

enum class SelfplayResult : u8 {
  Ok,
  BadInput,     // bad options, an unreadable or mismatched checkpoint (on any rank): nothing ran
  Failed,       // training started and stopped on an error (the last checkpoint stays)
  Interrupted,  // options.stop asked on some rank: checkpoint written, the same command resumes
};

// Runs (or resumes) self-play on every rank of `reducer`; rank 0 alone writes the progress lines,
// progress.tsv and checkpoints. Every rank ends its log with "rank R weights fnv1a 0x…", a hash
// of its parameters, which must be the same on all ranks. On failure *error says why, naming the
// file at fault.
SelfplayResult selfplay(const SelfplayOptions& options, GradientReducer& reducer, std::ostream& log,
                        std::string* error);

}  // namespace gs::neural
