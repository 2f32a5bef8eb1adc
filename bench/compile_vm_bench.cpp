// compile_vm_bench: single-thread CPU throughput of the Syn compiler and the VM on a fixed
// corpus of generated programs, against CPython's compile() and calls of the same programs
// translated to Python, in the same run. Every evaluation's outcome is compared between the VM
// and CPython before the numbers are trusted. bench/README.md says what each number means.
#include <sys/wait.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/corpus.h"
#include "bench/machine.h"
#include "bench/python_translation.h"
#include "compiler/compiler.h"
#include "suites/json_values.h"
#include "vm/program.h"
#include "vm/runner.h"

namespace gs::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

struct Options {
  CorpusConfig corpus;
  u32 repetitions = 5;
  double min_seconds = 0.5;
  std::string out;
  std::string corpus_out;
  std::string python = "python3";
  std::string script;
  bool cpython = true;
  u32 show = 1;
  bool print_corpus = false;
  bool verify_only = false;  // compare outcomes, time nothing
};

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "compile_vm_bench: %s\n", message.c_str());
  std::exit(2);
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// ---- values as JSON ----------------------------------------------------------------------------

// An argument for Python: exact floats (shortest round-trip text), non-finite ones as strings.
json input_json(const vm::Value& v) {
  switch (v.type) {
    case Type::Int: return v.i;
    case Type::Bool: return v.i != 0;
    case Type::Float:
      if (std::isnan(v.f)) return "nan";
      if (std::isinf(v.f)) return v.f > 0 ? "inf" : "-inf";
      return v.f;
    case Type::Str: return suites::utf8_of_bytes(v.s);
    default: break;
  }
  json items = json::array();
  for (const vm::Value& item : v.items) items.push_back(input_json(item));
  return items;
}

// A result from Python (floats as hex text) as a value of type t; false when it is not one.
bool python_value(const json& j, Type t, vm::Value* out) {
  out->type = t;
  switch (t) {
    case Type::Int:
      if (!j.is_number_integer()) return false;
      if (j.is_number_unsigned() && j.get<u64>() > u64(INT64_MAX)) return false;
      out->i = j.get<i64>();
      return true;
    case Type::Bool:
      if (!j.is_boolean()) return false;
      out->i = j.get<bool>() ? 1 : 0;
      return true;
    case Type::Float: {
      if (!j.is_string()) return false;
      std::string text = j.get<std::string>();
      char* end = nullptr;
      out->f = std::strtod(text.c_str(), &end);
      return end && *end == '\0' && !text.empty();
    }
    case Type::Str: return j.is_string() && suites::bytes_of_utf8(j.get<std::string>(), &out->s);
    default: break;
  }
  if (!is_array(t) || !j.is_array()) return false;
  out->items.resize(j.size());
  for (size_t k = 0; k < j.size(); ++k)
    if (!python_value(j[k], element_of(t), &out->items[k])) return false;
  return true;
}

std::string describe(const vm::Outcome& o) {
  if (o.trap != vm::Trap::NONE) return std::string("trap ") + vm::trap_name(o.trap);
  std::string out = "[";
  for (size_t k = 0; k < o.results.size(); ++k) out += (k ? ", " : "") + vm::to_json(o.results[k]);
  return out + "]";
}

// ---- measurement ------------------------------------------------------------------------------

// What one pass over the corpus did, and the seconds it took (its own clock: wall time, or
// the sum of the timed sections).
struct Work {
  double units = 0;
  double bytes = 0;
  double seconds = 0;
};

struct Repetition {
  Work work;
  u32 passes = 0;
  double rate() const { return work.units / work.seconds; }
  double byte_rate() const { return work.bytes / work.seconds; }
};

struct Series {
  std::vector<Repetition> reps;
  template <typename Rate>
  double median(Rate rate) const {
    std::vector<double> v;
    for (const Repetition& r : reps) v.push_back(rate(r));
    std::sort(v.begin(), v.end());
    if (v.empty()) return 0;
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  }
  double median_rate() const {
    return median([](const Repetition& r) { return r.rate(); });
  }
  double median_byte_rate() const {
    return median([](const Repetition& r) { return r.byte_rate(); });
  }
};

// A warm-up pass, then `repetitions` repetitions of whole passes, each lasting >= min_seconds.
template <typename Pass>
Series measure(const Options& o, Pass one_pass) {
  one_pass();
  Series s;
  for (u32 r = 0; r < o.repetitions; ++r) {
    Repetition rep;
    Clock::time_point start = Clock::now();
    do {
      Work w = one_pass();
      rep.work.units += w.units;
      rep.work.bytes += w.bytes;
      rep.work.seconds += w.seconds;
      ++rep.passes;
    } while (seconds_between(start, Clock::now()) < o.min_seconds);
    s.reps.push_back(rep);
  }
  return s;
}

