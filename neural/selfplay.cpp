#include "neural/selfplay.h"

// clang-format off
#include <torch/types.h>  // first: clip_grad.h uses Tensor without including its header
#include <torch/nn/utils/clip_grad.h>
// clang-format on
#include <torch/optim/adam.h>
#include <torch/utils.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

#include "base/hash.h"
#include "base/host.h"
#include "neural/checkpoint.h"
#include "neural/flat_parameters.h"
#include "neural/policy_gradient.h"
#include "neural/trainer.h"

namespace gs::neural {

namespace {

// Sampling streams: training step s on rank r uses s * size + r; evaluation this one, so that the
// evaluations before and after training draw with the same keys.
constexpr u64 kEvalStream = u64(1) << 62;

std::string options_problem(const SelfplayOptions& o) {
  if (o.out_dir.empty()) return "--out DIR is required";
  if (o.from.empty() && !o.resume) return "--from CHECKPOINT is required (or --resume)";
  if (o.steps == 0) return "--steps must be positive";
  if (o.batch == 0) return "--batch must be positive";
  if (o.samples < 2) return "--samples must be at least 2 (the baseline is the other samples' mean reward)";
  if (!(o.temperature > 0)) return "--temperature must be positive";
  if (!(o.lambda >= 0)) return "--lambda must not be negative";
  if (!(o.learning_rate > 0)) return "--lr must be positive";
  if (o.clip < 0) return "--clip must not be negative";
  if (o.levels == 0 || o.levels > kCurriculumLevels)
    return "--levels must be 1.." + std::to_string(kCurriculumLevels);
  if (o.log_every == 0) return "--log-every must be positive";
  return "";
}

// The model and its optimizer, as a run starts them.
struct Policy {
  Seq2Seq model{nullptr};
  std::unique_ptr<torch::optim::Adam> adam;
  CheckpointMeta meta;
};

// --from: the checkpoint's weights, a fresh Adam, step 0. --resume: weights, Adam and step, at
// this run's --lr (set after loading: whether Adam's saved state restores a learning rate
// differs between libtorch versions; 1.13's does not).
bool load_policy(const std::string& path, bool resume, const SelfplayOptions& o, torch::Device device,
                 Policy* p, std::string* error) {
  std::optional<CheckpointMeta> meta = read_checkpoint_meta(path, error);
  if (!meta) return false;
  p->model = Seq2Seq(meta->model);
  p->model->to(device);
  p->adam = std::make_unique<torch::optim::Adam>(p->model->parameters(),
                                                 torch::optim::AdamOptions(o.learning_rate));
  if (!load_checkpoint(path, p->model, resume ? p->adam.get() : nullptr, error)) return false;
  for (auto& group : p->adam->param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(o.learning_rate);
  p->meta = *meta;
  if (!resume) p->meta.step = 0, p->meta.examples = 0, p->meta.seed = o.seed;
  p->meta.total_steps = o.steps;
  p->meta.batch = o.batch;
  p->meta.learning_rate = o.learning_rate;
  return true;
}

// Collectives through tensors on the reducer's memory (host, or the NCCL backend's GPU).
class Ranks {
 public:
  explicit Ranks(GradientReducer& r)
      : r_(r),
        where_(r.device() >= 0 ? torch::Device(torch::kCUDA, r.device()) : torch::Device(torch::kCPU)) {}
  u32 rank() const { return r_.rank(); }
  u32 size() const { return r_.size(); }

  // The sum over ranks of x (any device), returned on the CPU.
  torch::Tensor sum(const torch::Tensor& x) {
    torch::Tensor t = x.to(where_, torch::kFloat).contiguous();
    r_.all_reduce_sum(t.data_ptr<float>(), size_t(t.numel()));
    return t.to(torch::kCPU);
  }
  // Whether every rank is ok (a collective: every rank must ask).
  bool all(bool ok) { return sum(torch::tensor({ok ? 0.0f : 1.0f})).item<float>() == 0; }
  // x (any device) becomes rank 0's, in place.
  void broadcast(torch::Tensor& x) {
    torch::Tensor t = x.to(where_, torch::kFloat).contiguous();
    r_.broadcast(t.data_ptr<float>(), size_t(t.numel()) * sizeof(float), 0);
    x.copy_(t);
  }

 private:
  GradientReducer& r_;
  torch::Device where_;
};

// FNV-1a over the parameters' bytes, in order: equal on every rank when the weights are.
u64 weights_hash(Seq2Seq& model) {
  torch::Tensor flat = flat_parameters(*model).to(torch::kCPU, torch::kFloat).contiguous();
  return fnv1a64(reinterpret_cast<const u8*>(flat.data_ptr<float>()), u64(flat.numel()) * sizeof(float));
}

std::string hex(u64 h) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(h));
  return text;
}

// A window's or an evaluation's sums as shares and means.
struct Shares {
  double reward, correct, valid;     // per sample
  double programs_correct, cheaper;  // per program
  double best_ratio;                 // per program with a correct sample
};

Shares shares(const PolicyStats& s) {
  const double samples = std::max(1.0, s.samples), programs = std::max(1.0, s.programs);
  return {s.reward / samples,
          s.correct / samples,
          s.valid / samples,
          s.programs_correct / programs,
          s.programs_cheaper / programs,
          s.programs_correct > 0 ? s.best_ratio / s.programs_correct : 0.0};
}

// "correct 0.250  programs_correct 0.500  cheaper 0.125  best_ratio 0.982  reward 3.41  valid 0.750"
std::string describe(const PolicyStats& stats) {
  const Shares s = shares(stats);
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << "correct " << s.correct << "  programs_correct "
      << s.programs_correct << "  cheaper " << s.cheaper << "  best_ratio " << s.best_ratio << "  reward "
      << std::setprecision(2) << s.reward << "  valid " << std::setprecision(3) << s.valid;
  return out.str();
}

// A progress.tsv row: kind step reward correct valid programs_correct cheaper best_ratio.
std::string progress_row(const char* kind, u64 step, const PolicyStats& stats) {
  const Shares s = shares(stats);
  std::ostringstream out;
  out << kind << "\t" << step << "\t" << s.reward << "\t" << s.correct << "\t" << s.valid << "\t"
      << s.programs_correct << "\t" << s.cheaper << "\t" << s.best_ratio << "\n";
  return out.str();
}

// One rank's run. Every method that calls a collective is called by every rank at the same
// point; a rank's failure travels in the collective's sum, so that all ranks stop together.
class Run {
 public:
  Run(const SelfplayOptions& o, GradientReducer& reducer, torch::Device device, std::ostream& log,
      std::string* error)
      : o_(o),
        ranks_(reducer),
        device_(device),
        lead_(reducer.rank() == 0),
        log_(log),
        error_(error),
        checkpoint_((std::filesystem::path(o.out_dir) / "checkpoint.pt").string()) {}

