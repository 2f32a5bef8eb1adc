// An independent tree-walking evaluator of Syn programs (trees/syntax.h), written from
// docs/language.md alone: it shares no code with compiler/ or the VM's interpreter, so the
// differential test (tests/property) can hold both against the specification.
//
// Traps are results. Resources the reference does not model exactly are approximated: fuel is
// a step counter (statements, expression nodes, loop iterations, elements a builtin touches),
// and there is no heap or value-stack bound; call depth is modelled exactly (the entry call
// counts as 1).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trees/syntax.h"
#include "vm/trap.h"
#include "vm/value.h"

namespace gs::reference {

// Slot of a value type in the coverage tables: int, float, bool, str, then [int] .. [str].
inline constexpr u32 kTypeSlots = 8;
u32 type_slot(Type t);
Type slot_type(u32 slot);

// What executions exercised: statements run, operators applied per operand type, builtin
// overloads called and traps raised. Shared by every evaluate() given it.
struct Coverage {
  u64 statements[trees::kStmtKindCount] = {};
  u64 else_if_taken = 0;           // an "else if" condition evaluated
  u64 else_taken = 0;              // an "else" block run
  u64 shadowing = 0;               // a declaration hid a visible variable of the same name
  u64 builtin_named_variable = 0;  // a variable named like a builtin was declared
  u64 builtin_hidden = 0;          // a call went to a program function named like a builtin
  u64 unary[trees::kUnaryOpCount][kTypeSlots] = {};
  u64 binary[trees::kBinaryOpCount][kTypeSlots] = {};
  u64 builtins[trees::kBuiltinCount] = {};
  u64 traps[vm::kTrapCount] = {};
};

struct Options {
  u64 max_steps = 2'000'000;  // beyond it the outcome is out_of_fuel
  u32 max_call_depth = 64;
  Coverage* coverage = nullptr;
};

struct Outcome {
  vm::Trap trap = vm::Trap::NONE;
  std::vector<vm::Value> results;  // empty unless trap is NONE
  u64 steps = 0;
};

// Runs function `entry` of p on args, which must match its parameter types.
Outcome evaluate(const trees::Tree& p, std::string_view entry, std::span<const vm::Value> args,
                 const Options& options = {});

// str(x) of a float, docs/language.md "Formatting floats".
std::string format_float(double x);

}  // namespace gs::reference
