// The instruction set, generated from vm/opcodes.def.
//
// An instruction is one 32-bit little-endian word:
//
//    31                                8 7          0
//   +-----------------------------------+------------+
//   |        operand (24 bits)          |   opcode   |
//   +-----------------------------------+------------+
//
// The operand is unsigned except for LOAD_INT, where it is a two's-complement 24-bit integer.
// Jump targets are instruction indices relative to the start of the current function.
#pragma once

#include "base/hd.h"

namespace gs::vm {

enum class Op : u8 {
#define OPCODE(name, operand, pops, pushes, doc) name,
#include "vm/opcodes.def"
#undef OPCODE
};

inline constexpr u32 kOpCount = 0
#define OPCODE(name, operand, pops, pushes, doc) +1
#include "vm/opcodes.def"
#undef OPCODE
    ;

// What an instruction's operand means; the verifier checks each against the program.
enum class OperandKind : u8 {
  NONE,    // must be 0
  IMM,     // signed 24-bit integer
  CONST,   // index into the constant pool
  STRING,  // index into the string literals
  LOCAL,   // local variable slot of the current function
  TARGET,  // instruction index within the current function
  FUNC,    // function index
  COUNT,   // number of stack values taken
  ELEM,    // element type: int, float, bool or str
  NUM,     // element type: int or float
  ORD,     // element type: int, float or str
};

// Stack effects that are not constants (see the header of opcodes.def).
inline constexpr i32 N = -1;
inline constexpr i32 CALLEE_ARGS = -2;
inline constexpr i32 CALLEE_RESULTS = -3;
inline constexpr i32 OWN_RESULTS = -4;

struct OpInfo {
  const char* name;
  OperandKind operand;
  i32 pops;
  i32 pushes;
  const char* doc;
};

GS_HD inline const OpInfo& op_info(Op op) {
  // A function-local static table works on the device too (it lands in constant memory).
  static constexpr OpInfo table[] = {
#define OPCODE(name, operand, pops, pushes, doc) {#name, OperandKind::operand, pops, pushes, doc},
#include "vm/opcodes.def"
#undef OPCODE
  };
  return table[static_cast<u8>(op)];
}

GS_HD constexpr u32 encode(Op op, u32 operand) { return static_cast<u32>(op) | (operand << 8); }
GS_HD constexpr Op opcode_of(u32 word) { return static_cast<Op>(word & 0xffu); }
GS_HD constexpr u32 operand_of(u32 word) { return word >> 8; }
GS_HD constexpr i32 signed_operand_of(u32 word) { return static_cast<i32>(word) >> 8; }
inline constexpr u32 kMaxOperand = (1u << 24) - 1;
inline constexpr i32 kMinImm = -(1 << 23);
inline constexpr i32 kMaxImm = (1 << 23) - 1;

GS_HD constexpr bool is_valid_op(u32 word) { return (word & 0xffu) < kOpCount; }
GS_HD constexpr bool is_jump(Op op) {
  return op == Op::JUMP || op == Op::JUMP_IF_FALSE || op == Op::JUMP_IF_TRUE;
}
// Control never falls through to the next instruction.
GS_HD constexpr bool ends_flow(Op op) { return op == Op::JUMP || op == Op::RETURN; }

}  // namespace gs::vm
