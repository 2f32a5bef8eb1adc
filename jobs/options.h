// Option groups shared by sub-commands (Boost.Program_options), and small helpers.
#pragma once

#include <boost/program_options.hpp>
#include <charconv>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/limits.h"
#include "vm/limits.h"

namespace gs::jobs {

namespace po = boost::program_options;

// An option stored into *field whose default is the field's current value, shown by --help as
// written: a float in the shortest form that reads back ("0.8", not "0.80000000000000004").
template <class T>
po::typed_value<T>* defaulted(T* field) {
  if constexpr (std::is_floating_point_v<T>) {
    char text[32];
    auto end = std::to_chars(text, text + sizeof text, *field).ptr;
    return po::value(field)->default_value(*field, std::string(text, end));
  } else {
    return po::value(field)->default_value(*field);
  }
}

// --max-source, --max-nodes, --max-depth into *limits.
po::options_description compile_limit_options(compiler::CompileLimits* limits);
// --fuel, --stack, --heap, --call-depth into *limits.
po::options_description run_limit_options(vm::Limits* limits);

// Parses args against the visible options plus one positional FILE (stored into *file; none
// when file is null). A usage error prints one line — "gpusynth COMMAND: what is wrong (gpusynth
// COMMAND --help lists the options)", COMMAND read from usage's "usage: gpusynth COMMAND …" — and
// returns false. Sets *help when --help was given (usage and options printed).
bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        std::string* file, po::variables_map* vm, const std::string& usage, bool* help);

// parse_command_line without a positional FILE, plus the ini file named by the `config` option,
// if given (Boost.Program_options' format: `key = value` lines, `#` comments, the long option
// names). The file may hold any option, required ones included; the command line overrides it.
// Lines before any `[section]` apply to every command, those under `[COMMAND]` to that command
// only, and other sections are skipped, so one file can configure search and campaign. A bad
// file or key is a usage error naming the file.
bool parse_command_line_and_config(const std::vector<std::string>& args,
                                   const po::options_description& visible, po::variables_map* vm,
                                   const std::string& usage, bool* help);

// Every option's value as ini text, one `key = value` line each, in name order (what a run
// records as its configuration; --config itself and --help left out).
std::string effective_config(const po::variables_map& vm);

// The whole file, or nullopt after printing "PATH: cannot read file" to stderr.
std::optional<std::string> read_file(const std::string& path);

}  // namespace gs::jobs
