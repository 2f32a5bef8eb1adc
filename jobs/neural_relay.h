// Two executables, one command line. `gpusynth` has no libtorch, so it starts in a few
// milliseconds; `gpusynth-neural` (built beside it with GPUSYNTH_TORCH=ON) is the same program
// with the neural compiler linked in. gpusynth hands a command that needs the neural compiler —
// train-compiler, selfplay, eval-compiler, train-policy, --compile neural|hybrid or --policy, on the
// command line or in its --config file — to
// gpusynth-neural by exec, before anything else runs (no MPI_Init, no file opened), so users,
// scripts, mpirun and srun only ever name `gpusynth`.
#pragma once

#include <span>
#include <string>

#include "jobs/command.h"

namespace gs::jobs {

// Whether a command line (argv after the program name) needs libtorch: a command marked `neural`
// among `commands`, `--compile neural|hybrid` / `--compile=neural|hybrid`, or `--policy` — given
// on the command line or in the --config file, in the lines that apply to the command.
bool needs_neural_binary(std::span<char* const> args, std::span<const Command> commands);

// The gpusynth-neural beside this executable (/proc/self/exe's directory), or "" when there is
// none (a build without libtorch).
std::string neural_binary_path();

// Replaces this process by gpusynth-neural with the same arguments. Returns only when it cannot:
// then it has said why on stderr and the result is the usage exit status.
int relay_to_neural_binary(int argc, char** argv);

}  // namespace gs::jobs
