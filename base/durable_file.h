// Writes that survive a crash or a power loss: a file is made durable with fsync, and a
// finished file is committed by renaming it into place and syncing the directory that names it
// (POSIX makes a rename durable only once its directory is synced). An append-only log writes
// each record whole or throws, and syncs it. Every error is a std::runtime_error naming the file
// and the system's reason ("RUN/campaign.jsonl: cannot write: No space left on device").
#pragma once

#include <string>
#include <string_view>

namespace gs {

// fsync of the file or directory at path (not followed if it is a symbolic link).
void sync_file(const std::string& path);
void sync_directory(const std::string& dir);

// Syncs `from`, renames it to `to` (replacing what is there, a symbolic link itself rather than
// its target) and syncs their directory: after it returns, `to` holds from's bytes whatever
// happens next; before, `to` is what it was.
void commit_file(const std::string& from, const std::string& to);

// A file opened for appending (created if absent; a symbolic link is refused), whose every
// append is written whole and synced before it returns.
class AppendLog {
 public:
  explicit AppendLog(const std::string& path);
  AppendLog(AppendLog&& o) noexcept : path_(std::move(o.path_)), fd_(o.fd_) { o.fd_ = -1; }
  AppendLog(const AppendLog&) = delete;
  AppendLog& operator=(const AppendLog&) = delete;
  AppendLog& operator=(AppendLog&&) = delete;
  ~AppendLog();

  void append(std::string_view bytes);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace gs
