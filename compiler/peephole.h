// Jump threading, the optimiser's third part, on one function's finished bytecode:
//   1. a jump to an unconditional JUMP goes straight to that jump's target;
//   2. an unconditional JUMP to a RETURN becomes the RETURN (same stack depth there);
//   3. instructions no path reaches, and JUMPs to the very next instruction, are deleted and
//      every target renumbered.
// Each step keeps the stack depth at every remaining instruction unchanged.
#pragma once

#include "compiler/workspace.h"
#include "vm/opcodes.h"

namespace gs::compiler {

// Returns the function's new length.
GS_HD inline u32 thread_jumps(u32* code, u32 n, u32* scratch) {
  using vm::Op;
  u32 jumps = 0;
  for (u32 i = 0; i < n; ++i) jumps += vm::is_jump(vm::opcode_of(code[i]));
  if (jumps == 0) return n;  // straight-line code: nothing to thread or remove
  // 1 and 2
  for (u32 i = 0; i < n; ++i) {
    Op op = vm::opcode_of(code[i]);
    if (!vm::is_jump(op)) continue;
    u32 target = vm::operand_of(code[i]);
    for (u32 hops = 0; hops < 16 && vm::opcode_of(code[target]) == Op::JUMP; ++hops) {
      u32 further = vm::operand_of(code[target]);
      if (further == target) break;
      target = further;
    }
    code[i] = vm::encode(op, target);
    if (op == Op::JUMP && vm::opcode_of(code[target]) == Op::RETURN) code[i] = code[target];
  }
  // 3: reachability by worklist, then keep what is reached and is not a jump to the next
  // reached instruction.
  u32* reached = scratch;       // 1 when reachable
  u32* worklist = scratch + n;  // afterwards: new index of each instruction
  for (u32 i = 0; i < n; ++i) reached[i] = 0;
  u32 pending = 0;
  reached[0] = 1;
  worklist[pending++] = 0;
  while (pending > 0) {
    u32 pc = worklist[--pending];
    Op op = vm::opcode_of(code[pc]);
    u32 successors[2], count = 0;
    if (vm::is_jump(op)) successors[count++] = vm::operand_of(code[pc]);
    if (!vm::ends_flow(op) && pc + 1 < n) successors[count++] = pc + 1;
    for (u32 k = 0; k < count; ++k) {
      if (reached[successors[k]]) continue;
      reached[successors[k]] = 1;
      worklist[pending++] = successors[k];
    }
  }
  for (u32 i = 0; i < n; ++i) {
    if (!reached[i] || vm::opcode_of(code[i]) != Op::JUMP) continue;
    u32 next = i + 1;
    while (next < n && !reached[next]) ++next;
    if (vm::operand_of(code[i]) == next) reached[i] = 0;
  }
  u32* index = worklist;
  u32 kept = 0;
  for (u32 i = 0; i < n; ++i) {
    index[i] = kept;
    if (reached[i]) ++kept;
  }
  u32 out = 0;
  for (u32 i = 0; i < n; ++i) {
    if (!reached[i]) continue;
    u32 word = code[i];
    Op op = vm::opcode_of(word);
    code[out++] = vm::is_jump(op) ? vm::encode(op, index[vm::operand_of(word)]) : word;
  }
  return out;
}

}  // namespace gs::compiler
