// Policy-gradient fine-tuning of the neural compiler (paper §4.4, docs/neural.md "Self-play"):
// REINFORCE with a per-program baseline. For each program, K bytecode samples are drawn
// (sampling.h), decoded, and checked against the traditional compiler's bytecode by execution
// (verification.h); each sample's reward is
//
//   reward = 10 * [Correct] + 1 * [a valid container] - lambda * cost,
//   cost   = candidate instructions / reference instructions   (Correct samples only)
//
// where instructions are those executed over all the reference's inputs. So a correct sample as
// cheap as the traditional compiler's bytecode earns 11 - lambda; a cheaper one more; a sample that
// is wrong or does not verify pays no cost (its instructions mean nothing) — being cheaper is
// rewarded only when the sample is verified.
//
// The baseline is leave-one-out: a sample's advantage is its reward minus the mean reward of the
// program's other K-1 samples, which keeps the gradient unbiased and needs no value network.
// The loss is -sum(advantage * log p(sample)) / samples, with log p from one teacher-forced
// forward over the sampled sequences (padding masked) under the sampling distribution
// (logits / temperature, PAD and BOS excluded, as sampling draws them; the top-p cut is not
// modelled, so top_p should stay 1).
//
// No entropy bonus or supervised anchor: the reward's validity term already pulls towards
// well-formed bytecode, runs are a few hundred steps at a small learning rate with gradient
// clipping, and an anchor on the traditional compiler's bytecode would pull against the very
// thing being learnt (bytecode cheaper than that).
#pragma once

#include <torch/types.h>

#include <vector>

#include "neural/data.h"
#include "neural/model.h"
#include "neural/verification.h"

namespace gs::neural {

// The reward of one sample; reference_instructions > 0.
double sample_reward(const Check& check, u64 reference_instructions, double lambda);

struct PolicyOptions {
  u32 samples = 8;  // K per program (>= 2: the baseline needs the others)
  double temperature = 1.0;
  double top_p = 1.0;
  double lambda = 1.0;
  u32 random_inputs = 16;  // per reference (verification.h)
  u64 seed = 1;            // of the samples and the reference inputs
};

// Sums over programs and samples, so that ranks' statistics add up (all-reduce) before division.
struct PolicyStats {
  double programs = 0, samples = 0;
  double reward = 0;            // summed over samples
  double correct = 0;           // samples verified Correct
  double valid = 0;             // samples that are verified containers
  double programs_correct = 0;  // programs with at least one Correct sample
  double programs_cheaper = 0;  // programs whose cheapest Correct sample beats the reference
  double best_ratio = 0;        // summed over programs_correct: cheapest Correct / reference instructions

  // As floats, for one all-reduce: counts stay exact below 2^24.
  static constexpr size_t kFields = 8;
  std::vector<float> to_floats() const;
  static PolicyStats from_floats(const float* f);
  PolicyStats& operator+=(const PolicyStats& o);
};

class PolicyGradient {
 public:
  PolicyGradient(Seq2Seq model, torch::Device device, const PolicyOptions& options);

  // Samples, verifies and rewards K bytecodes for each program, and adds the gradient of the
  // REINFORCE loss (divided by `normaliser`, e.g. every rank's programs * K) to the model's
  // parameters' .grad. `stream` keys the samples (sampling.h); `first_index` numbers the
  // programs (their reference inputs are keyed by it).
  PolicyStats accumulate(const std::vector<Example>& programs, u64 stream, u64 first_index,
                         double normaliser);
  // The same statistics without a gradient (held-out evaluation).
  PolicyStats measure(const std::vector<Example>& programs, u64 stream, u64 first_index);

 private:
  struct Rollout {
    std::vector<std::vector<TokenSeq>> sequences;  // [program][sample]
    std::vector<std::vector<double>> rewards;
    PolicyStats stats;
  };
  Rollout roll_out(const std::vector<Example>& programs, u64 stream, u64 first_index);
  // Sum over tokens of log p(token) of each sequence under the sampling distribution: [rows].
  torch::Tensor log_probs(const std::vector<TokenSeq>& sources, const std::vector<TokenSeq>& sequences);

  Seq2Seq model_;
  torch::Device device_;
  PolicyOptions options_;
  Verifier verifier_;
};

}  // namespace gs::neural
