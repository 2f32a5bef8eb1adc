// What the ranks of a campaign print: every rank parses the same command line and may fail for
// the same reason, so rank 0 speaks for all, and a rank's own messages carry its rank and host.
#pragma once

#include <iosfwd>
#include <streambuf>
#include <string>

#include "cluster/work_queue.h"

namespace gs::cluster {

// Sends std::cout and std::cerr nowhere while alive (when `on`): ranks other than 0 parse the
// same options as rank 0 and would repeat its usage messages.
class Mute {
 public:
  explicit Mute(bool on);
  ~Mute();
  Mute(const Mute&) = delete;
  Mute& operator=(const Mute&) = delete;

 private:
  struct NullBuffer : std::streambuf {
    int overflow(int c) override { return c; }
  } null_;
  bool on_;
  std::streambuf* out_ = nullptr;
  std::streambuf* err_ = nullptr;
};

// Writes text to stderr in one piece: mpirun forwards each rank's output write by write, so a
// line written in parts can be interleaved with another rank's.
void say(const std::string& text);

// A rank's messages to stderr: as they are on one process; on several, each line's
// "<command>: " prefix becomes "<command> (rank R on HOST): ".
void say_as_rank(const std::string& text, const std::string& command, const WorkQueue& queue);

}  // namespace gs::cluster
