#include "cluster/run_files.h"

#include <filesystem>

#include "records/records.h"
#include "records/shards.h"

namespace gs::cluster {

namespace fs = std::filesystem;

bool is_run_file(const std::string& name) {
  if (name == "campaign.jsonl" || name == records::records_file_name() ||
      name == records::records_file_name() + ".joining")
    return true;
  const std::string stem = "records.rank-";
  return name.starts_with(stem) && name.ends_with(".h5") && name.size() > stem.size() + 3;
}

namespace {

// Why the entry at p is no regular file, or "" when it is one or is absent.
std::string not_regular(const fs::path& p) {
  std::error_code ec;
  const fs::file_status s = fs::symlink_status(p, ec);
  if (ec || s.type() == fs::file_type::not_found || s.type() == fs::file_type::regular) return "";
  if (s.type() == fs::file_type::symlink) return "is a symbolic link";
  if (s.type() == fs::file_type::directory) return "is a directory";
  return "is not a regular file";
}

}  // namespace

bool run_files_are_regular(const std::string& run_dir, std::string* error) {
  auto refuse = [&](const fs::path& p, const std::string& why) {
    *error =
        p.string() + ": " + why +
        "; a campaign writes only regular files and its shards directory in its run directory (remove it, or "
        "give another --out)";
    return false;
  };
  std::error_code ec;
  if (std::string why = records::shards_directory_refusal(run_dir); !why.empty())
    return refuse(records::shards_directory(run_dir), why);
  for (fs::directory_iterator it(run_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_run_file(it->path().filename().string())) continue;
    if (std::string why = not_regular(it->path()); !why.empty()) return refuse(it->path(), why);
  }
  return true;
}

}  // namespace gs::cluster
