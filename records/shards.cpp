#include "records/shards.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "base/durable_file.h"
#include "base/hash.h"

namespace gs::records {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPartSuffix = ".part";

bool plain_name(const std::string& name) {
  if (name.empty() || name.size() > 200 || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

// RUN/shards, created if absent; anything but a directory there is refused.
std::string ready_directory(const std::string& run_dir) {
  const std::string dir = shards_directory(run_dir);
  if (const std::string why = shards_directory_refusal(run_dir); !why.empty())
    throw std::runtime_error(dir + ": " + why +
                             "; a campaign writes its records shards into a directory of its own there "
                             "(remove it, or give another --out)");
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() == fs::file_type::not_found) {
    fs::create_directory(dir, ec);
    if (ec) throw std::runtime_error(dir + ": cannot create the shards directory: " + ec.message());
    sync_directory(run_dir);
  }
  return dir;
}

}  // namespace

std::string shards_directory(const std::string& run_dir) { return (fs::path(run_dir) / "shards").string(); }

std::string shards_directory_refusal(const std::string& run_dir) {
  std::error_code ec;
  switch (fs::symlink_status(shards_directory(run_dir), ec).type()) {
    case fs::file_type::symlink: return "is a symbolic link";
    case fs::file_type::not_found:
    case fs::file_type::directory:
    case fs::file_type::none: return "";
    default: return "is not a directory";
  }
}

std::string shard_file_name(const std::string& problem) {
  if (plain_name(problem)) return problem + ".h5";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                (unsigned long long)fnv1a64(reinterpret_cast<const u8*>(problem.data()), problem.size()));
  return std::string("problem-") + hex + ".h5";
}

std::vector<std::string> committed_shards(const std::string& run_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(shards_directory(run_dir), ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code sc;
    if (it->path().extension() == ".h5" && it->symlink_status(sc).type() == fs::file_type::regular)
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void remove_shards(const std::string& run_dir) {
  std::error_code ec;
  fs::remove_all(shards_directory(run_dir), ec);
  if (ec) throw std::runtime_error(shards_directory(run_dir) + ": cannot remove: " + ec.message());
}

Shard Shard::begin(const std::string& run_dir, const std::string& problem, const RunInfo& run,
                   const SamplingPolicy& sampling) {
  const fs::path dir = ready_directory(run_dir);
  const std::string committed = (dir / shard_file_name(problem)).string();
  const std::string part = committed + kPartSuffix;
  std::error_code ec;
  fs::remove(part, ec);  // a killed session's (a link is removed, not followed)
  if (ec) throw std::runtime_error(part + ": cannot remove the part a stopped session left: " + ec.message());
  return Shard(part, committed, Writer::create_or_resume(part, run, sampling));
}

Shard::Shard(std::string part, std::string committed, Writer writer)
    : part_(std::move(part)), committed_(std::move(committed)), writer_(std::move(writer)) {}

Shard::Shard(Shard&& o) noexcept
    : part_(std::move(o.part_)),
      committed_(std::move(o.committed_)),
      writer_(std::move(o.writer_)),
      done_(o.done_) {
  o.done_ = true;
}

Shard::~Shard() {
  if (!done_) discard();
}

void Shard::commit() {
  writer_->close();
  commit_file(part_, committed_);
  done_ = true;
}

void Shard::discard() noexcept {
  done_ = true;
  if (writer_) writer_->abandon();
  std::error_code ec;
  fs::remove(part_, ec);
}

}  // namespace gs::records
