#include "bench/machine.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

namespace gs::bench {

namespace fs = std::filesystem;

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown";
}

static std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

// The commit of the source tree, read from .git without running git.
static std::string git_commit() {
  fs::path git = fs::path(GPUSYNTH_SOURCE_DIR) / ".git";
  std::string head = first_line(git / "HEAD");
  if (head.rfind("ref: ", 0) != 0) return head.empty() ? "unknown" : head;
  std::string ref = head.substr(5);
  std::string commit = first_line(git / ref);
  if (!commit.empty()) return commit;
  std::ifstream packed(git / "packed-refs");
  std::string line;
  while (std::getline(packed, line))
    if (line.size() > 41 && line.substr(41) == ref) return line.substr(0, 40);
  return "unknown";
}

static std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

nlohmann::json machine_info() {
  return {{"cpu", cpu_model()},
          {"hardware_threads", std::thread::hardware_concurrency()},
          {"load_average_at_start", first_line("/proc/loadavg")},
          {"compiler", GPUSYNTH_CXX_COMPILER},
          {"compiler_version_macro", __VERSION__},
          {"build_type", GPUSYNTH_BUILD_TYPE},
          {"git_commit", git_commit()},
          {"date_utc", utc_now()}};
}

}  // namespace gs::bench
