// Reading an input file whole, bounded: every command's inputs (sources, bytecode, problems,
// candidate files, configs, PSB files) come through here. Only a regular file is read (a
// directory, FIFO or device such as /dev/zero is refused by its kind), and only when its size
// is within the cap its kind allows, checked before anything is read; a file that grows past
// the cap while it is read is refused too. Errors name the file.
#pragma once

#include <optional>
#include <string>

#include "base/types.h"

namespace gs {

// The caps, per kind of input (docs/cli.md "Input files").
inline constexpr u64 kMaxConfigBytes = u64(1) << 20;     // 1 MiB: an ini file
inline constexpr u64 kMaxProgramBytes = u64(1) << 24;    // 16 MiB: a Syn source or a bytecode file
inline constexpr u64 kMaxProblemBytes = u64(1) << 28;    // 256 MiB: a problem file, a PSB JSON Lines file
inline constexpr u64 kMaxCandidateBytes = u64(1) << 30;  // 1 GiB: a file of candidate programs

// The bytes of the regular file at path, if it holds at most max_bytes; else nullopt and
// *error = "PATH: why" (cannot open, not a regular file, too large, a read error).
std::optional<std::string> read_input_file(const std::string& path, u64 max_bytes, std::string* error);

}  // namespace gs
