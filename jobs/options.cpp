#include "jobs/options.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "base/input_file.h"

namespace gs::jobs {

po::options_description compile_limit_options(compiler::CompileLimits* l) {
  po::options_description d("Compile limits");
  d.add_options()("max-source", bounded(&l->max_source_bytes, 1, compiler::kMaxSourceBytes),
                  "largest source accepted, in bytes")(
      "max-nodes", bounded(&l->max_nodes, compiler::kMinNodes, compiler::kMaxNodes),
      "syntax-tree nodes per program")("max-depth", bounded(&l->max_depth, 1, compiler::kMaxDepth),
                                       "nesting depth");
  return d;
}

po::options_description language_option(std::string* spelled) {
  po::options_description d("Source language");
  *spelled = "auto";
  d.add_options()("language", po::value(spelled)->default_value(*spelled),
                  "syn, python (the typed subset, docs/python.md) or auto (python for a .py file)");
  return d;
}

bool choose_language(const std::string& spelled, const std::string& path, compiler::CompileLimits* limits) {
  if (spelled == "syn" || spelled == "python") {
    limits->language = spelled == "python" ? compiler::Language::Python : compiler::Language::Syn;
    return true;
  }
  if (spelled == "auto") {
    bool py = std::filesystem::path(path).extension() == ".py";
    limits->language = py ? compiler::Language::Python : compiler::Language::Syn;
    return true;
  }
  std::cerr << "--language: '" << spelled << "' is not syn, python or auto\n";
  return false;
}

po::options_description run_limit_options(vm::Limits* l) {
  po::options_description d("Run-time limits");
  d.add_options()("fuel", bounded(&l->fuel, 1, vm::kMaxFuel),
                  "instructions per execution (plus builtins' per-element work)")(
      "stack", bounded(&l->stack_slots, vm::kMinStackSlots, vm::kMaxStackSlots),
      "value-stack slots (8 bytes each)")("call-depth", bounded(&l->call_depth, 1, vm::kMaxCallDepth),
                                          "nested calls, the entry call included")(
      "heap", bounded(&l->heap_bytes, vm::kMinHeapBytes, vm::kMaxHeapBytes), "heap bytes per execution");
  return d;
}

namespace {

// "campaign" from "usage: gpusynth campaign --suite …".
std::string command_of(const std::string& usage) {
  std::istringstream words(usage);
  std::string usage_word, program, command;
  words >> usage_word >> program >> command;
  return command;
}

// The lines of a config file that apply to `command`: those before any [section], and those
// of the section [command]; other sections hold other commands' options and are skipped.
// Blank-out keeps the line numbers Boost reports.
std::string lines_for(std::istream& in, const std::string& command) {
  std::string text, line;
  bool keep = true;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '[') {
      const size_t close = line.find(']', first);
      keep = close != std::string::npos && line.substr(first + 1, close - first - 1) == command;
      text += "\n";
      continue;
    }
    text += (keep ? line : std::string()) + "\n";
  }
  return text;
}

// The one-line report of a usage error, and where the full story is.
void usage_error(const std::string& command, const std::string& what) {
  std::cerr << "gpusynth " << command << ": " << what << " (gpusynth " << command
            << " --help lists the options)\n";
}

// The command line, then (with_config) the file named by --config, then the checks of required
// options and notifiers: so a config file may hold any option, required ones too.
bool parse(const std::vector<std::string>& args, const po::options_description& visible, std::string* file,
           po::variables_map* vm, const std::string& usage, bool* help, bool with_config) {
  *help = false;
  const std::string command = command_of(usage);
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  if (file != nullptr) {
    all.add_options()("file", po::value(file));
    positional.add("file", 1);
  }
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *vm);
  } catch (const po::error& e) {
    usage_error(command, e.what());
    return false;
  }
  if (vm->count("help")) {
    *help = true;
    std::cout << usage << "\n" << visible << "\n";
    return true;
  }
  if (with_config && vm->count("config")) {
    const std::string path = (*vm)["config"].as<std::string>();
    std::string error;
    const auto bytes = read_input_file(path, kMaxConfigBytes, &error);
    if (!bytes) {
      std::cerr << "gpusynth " << command << ": " << error << "\n";
      return false;
    }
    std::istringstream in(*bytes);
    std::istringstream text(lines_for(in, command));
    try {
      po::store(po::parse_config_file(text, visible), *vm);  // values already stored win
    } catch (const po::error& e) {
      std::cerr << "gpusynth " << command << ": " << path << ": " << e.what() << "\n";
      return false;
    }
  }
  try {
    po::notify(*vm);
    if (file != nullptr && file->empty()) throw po::error("missing FILE");
  } catch (const po::error& e) {
    usage_error(command, e.what());
    return false;
  }
  return true;
}

}  // namespace

bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        std::string* file, po::variables_map* vm, const std::string& usage, bool* help) {
  return parse(args, visible, file, vm, usage, help, false);
}

bool parse_command_line_and_config(const std::vector<std::string>& args,
                                   const po::options_description& visible, po::variables_map* vm,
                                   const std::string& usage, bool* help) {
  return parse(args, visible, nullptr, vm, usage, help, true);
}

namespace {

std::string value_text(const boost::any& v) {
  if (auto* s = boost::any_cast<std::string>(&v)) return *s;
  if (auto* x = boost::any_cast<u32>(&v)) return std::to_string(*x);
  if (auto* x = boost::any_cast<u64>(&v)) return std::to_string(*x);
  if (auto* x = boost::any_cast<i64>(&v)) return std::to_string(*x);
  if (auto* x = boost::any_cast<int>(&v)) return std::to_string(*x);
  if (auto* x = boost::any_cast<bool>(&v)) return *x ? "true" : "false";
  if (auto* x = boost::any_cast<double>(&v)) {
    std::ostringstream out;
    out.precision(17);
    out << *x;
    return out.str();
  }
  return "";  // a flag without a value
}

}  // namespace

std::string effective_config(const po::variables_map& vm) {
  std::string out;
  for (const auto& [name, value] : vm) {
    if (name == "config" || name == "help") continue;
    out += name + " = " + value_text(value.value()) + "\n";
  }
  return out;
}

bool output_overwrites_input(const std::string& output,
                             const std::vector<std::pair<std::string, std::string>>& inputs,
                             std::string* error) {
  for (const auto& [what, path] : inputs) {
    if (output.empty() || path.empty()) continue;
    // The same file by device and inode, whatever the spelling (links, "./", ".."); an output
    // that does not exist yet is no input.
    std::error_code ec;
    if (std::filesystem::equivalent(output, path, ec)) {
      *error = output + ": the output would overwrite the " + what + " file " + path;
      return true;
    }
  }
  return false;
}

std::optional<std::string> read_file(const std::string& path, u64 max_bytes) {
  std::string error;
  auto bytes = read_input_file(path, max_bytes, &error);
  if (!bytes) std::cerr << error << "\n";
  return bytes;
}

}  // namespace gs::jobs
