#include "base/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace gs {

namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

void sync_opened(const std::string& path, int flags, const char* what) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) fail(path, what, errno);
  const int r = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (r != 0) fail(path, what, error);
}

}  // namespace

void sync_file(const std::string& path) { sync_opened(path, O_RDONLY, "cannot sync"); }

void sync_directory(const std::string& dir) {
  sync_opened(dir.empty() ? "." : dir, O_RDONLY | O_DIRECTORY, "cannot sync the directory");
}

void commit_file(const std::string& from, const std::string& to) {
  sync_file(from);
  if (::rename(from.c_str(), to.c_str()) != 0) fail(to, "cannot rename the finished file into place", errno);
  sync_directory(std::filesystem::path(to).parent_path().string());
}

AppendLog::AppendLog(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0) fail(path, "cannot open for appending", errno);
}

AppendLog::~AppendLog() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendLog::append(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path_, "cannot write", n < 0 ? errno : EIO);
    bytes.remove_prefix(size_t(n));
  }
  if (::fsync(fd_) != 0) fail(path_, "cannot sync", errno);
}

}  // namespace gs
