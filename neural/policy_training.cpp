#include "neural/policy_training.h"

#include <torch/nn/functional/loss.h>
#include <torch/optim/adam.h>
#include <torch/types.h>  // first: the optimizer headers use Tensor
#include <torch/utils.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <random>
#include <set>

#include "neural/policy_model.h"
#include "suites/problem.h"

namespace gs::neural {
namespace {

struct LabelledProblem {
  PolicyInput input;
  std::vector<i64> uses;  // vocabulary indices
};

using Line = std::pair<PolicyInput, std::vector<std::string>>;  // a problem and its answer's keys

// Reads a data file's lines; false with *error naming the file and line.
bool read_lines(const std::string& path, std::vector<Line>* lines, std::string* error) {
  std::ifstream in(path);
  if (!in) return *error = path + ": cannot read file", false;
  const size_t before = lines->size();
  std::string line;
  for (u64 number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return *error = where + ": not a JSON object", false;
    if (!j.contains("uses") || !j["uses"].is_array())
      return *error = where + ": no \"uses\" list (a line of gpusynth policy-data)", false;
    std::vector<std::string> uses;
    for (const auto& u : j["uses"]) {
      if (!u.is_string()) return *error = where + ": \"uses\" holds a non-string", false;
      uses.push_back(u.get<std::string>());
    }
    for (const char* extra : {"program", "size", "uses"}) j.erase(extra);
    std::string why;
    const std::optional<suites::Problem> p = suites::parse_problem(j.dump(), where, &why);
    if (!p) return *error = why, false;
    if (p->train.empty()) return *error = where + ": a problem without train cases", false;
    lines->push_back({policy_input(*p), std::move(uses)});
  }
  if (lines->size() == before) return *error = path + ": no problems", false;
  return true;
}

// The data files' problems, their keys indexed in *keys: the keys they hold, sorted, when *keys
// is empty; else *keys as it is, and a key outside it is counted in *dropped and left out.
bool read_data(const std::vector<std::string>& paths, std::vector<LabelledProblem>* examples,
               std::vector<std::string>* keys, u64* dropped, std::string* error) {
  std::vector<Line> lines;
  for (const std::string& path : paths)
    if (!read_lines(path, &lines, error)) return false;
  if (keys->empty()) {
    std::set<std::string> all;
    for (const Line& l : lines) all.insert(l.second.begin(), l.second.end());
    keys->assign(all.begin(), all.end());
  }
  std::map<std::string, i64> index;
  for (const std::string& k : *keys) index.emplace(k, i64(index.size()));
  for (auto& [input, uses] : lines) {
    LabelledProblem e{std::move(input), {}};
    for (const std::string& u : uses) {
      auto it = index.find(u);
      if (it == index.end()) {
        ++*dropped;
      } else {
        e.uses.push_back(it->second);
      }
    }
    examples->push_back(std::move(e));
  }
  return true;
}

torch::Tensor targets(const std::vector<const LabelledProblem*>& batch, i64 keys) {
  torch::Tensor t = torch::zeros({i64(batch.size()), keys});
  float* p = t.data_ptr<float>();
  for (size_t i = 0; i < batch.size(); ++i)
    for (i64 k : batch[i]->uses) p[i64(i) * keys + k] = 1.f;
  return t;
}

struct Evaluation {
  double loss = 0;       // binary cross-entropy per key
  double bits = 0;       // -log2 p of the keys used, per problem, under the model
  double base_bits = 0;  // … under the keys' base rates in training
};

Evaluation evaluate(PolicyNet& net, const std::vector<const LabelledProblem*>& held,
                    const std::vector<double>& rate, i64 keys) {
  torch::NoGradGuard no_grad;
  net->eval();
  Evaluation e;
  for (size_t start = 0; start < held.size(); start += 512) {
    std::vector<const LabelledProblem*> batch(held.begin() + i64(start),
                                              held.begin() + i64(std::min(held.size(), start + 512)));
    std::vector<const PolicyInput*> inputs;
    for (const LabelledProblem* x : batch) inputs.push_back(&x->input);
    auto [cases, mask] = policy_batch(inputs);
    const torch::Tensor logits = net(cases, mask);
    e.loss += torch::nn::functional::binary_cross_entropy_with_logits(
                  logits, targets(batch, keys),
                  torch::nn::functional::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kSum))
                  .item<double>();
    const torch::Tensor p = torch::sigmoid(logits).contiguous();
    const float* q = p.data_ptr<float>();
    for (size_t i = 0; i < batch.size(); ++i)
      for (i64 k : batch[i]->uses) {
        e.bits -= std::log2(std::max<double>(q[i64(i) * keys + k], 1e-9));
        e.base_bits -= std::log2(std::max(rate[size_t(k)], 1e-9));
      }
  }
  e.loss /= double(held.size()) * double(keys);
  e.bits /= double(held.size());
  e.base_bits /= double(held.size());
  net->train();
  return e;
}

}  // namespace

