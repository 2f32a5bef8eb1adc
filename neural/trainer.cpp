#include "neural/trainer.h"

#include <torch/cuda.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/utils.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "neural/bytecode_tokenizer.h"
#include "neural/sampling.h"
#include "neural/train_compiler.h"

namespace gs::neural {

// ---- Trainer ----------------------------------------------------------------------------------

Trainer::Trainer(const ModelConfig& config, double learning_rate, torch::Device device) : device_(device) {
  model_ = Seq2Seq(config);
  model_->to(device_);
  optimizer_ =
      std::make_unique<torch::optim::Adam>(model_->parameters(), torch::optim::AdamOptions(learning_rate));
}

std::unique_ptr<Trainer> Trainer::resume(const std::string& path, torch::Device device, CheckpointMeta* meta,
                                         std::string* error) {
  std::optional<CheckpointMeta> m = read_checkpoint_meta(path, error);
  if (!m) return nullptr;
  auto trainer = std::make_unique<Trainer>(m->model, m->learning_rate, device);
  if (!load_checkpoint(path, trainer->model_, trainer->optimizer_.get(), error)) return nullptr;
  trainer->steps_ = m->step;
  *meta = *m;
  return trainer;
}

StepStats Trainer::forward(const std::vector<Example>& batch, torch::Tensor* loss) {
  std::vector<TokenSeq> sources, targets;
  for (const Example& e : batch) sources.push_back(e.source_ids), targets.push_back(e.bytecode_ids);
  torch::Tensor source = pad_batch(sources, device_);
  torch::Tensor target = pad_batch(targets, device_);
  const i64 t = target.size(1) - 1;
  torch::Tensor input = target.narrow(1, 0, t), labels = target.narrow(1, 1, t);
  torch::Tensor logits = model_->forward(source, input);
  torch::Tensor nll = -torch::log_softmax(logits, -1).gather(2, labels.unsqueeze(2)).squeeze(2);
  torch::Tensor mask = labels.ne(i64(Special::PAD));
  torch::Tensor count = mask.sum();
  *loss = (nll * mask.to(nll.scalar_type())).sum() / count.clamp_min(1).to(nll.scalar_type());
  torch::Tensor right = logits.argmax(2).eq(labels).logical_and(mask).sum();
  StepStats s;
  s.tokens = u32(count.item<i64>());
  s.loss = loss->item<double>();
  s.token_accuracy = s.tokens ? double(right.item<i64>()) / s.tokens : 0.0;
  return s;
}

StepStats Trainer::step(const std::vector<Example>& batch, double lr, double clip) {
  model_->train();
  for (auto& group : optimizer_->param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
  optimizer_->zero_grad();
  torch::Tensor loss;
  StepStats s = forward(batch, &loss);
  loss.backward();
  if (clip > 0) torch::nn::utils::clip_grad_norm_(model_->parameters(), clip);
  optimizer_->step();
  ++steps_;
  return s;
}

StepStats Trainer::measure(const std::vector<Example>& batch) {
  bool was_training = model_->is_training();
  model_->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  StepStats s = forward(batch, &loss);
  model_->train(was_training);
  return s;
}

EvalStats Trainer::evaluate(const std::vector<Example>& set) {
  EvalStats e;
  e.programs = u32(set.size());
  if (set.empty()) return e;
  std::vector<TokenSeq> sources;
  for (const Example& x : set) sources.push_back(x.source_ids);
  std::vector<TokenSeq> decoded = greedy(model_, sources, device_);
  u32 exact = 0, valid = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    exact += decoded[i] == set[i].bytecode_ids;
    valid += decode_bytecode(decoded[i], set[i].function_names).ok();
  }
  e.exact_match = double(exact) / set.size();
  e.verifier_pass = double(valid) / set.size();
  double loss = 0, right = 0, tokens = 0;
  for (size_t first = 0; first < set.size(); first += 32) {
    std::vector<Example> part(set.begin() + i64(first), set.begin() + i64(std::min(set.size(), first + 32)));
    StepStats s = measure(part);
    loss += s.loss * s.tokens, right += s.token_accuracy * s.tokens, tokens += s.tokens;
  }
  e.loss = tokens ? loss / tokens : 0;
  e.token_accuracy = tokens ? right / tokens : 0;
  return e;
}

bool Trainer::save(const std::string& path, CheckpointMeta meta, std::string* error) {
  meta.model = model_->config();
  meta.step = steps_;
  return save_checkpoint(path, meta, model_, optimizer_.get(), error);
}

// ---- the train-compiler run -------------------------------------------------------------------

bool pick_device(const std::string& name, torch::Device* device, std::string* error) {
  if (name == "cpu") {
    *device = torch::Device(torch::kCPU);
    return true;
  }
  if (name == "cuda") {
    if (!torch::cuda::is_available()) {
      *error =
          "--device cuda: this libtorch has no CUDA support or sees no GPU (Debian's libtorch is CPU only; "
          "build against PyTorch's libtorch on a GPU machine, docs/neural.md)";
      return false;
    }
    *device = torch::Device(torch::kCUDA, 0);
    return true;
  }
  *error = "--device must be cpu or cuda, not '" + name + "'";
  return false;
}

namespace {

std::string options_problem(const TrainOptions& o) {
  if (o.out_dir.empty()) return "--out DIR is required";
  if (o.steps == 0) return "--steps must be positive";
  if (o.batch == 0) return "--batch must be positive";
  if (!(o.learning_rate > 0)) return "--lr must be positive";
  if (o.levels == 0 || o.levels > kCurriculumLevels)
    return "--levels must be 1.." + std::to_string(kCurriculumLevels);
  if (o.clip < 0) return "--clip must not be negative";
  if (o.log_every == 0) return "--log-every must be positive";
  if (o.resume.empty()) {
    ModelConfig m = o.model;
    if (std::string p = m.problem(); !p.empty()) return "model: " + p;
  }
  return "";
}

std::string fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

}  // namespace

TrainResult train_compiler(const TrainOptions& o, std::ostream& log, std::string* error) {
  if (std::string p = options_problem(o); !p.empty()) return *error = p, TrainResult::BadInput;
  torch::Device device(torch::kCPU);
  if (!pick_device(o.device, &device, error)) return TrainResult::BadInput;
  if (o.threads > 0) torch::set_num_threads(int(o.threads));
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) return *error = o.out_dir + ": cannot create directory: " + ec.message(), TrainResult::BadInput;
  const std::string checkpoint = (std::filesystem::path(o.out_dir) / "checkpoint.pt").string();
  const std::string progress_path = (std::filesystem::path(o.out_dir) / "progress.tsv").string();

