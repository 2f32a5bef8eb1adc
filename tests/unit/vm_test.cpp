// Interpreter, runner and container basics.
#include <gtest/gtest.h>

#include <stdexcept>

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

// Limits outside their ranges (vm/limits.h) are refused before any memory is sized from them:
// call_depth + 1 frames, a heap near 2^32 bytes or a stack of 2^32 slots would wrap or exhaust it.
TEST(Vm, LimitsOutsideTheirRangesAreRefused) {
  for (vm::Limits l : {vm::Limits{.call_depth = 0xFFFFFFFFu}, vm::Limits{.call_depth = 0},
                       vm::Limits{.heap_bytes = 4294967290u}, vm::Limits{.stack_slots = 0xFFFFFFFFu},
                       vm::Limits{.fuel = 0}, vm::Limits{.fuel = vm::kMaxFuel + 1}}) {
    EXPECT_NE(vm::limits_problem(l), nullptr);
    EXPECT_THROW(vm::Runner runner(l), std::invalid_argument);
  }
  vm::Limits widest{.fuel = vm::kMaxFuel,
                    .stack_slots = vm::kMaxStackSlots,
                    .call_depth = vm::kMaxCallDepth,
                    .heap_bytes = vm::kMaxHeapBytes};
  EXPECT_EQ(vm::limits_problem(widest), nullptr);
  EXPECT_EQ(vm::limits_problem(vm::Limits{}), nullptr);
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
