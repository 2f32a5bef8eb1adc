// Human-readable listing of a program, generated from the instruction table.
#pragma once

#include <string>

#include "vm/program.h"

namespace gs::vm {

// One line per instruction: index, name, operand and what the operand refers to.
std::string disassemble(const Program& program);
// A single instruction of function fn ("LOAD_CONST 3  ; 1.5").
std::string disassemble_instruction(const Program& program, u32 fn, u32 word);

}  // namespace gs::vm
