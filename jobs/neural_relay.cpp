#include "jobs/neural_relay.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "jobs/command.h"

namespace gs::jobs {

namespace {

bool neural_mode(const std::string& mode) { return mode == "neural" || mode == "hybrid"; }

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// Whether the --config file of `command` asks for libtorch: `compile = neural|hybrid` or a
// `policy` in the lines before any section or under [command] (the lines that apply to it,
// jobs/options.h). An unreadable file says nothing here: the command's own parsing reports it.
bool config_needs_neural(const std::string& path, const std::string& command) {
  std::ifstream in(path);
  bool applies = true;
  for (std::string line; std::getline(in, line);) {
    line = trimmed(line.substr(0, line.find('#')));
    if (line.starts_with("[")) {
      applies = line == "[" + command + "]";
      continue;
    }
    const size_t eq = line.find('=');
    if (!applies || eq == std::string::npos) continue;
    const std::string key = trimmed(line.substr(0, eq)), value = trimmed(line.substr(eq + 1));
    if ((key == "compile" && neural_mode(value)) || (key == "policy" && !value.empty())) return true;
  }
  return false;
}

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
    if (a == "--config" && i + 1 < args.size() && config_needs_neural(args[i + 1], args[0])) return true;
    if (a.starts_with("--config=") && config_needs_neural(a.substr(9), args[0])) return true;
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