json series_json(const Series& s, const char* unit, double median) {
  json reps = json::array();
  for (const Repetition& r : s.reps)
    reps.push_back({{"seconds", r.work.seconds},
                    {"passes", r.passes},
                    {unit, r.work.units},
                    {"bytes", r.work.bytes},
                    {"rate", r.rate()}});
  return {{"unit", unit}, {"repetitions", reps}, {"median_rate", median}};
}

// Python's repetitions: {"seconds", "passes"}; units per pass are known here.
Series python_series(const json& runs, double units_per_pass, double bytes_per_pass) {
  Series s;
  for (const json& r : runs) {
    Repetition rep;
    rep.passes = r.at("passes").get<u32>();
    rep.work = {units_per_pass * rep.passes, bytes_per_pass * rep.passes, r.at("seconds").get<double>()};
    s.reps.push_back(rep);
  }
  return s;
}

// ---- the corpus on both sides ---------------------------------------------------------------

struct Entry {
  const CorpusProgram* corpus;
  std::optional<vm::Program> program;
  u32 fn = 0;
  std::vector<Type> params, results;
  PythonProgram python, python_checked;
  std::vector<vm::Outcome> reference;  // the VM's outcomes, from an untimed run
  std::string skip;                    // why the Python side cannot run it ("" when it can)
  std::string python_status;
  std::vector<json> python_outcomes;
};

// Traps Python has no counterpart for: bounds of the VM's own resources.
bool resource_trap(vm::Trap t) {
  return t == vm::Trap::OUT_OF_FUEL || t == vm::Trap::STACK_OVERFLOW || t == vm::Trap::HEAP_EXHAUSTED;
}

void prepare(const Options& o, const std::vector<CorpusProgram>& corpus, std::vector<Entry>& entries) {
  compiler::Compiler compiler;
  vm::Runner runner;
  PythonOptions checked;
  checked.check_overflow = true;
  checked.call_depth = vm::Limits{}.call_depth;
  PythonOptions fast = checked;
  fast.check_overflow = false;
  for (size_t k = 0; k < corpus.size(); ++k) {
    Entry& e = entries[k];
    e.corpus = &corpus[k];
    u32 size = 0;
    if (compiler.compile_in_place(e.corpus->source, &size) != compiler::CompileStatus::OK) {
      std::vector<compiler::Diagnostic> ds(compiler.diagnostics(),
                                           compiler.diagnostics() + compiler.diagnostic_count());
      fail("corpus program " + std::to_string(k) + " does not compile:\n" +
           compiler::render(ds, "program.syn", e.corpus->source) + "\n" + e.corpus->source);
    }
    vm::VerifyResult why;
    e.program = vm::Program::load({compiler.bytes(), size}, &why);
    if (!e.program) fail("corpus program " + std::to_string(k) + " is rejected: " + vm::describe(why));
    i32 fn = e.program->find(o.corpus.generator.entry);
    if (fn < 0) fail("corpus program " + std::to_string(k) + " has no entry");
    e.fn = u32(fn);
    const trees::Function& f = *e.corpus->tree.find(o.corpus.generator.entry);
    for (const trees::Param& p : f.params) e.params.push_back(p.type);
    e.results = f.results;
    for (const std::vector<vm::Value>& args : e.corpus->inputs) {
      e.reference.push_back(runner.run(*e.program, e.fn, args));
      if (resource_trap(e.reference.back().trap) && e.skip.empty())
        e.skip = std::string("VM trap ") + vm::trap_name(e.reference.back().trap);
    }
    e.python = to_python(e.corpus->tree, o.corpus.generator.entry, fast);
    e.python_checked = to_python(e.corpus->tree, o.corpus.generator.entry, checked);
  }
}

json generator_json(const trees::RandomProgramConfig& g) {
  return {{"entry", g.entry},
          {"max_helpers", g.max_helpers},
          {"max_params", g.max_params},
          {"max_statements", g.max_statements},
          {"max_block_depth", g.max_block_depth},
          {"max_expr_depth", g.max_expr_depth},
          {"max_loop_nesting", g.max_loop_nesting},
          {"max_loop_iterations", g.max_loop_iterations},
          {"cost_budget", g.cost_budget},
          {"p_risky", g.p_risky},
          {"p_recursive_helper", g.p_recursive_helper},
          {"p_tuple_result", g.p_tuple_result},
          {"p_observe_locals", g.p_observe_locals},
          {"p_builtin_named_helper", g.p_builtin_named_helper}};
}

