#include "jobs/options.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace gs::jobs {

po::options_description compile_limit_options(compiler::CompileLimits* l) {
  po::options_description d("Compile limits");
  d.add_options()
      ("max-source", po::value(&l->max_source_bytes)->default_value(l->max_source_bytes), "largest source accepted, in bytes")
      ("max-nodes", po::value(&l->max_nodes)->default_value(l->max_nodes), "syntax-tree nodes per program")
      ("max-depth", po::value(&l->max_depth)->default_value(l->max_depth)->notifier([](u32 v) {
         if (v < 1 || v > 255) throw po::validation_error(po::validation_error::invalid_option_value, "max-depth");
       }), "nesting depth (1..255)");
  return d;
}

po::options_description run_limit_options(vm::Limits* l) {
  po::options_description d("Run-time limits");
  d.add_options()
      ("fuel", po::value(&l->fuel)->default_value(l->fuel), "instructions per execution (plus builtins' per-element work)")
      ("stack", po::value(&l->stack_slots)->default_value(l->stack_slots), "value-stack slots (8 bytes each)")
      ("call-depth", po::value(&l->call_depth)->default_value(l->call_depth), "nested calls, the entry call included")
      ("heap", po::value(&l->heap_bytes)->default_value(l->heap_bytes), "heap bytes per execution");
  return d;
}

bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        std::string* file, po::variables_map* vm, const std::string& usage, bool* help) {
  *help = false;
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  if (file != nullptr) {
    all.add_options()("file", po::value(file));
    positional.add("file", 1);
  }
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), *vm);
    if (vm->count("help")) {
      *help = true;
      std::cout << usage << "\n" << visible << "\n";
      return true;
    }
    po::notify(*vm);
    if (file != nullptr && file->empty()) throw po::error("missing FILE");
  } catch (const po::error& e) {
    std::cerr << "gpusynth: " << e.what() << "\n\n" << usage << "\n" << visible << "\n";
    return false;
  }
  return true;
}

bool parse_command_line_and_config(const std::vector<std::string>& args, const po::options_description& visible,
                                   po::variables_map* vm, const std::string& usage, bool* help) {
  if (!parse_command_line(args, visible, nullptr, vm, usage, help)) return false;
  if (*help || !vm->count("config")) return true;
  const std::string path = (*vm)["config"].as<std::string>();
  std::ifstream in(path);
  if (!in) {
    std::cerr << path << ": cannot read the config file\n";
    return false;
  }
  try {
    po::store(po::parse_config_file(in, visible), *vm);  // values already stored win
    po::notify(*vm);
  } catch (const po::error& e) {
    std::cerr << path << ": " << e.what() << "\n";
    return false;
  }
  return true;
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

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": cannot read file\n";
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace gs::jobs
