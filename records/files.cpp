// The small helpers of trace.h: names of compile paths, file names, hashes, traps.
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "records/records.h"
#include "records/shards.h"
#include "vm/trap.h"

namespace gs::records {

const char* compile_path_name(CompilePath p) {
  switch (p) {
    case CompilePath::TRADITIONAL: return "traditional";
    case CompilePath::NEURAL: return "neural";
    case CompilePath::HYBRID: return "hybrid";
  }
  return "?";
}

namespace {

constexpr std::string_view kRankPrefix = "records.rank-";

// The rank in "records.rank-K.h5", or -1 when the name is not a rank file's.
long rank_of(std::string_view name) {
  if (!name.starts_with(kRankPrefix) || !name.ends_with(".h5")) return -1;
  const std::string_view digits = name.substr(kRankPrefix.size(), name.size() - kRankPrefix.size() - 3);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stol(std::string(digits));
}

}  // namespace

std::string records_file_name(std::optional<u32> rank) {
  return rank ? std::string(kRankPrefix) + std::to_string(*rank) + ".h5" : "records.h5";
}

std::vector<std::string> rank_records_files(const std::string& run_dir) {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec)) {
    const long rank = rank_of(entry.path().filename().string());
    if (rank >= 0 && entry.is_regular_file(ec)) found.emplace_back(rank, entry.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> files;
  for (auto& [rank, path] : found) files.push_back(std::move(path));
  return files;
}

std::vector<std::string> records_files(const std::string& run_dir) {
  std::error_code ec;
  const std::filesystem::path joined = std::filesystem::path(run_dir) / records_file_name();
  std::vector<std::string> files;
  if (std::filesystem::is_regular_file(joined, ec))
    files.push_back(joined.string());
  else
    files = rank_records_files(run_dir);
  for (std::string& shard : committed_shards(run_dir)) files.push_back(std::move(shard));
  return files;
}

namespace {

// The "name = value" lines of a config text, by name.
std::map<std::string, std::string> config_options(const std::string& text) {
  std::map<std::string, std::string> options;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (const size_t eq = line.find(" = "); eq != std::string::npos)
      options[line.substr(0, eq)] = line.substr(eq + 3);
  return options;
}

}  // namespace

void require_same_run(const std::string& run_dir, const RunInfo& run,
                      std::span<const std::string> session_options) {
  const std::vector<std::string> files = records_files(run_dir);
  if (files.empty()) return;
  const RunInfo found = Reader::open(files.front()).attributes().run;
  if (found.seed != run.seed)
    throw std::runtime_error(files.front() + ": was written with seed " + std::to_string(found.seed) +
                             ", not " + std::to_string(run.seed) + "; a resumed run must use the same seed");
  const std::map<std::string, std::string> before = config_options(found.config_text),
                                           now = config_options(run.config_text);
  std::string differ;
  for (const auto& [name, value] : now) {
    auto it = before.find(name);
    if (it == before.end() || it->second == value ||
        std::find(session_options.begin(), session_options.end(), name) != session_options.end())
      continue;
    differ += (differ.empty() ? "" : ", ") + name + " = " + it->second + " (now " + value + ")";
  }
  if (!differ.empty())
    throw std::runtime_error(files.front() + ": the run was searched with " + differ +
                             "; a resumed run must search as it began (another --out starts a new run)");
}

u8 dominant_trap(std::span<const u8> traps) {
  u32 counts[256] = {};
  for (u8 t : traps) counts[t]++;
  if (!traps.empty() && counts[pipeline::kNotRun] == traps.size()) return pipeline::kNotRun;
  u8 worst = u8(vm::Trap::NONE);
  u32 most = 0;
  for (u32 t = 1; t < 256; ++t)
    if (t != pipeline::kNotRun && counts[t] > most) {
      most = counts[t];
      worst = u8(t);
    }
  return worst;
}

}  // namespace gs::records