json size_json(const SizeStats& s) {
  return {{"mean", s.mean}, {"median", s.median}, {"min", s.min},    {"p10", s.p10},
          {"p90", s.p90},   {"max", s.max},       {"total", s.total}};
}

json corpus_parameters(const Options& o) {
  const CorpusConfig& c = o.corpus;
  return {{"seed", c.seed},
          {"programs", c.programs},
          {"inputs_per_program", c.inputs},
          {"int_bound", c.int_bound},
          {"helper_share", c.helper_share},
          {"require_inputs", c.require_inputs},
          {"generator", generator_json(c.generator)},
          {"input",
           {{"max_array_length", c.input.max_array_length},
            {"max_string_length", c.input.max_string_length},
            {"non_finite_floats", c.input.non_finite_floats}}}};
}

// The corpus file: the Syn programs, their Python translations and inputs (what the Python
// script reads, and what reproduces the run).
void write_corpus(const Options& o, const std::vector<Entry>& entries, const fs::path& path) {
  json programs = json::array();
  for (size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    json params = json::array(), results = json::array(), inputs = json::array();
    for (Type t : e.params) params.push_back(trees::type_source(t));
    for (Type t : e.results) results.push_back(trees::type_source(t));
    for (const std::vector<vm::Value>& args : e.corpus->inputs) {
      json a = json::array();
      for (const vm::Value& v : args) a.push_back(input_json(v));
      inputs.push_back(a);
    }
    programs.push_back({{"id", k},
                        {"syn", suites::utf8_of_bytes(e.corpus->source)},
                        {"python", e.python.source},
                        {"python_checked", e.python_checked.source},
                        {"entry", e.python.entry},
                        {"params", params},
                        {"results", results},
                        {"inputs", inputs},
                        {"skip", !e.skip.empty()},
                        {"skip_reason", e.skip}});
  }
  json doc = {{"corpus", corpus_parameters(o)}, {"programs", programs}};
  std::ofstream out(path);
  out << doc.dump(1) << '\n';
  if (!out) fail("cannot write " + path.string());
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

json run_python(const Options& o, const fs::path& corpus, const fs::path& result) {
  std::ostringstream cmd;
  cmd << shell_quote(o.python) << ' ' << shell_quote(o.script) << ' ' << shell_quote(corpus.string()) << ' '
      << shell_quote(result.string()) << " --repetitions " << (o.verify_only ? 0 : o.repetitions)
      << " --min-seconds " << o.min_seconds;
  std::fflush(stdout);
  int status = std::system(cmd.str().c_str());
  if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail("the CPython baseline failed (" + cmd.str() + "); --no-cpython runs without it");
  std::ifstream in(result);
  return json::parse(in);
}

// Compares one evaluation's outcomes; "" when they agree, else what differs.
std::string compare(const vm::Outcome& vm, const json& py, const std::vector<Type>& result_types) {
  std::string kind = py.at(0).get<std::string>();
  if (kind == "error") return "Python raised " + py.at(1).get<std::string>();
  if (kind == "trap") {
    std::string name = py.at(1).get<std::string>();
    return vm.trap != vm::Trap::NONE && name == vm::trap_name(vm.trap) ? "" : "Python: trap " + name;
  }
  const json& values = py.at(1);
  bool same =
      vm.trap == vm::Trap::NONE && values.size() == vm.results.size() && values.size() == result_types.size();
  for (size_t k = 0; same && k < values.size(); ++k) {
    vm::Value v;
    same = python_value(values[k], result_types[k], &v) && vm::identical(v, vm.results[k]);
  }
  return same ? "" : "Python: " + values.dump();
}

std::string inputs_text(const std::vector<vm::Value>& args) {
  std::string out = "[";
  for (size_t k = 0; k < args.size(); ++k) out += (k ? ", " : "") + vm::to_json(args[k]);
  return out + "]";
}

// ---- the benchmark ----------------------------------------------------------------------------

struct Results {
  Series compile, execute, evaluate, end_to_end;
  double instructions = 0;  // per evaluate pass
  u64 execute_disagreements = 0, evaluate_disagreements = 0, end_to_end_disagreements = 0;
};

bool same_outcome(const vm::Outcome& a, const vm::Outcome& b) {
  if (a.trap != b.trap || a.results.size() != b.results.size()) return false;
  for (size_t k = 0; k < a.results.size(); ++k)
    if (!vm::identical(a.results[k], b.results[k])) return false;
  return true;
}

Results time_gpusynth(const Options& o, const std::vector<Entry*>& included) {
  Results r;
  compiler::Compiler compiler;
  vm::Runner runner;

  r.compile = measure(o, [&] {
    Work w;
    Clock::time_point start = Clock::now();
    for (const Entry* e : included) {
      u32 size = 0;
      if (compiler.compile_in_place(e->corpus->source, &size) != compiler::CompileStatus::OK)
        fail("compile failed");
      w.bytes += double(e->corpus->source.size());
    }
    w.seconds = seconds_between(start, Clock::now());
    w.units = double(included.size());
    return w;
  });

  // The VM alone, as an evaluation loop that keeps each test's inputs prepared runs it: restore
  // the inputs (copy their heap image), execute. One clock pair per pass.
  std::vector<std::vector<vm::InputImage>> images(included.size());
  for (size_t k = 0; k < included.size(); ++k) {
    const Entry* e = included[k];
    images[k].resize(e->corpus->inputs.size());
    for (size_t t = 0; t < e->corpus->inputs.size(); ++t)
      if (!runner.prepare(*e->program, e->fn, e->corpus->inputs[t], &images[k][t]))
        fail("arguments do not fit the heap");
  }
  r.execute = measure(o, [&] {
    Work w;
    Clock::time_point start = Clock::now();
    for (size_t k = 0; k < included.size(); ++k) {
      const Entry* e = included[k];
      for (size_t t = 0; t < images[k].size(); ++t) {
        vm::Trap trap = runner.run_prepared(*e->program, e->fn, images[k][t]);
        w.units += double(runner.machine().instructions);
        if (trap != e->reference[t].trap || runner.machine().instructions != e->reference[t].instructions)
          ++r.execute_disagreements;
      }
    }
    w.seconds = seconds_between(start, Clock::now());
    return w;
  });

  // What an evaluation loop does: place the arguments, execute, read the results.
  std::vector<std::vector<vm::Outcome>> outcomes(included.size());
  for (size_t k = 0; k < included.size(); ++k) outcomes[k].resize(included[k]->corpus->inputs.size());
  r.evaluate = measure(o, [&] {
    Work w;
    Clock::time_point start = Clock::now();
    for (size_t k = 0; k < included.size(); ++k) {
      const Entry* e = included[k];
      for (size_t t = 0; t < e->corpus->inputs.size(); ++t)
        outcomes[k][t] = runner.run(*e->program, e->fn, e->corpus->inputs[t]);
      w.units += double(e->corpus->inputs.size());
    }
    w.seconds = seconds_between(start, Clock::now());
    return w;
  });
  for (size_t k = 0; k < included.size(); ++k)
    for (size_t t = 0; t < outcomes[k].size(); ++t) {
      r.instructions += double(outcomes[k][t].instructions);
      r.evaluate_disagreements += !same_outcome(outcomes[k][t], included[k]->reference[t]);
    }

  // A code-generation loop's step: compile, verify and load, run every test.
  r.end_to_end = measure(o, [&] {
    Work w;
    Clock::time_point start = Clock::now();
    for (size_t k = 0; k < included.size(); ++k) {
      const Entry* e = included[k];
      u32 size = 0;
      if (compiler.compile_in_place(e->corpus->source, &size) != compiler::CompileStatus::OK)
        fail("compile failed");
      std::optional<vm::Program> program = vm::Program::load({compiler.bytes(), size});
      if (!program) fail("verification failed");
      i32 fn = program->find(o.corpus.generator.entry);
      for (size_t t = 0; t < e->corpus->inputs.size(); ++t)
        outcomes[k][t] = runner.run(*program, u32(fn), e->corpus->inputs[t]);
      w.bytes += double(e->corpus->source.size());
    }
    w.seconds = seconds_between(start, Clock::now());
    w.units = double(included.size());
    return w;
  });
  for (size_t k = 0; k < included.size(); ++k)
    for (size_t t = 0; t < outcomes[k].size(); ++t)
      r.end_to_end_disagreements += !same_outcome(outcomes[k][t], included[k]->reference[t]);
  return r;
}

std::string si(double v) {
  const char* suffix[] = {"", " k", " M", " G", " T"};
  int k = 0;
  while (std::fabs(v) >= 1000 && k < 4) {
    v /= 1000;
    ++k;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, suffix[k]);
  return buf;
}

struct Row {
  std::string metric, gpusynth, cpython, ratio, target, met;
};

void print_table(const std::vector<Row>& rows) {
  std::printf("\n%-44s %14s %12s %10s %-22s %s\n", "metric", "gpusynth", "CPython", "ratio", "target",
              "met?");
  std::printf("%s\n", std::string(112, '-').c_str());
  for (const Row& r : rows)
    std::printf("%-44s %14s %12s %10s %-22s %s\n", r.metric.c_str(), r.gpusynth.c_str(), r.cpython.c_str(),
                r.ratio.c_str(), r.target.c_str(), r.met.c_str());
}

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, r >= 100 ? "%.0fx" : "%.1fx", r);
  return buf;
}

