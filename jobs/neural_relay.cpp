#include "jobs/neural_relay.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "jobs/command.h"

namespace gs::jobs {

namespace {

bool neural_mode(const std::string& mode) { return mode == "neural" || mode == "hybrid"; }

}  // namespace

bool needs_neural_binary(std::span<char* const> args, std::span<const Command> commands) {
  if (args.empty()) return false;
  for (const Command& c : commands)
    if (c.neural && std::string_view(c.name) == args[0]) return true;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--") break;
    if (a == "--compile" && i + 1 < args.size() && neural_mode(args[i + 1])) return true;
    if (a.starts_with("--compile=") && neural_mode(a.substr(10))) return true;
    if (a == "--policy" || a.starts_with("--policy=")) return true;  // the search policy's model
  }
  return false;
}

std::string neural_binary_path() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  auto sibling = self.parent_path() / "gpusynth-neural";
  return std::filesystem::exists(sibling, ec) ? sibling.string() : "";
}

int relay_to_neural_binary(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const std::string path = neural_binary_path();
  if (path.empty()) {
    std::cerr << "gpusynth " << what
              << ": this build has no libtorch, so no neural compiler (no gpusynth-neural beside gpusynth).\n"
                 "Install it (apt-get install libtorch-dev, or PyTorch's libtorch on a GPU machine) and "
                 "configure with -DGPUSYNTH_TORCH=ON (the release preset does); see docs/neural.md.\n";
    return kExitUsage;
  }
  std::vector<char*> args(argv, argv + argc);
  args[0] = const_cast<char*>(path.c_str());
  args.push_back(nullptr);
  execv(path.c_str(), args.data());
  std::cerr << "gpusynth " << what << ": cannot start " << path << ": " << std::strerror(errno) << "\n";
  return kExitUsage;
}

}  // namespace gs::jobs
