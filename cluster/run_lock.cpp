#include "cluster/run_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "base/host.h"

namespace gs::cluster {

namespace {

std::string now_text() {
  std::time_t t = std::time(nullptr);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return text;
}

// What the holder wrote into the lock file: "host H, pid P, since T".
std::string holder(int fd) {
  char text[512] = {};
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  std::string s(text, n > 0 ? size_t(n) : 0);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\0')) s.pop_back();
  return s.empty() ? "a process that has not said who it is" : s;
}

}  // namespace

std::optional<RunLock> RunLock::acquire(const std::string& run_dir, std::string* error,
                                        std::string* warning) {
  const std::string path = (std::filesystem::path(run_dir) / ".lock").string();
  // O_NOFOLLOW: a symlink planted as RUN/.lock must not make the campaign write elsewhere.
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    *error = path + ": cannot open the run directory's lock" +
             (errno == ELOOP ? std::string(": it is a symlink") : ": " + std::string(std::strerror(errno)));
    return std::nullopt;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    if (e == EWOULDBLOCK) {
      *error = run_dir + ": another campaign holds this run directory (" + holder(fd) +
               "); wait for it to end, or give another --out";
      close(fd);
      return std::nullopt;
    }
    *warning = path + ": the file system takes no lock (" + std::strerror(e) +
               "): nothing stops a second campaign on this run directory";
  }
  const std::string me =
      "host " + host_name() + ", pid " + std::to_string(getpid()) + ", since " + now_text() + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, me.data(), me.size(), 0) != ssize_t(me.size())) {
    // Only the message of a refused second campaign is poorer: not a reason to stop.
  }
  return RunLock(fd);
}

RunLock::~RunLock() {
  if (fd_ >= 0) close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace gs::cluster