void print_corpus(const Options& o, const std::vector<Entry>& entries, const SizeStats& syn,
                  const SizeStats& py) {
  std::printf(
      "corpus: Syn source bytes mean %.1f, median %.1f (p10 %llu, p90 %llu, max %llu); "
      "Python translation mean %.1f, median %.1f\n",
      syn.mean, syn.median, static_cast<unsigned long long>(syn.p10),
      static_cast<unsigned long long>(syn.p90), static_cast<unsigned long long>(syn.max), py.mean, py.median);
  u32 shown = o.print_corpus ? u32(entries.size()) : std::min<u32>(o.show, u32(entries.size()));
  for (u32 k = 0; k < shown; ++k) {
    const Entry& e = entries[k];
    std::printf("\n--- program %u (Syn)\n%s--- Python\n%s--- inputs\n", k, e.corpus->source.c_str(),
                e.python.source.c_str());
    for (const auto& args : e.corpus->inputs) std::printf("%s\n", inputs_text(args).c_str());
  }
}

struct Verification {
  std::vector<Entry*> included;  // the programs both sides time
  u64 evaluations = 0;           // per pass over `included`
  u64 mismatches = 0;
  u64 vm_resource_traps = 0, int64_overflow = 0, python_broken = 0;  // programs left out
  u64 python_end_to_end_disagreements = 0;
  std::vector<std::string> examples;
};

