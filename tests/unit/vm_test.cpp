// Interpreter, runner and container basics.
#include <gtest/gtest.h>

#include "compiler/compiler.h"
#include "vm/runner.h"

namespace gs {
namespace {

vm::Program build(const std::string& source) {
  compiler::Output out = compiler::compile(source);
  EXPECT_TRUE(out.ok()) << compiler::render(out.diagnostics, "test.syn", source);
  vm::VerifyResult r;
  auto p = vm::Program::load(out.bytecode, &r);
  EXPECT_TRUE(p.has_value()) << vm::describe(r);
  return *p;
}

TEST(Vm, RunsTheDesignExample) {
  vm::Program p = build(R"(
fn solve(xs: [int], k: int) -> int {
    let total = 0;
    let kept: [int] = [];
    for i in 0..len(xs) {
        if xs[i] % 2 != 0 && xs[i] > k {
            total = total + xs[i];
            kept = push(kept, xs[i]);
        } else if xs[i] == 0 {
            continue;
        }
    }
    for x in kept { total = total + helper(x); }
    while total > 1000 { total = total / 2; }
    return total;
}
fn helper(x: int) -> int { return max(0, x - 1); }
fn split(n: int) -> (int, int) { return (n / 10, n % 10); }
)");
  vm::Runner runner;
  std::vector<vm::Value> args = {vm::Value::of_array(Type::Int, {vm::Value::of_int(1), vm::Value::of_int(3),
                                                                 vm::Value::of_int(0), vm::Value::of_int(7)}),
                                 vm::Value::of_int(2)};
  vm::Outcome o = runner.run(p, u32(p.find("solve")), args);
  ASSERT_EQ(o.trap, vm::Trap::NONE);
  ASSERT_EQ(o.results.size(), 1u);
  EXPECT_EQ(o.results[0].i, 18);
  EXPECT_GT(o.instructions, 0u);
}

}  // namespace
}  // namespace gs