  // Every rank loads its checkpoint, then takes rank 0's weights; false when any rank failed.
  bool start() {
    const std::string path = o_.resume ? checkpoint_ : o_.from;
    bool ok = false;
    try {
      ok = load_policy(path, o_.resume, o_, device_, &policy_, error_);
    } catch (const std::exception& e) {
      *error_ = path + ": cannot build the model: " + e.what();
    }
    if (ok && lead_) {
      std::error_code ec;
      std::filesystem::create_directories(o_.out_dir, ec);
      progress_.open(std::filesystem::path(o_.out_dir) / "progress.tsv", std::ios::app);
      if (ec || !progress_) ok = false, *error_ = o_.out_dir + ": cannot write progress.tsv there";
    }
    if (!ranks_.all(ok)) {
      if (ok) *error_ = "another rank could not start (its message says why)";
      return false;
    }
    Seq2Seq& model = policy_.model;
    torch::Tensor weights = flat_parameters(*model);
    ranks_.broadcast(weights);
    set_parameters(*model, weights);
    PolicyOptions po;
    po.samples = o_.samples;
    po.temperature = o_.temperature;
    po.lambda = o_.lambda;
    po.seed = policy_.meta.seed;
    pg_ = std::make_unique<PolicyGradient>(model, device_, po);
    const ModelConfig& mc = model->config();
    maker_ = std::make_unique<PairMaker>(policy_.meta.seed, u32(mc.max_source), u32(mc.max_bytecode));
    if (lead_) {
      log_ << (o_.resume ? "resumed " : "selfplay from ") << path << " at step " << step() << ": "
           << mc.to_text() << " (" << parameter_count(model) << " parameters), " << ranks_.size()
           << " rank(s) x " << o_.batch << " programs x " << o_.samples << " samples, lambda " << o_.lambda
           << ", device " << o_.device << "\n"
           << "start weights fnv1a " << hex(weights_hash(model)) << "\n";
      if (step() == 0)
        progress_ << "kind\tstep\treward\tcorrect\tvalid\tprograms_correct\tcheaper\tbest_ratio\n";
    }
    return true;
  }