std::string mismatch_text(const Entry& e, size_t index, size_t t, const std::string& diff) {
  return "program " + std::to_string(index) + ", inputs " + inputs_text(e.corpus->inputs[t]) +
         "\n  VM: " + describe(e.reference[t]) + "\n  " + diff + "\n" + e.corpus->source + "--- Python\n" +
         e.python.source;
}

// Which programs both sides time, and whether every evaluation's outcome agrees.
Verification verify(const Options& o, std::vector<Entry>& entries, const json& python) {
  Verification v;
  for (size_t k = 0; k < entries.size(); ++k) {
    Entry& e = entries[k];
    if (!e.skip.empty()) {
      ++v.vm_resource_traps;
      continue;
    }
    if (o.cpython && e.python_status == "overflow") {
      ++v.int64_overflow;
      continue;
    }
    if (o.cpython && e.python_status != "ok") {  // the translation does not even compile
      ++v.python_broken;
      v.mismatches += e.corpus->inputs.size();
      if (v.examples.size() < 5) v.examples.push_back(e.python_status + "\n" + e.python.source);
      continue;
    }
    v.included.push_back(&e);
    v.evaluations += e.corpus->inputs.size();
    if (!o.cpython) continue;
    v.python_end_to_end_disagreements += !python.at("programs")[k].value("end_to_end_agrees", false);
    for (size_t t = 0; t < e.reference.size(); ++t) {
      std::string diff = compare(e.reference[t], e.python_outcomes.at(t), e.results);
      if (diff.empty()) continue;
      ++v.mismatches;
      if (v.examples.size() < 5) v.examples.push_back(mismatch_text(e, k, t, diff));
    }
  }
  return v;
}

void print_verification(const Options& o, const Verification& v) {
  std::printf("\nverification: %zu programs, %llu evaluations compared; %llu mismatches%s\n",
              v.included.size(), static_cast<unsigned long long>(v.evaluations),
              static_cast<unsigned long long>(v.mismatches), o.cpython ? "" : " [CPython not run]");
  std::printf(
      "  left out of both sides: %llu programs where the VM hits its own resource bounds (fuel, stack, "
      "heap), %llu where an int leaves int64 (Syn wraps, Python does not)\n",
      static_cast<unsigned long long>(v.vm_resource_traps),
      static_cast<unsigned long long>(v.int64_overflow));
  if (v.python_broken)
    std::printf("  %llu translations do not compile in Python\n",
                static_cast<unsigned long long>(v.python_broken));
  for (const std::string& x : v.examples) std::printf("\nMISMATCH %s\n", x.c_str());
}

