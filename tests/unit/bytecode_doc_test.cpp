// docs/bytecode.md documents every opcode with its operand kind and stack effect: this test
// reads its table and holds it against vm/opcodes.def, row by row.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "vm/opcodes.h"

namespace gs {
namespace {

struct Row {
  std::string name, operand, pops, pushes;
};

const Row kTable[] = {
#define OPCODE(name, operand, pops, pushes, doc) {#name, #operand, #pops, #pushes},
#include "vm/opcodes.def"
#undef OPCODE
};

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" `"), b = s.find_last_not_of(" `");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<Row> documented_rows() {
  std::ifstream in(std::string(GPUSYNTH_SOURCE_DIR) + "/docs/bytecode.md");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(trim(cell));
    if (cells.size() >= 4) rows.push_back({cells[0], cells[1], cells[2], cells[3]});
  }
  return rows;
}

TEST(BytecodeDoc, DocumentsEveryOpcodeAsTheTableDefinesIt) {
  std::vector<Row> doc = documented_rows();
  ASSERT_EQ(doc.size(), vm::kOpCount) << "docs/bytecode.md must have one row per opcode";
  for (u32 i = 0; i < vm::kOpCount; ++i) {
    SCOPED_TRACE(kTable[i].name);
    EXPECT_EQ(doc[i].name, kTable[i].name);
    EXPECT_EQ(doc[i].operand, kTable[i].operand);
    EXPECT_EQ(doc[i].pops, kTable[i].pops);
    EXPECT_EQ(doc[i].pushes, kTable[i].pushes);
    EXPECT_STREQ(vm::op_info(vm::Op(i)).name, kTable[i].name.c_str());
  }
}

TEST(BytecodeDoc, HasThePapersInstructionsUnderTheirNames) {
  const char* paper[] = {"LOAD_CONST", "LOAD_VAR",   "STORE_VAR", "BINARY_ADD",    "BINARY_SUB", "BINARY_MUL",
                         "BINARY_DIV", "COMPARE_LT", "JUMP",      "JUMP_IF_FALSE", "CALL",       "RETURN"};
  for (u32 i = 0; i < 12; ++i) EXPECT_STREQ(vm::op_info(vm::Op(i)).name, paper[i]);
}

}  // namespace
}  // namespace gs