  torch::manual_seed(o.seed);  // the model's initial weights
  CheckpointMeta meta;
  std::unique_ptr<Trainer> trainer;
  try {
    if (!o.resume.empty()) {
      trainer = Trainer::resume(o.resume, device, &meta, error);
      if (!trainer) return TrainResult::BadInput;
      log << "resumed " << o.resume << " at step " << meta.step << " (seed " << meta.seed << ", "
          << meta.examples << " examples seen)\n";
    } else {
      trainer = std::make_unique<Trainer>(o.model, o.learning_rate, device);
      meta.seed = o.seed;
    }
  } catch (const std::exception& e) {
    return *error = std::string("cannot build the model: ") + e.what(), TrainResult::BadInput;
  }
  meta.total_steps = o.steps;
  meta.batch = o.batch;
  meta.learning_rate = o.learning_rate;
  const ModelConfig& mc = trainer->model()->config();
  log << "model: " << mc.to_text() << " (" << parameter_count(trainer->model()) << " parameters), device "
      << o.device << "\n";

  PairMaker maker(meta.seed, u32(mc.max_source), u32(mc.max_bytecode));
  std::vector<Example> held_out;
  std::ofstream progress(progress_path, std::ios::app);
  if (!progress) return *error = progress_path + ": cannot write file", TrainResult::BadInput;
  if (trainer->steps_taken() == 0)
    progress << "kind\tstep\tlevel\tloss\ttoken_accuracy\texact_match\tverifier_pass\n";

  auto evaluate = [&](u64 step) {
    if (held_out.empty()) held_out = maker.held_out(o.eval_programs, o.levels);
    auto t0 = std::chrono::steady_clock::now();
    EvalStats e = trainer->evaluate(held_out);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    log << "eval  step " << step << ": exact_match " << fixed(e.exact_match, 3) << "  verifier_pass "
        << fixed(e.verifier_pass, 3) << "  held-out loss " << fixed(e.loss, 4) << "  token_acc "
        << fixed(e.token_accuracy, 3) << "  (" << e.programs << " programs, " << fixed(secs, 1) << " s)\n";
    progress << "eval\t" << step << "\t\t" << e.loss << "\t" << e.token_accuracy << "\t" << e.exact_match
             << "\t" << e.verifier_pass << "\n";
  };
  auto save = [&]() {
    if (!trainer->save(checkpoint, meta, error)) return false;
    log << "checkpoint " << checkpoint << " (step " << trainer->steps_taken() << ")\n";
    return true;
  };

  if (trainer->steps_taken() >= o.steps) {
    log << "already at step " << trainer->steps_taken() << " of " << o.steps << ": nothing to train\n";
    if (o.eval_every > 0 && o.eval_programs > 0) evaluate(trainer->steps_taken());
    return TrainResult::Ok;
  }
  double window_loss = 0, window_acc = 0;
  u32 window = 0;
  auto window_start = std::chrono::steady_clock::now();
  try {
    while (trainer->steps_taken() < o.steps) {
      const u64 step = trainer->steps_taken();
      const u32 level = curriculum_level(step, o.steps, o.levels);
      std::vector<Example> batch = maker.training_batch(meta.examples, o.batch, level);
      meta.examples += batch.size();
      double lr = o.learning_rate * std::min(1.0, double(step + 1) / std::max<u32>(1, o.warmup));
      StepStats s = trainer->step(batch, lr, o.clip);
      window_loss += s.loss, window_acc += s.token_accuracy, ++window;
      const u64 done = trainer->steps_taken();
      const bool last = done == o.steps;
      if (done % o.log_every == 0 || last) {
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - window_start).count();
        log << "step " << done << "/" << o.steps << "  level " << level << "  loss "
            << fixed(window_loss / window, 4) << "  token_acc " << fixed(window_acc / window, 3) << "  lr "
            << lr << "  " << fixed(window * o.batch / std::max(secs, 1e-9), 1) << " examples/s\n";
        progress << "train\t" << done << "\t" << level << "\t" << window_loss / window << "\t"
                 << window_acc / window << "\t\t\n";
        window_loss = window_acc = 0, window = 0;
        window_start = std::chrono::steady_clock::now();
      }
      if (o.eval_every > 0 && o.eval_programs > 0 && (done % o.eval_every == 0 || last)) evaluate(done);
      if ((o.checkpoint_every > 0 && done % o.checkpoint_every == 0) || last)
        if (!save()) return TrainResult::Failed;
      log.flush();
      progress.flush();
    }
  } catch (const std::exception& e) {
    *error =
        std::string("training failed at step ") + std::to_string(trainer->steps_taken()) + ": " + e.what();
    return TrainResult::Failed;
  }
  return TrainResult::Ok;
}

}  // namespace gs::neural
