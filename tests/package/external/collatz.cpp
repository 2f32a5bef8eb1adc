// Compiles a Syn program with gpusynth's compiler and runs it on gpusynth's VM.
#include <cstdio>

#include "compiler/compiler.h"
#include "vm/program.h"
#include "vm/runner.h"

int main() {
  const char* source = R"(fn solve(n: int) -> int {
    let steps = 1;
    while n != 1 {
        if n % 2 == 0 { n = n / 2; } else { n = 3 * n + 1; }
        steps = steps + 1;
    }
    return steps;
})";
  gs::compiler::Output out = gs::compiler::compile(source);
  if (!out.ok()) {
    std::fputs(gs::compiler::render(out.diagnostics, "collatz.syn", source).c_str(), stderr);
    return 1;
  }
  auto program = gs::vm::Program::load(out.bytecode);
  if (!program) return 1;
  gs::vm::Runner runner;
  gs::vm::Value n = gs::vm::Value::of_int(27);
  gs::vm::Outcome outcome = runner.run(*program, 0, {&n, 1});
  if (outcome.trap != gs::vm::Trap::NONE || outcome.results.size() != 1) return 1;
  std::printf("collatz(27) = %s\n", gs::vm::to_json(outcome.results[0]).c_str());
  return 0;
}
