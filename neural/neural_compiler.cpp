#include "neural/neural_compiler.h"

#include "neural/checkpoint.h"
#include "neural/sampling.h"
#include "neural/source_tokenizer.h"
#include "neural/trainer.h"

namespace gs::neural {
namespace {

class TorchCompiler final : public NeuralCompiler {
 public:
  TorchCompiler(Seq2Seq model, torch::Device device) : model_(std::move(model)), device_(device) {}

  const ModelConfig& config() const override { return model_->config(); }

  std::vector<Candidates> compile(const std::vector<std::string_view>& sources,
                                  const CompileSampling& sampling) override {
    const u32 k = std::max<u32>(1, sampling.samples);
    std::vector<Candidates> out(sources.size());
    std::vector<TokenSeq> rows;
    std::vector<size_t> row_source;
    std::vector<std::vector<std::string>> names(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      std::string error;
      auto tokens = encode_source(sources[i], &error);
      if (tokens && tokens->ids.size() > size_t(config().max_source))
        error = "source is " + std::to_string(tokens->ids.size()) + " tokens, the model takes at most " +
                std::to_string(config().max_source);
      if (!tokens || !error.empty()) {
        out[i].source_error = error;
        out[i].samples.assign(k, DecodedBytecode{{}, error});
        continue;
      }
      names[i] = std::move(tokens->function_names);
      rows.push_back(std::move(tokens->ids));
      row_source.push_back(i);
    }
    if (rows.empty()) return out;
    std::vector<std::vector<TokenSeq>> decoded;
    if (sampling.temperature <= 0) {
      std::vector<TokenSeq> g = greedy(model_, rows, device_);
      for (TokenSeq& s : g) decoded.push_back(std::vector<TokenSeq>(k, s));
    } else {
      SamplingOptions o;
      o.samples = k;
      o.temperature = sampling.temperature;
      o.top_p = sampling.top_p;
      o.seed = sampling.seed;
      o.stream = sampling.stream;
      decoded = sample(model_, rows, o, device_);
    }
    for (size_t r = 0; r < rows.size(); ++r)
      out[row_source[r]].samples = decode_candidates(decoded[r], names[row_source[r]]);
    return out;
  }

 private:
  Seq2Seq model_;
  torch::Device device_;
};

}  // namespace

std::unique_ptr<NeuralCompiler> NeuralCompiler::load(const std::string& checkpoint, const std::string& device,
                                                     std::string* error) {
  torch::Device d(torch::kCPU);
  if (!pick_device(device, &d, error)) return nullptr;
  auto meta = read_checkpoint_meta(checkpoint, error);
  if (!meta) return nullptr;
  Seq2Seq model(meta->model);
  if (!load_checkpoint(checkpoint, model, nullptr, error)) return nullptr;
  model->to(d);
  model->eval();
  return std::make_unique<TorchCompiler>(std::move(model), d);
}

}  // namespace gs::neural
