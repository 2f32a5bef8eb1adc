// vm_loops: the interpreter's dispatch on loop-heavy programs, where instructions — not entry,
// inputs or builtins — dominate. Each program's result is checked against its known value.
// A table on stdout, JSON beside it (bench/README.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "vm/runner.h"

namespace gs::bench {
namespace {

struct Loop {
  const char* name;
  const char* source;
  i64 n;
  i64 expected;  // solve(n), worked out by hand
};

// sum_{i<n} (i*i % 7); with n = 7m the residues of i*i mod 7 repeat 0,1,4,2,2,4,1 (sum 14).
const Loop kLoops[] = {
    {"for-range arithmetic",
     "fn solve(n: int) -> int { let s = 0; for i in 0..n { s = s + i * i % 7; } return s; }", 7000000,
     14000000},
    {"while with a branch",
     "fn solve(n: int) -> int { let s = 0; let i = 0; while i < n { if i % 3 == 0 { s = s + i; } else { s = "
     "s - 1; } "
     "i = i + 1; } return s; }",
     3000000, 1499998500000 - 2000000},
    {"array reads in nested loops",
     "fn solve(n: int) -> int { let xs = array(100, 1); let s = 0; for k in 0..n / 100 { for i in 0..100 { s "
     "= s + "
     "xs[i]; } } return s; }",
     5000000, 5000000},
    {"calls",
     "fn solve(n: int) -> int { let s = 0; for i in 0..n { s = s + f(i); } return s; } "
     "fn f(x: int) -> int { return x & 1; }",
     4000000, 2000000},
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int run(int argc, char** argv) {
  std::string out_path = std::string(GPUSYNTH_SOURCE_DIR) + "/bench/results/vm_loops.json";
  if (argc > 1) out_path = argv[1];
  vm::Limits limits;
  limits.fuel = u64(1) << 40;
  vm::Runner runner(limits);
  nlohmann::json rows = nlohmann::json::array();
  std::printf("%-32s %14s %12s %8s\n", "program", "instructions", "M instr/s", "ok");
  for (const Loop& loop : kLoops) {
    compiler::Output out = compiler::compile(loop.source);
    auto program = vm::Program::load(out.bytecode);
    if (!program) return std::fprintf(stderr, "%s does not compile\n", loop.name), 2;
    std::vector<vm::Value> args = {vm::Value::of_int(loop.n)};
    std::vector<double> rates;
    bool ok = true;
    u64 instructions = 0;
    for (int rep = 0; rep < 5; ++rep) {
      auto start = std::chrono::steady_clock::now();
      vm::Outcome o = runner.run(*program, 0, args);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ok = ok && o.trap == vm::Trap::NONE && o.results.size() == 1 && o.results[0].i == loop.expected;
      instructions = o.instructions;
      rates.push_back(double(o.instructions) / seconds);
    }
    std::printf("%-32s %14llu %12.0f %8s\n", loop.name, static_cast<unsigned long long>(instructions),
                median(rates) / 1e6, ok ? "yes" : "WRONG");
    rows.push_back({{"program", loop.name},
                    {"source", loop.source},
                    {"instructions", instructions},
                    {"instructions_per_second_median", median(rates)},
                    {"repetitions", rates},
                    {"result_ok", ok}});
    if (!ok) return 1;
  }
  std::ifstream cpu("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(cpu, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  nlohmann::json doc = {{"benchmark", "vm_loops"},
                        {"cpu", model},
                        {"compiler", GPUSYNTH_CXX_COMPILER},
                        {"build_type", GPUSYNTH_BUILD_TYPE},
                        {"rows", rows}};
  std::ofstream(out_path) << doc.dump(2) << "\n";
  std::printf("\nmedians of 5 runs, one thread; results written to %s\n", out_path.c_str());
  return 0;
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) { return gs::bench::run(argc, argv); }
