// Random batches for the pipeline tests: the property generator's programs grouped by their
// entry's signature (a batch shares one problem's tests), each group with random inputs and,
// as expected outputs, what the group's first program returns (so some programs pass) — plus
// one batch of hand-made programs that loop, exhaust the heap, recurse too deep, fail to
// compile or lack the entry. Used by the CPU-vs-Runner test and the CPU-vs-CUDA equivalence test.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "pipeline/case_set.h"
#include "pipeline/pipeline.h"
#include "trees/random_program.h"
#include "trees/random_values.h"
#include "trees/syntax.h"
#include "vm/program.h"
#include "vm/runner.h"

namespace gs::testing {

struct RandomBatch {
  std::string entry = "solve";
  std::vector<Type> params, results;
  pipeline::Sources sources;
  std::vector<std::vector<vm::Value>> inputs, outputs;  // per test
  std::unique_ptr<pipeline::CaseSet> cases;

  void make_cases(double tolerance = 1e-9) {
    std::vector<pipeline::CaseSet::Case> list;
    for (size_t k = 0; k < inputs.size(); ++k) list.push_back({inputs[k], outputs[k]});
    cases = std::make_unique<pipeline::CaseSet>(entry, params, results, list, tolerance);
  }
};

// Hand-made programs of signature fn solve(n: int) -> int; the tests expect n * 2.
inline RandomBatch adversarial_batch() {
  RandomBatch b;
  b.params = {Type::Int};
  b.results = {Type::Int};
  for (const char* s : {
           "fn solve(n: int) -> int { return n * 2; }",                                     // passes
           "fn solve(n: int) -> int { while true { n = n + 1; } return n; }",               // out of fuel
           "fn solve(n: int) -> int { let a = [0]; while true { a = a + a; } return 0; }",  // heap
           "fn solve(n: int) -> int { return f(n); } fn f(n: int) -> int { return f(n + 1) + 1; }",
           "fn solve(n: int) -> int { return n / (n - n); }",                   // division by zero
           "fn solve(n: int) -> int { let x = ; return y + true; } fn g( { }",  // compile errors
           "fn solve(n: int, m: int) -> int { return n; }",                     // wrong signature
           "fn other(n: int) -> int { return n * 2; }",                         // no entry
           "fn solve(n: int) -> int { return n + n; }",                         // passes
           "fn solve(n: int) -> int { if n > 2 { return 0; } return 2 * n; }",  // passes some
           "",                                                                  // empty
       })
    b.sources.add(s);
  for (i64 n : {0, 1, 2, 3, -7, 1000000007}) {
    b.inputs.push_back({vm::Value::of_int(n)});
    b.outputs.push_back({vm::Value::of_int(n * 2)});
  }
  b.make_cases();
  return b;
}

inline std::string signature_key(const trees::Function& f) {
  std::string key;
  for (const trees::Param& p : f.params) key += trees::type_source(p.type) + ",";
  key += "->";
  for (Type t : f.results) key += trees::type_source(t) + ",";
  return key;
}

// `programs` random programs in batches by signature, `tests` tests each; limits bound the
// runs that make the expected outputs.
inline std::vector<RandomBatch> random_batches(u64 seed, u32 programs, u32 tests, const vm::Limits& limits) {
  trees::RandomProgramConfig config;
  config.max_params = 2;
  config.p_observe_locals = 0.2;
  Rng rng(seed);
  std::map<std::string, RandomBatch> groups;
  std::map<std::string, trees::Function> firsts;
  std::vector<std::string> order;
  for (u32 p = 0; p < programs; ++p) {
    Rng program_rng = rng.derive(p);
    trees::Tree program = trees::random_program(config, program_rng);
    const trees::Function* entry = program.find("solve");
    std::string key = signature_key(*entry);
    auto [it, fresh] = groups.try_emplace(key);
    RandomBatch& b = it->second;
    if (fresh) {
      order.push_back(key);
      for (const trees::Param& q : entry->params) b.params.push_back(q.type);
      b.results = entry->results;
      firsts.emplace(key, *entry);
    }
    b.sources.add(trees::to_source(program));
  }
  std::vector<RandomBatch> out;
  vm::Runner runner(limits);
  trees::InputConfig inputs;
  for (const std::string& key : order) {
    RandomBatch& b = groups[key];
    if (b.results.empty()) continue;  // a unit entry has nothing to test
    compiler::Output first = compiler::compile(b.sources.source(0));
    auto program = vm::Program::load(first.bytecode);
    Rng test_rng = rng.derive(0x7e57000000ull + out.size());
    for (u32 k = 0; k < tests; ++k) {
      std::vector<vm::Value> in = trees::random_inputs(firsts.at(key), inputs, test_rng);
      vm::Outcome o = runner.run(*program, u32(program->find("solve")), in);
      std::vector<vm::Value> want = o.results;
      if (o.trap != vm::Trap::NONE)
        for (Type t : b.results) want.push_back(trees::random_value(t, inputs, test_rng));
      b.inputs.push_back(std::move(in));
      b.outputs.push_back(std::move(want));
    }
    b.make_cases();
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace gs::testing
