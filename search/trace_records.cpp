// The small helpers of trace.h: names of compile paths, file names, hashes, traps.
#include <algorithm>
#include <filesystem>

#include "search/trace.h"
#include "vm/trap.h"

namespace gs::search {

const char* compile_path_name(CompilePath p) {
  switch (p) {
    case CompilePath::TRADITIONAL: return "traditional";
    case CompilePath::NEURAL: return "neural";
    case CompilePath::HYBRID: return "hybrid";
  }
  return "?";
}

std::string records_file_name(std::optional<u32> rank) {
  return rank ? "records-rank" + std::to_string(*rank) + ".h5" : "records.h5";
}

std::vector<std::string> records_files(const std::string& run_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec)) {
    std::string name = entry.path().filename().string();
    bool records = name == "records.h5" || (name.starts_with("records-") && name.ends_with(".h5"));
    if (records && entry.is_regular_file(ec)) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

u8 dominant_trap(std::span<const u8> traps) {
  u32 counts[256] = {};
  for (u8 t : traps) counts[t]++;
  if (!traps.empty() && counts[vm::kNotRun] == traps.size()) return vm::kNotRun;
  u8 worst = u8(vm::Trap::NONE);
  u32 most = 0;
  for (u32 t = 1; t < 256; ++t)
    if (t != vm::kNotRun && counts[t] > most) {
      most = counts[t];
      worst = u8(t);
    }
  return worst;
}

}  // namespace gs::search