  u64 step() const { return policy_.meta.step; }

  // The held-out programs in contiguous shares, one per rank, sampled with the same keys every
  // time; statistics summed over the ranks. False when a rank failed.
  bool evaluate() {
    if (o_.eval_programs == 0) return true;
    auto t0 = std::chrono::steady_clock::now();
    std::string failure;
    std::vector<float> local(PolicyStats::kFields, 0.0f);
    try {
      if (held_out_.empty()) held_out_ = maker_->held_out(o_.eval_programs, o_.levels);
      const size_t n = held_out_.size(), first = n * ranks_.rank() / ranks_.size(),
                   last = n * (ranks_.rank() + 1) / ranks_.size();
      std::vector<Example> share(held_out_.begin() + i64(first), held_out_.begin() + i64(last));
      local = pg_->measure(share, kEvalStream, first).to_floats();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    local.push_back(failure.empty() ? 0.0f : 1.0f);
    torch::Tensor sum = ranks_.sum(torch::tensor(local));
    window_start_ = std::chrono::steady_clock::now();  // programs/s counts training only
    if (sum[PolicyStats::kFields].item<float>() > 0) {
      *error_ = "evaluation at step " + std::to_string(step()) +
                " failed: " + (failure.empty() ? "on another rank" : failure);
      return false;
    }
    if (!lead_) return true;
    PolicyStats s = PolicyStats::from_floats(sum.data_ptr<float>());
    log_ << "eval  step " << step() << ": " << describe(s) << "  (" << held_out_.size() << " programs x "
         << o_.samples << " samples, " << std::fixed << std::setprecision(1) << seconds_since(t0) << " s)\n"
         << std::defaultfloat;
    progress_ << progress_row("eval", step(), s);
    return true;
  }

  enum class Next : u8 { Go, Stop, Fail };

  // One optimizer step on every rank: this rank's programs and gradient, one all-reduce of the
  // gradients followed by the statistics, a stop flag and a failure flag, then Adam.
  Next train_step() {
    const u64 first = (step() * ranks_.size() + ranks_.rank()) * o_.batch;
    std::string failure;
    PolicyStats mine;
    policy_.adam->zero_grad();
    try {
      std::vector<Example> programs;
      for (u64 i = first; i < first + o_.batch; ++i)
        programs.push_back(maker_->make(Split::Train, i, u32(i % o_.levels)));
      const double normaliser = double(o_.batch) * o_.samples * ranks_.size();
      mine = pg_->accumulate(programs, step() * ranks_.size() + ranks_.rank(), first, normaliser);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    std::vector<float> tail = mine.to_floats();
    tail.push_back(o_.stop && o_.stop() ? 1.0f : 0.0f);
    tail.push_back(failure.empty() ? 0.0f : 1.0f);
    Seq2Seq& model = policy_.model;
    torch::Tensor reduced =
        ranks_.sum(torch::cat({flat_gradients(*model).to(torch::kCPU, torch::kFloat), torch::tensor(tail)}));
    const i64 g = reduced.numel() - i64(tail.size());
    const float* summary = reduced.data_ptr<float>() + g;
    if (summary[PolicyStats::kFields + 1] > 0) {
      *error_ = "step " + std::to_string(step() + 1) +
                " failed: " + (failure.empty() ? "on another rank" : failure);
      return Next::Fail;
    }
    set_gradients(*model, reduced.narrow(0, 0, g));
    if (o_.clip > 0) torch::nn::utils::clip_grad_norm_(model->parameters(), o_.clip);
    policy_.adam->step();
    ++policy_.meta.step;
    window_ += PolicyStats::from_floats(summary);
    return summary[PolicyStats::kFields] > 0 ? Next::Stop : Next::Go;
  }

  // The progress line of the steps since the last one (rank 0).
  void report() {
    if (!lead_) return;
    log_ << "step " << step() << "/" << o_.steps << "  " << describe(window_) << "  " << std::fixed
         << std::setprecision(1) << window_.programs / std::max(1e-9, seconds_since(window_start_))
         << " programs/s\n"
         << std::defaultfloat;
    progress_ << progress_row("train", step(), window_);
    log_.flush();
    progress_.flush();
    window_ = PolicyStats{};
    window_start_ = std::chrono::steady_clock::now();
  }

  // Rank 0 writes the checkpoint; every rank learns whether it could.
  bool save() {
    bool saved = true;
    if (lead_) {
      policy_.meta.examples = step() * o_.batch * ranks_.size();
      saved = save_checkpoint(checkpoint_, policy_.meta, policy_.model, policy_.adam.get(), error_);
      if (saved) log_ << "checkpoint " << checkpoint_ << " (step " << step() << ")\n";
    }
    const bool everyone = ranks_.all(saved);
    if (!everyone && saved) *error_ = "rank 0 could not write " + checkpoint_;
    return everyone;
  }

  void say(const std::string& line) {
    if (lead_) log_ << line << "\n";
  }
  void finish() {
    log_ << "rank " << ranks_.rank() << " weights fnv1a " << hex(weights_hash(policy_.model)) << "\n";
  }

 private:
  const SelfplayOptions& o_;
  Ranks ranks_;
  torch::Device device_;
  const bool lead_;
  std::ostream& log_;
  std::string* error_;
  const std::string checkpoint_;
  std::ofstream progress_;
  Policy policy_;
  std::unique_ptr<PolicyGradient> pg_;
  std::unique_ptr<PairMaker> maker_;
  std::vector<Example> held_out_;
  PolicyStats window_;
  std::chrono::steady_clock::time_point window_start_ = std::chrono::steady_clock::now();
};

}  // namespace

SelfplayResult selfplay(const SelfplayOptions& o, GradientReducer& reducer, std::ostream& log,
                        std::string* error) {
  if (std::string p = options_problem(o); !p.empty()) return *error = p, SelfplayResult::BadInput;
  torch::Device device(torch::kCPU);
  if (!pick_device(o.device, &device, error)) return SelfplayResult::BadInput;
  if (reducer.device() >= 0 && !device.is_cuda())
    return *error =
               "the collective keeps its buffers on a GPU (NCCL): use --device cuda, or --collective mpi",
           SelfplayResult::BadInput;
  if (o.threads > 0) torch::set_num_threads(int(o.threads));
  Run run(o, reducer, device, log, error);
  if (!run.start()) return SelfplayResult::BadInput;
  const u64 first_step = run.step();
  if (first_step >= o.steps)
    run.say("already at step " + std::to_string(first_step) + " of " + std::to_string(o.steps) +
            ": nothing to train");
  if (!run.evaluate()) return SelfplayResult::Failed;
  while (run.step() < o.steps) {
    const Run::Next next = run.train_step();
    if (next == Run::Next::Fail) return SelfplayResult::Failed;
    const u64 done = run.step();
    const bool last = done == o.steps, stopping = next == Run::Next::Stop;
    if (done % o.log_every == 0 || last || stopping) run.report();
    if (o.eval_every > 0 && done % o.eval_every == 0 && !last && !run.evaluate())
      return SelfplayResult::Failed;
    if ((o.checkpoint_every > 0 && done % o.checkpoint_every == 0) || last || stopping)
      if (!run.save()) return SelfplayResult::Failed;
    if (stopping) {
      run.say("stopped at step " + std::to_string(done) +
              " (a stop was asked): the same command with --resume goes on");
      run.finish();
      return SelfplayResult::Interrupted;
    }
  }
  if (run.step() > first_step && !run.evaluate()) return SelfplayResult::Failed;
  run.finish();
  return SelfplayResult::Ok;
}

}  // namespace gs::neural