// The medians, side by side.
struct Summary {
  double compile = 0, compile_mb = 0, instructions = 0, execute_evaluations = 0, evaluations = 0,
         end_to_end = 0;
  double instructions_per_evaluation = 0;
  double c_compile = 0, c_compile_mb = 0, c_evaluations = 0, c_end_to_end = 0;
  Series py_compile, py_evaluate, py_end_to_end;
};

Summary summarize(const Options& o, const Verification& v, const Results& g, const json& python) {
  Summary s;
  double evals = double(v.evaluations);
  s.compile = g.compile.median_rate();
  s.compile_mb = g.compile.median_byte_rate() / 1e6;
  s.instructions = g.execute.median_rate();
  s.execute_evaluations =
      g.execute.median([&](const Repetition& r) { return evals * r.passes / r.work.seconds; });
  s.instructions_per_evaluation = g.instructions / evals;
  s.evaluations = g.evaluate.median_rate();
  s.end_to_end = g.end_to_end.median_rate();
  if (!o.cpython) return s;
  double programs = python.at("included_programs").get<double>();
  double bytes = python.at("source_bytes_per_pass").get<double>();
  if (programs != double(v.included.size()) || python.at("evaluations_per_pass").get<double>() != evals)
    fail("CPython timed another set of programs");
  const json& t = python.at("timings");
  s.py_compile = python_series(t.at("compile"), programs, bytes);
  s.py_evaluate = python_series(t.at("evaluate"), evals, 0);
  s.py_end_to_end = python_series(t.at("end_to_end"), programs, bytes);
  s.c_compile = s.py_compile.median_rate();
  s.c_compile_mb = s.py_compile.median_byte_rate() / 1e6;
  s.c_evaluations = s.py_evaluate.median_rate();
  s.c_end_to_end = s.py_end_to_end.median_rate();
  return s;
}

constexpr double kCompileTarget = 300e3;      // programs/s
constexpr double kInstructionTarget = 500e6;  // instructions/s
constexpr double kEvaluationTarget = 30;      // times CPython's evaluations/s

void print_summary(const Options& o, const Verification& v, const Summary& s) {
  auto cp = [&](double x) { return o.cpython ? si(x) : std::string("-"); };
  auto ratio = [&](double a, double b) { return o.cpython && b > 0 ? ratio_text(a / b) : std::string("-"); };
  auto met = [](bool yes) { return std::string(yes ? "yes" : "NO"); };
  // The target compares like with like: CPython calls a function on Python objects built once,
  // the VM runs on inputs prepared once (restored by copying their heap image).
  std::string eval_met = o.cpython ? met(s.execute_evaluations >= kEvaluationTarget * s.c_evaluations) : "-";
  print_table({
      {"compile: programs/s", si(s.compile), cp(s.c_compile), ratio(s.compile, s.c_compile),
       ">= 300 k programs/s", met(s.compile >= kCompileTarget)},
      {"compile: MB/s of source (own language)", si(s.compile_mb), cp(s.c_compile_mb),
       ratio(s.compile_mb, s.c_compile_mb), "", ""},
      {"VM: instructions/s (prepared inputs)", si(s.instructions), "-", "-", ">= 500 M/s",
       met(s.instructions >= kInstructionTarget)},
      {"evaluations/s (prepared inputs, run)", si(s.execute_evaluations), cp(s.c_evaluations),
       ratio(s.execute_evaluations, s.c_evaluations), ">= 30x CPython", eval_met},
      {"evaluations/s (JSON-like values in and out)", si(s.evaluations), cp(s.c_evaluations),
       ratio(s.evaluations, s.c_evaluations), "", ""},
      {"compile+load+all tests: programs/s", si(s.end_to_end), cp(s.c_end_to_end),
       ratio(s.end_to_end, s.c_end_to_end), "", ""},
  });
  std::printf(
      "\n%zu programs, %llu evaluations per pass; %.1f VM instructions per evaluation on average.\n"
      "Prepared inputs: each test's arguments are placed once and restored by copying their heap image\n"
      "before each run (what CPython's side does too: it builds the Python arguments once).\n",
      v.included.size(), static_cast<unsigned long long>(v.evaluations), s.instructions_per_evaluation);
  std::printf("Medians of %u repetitions; one thread; provisional on a shared machine.\n", o.repetitions);
}

