// Running a `gpusynth` sub-command inside a test as a user runs it, with its exit status and
// what it printed; and temporary files for its inputs.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace gs::testing {

struct CommandOutcome {
  int code;
  std::string out, err;
};

inline CommandOutcome run_command(int (*command)(const std::vector<std::string>&),
                                  const std::vector<std::string>& args) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  int code = command(args);
  std::string out = ::testing::internal::GetCapturedStdout();
  return {code, out, ::testing::internal::GetCapturedStderr()};
}

// A path in the test's temporary folder; the file there holds `content` when it is given (an
// empty string makes an empty file), and is left as it is (an output's path) when it is not.
inline std::string temp_file(const std::string& name,
                             const std::optional<std::string>& content = std::nullopt) {
  std::string path = ::testing::TempDir() + name;
  if (content) std::ofstream(path, std::ios::binary | std::ios::trunc) << *content;
  return path;
}

}  // namespace gs::testing