TrainResult train_policy(const PolicyTrainConfig& config, std::ostream& log, std::string* error) {
  if (config.threads) torch::set_num_threads(int(config.threads));
  std::vector<LabelledProblem> examples;
  PolicyMeta meta;
  std::optional<PolicyNet> start;
  if (!config.init.empty()) {
    auto loaded = load_policy_file(config.init, error);
    if (!loaded) return TrainResult::BadInput;
    meta.keys = loaded->first.keys;
    meta.hidden = loaded->first.hidden;
    meta.step = loaded->first.step;
    start = std::move(loaded->second);
  } else {
    meta.hidden = config.hidden;
  }
  u64 dropped = 0;
  if (!read_data(config.data, &examples, &meta.keys, &dropped, error)) return TrainResult::BadInput;
  if (dropped > 0)
    log << "gpusynth train-policy: " << dropped << " uses of keys outside " << config.init
        << "'s vocabulary left out\n";
  const i64 keys = i64(meta.keys.size());
  std::mt19937_64 rng(config.seed);
  torch::manual_seed(config.seed);
  std::vector<const LabelledProblem*> order;
  for (const LabelledProblem& e : examples) order.push_back(&e);
  std::shuffle(order.begin(), order.end(), rng);
  const size_t held_count =
      examples.size() < 20 ? 0 : std::max<size_t>(1, size_t(double(examples.size()) * config.validation));
  const std::vector<const LabelledProblem*> held(order.begin(), order.begin() + i64(held_count));
  std::vector<const LabelledProblem*> train(order.begin() + i64(held_count), order.end());
  std::vector<double> rate(size_t(keys), 0.5 / double(train.size()));  // the base rates, for comparison
  for (const LabelledProblem* e : train)
    for (i64 k : e->uses) rate[size_t(k)] += 1.0 / double(train.size());

  meta.features = kCaseFeatures;
  PolicyNet net = start ? *start : PolicyNet(meta.features, meta.hidden, keys);
  net->train();
  const u64 first_step = meta.step;
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(config.learning_rate));
  log << "gpusynth train-policy: " << examples.size() << " problems (" << train.size() << " to train on, "
      << held.size() << " held out), " << keys << " keys, " << kCaseFeatures << " features a case, hidden "
      << meta.hidden << ", " << config.steps << " steps of " << config.batch
      << (start ? ", from " + config.init + " (step " + std::to_string(first_step) + ")" : std::string())
      << std::endl;
  const auto started = std::chrono::steady_clock::now();
  size_t next = train.size();
  double running = 0;
  for (u64 step = 1; step <= config.steps; ++step) {
    std::vector<const LabelledProblem*> batch;
    while (batch.size() < config.batch) {
      if (next == train.size()) {
        std::shuffle(train.begin(), train.end(), rng);
        next = 0;
      }
      batch.push_back(train[next++]);
    }
    std::vector<const PolicyInput*> inputs;
    for (const LabelledProblem* x : batch) inputs.push_back(&x->input);
    auto [cases, mask] = policy_batch(inputs);
    const torch::Tensor loss =
        torch::nn::functional::binary_cross_entropy_with_logits(net(cases, mask), targets(batch, keys));
    adam.zero_grad();
    loss.backward();
    adam.step();
    running = step == 1 ? loss.item<double>() : 0.98 * running + 0.02 * loss.item<double>();
    meta.step = first_step + step;
    const bool last = step == config.steps;
    if ((config.log_every && step % config.log_every == 0) || last) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      log << "step " << step << "/" << config.steps << ": train loss " << std::setprecision(4) << running;
      if (!held.empty()) {
        const Evaluation e = evaluate(net, held, rate, keys);
        meta.validation_loss = e.loss;
        log << ", held-out loss " << e.loss << ", bits of the keys used " << e.bits << " (base rates "
            << e.base_bits << ")";
      }
      log << ", " << std::setprecision(3) << seconds << " s" << std::endl;  // seen as it comes, in a file too
    }
  }
  meta.examples = examples.size();
  if (!save_policy(config.output, meta, net, error)) return TrainResult::Failed;
  log << "gpusynth train-policy: wrote " << config.output << "\n";
  return TrainResult::Ok;
}

}  // namespace gs::neural
