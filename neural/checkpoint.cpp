#include "neural/checkpoint.h"

#include <torch/serialize/archive.h>

#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "neural/archive_file.h"
#include "neural/vocabulary.h"

namespace gs::neural {
namespace {

const char* const kMagicWord = "gpusynth-neural-checkpoint";

std::string meta_text(const CheckpointMeta& m) {
  std::ostringstream out;
  out.precision(17);
  out << kMagicWord << " format=" << kCheckpointFormat << " vocabulary=" << Vocabulary::get().fingerprint()
      << "\n"
      << m.model.to_text() << "\n"
      << "step=" << m.step << " total_steps=" << m.total_steps << " seed=" << m.seed << " batch=" << m.batch
      << " learning_rate=" << m.learning_rate << " examples=" << m.examples << "\n";
  return out.str();
}

bool parse_meta(const std::string& text, CheckpointMeta* m, std::string* why) {
  std::istringstream in(text);
  std::string head, model, train;
  std::getline(in, head);
  std::getline(in, model);
  std::getline(in, train);
  std::istringstream h(head);
  std::string word, format, vocabulary;
  h >> word >> format >> vocabulary;
  if (word != kMagicWord) return *why = "not a gpusynth neural checkpoint", false;
  if (format != "format=" + std::to_string(kCheckpointFormat))
    return *why = "unsupported checkpoint " + format +
                  " (this build reads format=" + std::to_string(kCheckpointFormat) + ")",
           false;
  if (vocabulary != "vocabulary=" + std::to_string(Vocabulary::get().fingerprint()))
    return *why = "made with another token vocabulary (the opcode, token or builtin tables changed)", false;
  if (!m->model.from_text(model, why)) return false;
  if (std::string p = m->model.problem(); !p.empty()) return *why = "model configuration: " + p, false;
  int fields = std::sscanf(train.c_str(),
                           "step=%" SCNu64 " total_steps=%" SCNu64 " seed=%" SCNu64
                           " batch=%u learning_rate=%lf examples=%" SCNu64,
                           &m->step, &m->total_steps, &m->seed, &m->batch, &m->learning_rate, &m->examples);
  if (fields != 6) return *why = "malformed training state '" + train + "'", false;
  return true;
}

torch::Device device_of(Seq2Seq& model) {
  for (const torch::Tensor& p : model->parameters()) return p.device();
  return torch::Device(torch::kCPU);
}

}  // namespace

bool save_checkpoint(const std::string& path, const CheckpointMeta& meta, Seq2Seq& model,
                     torch::optim::Optimizer* optimizer, std::string* error) {
  return save_archive_file(
      path, "checkpoint", meta_text(meta),
      [&](torch::serialize::OutputArchive& archive) {
        torch::serialize::OutputArchive model_archive;
        model->save(model_archive);
        archive.write("model", model_archive);
        if (optimizer) {
          torch::serialize::OutputArchive optimizer_archive;
          optimizer->save(optimizer_archive);
          archive.write("optimizer", optimizer_archive);
        }
      },
      error);
}

std::optional<CheckpointMeta> read_checkpoint_meta(const std::string& path, std::string* error) {
  CheckpointMeta meta;
  std::string text, why;
  torch::serialize::InputArchive archive;
  if (!load_archive_file(path, "checkpoint file", "gpusynth neural checkpoint", &archive, &text, &why) ||
      !parse_meta(text, &meta, &why)) {
    *error = path + ": " + why;
    return std::nullopt;
  }
  return meta;
}

bool load_checkpoint(const std::string& path, Seq2Seq& model, torch::optim::Optimizer* optimizer,
                     std::string* error) {
  std::optional<CheckpointMeta> meta = read_checkpoint_meta(path, error);
  if (!meta) return false;
  if (meta->model.to_text() != model->config().to_text()) {
    *error = path + ": the checkpoint's model (" + meta->model.to_text() + ") differs from this one (" +
             model->config().to_text() + ")";
    return false;
  }
  try {
    torch::serialize::InputArchive archive, model_archive;
    archive.load_from(path, device_of(model));
    archive.read("model", model_archive);
    model->load(model_archive);
    if (optimizer) {
      torch::serialize::InputArchive optimizer_archive;
      if (!archive.try_read("optimizer", optimizer_archive)) {
        *error =
            path + ": the checkpoint holds no optimizer state (a model-only file cannot resume training)";
        return false;
      }
      optimizer->load(optimizer_archive);
    }
  } catch (const std::exception& e) {
    *error = path + ": cannot load checkpoint: " + first_line(e);
    return false;
  }
  return true;
}

}  // namespace gs::neural
