// gpusynth run FILE --entry solve --args '[json args]'   (FILE: Syn source or bytecode)
#include <cstring>
#include <iostream>

#include "compiler/compiler.h"
#include "jobs/command.h"
#include "jobs/options.h"
#include "suites/json_values.h"
#include "vm/runner.h"

namespace gs::jobs {

// A program from a file of either kind: bytecode (recognised by its magic) is verified,
// source is compiled. Problems are reported on stderr; *status is the exit code to use.
static std::optional<vm::Program> load_program(const std::string& path, const compiler::CompileLimits& limits,
                                               int* status) {
  *status = kExitUsage;
  auto text = read_file(path, kMaxProgramBytes);
  if (!text) return std::nullopt;
  if (text->size() >= 4 && vm::magic_of(reinterpret_cast<const u8*>(text->data())) == vm::kMagic) {
    vm::VerifyResult verdict;
    auto program = vm::Program::load({reinterpret_cast<const u8*>(text->data()), text->size()}, &verdict);
    if (!program) std::cerr << path << ": invalid bytecode: " << vm::describe(verdict) << "\n";
    return program;
  }
  *status = kExitFailed;
  compiler::Output out = compiler::compile(*text, limits);
  if (!out.ok()) {
    std::cerr << compiler::render(out.diagnostics, path, *text);
    return std::nullopt;
  }
  return vm::Program::load(out.bytecode);
}

static std::string results_json(const std::vector<vm::Value>& results) {
  if (results.empty()) return "null";
  if (results.size() == 1) return vm::to_json(results[0]);
  std::string s = "[";
  for (size_t k = 0; k < results.size(); ++k) s += (k ? ", " : "") + vm::to_json(results[k]);
  return s + "]";
}

int run_command(const std::vector<std::string>& args) {
  compiler::CompileLimits compile_limits;
  vm::Limits limits;
  std::string input, entry = "solve", arguments = "[]";
  po::options_description visible("Options");
  visible.add_options()("help,h", "show this help")("entry,e", defaulted(&entry), "function to call")(
      "args,a", defaulted(&arguments), "arguments as a JSON array, e.g. '[[1, 2, 3], 5]'")(
      "stats", "print instructions executed and fuel used on stderr");
  visible.add(run_limit_options(&limits)).add(compile_limit_options(&compile_limits));
  std::string language;
  visible.add(language_option(&language));
  po::variables_map vm;
  bool help;
  const std::string usage =
      "usage: gpusynth run FILE [--entry NAME] [--args JSON]\n"
      "Runs a function of a Syn program (source or bytecode) and prints its result as JSON\n"
      "(several results: a JSON array; none: null). A trap is reported on stderr (exit 1).";
  if (!parse_command_line(args, visible, &input, &vm, usage, &help)) return kExitUsage;
  if (help) return kExitOk;

  if (!choose_language(language, input, &compile_limits)) return kExitUsage;
  int status;
  auto program = load_program(input, compile_limits, &status);
  if (!program) return status;
  i32 fn = program->find(entry);
  if (fn < 0) {
    std::cerr << input << ": no function named '" << entry << "'\n";
    return kExitUsage;
  }
  const vm::FunctionRecord& f = program->function(u32(fn));
  std::vector<Type> types;
  for (u32 k = 0; k < f.param_count; ++k) types.push_back(f.param_type(k));
  std::vector<vm::Value> values;
  std::string error;
  if (!suites::parse_values(arguments, types, &values, &error)) {
    std::cerr << "--args: " << error << " (" << program->signature(u32(fn)) << ")\n";
    return kExitUsage;
  }
  vm::Runner runner(limits);
  vm::Outcome outcome = runner.run(*program, u32(fn), values);
  if (vm.count("stats"))
    std::cerr << "instructions: " << outcome.instructions << ", fuel used: " << outcome.fuel_used << "\n";
  if (outcome.trap != vm::Trap::NONE) {
    std::cerr << input << ": trap: " << vm::trap_name(outcome.trap) << " (after " << outcome.instructions
              << " instructions)\n";
    return kExitFailed;
  }
  std::cout << results_json(outcome.results) << "\n";
  return kExitOk;
}

}  // namespace gs::jobs
