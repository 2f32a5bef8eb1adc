// The run directory's own lock: one campaign at a time per run directory, whatever HDF5's file
// locking is set to (HDF5_USE_FILE_LOCKING=FALSE is common on Lustre and NFS, and two campaigns
// on one directory then corrupt each other's records). Rank 0 holds an flock on RUN/.lock for the
// whole campaign; the file names the holder (host, pid, start time) for the refusal's message.
// The lock goes with the process, so a killed campaign leaves nothing to clean up.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace gs::cluster {

class RunLock {
 public:
  // Takes the lock of run_dir, or nullopt with *error = "RUN: another campaign holds this run
  // directory (host H, pid P, since T)" or why the lock file cannot be opened (a symlink there
  // is refused). Where the file system has no flock, it warns on *warning and runs unlocked.
  static std::optional<RunLock> acquire(const std::string& run_dir, std::string* error, std::string* warning);

  RunLock(RunLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  RunLock& operator=(RunLock&& other) noexcept {
    std::swap(fd_, other.fd_);  // other releases what this held
    return *this;
  }
  RunLock(const RunLock&) = delete;
  ~RunLock();

 private:
  explicit RunLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace gs::cluster