json results_json(const Options& o, const json& machine, const json& python, const json& corpus_stats,
                  const Verification& v, u64 disagreements, const Results& g, const Summary& s) {
  json cpython = nullptr, ratios = nullptr, eval_met = nullptr;
  if (o.cpython) {
    cpython = {{"compile", series_json(s.py_compile, "programs", s.c_compile)},
               {"compile_source_bytes_per_second", s.c_compile_mb * 1e6},
               {"evaluate", series_json(s.py_evaluate, "evaluations", s.c_evaluations)},
               {"end_to_end", series_json(s.py_end_to_end, "programs", s.c_end_to_end)}};
    ratios = {{"compile_programs", s.compile / s.c_compile},
              {"evaluations_prepared_inputs", s.execute_evaluations / s.c_evaluations},
              {"evaluations_values_in_and_out", s.evaluations / s.c_evaluations},
              {"end_to_end", s.end_to_end / s.c_end_to_end}};
    eval_met = s.execute_evaluations >= kEvaluationTarget * s.c_evaluations;
  }
  return {
      {"benchmark", "compile_vm"},
      {"machine", machine},
      {"python", o.cpython ? python.at("python") : json(nullptr)},
      {"corpus", corpus_parameters(o)},
      {"corpus_stats", corpus_stats},
      {"settings", {{"repetitions", o.repetitions}, {"min_seconds_per_repetition", o.min_seconds}}},
      {"verification",
       {{"programs_timed", v.included.size()},
        {"evaluations_per_pass", v.evaluations},
        {"mismatches", v.mismatches},
        {"excluded_vm_resource_traps", v.vm_resource_traps},
        {"excluded_int64_overflow", v.int64_overflow},
        {"python_translation_errors", v.python_broken},
        {"timed_runs_disagreeing", disagreements}}},
      {"gpusynth",
       {{"compile", series_json(g.compile, "programs", s.compile)},
        {"compile_source_bytes_per_second", s.compile_mb * 1e6},
        {"execute_prepared", series_json(g.execute, "instructions", s.instructions)},
        {"instructions_per_evaluation", s.instructions_per_evaluation},
        {"evaluations_per_second_prepared_inputs", s.execute_evaluations},
        {"evaluate", series_json(g.evaluate, "evaluations", s.evaluations)},
        {"end_to_end", series_json(g.end_to_end, "programs", s.end_to_end)}}},
      {"cpython", cpython},
      {"ratios", ratios},
      {"targets",
       {{"compile_programs_per_second", {{"target", kCompileTarget}, {"met", s.compile >= kCompileTarget}}},
        {"vm_instructions_per_second",
         {{"target", kInstructionTarget}, {"met", s.instructions >= kInstructionTarget}}},
        {"evaluations_vs_cpython", {{"target", kEvaluationTarget}, {"met", eval_met}}}}},
  };
}

int run(const Options& o) {
  std::printf("compile_vm_bench: %u programs x %u inputs, seed %llu, %u repetitions of >= %.2f s\n",
              o.corpus.programs, o.corpus.inputs, static_cast<unsigned long long>(o.corpus.seed),
              o.repetitions, o.min_seconds);
  json machine = machine_info();
  std::printf("machine: %s, %u hardware threads, load %s; %s\n", machine["cpu"].get<std::string>().c_str(),
              std::thread::hardware_concurrency(),
              machine["load_average_at_start"].get<std::string>().c_str(), GPUSYNTH_CXX_COMPILER);

  std::vector<CorpusProgram> corpus = make_corpus(o.corpus);
  std::vector<Entry> entries(corpus.size());
  prepare(o, corpus, entries);
  std::vector<u64> syn_sizes, py_sizes;
  for (const Entry& e : entries) {
    syn_sizes.push_back(e.corpus->source.size());
    py_sizes.push_back(e.python.source.size());
  }
  SizeStats syn = size_stats(syn_sizes), py = size_stats(py_sizes);
  print_corpus(o, entries, syn, py);

  fs::path out = o.out;
  fs::path corpus_path =
      o.corpus_out.empty() ? out.parent_path() / "compile_vm_corpus.json" : fs::path(o.corpus_out);
  for (const fs::path& p : {out, corpus_path})
    if (p.has_parent_path()) fs::create_directories(p.parent_path());
  write_corpus(o, entries, corpus_path);
  std::printf("\ncorpus written to %s\n", corpus_path.string().c_str());

  // The CPython side runs first: its verification pass decides which programs both sides time.
  json python;
  if (o.cpython) {
    python = run_python(o, corpus_path, out.parent_path() / "compile_vm_cpython.json");
    const json& report = python.at("programs");
    for (size_t k = 0; k < entries.size(); ++k) {
      entries[k].python_status = report[k].at("status").get<std::string>();
      if (report[k].contains("outcomes"))
        entries[k].python_outcomes = report[k]["outcomes"].get<std::vector<json>>();
    }
  }
  Verification v = verify(o, entries, python);
  print_verification(o, v);
  if (o.verify_only) return v.mismatches ? 1 : 0;

  std::printf("\ntiming gpusynth...\n");
  std::fflush(stdout);
  Results g = time_gpusynth(o, v.included);
  u64 disagreements = g.execute_disagreements + g.evaluate_disagreements + g.end_to_end_disagreements +
                      v.python_end_to_end_disagreements;
  if (disagreements)
    std::printf("WARNING: %llu timed runs disagree with the verified outcomes\n",
                static_cast<unsigned long long>(disagreements));
  Summary s = summarize(o, v, g, python);
  print_summary(o, v, s);

  json corpus_stats = {{"syn_source_bytes", size_json(syn)}, {"python_source_bytes", size_json(py)}};
  json results = results_json(o, machine, python, corpus_stats, v, disagreements, g, s);
  results["corpus_file"] = corpus_path.string();
  std::ofstream f(out);
  f << results.dump(2) << '\n';
  if (!f) fail("cannot write " + out.string());
  std::printf("results written to %s\n", out.string().c_str());
  return v.mismatches || disagreements ? 1 : 0;
}

