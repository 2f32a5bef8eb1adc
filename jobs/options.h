// Option groups shared by sub-commands (Boost.Program_options), and small helpers.
#pragma once

#include <boost/program_options.hpp>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/host.h"
#include "base/input_file.h"
#include "compiler/limits.h"
#include "vm/limits.h"

namespace gs::jobs {

namespace po = boost::program_options;

// The shortest text that reads back as v ("0.8", not "0.80000000000000004"); integers as usual.
template <class T>
std::string number_text(T v) {
  char text[32];
  auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

// A numeric option's value: the whole token must be a number of T's kind (no sign on an unsigned
// type, no nan or inf, nothing after it) within [lo, hi]; anything else is a usage error naming
// the option and its range, from the command line and from a --config file alike.
template <class T>
class BoundedValue : public po::typed_value<T> {
 public:
  BoundedValue(T* field, T lo, T hi) : po::typed_value<T>(field), lo_(lo), hi_(hi) {}
  void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
    const std::string text = tokens.empty() ? std::string() : tokens.back();
    T v{};
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (!text.empty() && text[0] == '+') ++first;  // from_chars takes no '+'
    auto [end, ec] = std::from_chars(first, last, v);
    bool ok = ec == std::errc() && end == last && first != last && v >= lo_ && v <= hi_;
    if constexpr (std::is_floating_point_v<T>) ok = ok && std::isfinite(v);
    if (!ok) {
      po::error_with_option_name e("the option '%canonical_option%' takes a number in [" + number_text(lo_) +
                                   ", " + number_text(hi_) + "], not '%value%'");
      e.set_substitute("value", text);
      throw e;
    }
    store = v;
  }

 private:
  T lo_, hi_;
};

// A numeric option stored into *field, within [lo, hi], defaulting to the field's value (shown
// as number_text writes it).
template <class T>
po::typed_value<T>* bounded(T* field, std::type_identity_t<T> lo, std::type_identity_t<T> hi) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  auto* v = new BoundedValue<T>(field, lo, hi);
  v->default_value(*field, number_text(*field));
  // --help shows the range where Boost writes "arg": "--heap 64..268435456 (=1048576)".
  v->value_name(hi == std::numeric_limits<T>::max() ? "N>=" + number_text(lo)
                                                    : number_text(lo) + ".." + number_text(hi));
  return v;
}

// A non-numeric option (text, a switch) stored into *field, defaulting to the field's value.
template <class T>
po::typed_value<T>* defaulted(T* field) {
  static_assert(!std::is_arithmetic_v<T> || std::is_same_v<T, bool>, "numbers are bounded()");
  if constexpr (std::is_same_v<T, bool>)
    return po::value(field)->default_value(*field, *field ? "true" : "false");
  else
    return po::value(field)->default_value(*field);
}

// A numeric option bounded below only (above by its type's largest value).
template <class T>
po::typed_value<T>* at_least(T* field, std::type_identity_t<T> lo) {
  return bounded(field, lo, std::numeric_limits<T>::max());
}

// The bound of every --threads: the CPUs this process may use (base/host.h), 0 meaning all of them.
inline u32 max_threads() { return usable_cpus(); }

// --max-source, --max-nodes, --max-depth into *limits.
po::options_description compile_limit_options(compiler::CompileLimits* limits);
// --language syn|python|auto into *spelled (default auto).
po::options_description language_option(std::string* spelled);
// The front end for `path` as --language names it: auto is Python for a .py file, else Syn.
// False (after a usage error on stderr) for any other spelling.
bool choose_language(const std::string& spelled, const std::string& path, compiler::CompileLimits* limits);
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

// When output names the same file as one of inputs (the same path, a link, a hard link):
// "OUTPUT: -o would overwrite the INPUT file" in *error and true. Empty names are skipped.
bool output_overwrites_input(const std::string& output,
                             const std::vector<std::pair<std::string, std::string>>& inputs,
                             std::string* error);

// The whole regular file, if it holds at most max_bytes (base/input_file.h's caps), or nullopt
// after printing "PATH: why" to stderr.
std::optional<std::string> read_file(const std::string& path, u64 max_bytes);

}  // namespace gs::jobs
