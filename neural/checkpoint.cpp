#include "neural/checkpoint.h"

#include <torch/serialize/archive.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "neural/vocabulary.h"

namespace gs::neural {
namespace {

const char* const kMagicWord = "gpusynth-neural-checkpoint";

// c10 errors carry a backtrace after the first line: the first line says what went wrong.
std::string first_line(const std::exception& e) {
  std::string s = e.what();
  size_t nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

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
  const std::string tmp = path + ".tmp";
  try {
    torch::serialize::OutputArchive archive, model_archive;
    archive.write("meta", c10::IValue(meta_text(meta)));
    model->save(model_archive);
    archive.write("model", model_archive);
    if (optimizer) {
      torch::serialize::OutputArchive optimizer_archive;
      optimizer->save(optimizer_archive);
      archive.write("optimizer", optimizer_archive);
    }
    archive.save_to(tmp);
    std::filesystem::rename(tmp, path);
  } catch (const std::exception& e) {
    *error = path + ": cannot write checkpoint: " + first_line(e);
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    return false;
  }
  return true;
}

std::optional<CheckpointMeta> read_checkpoint_meta(const std::string& path, std::string* error) {
  if (!std::filesystem::is_regular_file(path)) {
    *error = path + ": no such checkpoint file";
    return std::nullopt;
  }
  CheckpointMeta meta;
  std::string why;
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path, torch::Device(torch::kCPU));
    c10::IValue text;
    if (!archive.try_read("meta", text) || !text.isString()) {
      why = "not a gpusynth neural checkpoint (no meta record)";
    } else {
      parse_meta(text.toStringRef(), &meta, &why);
    }
  } catch (const std::exception& e) {
    why = "not a readable checkpoint (corrupt or truncated?): " + first_line(e);
  }
  if (!why.empty()) {
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
