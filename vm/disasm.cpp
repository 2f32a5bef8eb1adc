#include "vm/disasm.h"

#include <cstdio>

#include "vm/opcodes.h"
#include "vm/value.h"

namespace gs::vm {

static std::string quoted_literal(const Program& p, u32 k) {
  const ProgramView& v = p.view();
  const u8* obj = v.string_image + v.string_offsets[k];
  u32 len = *reinterpret_cast<const u32*>(obj);
  return to_json(Value::of_str(std::string(reinterpret_cast<const char*>(obj + 8), len)));
}

std::string disassemble_instruction(const Program& p, u32 fn, u32 word) {
  Op op = opcode_of(word);
  const OpInfo& info = op_info(op);
  u32 arg = operand_of(word);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-14s", info.name);
  std::string s = buf;
  switch (info.operand) {
    case OperandKind::NONE: break;
    case OperandKind::IMM: s += std::to_string(signed_operand_of(word)); break;
    case OperandKind::CONST: {
      u64 bits = p.view().constants[arg];
      std::snprintf(buf, sizeof buf, "%u  ; %lld / %.17g", arg, static_cast<long long>(bits),
                    double_of(bits));
      s += buf;
      break;
    }
    case OperandKind::STRING: s += std::to_string(arg) + "  ; " + quoted_literal(p, arg); break;
    case OperandKind::FUNC: s += std::to_string(arg) + "  ; " + std::string(p.function_name(arg)); break;
    case OperandKind::ELEM:
    case OperandKind::NUM:
    case OperandKind::ORD: s += type_name(Type(arg)); break;
    default: s += std::to_string(arg); break;
  }
  (void)fn;
  return s;
}

std::string disassemble(const Program& p) {
  std::string out;
  for (u32 fi = 0; fi < p.function_count(); ++fi) {
    const FunctionRecord& f = p.function(fi);
    out += p.signature(fi) + "    ; function " + std::to_string(fi) + ", locals " +
           std::to_string(f.local_count) + ", max_stack " + std::to_string(f.max_stack) + "\n";
    for (u32 pc = 0; pc < f.code_words; ++pc) {
      char idx[16];
      std::snprintf(idx, sizeof idx, "  %04u  ", pc);
      out += idx + disassemble_instruction(p, fi, p.view().code[f.code_start + pc]) + "\n";
    }
  }
  return out;
}

}  // namespace gs::vm