Options parse(int argc, char** argv) {
  namespace po = boost::program_options;
  Options o;
  std::string out = std::string(GPUSYNTH_SOURCE_DIR) + "/bench/results/compile_vm.json";
  po::options_description desc(
      "compile_vm_bench: compiler and VM throughput against CPython (bench/README.md)");
  auto add = desc.add_options();
  add("help,h", "this help");
  add("programs", po::value(&o.corpus.programs)->default_value(o.corpus.programs), "programs in the corpus");
  add("inputs", po::value(&o.corpus.inputs)->default_value(o.corpus.inputs), "random inputs per program");
  add("seed", po::value(&o.corpus.seed)->default_value(o.corpus.seed), "corpus seed");
  add("int-bound", po::value(&o.corpus.int_bound)->default_value(o.corpus.int_bound),
      "ints in programs and inputs stay within +-this");
  add("non-finite-floats", "NaN and infinities among the float inputs");
  add("generator", po::value<std::string>()->default_value("synthesis"),
      "synthesis: ~200-byte programs (bench/corpus.h); default: trees::RandomProgramConfig's defaults");
  add("repetitions", po::value(&o.repetitions)->default_value(o.repetitions),
      "repetitions of each measurement");
  add("min-seconds", po::value(&o.min_seconds)->default_value(o.min_seconds), "least seconds per repetition");
  add("out", po::value(&out)->default_value(out), "results JSON");
  add("corpus-out", po::value(&o.corpus_out), "corpus JSON (default: compile_vm_corpus.json beside --out)");
  add("python", po::value(&o.python)->default_value(o.python), "Python interpreter");
  add("script",
      po::value(&o.script)->default_value(std::string(GPUSYNTH_SOURCE_DIR) + "/bench/cpython_baseline.py"),
      "the CPython baseline script");
  add("no-cpython", "time gpusynth only");
  add("verify-only", "compare every outcome between the VM and CPython, time nothing");
  add("show", po::value(&o.show)->default_value(o.show), "programs to print (Syn, Python, inputs)");
  add("print-corpus", "print every program");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    fail(std::string(e.what()) + " (--help lists the options)");
  }
  if (vm.count("help")) {
    std::cout << desc << '\n';
    std::exit(0);
  }
  if (o.corpus.programs == 0 || o.corpus.inputs == 0 || o.repetitions == 0)
    fail("--programs, --inputs and --repetitions must be > 0");
  if (o.corpus.int_bound < 0) fail("--int-bound must be >= 0");
  o.out = out;
  o.cpython = !vm.count("no-cpython");
  o.print_corpus = vm.count("print-corpus") > 0;
  o.verify_only = vm.count("verify-only") > 0;
  o.corpus.input.non_finite_floats = vm.count("non-finite-floats") > 0;
  std::string generator = vm["generator"].as<std::string>();
  if (generator == "default")
    o.corpus.generator = trees::RandomProgramConfig{};
  else if (generator != "synthesis")
    fail("--generator is synthesis or default");
  return o;
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) {
  try {
    return gs::bench::run(gs::bench::parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compile_vm_bench: %s\n", e.what());
    return 2;
  }
}
