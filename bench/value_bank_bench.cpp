// value_bank: what one production applied to banked operands on every train case costs in the
// enumeration engine (search/value_bank.h) — on its direct path where it has one (a body of one
// instruction: heap-free over whole vectors, or reading or making arrays and strings case by case,
// without the interpreter) and through the interpreter on each case's machine (the reference
// evaluator, --bank-interpreter 1) — against a candidate compiled
// and run whole on every case (compiler + VM on one thread, as the CPU pipeline does per
// program). One thread; a table on stdout, JSON beside it (bench/README.md). Each row's result is
// checked against the VM's.
//
//   value_bank_bench [--cases N] [--out FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/machine.h"
#include "compiler/compiler.h"
#include "search/value_bank.h"
#include "vm/runner.h"

namespace gs::bench {
namespace {

struct Row {
  const char* name;
  std::vector<Type> args;  // operands, all parameters of the cases
  Type result;
  const char* body;  // over a0, a1
};

const Type I = Type::Int, A = Type::IntArray, S = Type::Str;
const Row kRows[] = {
    {"a0 + a1", {I, I}, I, "a0 + a1"},
    {"a0 / a1 (traps on 0)", {I, I}, I, "a0 / a1"},
    {"max(a0) (traps on [])", {A}, I, "max(a0)"},
    {"a0[a1] (traps out of range)", {A, I}, I, "a0[a1]"},
    {"sum(a0)", {A}, I, "sum(a0)"},
    {"len(a0) (a str)", {S}, I, "len(a0)"},
    {"sort(a0)", {A}, A, "sort(a0)"},
    {"a0 + a1 (strs)", {S, S}, S, "a0 + a1"},
    {"a0 < a1 (strs: 3 instructions)", {S, S}, Type::Bool, "a0 < a1"},
    {"a0[len(a0) - 1] (5 instructions)", {A}, I, "a0[len(a0) - 1]"},
    {"slice(a0, 0, len(a0) - a1) (8)", {A, I}, A, "slice(a0, 0, len(a0) - a1)"},
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double per_second(F&& work, u64 units) {
  std::vector<double> rates;
  for (int rep = 0; rep < 5; ++rep) {
    u64 done = 0;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0;
    do {
      work();
      done += units;
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (seconds < 0.3);
    rates.push_back(double(done) / seconds);
  }
  return median(rates);
}

int run(int argc, char** argv) {
  u32 cases = 10;
  std::string out_path = std::string(GPUSYNTH_SOURCE_DIR) + "/bench/results/value_bank.json";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases"))
      cases = u32(std::stoul(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--out"))
      out_path = argv[i + 1];
  }
  // Case k: a0 = k - 3, a1 = k % 4 - 1 for ints; arrays of k % 6 elements, strings of k % 6
  // characters (a1's (k + 1) % 6, the first ones the same as a0's).
  auto inputs_for = [&](const Row& r) {
    std::vector<std::vector<vm::Value>> inputs(cases);
    for (u32 k = 0; k < cases; ++k)
      for (u32 a = 0; a < r.args.size(); ++a) {
        if (r.args[a] == I) {
          inputs[k].push_back(vm::Value::of_int(a == 0 ? i64(k) - 3 : i64(k % 4) - 1));
          continue;
        }
        if (r.args[a] == S) {
          inputs[k].push_back(vm::Value::of_str(std::string("abcabz").substr(0, (k + a) % 6)));
          continue;
        }
        std::vector<vm::Value> items;
        for (u32 j = 0; j < k % 6; ++j) items.push_back(vm::Value::of_int(i64((7 * j + k) % 11) - 5));
        inputs[k].push_back(vm::Value::of_array(I, items));
      }
    return inputs;
  };
  vm::Limits limits;
  limits.heap_bytes = 1u << 24;
  nlohmann::json rows = nlohmann::json::array();
  std::printf("%-34s %7s %14s %14s %16s %8s %8s %5s\n", "production", "direct", "bank apply/s",
              "interpreter/s", "whole program/s", "/interp", "/whole", "same");
  for (const Row& r : kRows) {
    const auto inputs = inputs_for(r);
    search::bank::Operation op(r.args, r.result, r.body);
    // The bank: the production over the banked parameters, every case; the heap is rolled back
    // after each application, as a rejected candidate's would be.
    auto operands_of = [&](search::bank::Cases& bank_cases) {
      std::vector<const search::bank::Behaviour*> operands;
      for (u32 a = 0; a < r.args.size(); ++a) operands.push_back(&bank_cases.parameter(a));
      return operands;
    };
    auto bank_rate_of = [&](search::bank::Cases& bank_cases) {
      const std::vector<const search::bank::Behaviour*> operands = operands_of(bank_cases);
      const search::bank::Cases::Mark mark = bank_cases.mark();
      return per_second(
          [&] {
            for (int n = 0; n < 100; ++n) {
              search::bank::Behaviour b = op.apply(operands, bank_cases);
              bank_cases.rollback(mark);
            }
          },
          100);
    };
    search::bank::Cases bank_cases(r.args, inputs, limits);
    search::bank::Cases interpreted(r.args, inputs, limits, {.threads = 1, .interpreter_only = true});
    const double bank_rate = bank_rate_of(bank_cases), interpreter_rate = bank_rate_of(interpreted);
    const search::bank::Behaviour b = op.apply(operands_of(bank_cases), bank_cases);  // kept, compared below
    // Today: the candidate as a program, compiled and run on every case.
    std::string source = "fn solve(";
    for (u32 a = 0; a < r.args.size(); ++a)
      source += (a ? ", a" : "a") + std::to_string(a) + ": " + type_name(r.args[a]);
    source += std::string(") -> ") + type_name(r.result) + " { return " + r.body + "; }";
    compiler::Compiler compiler;
    vm::Runner runner(limits);
    bool same = true;
    const double whole_rate = per_second(
        [&] {
          compiler::Output out = compiler.compile(source);
          auto program = vm::Program::load(out.bytecode);
          for (u32 k = 0; k < cases; ++k) {
            vm::Outcome o = runner.run(*program, 0, inputs[k]);
            bool agree = u8(o.trap) == b.traps[k];
            if (agree && o.trap == vm::Trap::NONE)
              agree = vm::identical(o.results[0], bank_cases.value(b, k));
            same = same && agree;
          }
        },
        1);
    std::printf("%-34s %7s %14.0f %14.0f %16.0f %7.1fx %7.0fx %5s\n", r.name, op.direct() ? "yes" : "no",
                bank_rate, interpreter_rate, whole_rate, bank_rate / interpreter_rate, bank_rate / whole_rate,
                same ? "yes" : "NO");
    rows.push_back({{"production", r.body},
                    {"cases", cases},
                    {"direct", op.direct()},
                    {"bank_applications_per_second_median", bank_rate},
                    {"interpreter_applications_per_second_median", interpreter_rate},
                    {"whole_programs_per_second_median", whole_rate},
                    {"same_outputs_and_traps", same}});
  }
  nlohmann::json doc = {
      {"benchmark", "value_bank"}, {"machine", machine_info()}, {"threads", 1}, {"rows", rows}};
  std::ofstream(out_path) << doc.dump(2) << "\n";
  std::printf("one thread, %u cases; medians of 5 repetitions of >= 0.3 s. JSON: %s\n", cases,
              out_path.c_str());
  return 0;
}

}  // namespace
}  // namespace gs::bench

int main(int argc, char** argv) { return gs::bench::run(argc, argv); }
