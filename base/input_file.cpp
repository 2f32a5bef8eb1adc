#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gs {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

}  // namespace

std::optional<std::string> read_input_file(const std::string& path, u64 max_bytes, std::string* error) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
  Fd f{open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) {
    *error = path + ": cannot read file: " + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (fstat(f.fd, &st) != 0) {
    *error = path + ": cannot read file: " + std::strerror(errno);
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = path + ": " + kind_of(st.st_mode) + ", not a file that can be read as input";
    return std::nullopt;
  }
  if (u64(st.st_size) > max_bytes) {
    *error = path + ": " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
             " this kind of input may have";
    return std::nullopt;
  }
  std::string bytes(size_t(st.st_size), '\0');
  u64 have = 0;
  for (;;) {
    if (have == bytes.size()) {
      // The file may have grown since fstat: read on, within the cap.
      if (have >= max_bytes + 1) break;
      bytes.resize(std::min<u64>(max_bytes + 1, have + 65536));
    }
    const ssize_t n = read(f.fd, bytes.data() + have, bytes.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = path + ": cannot read file: " + std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0) break;
    have += u64(n);
  }
  if (have > max_bytes) {
    *error = path + ": grew past the " + std::to_string(max_bytes) + " bytes this kind of input may have";
    return std::nullopt;
  }
  bytes.resize(have);
  return bytes;
}

}  // namespace gs
