// Option groups shared by sub-commands (Boost.Program_options), and small helpers.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "compiler/limits.h"
#include "vm/limits.h"

namespace gs::jobs {

namespace po = boost::program_options;

// --max-source, --max-nodes, --max-depth into *limits.
po::options_description compile_limit_options(compiler::CompileLimits* limits);
// --fuel, --stack, --heap, --call-depth into *limits.
po::options_description run_limit_options(vm::Limits* limits);

// Parses args against the visible options plus one positional FILE (stored into *file; none
// when file is null);
// prints the error and the usage and returns false on a usage error. Sets *help when --help
// was given (usage printed).
bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        std::string* file, po::variables_map* vm, const std::string& usage, bool* help);

// parse_command_line without a positional FILE, then the ini file named by the `config`
// option, if given (Boost.Program_options' format: `key = value` lines, `#` comments, the long
// option names): the command line overrides the file. A bad file or key is a usage error
// naming the file.
bool parse_command_line_and_config(const std::vector<std::string>& args, const po::options_description& visible,
                                   po::variables_map* vm, const std::string& usage, bool* help);

// Every option's value as ini text, one `key = value` line each, in name order (what a run
// records as its configuration; --config itself and --help left out).
std::string effective_config(const po::variables_map& vm);

// The whole file, or nullopt after printing "PATH: cannot read file" to stderr.
std::optional<std::string> read_file(const std::string& path);

}  // namespace gs::jobs
