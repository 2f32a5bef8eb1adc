#include "neural/archive_file.h"

#include <filesystem>

namespace gs::neural {

std::string first_line(const std::exception& e) {
  std::string s = e.what();
  const size_t nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

bool save_archive_file(const std::string& path, const std::string& what, const std::string& meta,
                       const std::function<void(torch::serialize::OutputArchive&)>& fill,
                       std::string* error) {
  const std::string tmp = path + ".tmp";
  try {
    torch::serialize::OutputArchive archive;
    archive.write("meta", c10::IValue(meta));
    fill(archive);
    archive.save_to(tmp);
    std::filesystem::rename(tmp, path);
  } catch (const std::exception& e) {
    *error = path + ": cannot write " + what + ": " + first_line(e);
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    return false;
  }
  return true;
}

bool load_archive_file(const std::string& path, const std::string& what, const std::string& kind,
                       torch::serialize::InputArchive* archive, std::string* meta, std::string* why) {
  if (!std::filesystem::is_regular_file(path)) return *why = "no such " + what, false;
  try {
    archive->load_from(path, torch::Device(torch::kCPU));
    c10::IValue text;
    if (!archive->try_read("meta", text) || !text.isString())
      return *why = "not a " + kind + " (no meta record)", false;
    *meta = text.toStringRef();
  } catch (const std::exception& e) {
    return *why = "not a readable " + what + " (corrupt or truncated?): " + first_line(e), false;
  }
  return true;
}

}  // namespace gs::neural
