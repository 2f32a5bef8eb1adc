// The gpusynth command's sub-commands: each is a function from its arguments to an exit code.
//   0  success      1  the program failed: compile errors or a trap (reported on stderr)
//   2  usage error: bad options, unreadable files, malformed arguments
//   3  interrupted: a campaign stopped by SIGTERM before it finished; the same command resumes
#pragma once

#include <string>
#include <vector>

namespace gs::jobs {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 3;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);  // args after the command name
  bool neural = false;  // needs libtorch: only gpusynth-neural runs it (jobs/neural_relay.h)
};

int compile_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int eval_command(const std::vector<std::string>& args);
int import_psb_command(const std::vector<std::string>& args);
int trace_command(const std::vector<std::string>& args);
int search_command(const std::vector<std::string>& args);
int policy_data_command(const std::vector<std::string>& args);
int campaign_command(const std::vector<std::string>& args);
int train_compiler_command(const std::vector<std::string>& args);  // needs GPUSYNTH_TORCH
int train_policy_command(const std::vector<std::string>& args);    // needs GPUSYNTH_TORCH
int selfplay_command(const std::vector<std::string>& args);        // needs GPUSYNTH_TORCH
int eval_compiler_command(const std::vector<std::string>& args);   // needs GPUSYNTH_TORCH

}  // namespace gs::jobs
