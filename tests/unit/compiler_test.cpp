// Golden opcode sequences: what the code generator and the optimiser emit for small programs,
// and how errors come out.
#include "compiler/compiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "vm/disasm.h"
#include "vm/program.h"

namespace gs {
namespace {

// "NAME operand" per instruction of the named function (operand omitted when NONE).
std::vector<std::string> opcodes(const std::string& source, const std::string& function = "f") {
  compiler::Output out = compiler::compile(source);
  EXPECT_TRUE(out.ok()) << compiler::render(out.diagnostics, "test.syn", source);
  if (!out.ok()) return {};
  auto program = vm::Program::load(out.bytecode);
  EXPECT_TRUE(program.has_value());
  i32 fn = program->find(function);
  EXPECT_GE(fn, 0);
  const vm::FunctionRecord& f = program->function(u32(fn));
  std::vector<std::string> lines;
  for (u32 pc = 0; pc < f.code_words; ++pc) {
    u32 word = program->view().code[f.code_start + pc];
    const vm::OpInfo& info = vm::op_info(vm::opcode_of(word));
    std::string s = info.name;
    if (info.operand == vm::OperandKind::IMM)
      s += " " + std::to_string(vm::signed_operand_of(word));
    else if (info.operand != vm::OperandKind::NONE)
      s += " " + std::to_string(vm::operand_of(word));
    lines.push_back(s);
  }
  return lines;
}

using Lines = std::vector<std::string>;

TEST(Codegen, AddsTwoParameters) {
  EXPECT_EQ(opcodes("fn f(a: int, b: int) -> int { return a + b; }"),
            (Lines{"LOAD_VAR 0", "LOAD_VAR 1", "BINARY_ADD", "RETURN"}));
}

TEST(Codegen, FoldsConstantsWithTheVmsArithmetic) {
  EXPECT_EQ(opcodes("fn f() -> int { return 2 * 3 + 1; }"), (Lines{"LOAD_INT 7", "RETURN"}));
  EXPECT_EQ(opcodes("fn f() -> int { return -9223372036854775808 / -1; }"),
            (Lines{"LOAD_CONST 0", "RETURN"}));  // MIN / -1 wraps to MIN, folded
  EXPECT_EQ(opcodes("fn f() -> bool { return 1 < 2 && true; }"), (Lines{"LOAD_INT 1", "RETURN"}));
  EXPECT_EQ(opcodes("fn f() -> float { return 1.5 * 2.0; }"), (Lines{"LOAD_CONST 0", "RETURN"}));
}

TEST(Codegen, LeavesDivisionByLiteralZeroToTrapAtRunTime) {
  EXPECT_EQ(opcodes("fn f() -> int { return 1 / 0; }"),
            (Lines{"LOAD_INT 1", "LOAD_INT 0", "BINARY_DIV", "RETURN"}));
}

TEST(Codegen, DropsDeadCodeAfterReturnAndBreak) {
  EXPECT_EQ(opcodes("fn f() -> int { return 1; return 2; }"), (Lines{"LOAD_INT 1", "RETURN"}));
  EXPECT_EQ(opcodes("fn f() -> int { if true { return 1; } else { return 2; } }"),
            (Lines{"LOAD_INT 1", "RETURN"}));
  Lines loop = opcodes("fn f() -> int { while true { break; let x = 1; } return 3; }");
  EXPECT_EQ(loop, (Lines{"LOAD_INT 3", "RETURN"}));
}

TEST(Codegen, InvertsLoopsSoEachIterationTestsOnce) {
  EXPECT_EQ(opcodes("fn f(n: int) -> int { while n > 0 { n = n - 1; } return n; }"),
            (Lines{"JUMP 5", "LOAD_VAR 0", "LOAD_INT 1", "BINARY_SUB", "STORE_VAR 0", "LOAD_VAR 0",
                   "LOAD_INT 0", "COMPARE_GT", "JUMP_IF_TRUE 1", "LOAD_VAR 0", "RETURN"}));
}

TEST(Codegen, UsesTheLoopVariableAsCounterUnlessTheBodyAssignsIt) {
  Lines plain = opcodes("fn f() -> int { let s = 0; for i in 0..10 { s = s + i; } return s; }");
  EXPECT_EQ(plain, (Lines{"LOAD_INT 0", "STORE_VAR 0", "LOAD_INT 0", "STORE_VAR 1", "JUMP 13", "LOAD_VAR 0",
                          "LOAD_VAR 1", "BINARY_ADD", "STORE_VAR 0", "LOAD_VAR 1", "LOAD_INT 1", "BINARY_ADD",
                          "STORE_VAR 1", "LOAD_VAR 1", "LOAD_INT 10", "COMPARE_LT", "JUMP_IF_TRUE 5",
                          "LOAD_VAR 0", "RETURN"}));
  Lines assigned = opcodes("fn f() -> int { let s = 0; for i in 0..10 { i = i * 2; s = s + i; } return s; }");
  EXPECT_EQ(assigned[5], "LOAD_VAR 2");  // the hidden counter is copied into i each iteration
  EXPECT_EQ(assigned[6], "STORE_VAR 1");
}

TEST(Codegen, CompilesConditionsToJumps) {
  EXPECT_EQ(opcodes("fn f(a: bool, b: bool) -> int { if a && !b { return 1; } return 0; }"),
            (Lines{"LOAD_VAR 0", "JUMP_IF_FALSE 6", "LOAD_VAR 1", "JUMP_IF_TRUE 6", "LOAD_INT 1", "RETURN",
                   "LOAD_INT 0", "RETURN"}));
}

TEST(Codegen, ThreadsJumpsThroughJumps) {
  Lines code = opcodes(
      "fn f(x: int) -> int { let r = 0; if x < 0 { if x < -5 { r = 1; } else { r = 2; } } else { r = 3; } "
      "return r; }");
  compiler::Output out = compiler::compile(
      "fn f(x: int) -> int { let r = 0; if x < 0 { if x < -5 { r = 1; } else { r = 2; } } else { r = 3; } "
      "return r; }");
  auto program = vm::Program::load(out.bytecode);
  const vm::FunctionRecord& f = program->function(0);
  const u32* c = program->view().code + f.code_start;
  for (u32 pc = 0; pc < f.code_words; ++pc) {
    if (!vm::is_jump(vm::opcode_of(c[pc]))) continue;
    u32 target = vm::operand_of(c[pc]);
    EXPECT_NE(vm::opcode_of(c[target]), vm::Op::JUMP) << "jump at " << pc << " lands on a jump";
    EXPECT_NE(target, pc + 1) << "unconditional jump to the next instruction at " << pc;
  }
}

TEST(Codegen, UpdatesArraysInPlaceAndSharesCopies) {
  Lines push = opcodes("fn f(xs: [int]) -> [int] { xs = push(xs, 1); xs = pop(xs); return xs; }");
  EXPECT_EQ(push, (Lines{"LOAD_INT 1", "PUSH_VAR 0", "POP_VAR 0", "LOAD_VAR 0", "SHARE", "RETURN"}));
  Lines alias = opcodes("fn f(xs: [int]) -> int { let ys = xs; ys[0] = 5; return xs[0]; }");
  EXPECT_EQ(alias, (Lines{"LOAD_VAR 0", "SHARE", "STORE_VAR 1", "LOAD_INT 0", "LOAD_INT 5", "ARRAY_SET 1",
                          "LOAD_VAR 0", "LOAD_INT 0", "ARRAY_GET", "RETURN"}));
}

TEST(Codegen, ComparesStringsThroughStrCompare) {
  EXPECT_EQ(opcodes("fn f(a: str, b: str) -> bool { return a < b; }"),
            (Lines{"LOAD_VAR 0", "LOAD_VAR 1", "STR_COMPARE", "LOAD_INT 0", "COMPARE_LT", "RETURN"}));
}

TEST(Codegen, PicksLoadIntOrLoadConstByRange) {
  EXPECT_EQ(opcodes("fn f() -> int { return 8388607; }"), (Lines{"LOAD_INT 8388607", "RETURN"}));
  EXPECT_EQ(opcodes("fn f() -> int { return 8388608; }"), (Lines{"LOAD_CONST 0", "RETURN"}));
}

TEST(Codegen, RecordsTheDeepestOperandStack) {
  compiler::Output out = compiler::compile("fn f(a: int) -> int { return a + (a * (a - (a / (a + 1)))); }");
  ASSERT_TRUE(out.ok());
  auto program = vm::Program::load(out.bytecode);
  EXPECT_EQ(program->function(0).max_stack, 6);
  EXPECT_EQ(program->function(0).local_count, 1);
}

TEST(Codegen, HandlesAFlatChainOfAThousandOperatorsWithoutDeepRecursion) {
  std::string sum = "x";
  for (int i = 0; i < 1000; ++i) sum += " + x";
  Lines code = opcodes("fn f(x: int) -> int { return " + sum + "; }");
  EXPECT_EQ(code.size(), 1u + 2 * 1000 + 1);
}

TEST(Lexer, KnowsEveryKeywordAndOnlyThose) {
  for (u8 k = u8(compiler::Tok::KW_FN); k <= u8(compiler::Tok::KW_STR); ++k) {
    const char* text = compiler::token_text(compiler::Tok(k));
    EXPECT_EQ(compiler::keyword(text, u32(std::strlen(text))), compiler::Tok(k)) << text;
  }
  for (const char* word : {"fnx", "le", "lets", "Int", "string", "returns", "continu", "x", "_"})
    EXPECT_EQ(compiler::keyword(word, u32(std::strlen(word))), compiler::Tok::IDENT) << word;
}

TEST(Container, RoundTripsThroughBytes) {
  std::string source = "fn f(s: str) -> (int, str) { return (len(s), s + \"!\"); }";
  compiler::Output out = compiler::compile(source);
  ASSERT_TRUE(out.ok());
  auto program = vm::Program::load(out.bytecode);
  ASSERT_TRUE(program);
  std::vector<u8> again(program->bytes().begin(), program->bytes().end());
  EXPECT_EQ(again, out.bytecode);
  EXPECT_EQ(program->signature(0), "fn f(p0: str) -> (int, str)");
  EXPECT_EQ(compiler::compile(source).bytecode, out.bytecode) << "compilation must be deterministic";
}

TEST(Errors, ReportsThreeMistakesWithLineAndColumn) {
  std::string source =
      "fn solve(xs: [int]) -> int {\n"
      "  let total = 0.5 + 1;\n"
      "  for x in xs { totl = total + x; }\n"
      "  if total > 1 { return 1 }\n"
      "  return total;\n"
      "}\n";
  compiler::Output out = compiler::compile(source);
  ASSERT_EQ(out.diagnostics.size(), 3u) << compiler::render(out.diagnostics, "three.syn", source);
  std::string text = compiler::render(out.diagnostics, "three.syn", source);
  EXPECT_NE(text.find("three.syn:2:19: error: operator '+' cannot take float and int"), std::string::npos)
      << text;
  EXPECT_NE(text.find("three.syn:3:17: error: unknown name 'totl'"), std::string::npos) << text;
  EXPECT_NE(text.find("three.syn:4:27: error: expected ';', found '}'"), std::string::npos) << text;
  EXPECT_NE(text.find("                 ^~~~\n"), std::string::npos) << "caret under 'totl':\n" << text;
}

TEST(Errors, StopsAtTheErrorLimit) {
  std::string source = "fn f() {\n";
  for (int i = 0; i < 100; ++i) source += "  x" + std::to_string(i) + " = 1;\n";
  source += "}\n";
  compiler::Output out = compiler::compile(source);
  ASSERT_EQ(out.diagnostics.size(), 33u);  // 32 errors, then "too many errors"
  EXPECT_EQ(out.diagnostics.back().code, compiler::Code::TOO_MANY_ERRORS);
}

// Float literals are correctly rounded (compiler/literal.h): compared with strtod on random
// literals of every kind — short and 19-digit mantissas, exponents from far below the smallest
// subnormal to past the largest double, and the 17-digit text that repr() prints.
TEST(Literals, FloatLiteralsAreCorrectlyRounded) {
  std::mt19937_64 rng(11);
  auto check = [](const std::string& text) {
    double want = std::strtod(text.c_str(), nullptr);
    double got = compiler::float_literal(text.data(), u32(text.size()));
    ASSERT_EQ(bits_of(got), bits_of(want)) << text;
  };
  for (const char* t : {"0.30000000000000004", "1.0000000000000002", "8.98846567431158e307", "4.9e-324",
                        "2.4703282292062328e-324", "2.4703282292062327e-324", "1.7976931348623157e308",
                        "1.7976931348623159e308", "2.2250738585072011e-308", "9007199254740993",
                        "123456789012345678901234567890", "0.1", "1e23", "5e-324", "1e400", "1e-400"})
    check(t);
  char buf[64];
  for (int k = 0; k < 100000; ++k) {
    u64 m = rng() % 10000000000000000000ull >> (rng() % 60);
    int e = int(rng() % 680) - 360;
    snprintf(buf, sizeof buf, "%llue%d", static_cast<unsigned long long>(m), e);
    check(buf);
    double d;
    u64 bits = rng();
    memcpy(&d, &bits, 8);
    if (!std::isfinite(d)) continue;
    snprintf(buf, sizeof buf, "%.17g", std::fabs(d));
    check(buf);
  }
}

}  // namespace
}  // namespace gs
