#include "neural/policy_gradient.h"

#include <torch/autograd.h>

#include <limits>
#include <stdexcept>

#include "neural/sampling.h"

namespace gs::neural {

double sample_reward(const Check& check, u64 reference_instructions, double lambda) {
  if (check.verdict == Verdict::Invalid) return 0.0;
  if (check.verdict != Verdict::Correct) return 1.0;
  return 11.0 - lambda * double(check.instructions) / double(reference_instructions);
}

std::vector<float> PolicyStats::to_floats() const {
  return {float(programs), float(samples),          float(reward),           float(correct),
          float(valid),    float(programs_correct), float(programs_cheaper), float(best_ratio)};
}

PolicyStats PolicyStats::from_floats(const float* f) {
  PolicyStats s;
  s.programs = f[0], s.samples = f[1], s.reward = f[2], s.correct = f[3], s.valid = f[4];
  s.programs_correct = f[5], s.programs_cheaper = f[6], s.best_ratio = f[7];
  return s;
}

PolicyStats& PolicyStats::operator+=(const PolicyStats& o) {
  programs += o.programs, samples += o.samples, reward += o.reward, correct += o.correct, valid += o.valid;
  programs_correct += o.programs_correct, programs_cheaper += o.programs_cheaper, best_ratio += o.best_ratio;
  return *this;
}

PolicyGradient::PolicyGradient(Seq2Seq model, torch::Device device, const PolicyOptions& options)
    : model_(std::move(model)), device_(device), options_(options) {
  if (options_.samples < 2) throw std::invalid_argument("policy gradient: the baseline needs >= 2 samples");
  if (!(options_.temperature > 0)) throw std::invalid_argument("policy gradient: temperature must be > 0");
}

PolicyGradient::Rollout PolicyGradient::roll_out(const std::vector<Example>& programs, u64 stream,
                                                 u64 first_index) {
  Rollout r;
  std::vector<TokenSeq> sources;
  for (const Example& e : programs) sources.push_back(e.source_ids);
  SamplingOptions so;
  so.samples = options_.samples;
  so.temperature = options_.temperature;
  so.top_p = options_.top_p;
  so.seed = options_.seed;
  so.stream = stream;
  r.sequences = sample(model_, sources, so, device_);
  for (size_t i = 0; i < programs.size(); ++i) {
    ReferenceOptions ro;
    ro.random_inputs = options_.random_inputs;
    ro.seed = options_.seed;
    ro.stream = first_index + i;
    std::string error;
    std::optional<Reference> reference = make_reference(programs[i].bytecode, ro, {}, &error);
    // The traditional compiler's bytecode always verifies: failing here is a bug, not bad input.
    if (!reference) throw std::runtime_error("program " + std::to_string(first_index + i) + ": " + error);
    const u64 reference_instructions = std::max<u64>(1, reference->instructions);
    std::vector<DecodedBytecode> decoded = decode_candidates(r.sequences[i], programs[i].function_names);
    std::vector<double>& rewards = r.rewards.emplace_back();
    double best = std::numeric_limits<double>::infinity();
    for (const DecodedBytecode& d : decoded) {
      Check c = verifier_.check(*reference, d.bytecode);
      rewards.push_back(sample_reward(c, reference_instructions, options_.lambda));
      r.stats.reward += rewards.back();
      r.stats.valid += c.verdict != Verdict::Invalid;
      if (c.verdict != Verdict::Correct) continue;
      r.stats.correct += 1;
      best = std::min(best, double(c.instructions) / double(reference_instructions));
    }
    r.stats.programs += 1;
    r.stats.samples += double(decoded.size());
    if (best < std::numeric_limits<double>::infinity()) {
      r.stats.programs_correct += 1;
      r.stats.programs_cheaper += best < 1.0;
      r.stats.best_ratio += best;
    }
  }
  return r;
}

torch::Tensor PolicyGradient::log_probs(const std::vector<TokenSeq>& sources,
                                        const std::vector<TokenSeq>& sequences) {
  torch::Tensor source = pad_batch(sources, device_);
  torch::Tensor seq = pad_batch(sequences, device_);
  const i64 t = seq.size(1) - 1;
  torch::Tensor input = seq.narrow(1, 0, t), labels = seq.narrow(1, 1, t);
  torch::Tensor logits = model_->forward(source, input).to(torch::kFloat) / options_.temperature;
  // Sampling never draws PAD or BOS: the same exclusion here makes this its distribution.
  torch::Tensor excluded = torch::zeros({logits.size(2)}, logits.options());
  excluded.narrow(0, 0, 2).fill_(-1e9);
  torch::Tensor token_logp =
      torch::log_softmax(logits + excluded, -1).gather(2, labels.unsqueeze(2)).squeeze(2);
  torch::Tensor mask = labels.ne(i64(Special::PAD)).to(torch::kFloat);
  return (token_logp * mask).sum(1);
}

PolicyStats PolicyGradient::accumulate(const std::vector<Example>& programs, u64 stream, u64 first_index,
                                       double normaliser) {
  Rollout r = roll_out(programs, stream, first_index);
  // Only samples with a non-zero advantage carry gradient; the rest need no forward pass.
  std::vector<TokenSeq> sources, sequences;
  std::vector<float> advantages;
  const double others = double(options_.samples - 1);
  for (size_t i = 0; i < programs.size(); ++i) {
    double sum = 0;
    for (double x : r.rewards[i]) sum += x;
    for (size_t k = 0; k < r.rewards[i].size(); ++k) {
      const double advantage = r.rewards[i][k] - (sum - r.rewards[i][k]) / others;
      if (advantage == 0) continue;
      sources.push_back(programs[i].source_ids);
      sequences.push_back(r.sequences[i][k]);
      advantages.push_back(float(advantage));
    }
  }
  // Dropout off: the gradient is that of the distribution the samples were drawn from.
  model_->eval();
  constexpr size_t kRows = 64;  // rows per forward, to bound activation memory
  for (size_t first = 0; first < sequences.size(); first += kRows) {
    const size_t last = std::min(sequences.size(), first + kRows);
    std::vector<TokenSeq> src(sources.begin() + i64(first), sources.begin() + i64(last));
    std::vector<TokenSeq> seq(sequences.begin() + i64(first), sequences.begin() + i64(last));
    torch::Tensor adv =
        torch::tensor(std::vector<float>(advantages.begin() + i64(first), advantages.begin() + i64(last)))
            .to(device_);
    torch::Tensor loss = -(adv * log_probs(src, seq)).sum() / normaliser;
    loss.backward();
  }
  return r.stats;
}

PolicyStats PolicyGradient::measure(const std::vector<Example>& programs, u64 stream, u64 first_index) {
  return roll_out(programs, stream, first_index).stats;
}

}  // namespace gs::neural
