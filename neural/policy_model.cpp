#include "neural/policy_model.h"

#include <torch/nn/functional/activation.h>
#include <torch/serialize/archive.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>

#include "neural/archive_file.h"

namespace gs::neural {
namespace {

const char* const kMagicWord = "gpusynth-search-policy";

std::string meta_text(const PolicyMeta& m) {
  std::ostringstream out;
  out.precision(17);
  out << kMagicWord << " format=" << kPolicyFormat << "\n"
      << "features=" << m.features << " hidden=" << m.hidden << " keys=" << m.keys.size()
      << " step=" << m.step << " examples=" << m.examples << " validation_loss=" << m.validation_loss << "\n";
  for (const std::string& k : m.keys) out << k << "\n";
  return out.str();
}

bool parse_meta(const std::string& text, PolicyMeta* m, std::string* why) {
  std::istringstream in(text);
  std::string head, sizes;
  std::getline(in, head);
  std::getline(in, sizes);
  if (!head.starts_with(kMagicWord)) return *why = "not a gpusynth search policy", false;
  if (std::string_view(head).substr(std::strlen(kMagicWord)) != " format=" + std::to_string(kPolicyFormat))
    return *why = "unsupported policy file '" + head +
                  "' (this build reads format=" + std::to_string(kPolicyFormat) + ")",
           false;
  u64 keys = 0;
  if (std::sscanf(sizes.c_str(),
                  "features=%" SCNd64 " hidden=%" SCNd64 " keys=%" SCNu64 " step=%" SCNu64
                  " examples=%" SCNu64 " validation_loss=%lf",
                  &m->features, &m->hidden, &keys, &m->step, &m->examples, &m->validation_loss) != 6 ||
      m->features <= 0 || m->hidden <= 0 || keys == 0)
    return *why = "malformed sizes '" + sizes + "'", false;
  for (std::string key; m->keys.size() < keys && std::getline(in, key);) m->keys.push_back(key);
  if (m->keys.size() != keys) return *why = "the vocabulary ends early", false;
  return true;
}

}  // namespace

PolicyNetImpl::PolicyNetImpl(i64 features, i64 hidden, i64 keys)
    : case1_(register_module("case1", torch::nn::Linear(features, hidden))),
      case2_(register_module("case2", torch::nn::Linear(hidden, hidden))),
      joint_(register_module("joint", torch::nn::Linear(2 * hidden, hidden))),
      out_(register_module("out", torch::nn::Linear(hidden, keys))) {}

torch::Tensor PolicyNetImpl::forward(const torch::Tensor& cases, const torch::Tensor& mask) {
  torch::Tensor h = torch::relu(case2_(torch::relu(case1_(cases))));  // [B, C, H]
  const torch::Tensor m = mask.unsqueeze(-1);                         // [B, C, 1]
  const torch::Tensor mean = (h * m).sum(1) / m.sum(1).clamp_min(1);
  // h >= 0 after the ReLU, so zeroing the rows that are not cases leaves the max of those that are.
  const torch::Tensor max = std::get<0>((h * m).max(1));
  return out_(torch::relu(joint_(torch::cat({mean, max}, 1))));
}

std::pair<torch::Tensor, torch::Tensor> policy_batch(const std::vector<const PolicyInput*>& inputs) {
  const i64 b = i64(inputs.size());
  torch::Tensor cases = torch::zeros({b, i64(kPolicyCases), i64(kCaseFeatures)});
  torch::Tensor mask = torch::zeros({b, i64(kPolicyCases)});
  float* c = cases.data_ptr<float>();
  float* m = mask.data_ptr<float>();
  for (i64 i = 0; i < b; ++i) {
    const PolicyInput& in = *inputs[size_t(i)];
    std::copy(in.features.begin(), in.features.end(), c + i * kPolicyCases * kCaseFeatures);
    std::fill(m + i * kPolicyCases, m + i * kPolicyCases + in.rows, 1.f);
  }
  return {cases, mask};
}

bool save_policy(const std::string& path, const PolicyMeta& meta, PolicyNet& net, std::string* error) {
  return save_archive_file(
      path, "the policy", meta_text(meta),
      [&](torch::serialize::OutputArchive& archive) {
        torch::serialize::OutputArchive model;
        net->save(model);
        archive.write("model", model);
      },
      error);
}

std::optional<std::pair<PolicyMeta, PolicyNet>> load_policy_file(const std::string& path,
                                                                 std::string* error) {
  PolicyMeta meta;
  std::string text, why;
  torch::serialize::InputArchive archive;
  if (load_archive_file(path, "policy file", "gpusynth search policy", &archive, &text, &why) &&
      parse_meta(text, &meta, &why)) {
    try {
      PolicyNet net(meta.features, meta.hidden, i64(meta.keys.size()));
      torch::serialize::InputArchive model;
      if (!archive.try_read("model", model)) {
        why = "no model record";
      } else {
        net->load(model);
        net->eval();
        return std::make_pair(std::move(meta), std::move(net));
      }
    } catch (const std::exception& e) {
      why = "its model does not load: " + first_line(e);
    }
  }
  *error = path + ": " + why;
  return std::nullopt;
}

}  // namespace gs::neural
