// torch::serialize archives as files — the neural compiler's checkpoints (neural/checkpoint.h)
// and the search policy's files (neural/policy_model.h): each holds a "meta" text beside its
// tensors, is written whole or not at all (PATH.tmp, then renamed), and is read with errors of
// one line that name the file.
#pragma once

#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <exception>
#include <functional>
#include <string>

namespace gs::neural {

// What a c10 error says, without the backtrace that follows its first line.
std::string first_line(const std::exception& e);

// `fill` writes the archive's records ("meta" is written first from `meta`); the archive is saved
// to PATH.tmp and renamed to PATH. False with *error "PATH: cannot write WHAT: why" (PATH.tmp
// removed).
bool save_archive_file(const std::string& path, const std::string& what, const std::string& meta,
                       const std::function<void(torch::serialize::OutputArchive&)>& fill, std::string* error);

// Loads the archive at `path` (on the CPU) and its "meta" text. False with *why, not naming the
// file: "no such WHAT", "not a readable WHAT (corrupt or truncated?): …", "not a KIND (no meta
// record)".
bool load_archive_file(const std::string& path, const std::string& what, const std::string& kind,
                       torch::serialize::InputArchive* archive, std::string* meta, std::string* why);

}  // namespace gs::neural
