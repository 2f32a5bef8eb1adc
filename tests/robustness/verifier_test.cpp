// The verifier rejects each kind of malformed container with the error that names it, and
// accepts (and the VM runs) well-formed hand-assembled ones. Each malformed container is a
// valid one with one defect, made with tests/robustness/assembler.h.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "tests/robustness/assembler.h"
#include "tests/robustness/fuzz_support.h"
#include "vm/runner.h"

namespace gs {
namespace {

using tasm::op;
using vm::Op;
using vm::VerifyError;

// ---- containers ----------------------------------------------------------------------------

// solve(x) = twice(x) + 40 + len("abc"); twice(x) = 2x.
tasm::Container valid_container() {
  tasm::Container c;
  c.constants = {40};
  c.strings = {"abc", "hello, world"};
  c.functions.push_back({.name = "solve",
                         .params = {Type::Int},
                         .results = {Type::Int},
                         .local_count = 2,
                         .max_stack = 2,
                         .code = {op(Op::LOAD_VAR, 0), op(Op::CALL, 1), op(Op::LOAD_CONST, 0),
                                  op(Op::BINARY_ADD), op(Op::STORE_VAR, 1), op(Op::LOAD_STR, 0), op(Op::LEN),
                                  op(Op::LOAD_VAR, 1), op(Op::BINARY_ADD), op(Op::RETURN)}});
  c.functions.push_back({.name = "twice",
                         .params = {Type::Int},
                         .results = {Type::Int},
                         .max_stack = 2,
                         .code = {op(Op::LOAD_VAR, 0), tasm::imm(2), op(Op::BINARY_MUL), op(Op::RETURN)}});
  return c;
}
std::vector<u8> valid_bytes() { return tasm::assemble(valid_container()); }

// Function 0 of (int) -> int with the given code, 2 locals; function 1 is g(x: int) -> int;
// two constants, one string literal.
std::vector<u8> with_code(std::vector<u32> code, u16 max_stack = 4, u32 results = 1) {
  tasm::Container c;
  c.constants = {1, 2};
  c.strings = {"s"};
  c.functions.push_back({.name = "solve",
                         .params = {Type::Int},
                         .results = std::vector<Type>(results, Type::Int),
                         .local_count = 2,
                         .max_stack = max_stack,
                         .code = std::move(code)});
  c.functions.push_back({.name = "g",
                         .params = {Type::Int},
                         .results = {Type::Int},
                         .max_stack = 1,
                         .code = {op(Op::LOAD_VAR, 0), op(Op::RETURN)}});
  return tasm::assemble(c);
}

// ---- expectations --------------------------------------------------------------------------

std::string name_of(VerifyError e) { return fuzz::verify_error_name(e); }

::testing::AssertionResult rejected_with(const std::vector<u8>& bytes, VerifyError want) {
  vm::VerifyResult r;
  std::optional<vm::Program> p = vm::Program::load(bytes, &r);
  if (p.has_value() != r.ok()) return ::testing::AssertionFailure() << "load() and its VerifyResult disagree";
  if (r.error == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected " << name_of(want) << ", got "
         << (r.ok() ? "acceptance" : name_of(r.error) + ": " + vm::describe(r)) << "\n  container:\n"
         << fuzz::hex(bytes, 160);
}

::testing::AssertionResult rejected_at(const std::vector<u8>& bytes, VerifyError want, u32 function, u32 pc) {
  ::testing::AssertionResult ok = rejected_with(bytes, want);
  if (!ok) return ok;
  vm::VerifyResult r;
  vm::Program::load(bytes, &r);
  if (r.function == function && r.pc == pc) return ok;
  return ::testing::AssertionFailure()
         << name_of(want) << " at function " << r.function << ", instruction " << r.pc
         << "; expected function " << function << ", instruction " << pc;
}

::testing::AssertionResult accepted(const std::vector<u8>& bytes) {
  return rejected_with(bytes, VerifyError::OK);
}

// ---- the container -------------------------------------------------------------------------

TEST(Verifier, AcceptsAValidHandAssembledProgramThatRuns) {
  std::vector<u8> bytes = valid_bytes();
  ASSERT_TRUE(accepted(bytes));
  vm::Program p = *vm::Program::load(bytes);
  ASSERT_EQ(p.find("solve"), 0);
  ASSERT_EQ(p.find("twice"), 1);
  EXPECT_EQ(p.signature(0), "fn solve(p0: int) -> int");
  vm::Runner runner;
  vm::Value five = vm::Value::of_int(5);
  vm::Outcome o = runner.run(p, 0, {&five, 1});
  ASSERT_EQ(o.trap, vm::Trap::NONE);
  ASSERT_EQ(o.results.size(), 1u);
  EXPECT_EQ(o.results[0].i, 2 * 5 + 40 + 3);
  o = runner.run(p, 1, {&five, 1});
  ASSERT_EQ(o.trap, vm::Trap::NONE);
  EXPECT_EQ(o.results[0].i, 10);
}

TEST(Verifier, RejectsBadMagic) {
  std::vector<u8> bytes = valid_bytes();
  bytes[0] = 'X';
  tasm::reseal(bytes);
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_MAGIC));
  std::vector<u8> zeros(bytes.size(), 0);
  EXPECT_TRUE(rejected_with(zeros, VerifyError::BAD_MAGIC));
}

TEST(Verifier, RejectsBadVersion) {
  for (u16 version : {u16(0), u16(2), u16(0xffff)}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_header(bytes, [&](vm::Header& h) { h.version = version; });
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_VERSION)) << "version " << version;
  }
}

TEST(Verifier, RejectsTruncatedBuffers) {
  const std::vector<u8> full = valid_bytes();
  for (size_t size : {size_t(0), size_t(1), size_t(39), size_t(40), size_t(43), size_t(44), full.size() / 2,
                      full.size() - 8, full.size() - 4, full.size() - 1}) {
    std::vector<u8> bytes(full.begin(), full.begin() + i64(size));
    tasm::reseal(bytes);  // so only the size is wrong
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_SIZE)) << size << " of " << full.size() << " bytes";
  }
}

TEST(Verifier, RejectsOversizedBuffers) {
  std::vector<u8> bytes = valid_bytes();
  bytes.resize(bytes.size() + 8, 0);
  tasm::reseal(bytes);
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_SIZE)) << "8 bytes more than the header says";
  tasm::edit_header(bytes, [&](vm::Header& h) { h.total_bytes = u32(bytes.size()); });
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_SIZE)) << "total_bytes agrees, the sections do not";
  std::vector<u8> huge = valid_bytes();
  huge.resize(vm::kMaxProgramBytes + 8, 0);
  EXPECT_TRUE(rejected_with(huge, VerifyError::BAD_SIZE)) << "beyond kMaxProgramBytes";
}

TEST(Verifier, RejectsTotalBytesDisagreeingWithTheBuffer) {
  for (i64 delta : {-8, -4, -1, 1, 4, 8, 1 << 20}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_header(bytes, [&](vm::Header& h) { h.total_bytes = u32(i64(h.total_bytes) + delta); });
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_SIZE)) << "total_bytes off by " << delta;
  }
}

TEST(Verifier, RejectsAMisalignedBuffer) {
  std::vector<u8> bytes = valid_bytes();
  std::vector<u64> storage(bytes.size() / 8 + 2);
  u8* misaligned = reinterpret_cast<u8*>(storage.data()) + 4;
  std::memcpy(misaligned, bytes.data(), bytes.size());
  std::vector<u32> scratch(64);
  vm::ProgramView view;
  vm::VerifyResult r =
      vm::verify_program(misaligned, bytes.size(), scratch.data(), u32(scratch.size()), &view);
  EXPECT_EQ(r.error, VerifyError::BAD_SIZE);
}

TEST(Verifier, RejectsABadChecksum) {
  const std::vector<u8> good = valid_bytes();
  const vm::Layout l = tasm::layout(good);
  for (u64 at : {u64(8), l.functions + 14, l.constants, l.string_image + 9, l.names, l.code + 1, l.checksum,
                 l.checksum + 3}) {
    std::vector<u8> bytes = good;
    bytes[at] ^= 0x10;  // not resealed
    VerifyError want = at < 40 && at != 8 ? VerifyError::BAD_HEADER : VerifyError::BAD_CHECKSUM;
    if (at == 8) want = VerifyError::BAD_SIZE;  // total_bytes: caught before the checksum
    EXPECT_TRUE(rejected_with(bytes, want)) << "byte " << at << " flipped";
  }
}

TEST(Verifier, RejectsNonZeroFlagsAndReserved) {
  for (u16 flags : {u16(1), u16(0x8000)}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_header(bytes, [&](vm::Header& h) { h.flags = flags; });
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_HEADER)) << "flags " << flags;
  }
  for (u32 reserved : {1u, 0x80000000u}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_header(bytes, [&](vm::Header& h) { h.reserved = reserved; });
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_HEADER)) << "reserved " << reserved;
  }
}

TEST(Verifier, RejectsHeaderCountsBeyondTheBounds) {
  struct Case {
    const char* what;
    void (*edit)(vm::Header&);
  };
  const Case cases[] = {
      {"no functions", [](vm::Header& h) { h.function_count = 0; }},
      {"257 functions", [](vm::Header& h) { h.function_count = vm::kMaxFunctions + 1; }},
      {"2^32-1 functions", [](vm::Header& h) { h.function_count = 0xffffffffu; }},
      {"65537 constants", [](vm::Header& h) { h.constant_count = vm::kMaxConstants + 1; }},
      {"65537 strings", [](vm::Header& h) { h.string_count = vm::kMaxStrings + 1; }},
      {"65537 code words", [](vm::Header& h) { h.code_words = vm::kMaxCodeWords + 1; }},
      {"2^32-1 code words", [](vm::Header& h) { h.code_words = 0xffffffffu; }},
      {"string image not a multiple of 8", [](vm::Header& h) { h.string_image_bytes += 4; }},
  };
  for (const Case& c : cases) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_header(bytes, c.edit);
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_HEADER)) << c.what;
  }
}

// The same bounds on containers whose layout really holds that many items: one past the
// bound is refused, the bound itself accepted.
tasm::Function trivial(std::string name) {
  return {.name = std::move(name),
          .params = {},
          .results = {Type::Int},
          .max_stack = 1,
          .code = {tasm::imm(0), op(Op::RETURN)}};
}

TEST(Verifier, FunctionCountBound) {
  tasm::Container c;
  for (u32 i = 0; i < vm::kMaxFunctions; ++i) {
    std::string name = std::to_string(i);
    c.functions.push_back(trivial(name.insert(0, 1, 'f')));
  }
  EXPECT_TRUE(accepted(tasm::assemble(c)));
  c.functions.push_back(trivial("one_more"));
  EXPECT_TRUE(rejected_with(tasm::assemble(c), VerifyError::BAD_HEADER));
}

TEST(Verifier, ConstantCountBound) {
  tasm::Container c;
  c.functions.push_back(trivial("solve"));
  c.constants.assign(vm::kMaxConstants, 7);
  EXPECT_TRUE(accepted(tasm::assemble(c)));
  c.constants.push_back(7);
  EXPECT_TRUE(rejected_with(tasm::assemble(c), VerifyError::BAD_HEADER));
}

TEST(Verifier, StringCountBound) {
  tasm::Container c;
  c.functions.push_back(trivial("solve"));
  c.strings.assign(vm::kMaxStrings, "");
  EXPECT_TRUE(accepted(tasm::assemble(c)));
  c.strings.push_back("");
  EXPECT_TRUE(rejected_with(tasm::assemble(c), VerifyError::BAD_HEADER));
}

// n words: a jump over n - 3 unreachable (but well-formed) words to "0; RETURN".
std::vector<u32> long_code(u32 n) {
  std::vector<u32> code(n, tasm::imm(0));
  code[0] = op(Op::JUMP, n - 2);
  code[n - 1] = op(Op::RETURN);
  return code;
}

TEST(Verifier, CodeWordBound) {
  tasm::Container c;
  c.functions.push_back(trivial("solve"));
  c.functions[0].code = long_code(vm::kMaxCodeWords);
  EXPECT_TRUE(accepted(tasm::assemble(c)));
  c.functions[0].code = long_code(vm::kMaxCodeWords + 1);
  EXPECT_TRUE(rejected_with(tasm::assemble(c), VerifyError::BAD_HEADER));
}

// ---- function records ----------------------------------------------------------------------

TEST(Verifier, RejectsFunctionCodeRangesThatAreNotContiguous) {
  std::vector<u8> bytes = valid_bytes();
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.code_start -= 1; });
  EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0)) << "overlapping";
  bytes = valid_bytes();
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.code_start += 1; });
  EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0)) << "a gap";
  bytes = valid_bytes();
  tasm::edit_function(bytes, 0, [](vm::FunctionRecord& f) { f.code_start = 1; });
  EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 0, 0)) << "not starting at 0";
  bytes = valid_bytes();
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.code_words -= 1; });
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_FUNCTION)) << "code words left over";
  bytes = valid_bytes();
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.code_words += 1; });
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_FUNCTION)) << "past the code section";
}

TEST(Verifier, RejectsAnEmptyFunction) {
  std::vector<u8> bytes = valid_bytes();
  tasm::edit_function(bytes, 0, [](vm::FunctionRecord& f) { f.code_words = 0; });
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.code_start = 0, f.code_words = 14; });
  EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 0, 0));
}

// Code ranges whose 32-bit sum wraps around to the header's code_words: the ranges still add
// up, but the first one runs far past the buffer. The constant is chosen so that the checksum
// word after the code decodes as a valid LOAD_INT: an opcode check reading past the code then
// reads past the buffer (which AddressSanitizer reports) rather than stopping at the checksum.
std::vector<u8> wrapping_ranges(u32 first) {
  tasm::Container c = valid_container();
  for (u64 k = 0;; ++k) {
    c.constants[0] = k;
    std::vector<u8> bytes = tasm::assemble(c);
    const u32 words = tasm::header(bytes).code_words;  // 14
    tasm::edit_function(bytes, 0, [&](vm::FunctionRecord& f) { f.code_words = first; });
    tasm::edit_function(bytes, 1,
                        [&](vm::FunctionRecord& f) { f.code_start = first, f.code_words = words - first; });
    if (bytes[bytes.size() - 4] == u8(Op::LOAD_INT)) return bytes;
  }
}

TEST(Verifier, RejectsFunctionCodeRangesThatWrapAround) {
  for (u32 first : {0xffffffffu, 0x80000000u, 0xfffffff0u}) {
    EXPECT_TRUE(rejected_with(wrapping_ranges(first), VerifyError::BAD_FUNCTION))
        << "function 0 of " << first << " words, function 1 of the rest (mod 2^32)";
  }
}

TEST(Verifier, RejectsMoreParametersThanLocals) {
  std::vector<u8> bytes = valid_bytes();
  tasm::edit_function(bytes, 1, [](vm::FunctionRecord& f) { f.local_count = 0; });
  EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0));
}

TEST(Verifier, RejectsRecordFieldsBeyondTheBounds) {
  struct Case {
    const char* what;
    void (*edit)(vm::FunctionRecord&);
  };
  const Case cases[] = {
      {"1025 locals", [](vm::FunctionRecord& f) { f.local_count = vm::kMaxLocals + 1; }},
      {"17 parameters",
       [](vm::FunctionRecord& f) { f.param_count = vm::kMaxParams + 1, f.local_count = 32; }},
      {"9 results", [](vm::FunctionRecord& f) { f.result_count = vm::kMaxResults + 1; }},
      {"max_stack 4097", [](vm::FunctionRecord& f) { f.max_stack = vm::kMaxFrameStack + 1; }},
      {"name past the names", [](vm::FunctionRecord& f) { f.name_offset = 6; }},
      {"name length past the names", [](vm::FunctionRecord& f) { f.name_length = 6; }},
      {"name offset near 2^32", [](vm::FunctionRecord& f) { f.name_offset = 0xfffffffeu; }},
  };
  for (const Case& c : cases) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_function(bytes, 1, c.edit);
    EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0)) << c.what;
  }
}

TEST(Verifier, RejectsBadTypeCodes) {
  // Types bytecode can hold are int, float, bool, str (1-4) and arrays of them (0x11-0x14);
  // docs/bytecode.md, base/types.h. Everything else, including those with unused bits set.
  for (u32 bad : {0x00u, 0x05u, 0x06u, 0x07u, 0x08u, 0x10u, 0x15u, 0x16u, 0x1fu, 0x20u, 0x21u, 0x31u, 0x91u,
                  0xf4u, 0xffu}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_function(bytes, 1, [&](vm::FunctionRecord& f) { f.types[0] = u8(bad); });
    EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0))
        << "parameter type 0x" << std::hex << bad;
    bytes = valid_bytes();
    tasm::edit_function(bytes, 1, [&](vm::FunctionRecord& f) { f.types[1] = u8(bad); });
    EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0)) << "result type 0x" << std::hex << bad;
  }
  for (u32 slot : {2u, 10u, vm::kMaxParams + vm::kMaxResults - 1}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_function(bytes, 1, [&](vm::FunctionRecord& f) { f.types[slot] = u8(Type::Int); });
    EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_FUNCTION, 1, 0)) << "unused type slot " << slot << " set";
  }
  for (Type good : {Type::Int, Type::Float, Type::Bool, Type::Str, Type::IntArray, Type::FloatArray,
                    Type::BoolArray, Type::StrArray}) {
    std::vector<u8> bytes = valid_bytes();
    tasm::edit_function(bytes, 1, [&](vm::FunctionRecord& f) { f.types[0] = u8(good); });
    EXPECT_TRUE(accepted(bytes)) << type_name(good);  // the verifier does not check types in code
  }
}

// ---- the string table ----------------------------------------------------------------------

void set_u32(std::vector<u8>& bytes, u64 at, u32 value) {
  std::memcpy(bytes.data() + at, &value, 4);
  tasm::reseal(bytes);
}

TEST(Verifier, RejectsStringOffsetsNotAtObjectBoundaries) {
  // valid_container's image: "abc" at 0 (16 bytes), "hello, world" at 16 (24 bytes).
  const u64 offsets = tasm::layout(valid_bytes()).string_offsets;
  for (auto [index, offset] :
       {std::pair{0u, 8u}, {0u, 16u}, {1u, 8u}, {1u, 20u}, {1u, 24u}, {1u, 40u}, {1u, 0xfffffff8u}}) {
    std::vector<u8> bytes = valid_bytes();
    set_u32(bytes, offsets + 4 * index, offset);
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_STRINGS)) << "string " << index << " at " << offset;
  }
}

TEST(Verifier, RejectsStringHeadersWhoseCapacityIsNotTheLength) {
  const u64 image = tasm::layout(valid_bytes()).string_image;
  for (u32 capacity : {0u, 2u, 4u, 8u, 0x80000003u}) {
    std::vector<u8> bytes = valid_bytes();
    set_u32(bytes, image + 4, capacity);
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_STRINGS)) << "capacity " << capacity << " for length 3";
  }
}

TEST(Verifier, RejectsStringObjectsThatDoNotTileTheImage) {
  const u64 image = tasm::layout(valid_bytes()).string_image;
  for (u32 length : {100u, 17u, 0x7fffffffu, 0xffffffffu}) {  // "hello, world" claims more than the image
    std::vector<u8> bytes = valid_bytes();
    set_u32(bytes, image + 16, length);
    set_u32(bytes, image + 20, length);
    EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_STRINGS)) << "length " << length;
  }
  std::vector<u8> bytes = valid_bytes();
  set_u32(bytes, image + 16, 4);  // "hell": the object ends 8 bytes before the image does
  set_u32(bytes, image + 20, 4);
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_STRINGS)) << "image longer than its objects";
  tasm::Container c = valid_container();
  c.strings = {"a", "b", "c", "d"};
  bytes = tasm::assemble(c);  // four offsets and three counted: same padded table, one object extra
  tasm::edit_header(bytes, [](vm::Header& h) { h.string_count = 3; });
  EXPECT_TRUE(rejected_with(bytes, VerifyError::BAD_STRINGS)) << "an uncounted object in the image";
}

// ---- instructions --------------------------------------------------------------------------

TEST(Verifier, RejectsUnknownOpcodes) {
  for (u32 code : {vm::kOpCount, vm::kOpCount + 1, 0x80u, 0xffu}) {
    EXPECT_TRUE(rejected_at(with_code({tasm::raw(code), tasm::imm(0), op(Op::RETURN)}),
                            VerifyError::BAD_OPCODE, 0, 0))
        << "opcode " << code;
    EXPECT_TRUE(rejected_at(with_code({tasm::imm(0), op(Op::RETURN), tasm::raw(code)}),
                            VerifyError::BAD_OPCODE, 0, 2))
        << "opcode " << code << ", unreachable";
  }
  tasm::Container c = valid_container();
  c.functions[1].code.insert(c.functions[1].code.begin() + 2, tasm::raw(0xfe));
  EXPECT_TRUE(rejected_at(tasm::assemble(c), VerifyError::BAD_OPCODE, 1, 2)) << "in the second function";
}

// Each operand kind: the last valid value accepted, the first invalid one refused. The tested
// word is at `pc` in function 0 of with_code() (locals 2, constants 2, strings 1, functions 2).
void expect_operand(u32 pc, const std::vector<u32>& code, bool valid, const std::string& what) {
  std::vector<u8> bytes = with_code(code);
  if (valid) {
    EXPECT_TRUE(accepted(bytes)) << what;
  } else {
    EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_OPERAND, 0, pc)) << what;
  }
}

TEST(Verifier, RejectsConstOperandsOutOfRange) {
  expect_operand(0, {op(Op::LOAD_CONST, 1), op(Op::RETURN)}, true, "LOAD_CONST 1");
  expect_operand(0, {op(Op::LOAD_CONST, 2), op(Op::RETURN)}, false, "LOAD_CONST 2");
  expect_operand(0, {op(Op::LOAD_CONST, vm::kMaxOperand), op(Op::RETURN)}, false, "LOAD_CONST 2^24-1");
}

TEST(Verifier, RejectsStringOperandsOutOfRange) {
  expect_operand(0, {op(Op::LOAD_STR, 0), op(Op::RETURN)}, true, "LOAD_STR 0");
  expect_operand(0, {op(Op::LOAD_STR, 1), op(Op::RETURN)}, false, "LOAD_STR 1");
  expect_operand(0, {op(Op::LOAD_STR, vm::kMaxOperand), op(Op::RETURN)}, false, "LOAD_STR 2^24-1");
}

TEST(Verifier, RejectsLocalOperandsOutOfRange) {
  const u32 ret[] = {tasm::imm(0), op(Op::RETURN)};
  auto code = [&](std::vector<u32> head) {
    head.insert(head.end(), std::begin(ret), std::end(ret));
    return head;
  };
  for (u32 slot : {1u, 2u, 1024u, vm::kMaxOperand}) {
    bool valid = slot < 2;
    std::string at = std::string(" ") + std::to_string(slot);
    expect_operand(0, {op(Op::LOAD_VAR, slot), op(Op::RETURN)}, valid, "LOAD_VAR" + at);
    expect_operand(1, code({tasm::imm(1), op(Op::STORE_VAR, slot)}), valid, "STORE_VAR" + at);
    expect_operand(2, code({tasm::imm(0), tasm::imm(0), op(Op::ARRAY_SET, slot)}), valid, "ARRAY_SET" + at);
    expect_operand(1, code({tasm::imm(0), op(Op::PUSH_VAR, slot)}), valid, "PUSH_VAR" + at);
    expect_operand(0, code({op(Op::POP_VAR, slot)}), valid, "POP_VAR" + at);
  }
}

TEST(Verifier, RejectsJumpTargetsOutOfRange) {
  // Function 0 has 4 words: targets 0..3 are inside it.
  for (u32 target : {2u, 4u, 5u, vm::kMaxOperand}) {
    bool valid = target < 4;
    std::string at = std::string(" ") + std::to_string(target);
    expect_operand(0, {op(Op::JUMP, target), tasm::imm(0), tasm::imm(0), op(Op::RETURN)}, valid, "JUMP" + at);
    expect_operand(1, {op(Op::LOAD_VAR, 0), op(Op::JUMP_IF_FALSE, target), tasm::imm(0), op(Op::RETURN)},
                   valid, "JUMP_IF_FALSE" + at);
    expect_operand(1, {op(Op::LOAD_VAR, 0), op(Op::JUMP_IF_TRUE, target), tasm::imm(0), op(Op::RETURN)},
                   valid, "JUMP_IF_TRUE" + at);
  }
  // A target inside the next function is out of range too: targets are function-relative.
  tasm::Container c = valid_container();
  c.functions[0].code[4] = op(Op::JUMP, 10);
  EXPECT_TRUE(rejected_at(tasm::assemble(c), VerifyError::BAD_OPERAND, 0, 4));
}

TEST(Verifier, RejectsFuncOperandsOutOfRange) {
  expect_operand(1, {op(Op::LOAD_VAR, 0), op(Op::CALL, 1), op(Op::RETURN)}, true, "CALL 1");
  expect_operand(1, {op(Op::LOAD_VAR, 0), op(Op::CALL, 2), op(Op::RETURN)}, false, "CALL 2");
  expect_operand(1, {op(Op::LOAD_VAR, 0), op(Op::CALL, vm::kMaxOperand), op(Op::RETURN)}, false,
                 "CALL 2^24-1");
}

TEST(Verifier, RejectsCountOperandsOutOfRange) {
  expect_operand(0, {op(Op::NEW_ARRAY, 0), op(Op::RETURN)}, true, "NEW_ARRAY 0");
  expect_operand(0, {op(Op::NEW_ARRAY, vm::kMaxFrameStack + 1), op(Op::RETURN)}, false, "NEW_ARRAY 4097");
  expect_operand(0, {op(Op::NEW_ARRAY, vm::kMaxOperand), op(Op::RETURN)}, false, "NEW_ARRAY 2^24-1");
}

// ELEM: any scalar type; NUM: int or float; ORD: int, float or str. Operands above 0xff whose
// low byte is a valid type are refused too.
TEST(Verifier, RejectsElementTypeOperandsOutOfRange) {
  const std::vector<u32> all = {0x00, 0x01, 0x02, 0x03,  0x04,  0x05,  0x06,
                                0x07, 0x11, 0x14, 0x101, 0x104, 0x201, vm::kMaxOperand};
  struct Kind {
    Op op;
    std::vector<u32> valid;
    u32 pops;
  };
  const Kind kinds[] = {{Op::ARRAY_EQ, {1, 2, 3, 4}, 2}, {Op::CONTAINS, {1, 2, 3, 4}, 2},
                        {Op::INDEX_OF, {1, 2, 3, 4}, 2}, {Op::MIN_ARRAY, {1, 2}, 1},
                        {Op::MAX_ARRAY, {1, 2}, 1},      {Op::SORT, {1, 2, 4}, 1}};
  for (const Kind& k : kinds) {
    for (u32 operand : all) {
      std::vector<u32> code(k.pops, op(Op::LOAD_VAR, 0));
      code.push_back(op(k.op, operand));
      code.push_back(op(Op::RETURN));
      bool valid = std::find(k.valid.begin(), k.valid.end(), operand) != k.valid.end();
      expect_operand(k.pops, code, valid,
                     std::string(vm::op_info(k.op).name) + " " + std::to_string(operand));
    }
  }
}

TEST(Verifier, RejectsNonZeroOperandsWhereThereIsNone) {
  u32 tested = 0;
  for (u32 code = 0; code < vm::kOpCount; ++code) {
    if (vm::op_info(Op(code)).operand != vm::OperandKind::NONE) continue;
    for (u32 operand : {1u, 0x80u, 0x800000u}) {
      std::vector<u8> bytes = with_code({op(Op(code), operand), tasm::imm(0), op(Op::RETURN)});
      EXPECT_TRUE(rejected_at(bytes, VerifyError::BAD_OPERAND, 0, 0))
          << vm::op_info(Op(code)).name << " " << operand;
    }
    ++tested;
  }
  EXPECT_GT(tested, 50u);
}

TEST(Verifier, AcceptsEveryImmediate) {
  for (i32 v : {0, 1, -1, vm::kMinImm, vm::kMaxImm})
    EXPECT_TRUE(accepted(with_code({tasm::imm(v), op(Op::RETURN)}))) << v;
}

// ---- the stack analysis --------------------------------------------------------------------

TEST(Verifier, RejectsStackUnderflow) {
  EXPECT_TRUE(
      rejected_at(with_code({op(Op::BINARY_ADD), op(Op::RETURN)}), VerifyError::STACK_UNDERFLOW, 0, 0));
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::BINARY_ADD), op(Op::RETURN)}),
                          VerifyError::STACK_UNDERFLOW, 0, 1));
  EXPECT_TRUE(rejected_at(with_code({op(Op::POP), tasm::imm(0), op(Op::RETURN)}),
                          VerifyError::STACK_UNDERFLOW, 0, 0));
  EXPECT_TRUE(rejected_at(with_code({op(Op::CALL, 1), op(Op::RETURN)}), VerifyError::STACK_UNDERFLOW, 0, 0))
      << "a call without its argument";
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::NEW_ARRAY, 2), op(Op::RETURN)}),
                          VerifyError::STACK_UNDERFLOW, 0, 1));
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), tasm::imm(2), op(Op::SLICE_STR), op(Op::RETURN)}),
                          VerifyError::STACK_UNDERFLOW, 0, 2));
  EXPECT_TRUE(rejected_at(with_code({op(Op::RETURN)}), VerifyError::STACK_UNDERFLOW, 0, 0))
      << "RETURN without its result";
  // Underflow only on the path through the jump.
  EXPECT_TRUE(rejected_at(with_code({op(Op::LOAD_VAR, 0), op(Op::JUMP_IF_FALSE, 4), tasm::imm(1),
                                     op(Op::RETURN), op(Op::RETURN)}),
                          VerifyError::STACK_UNDERFLOW, 0, 4));
}

TEST(Verifier, RejectsAStackDeeperThanDeclared) {
  std::vector<u32> code = {tasm::imm(1), tasm::imm(2), tasm::imm(3),
                           op(Op::POP),  op(Op::POP),  op(Op::RETURN)};
  EXPECT_TRUE(rejected_at(with_code(code, 2), VerifyError::STACK_OVERFLOW, 0, 2));
  EXPECT_TRUE(accepted(with_code(code, 3)));
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::RETURN)}, 0), VerifyError::STACK_OVERFLOW, 0, 0));
}

TEST(Verifier, RejectsDifferentDepthsAtAJoin) {
  // Falling through pushes one more value than jumping does.
  EXPECT_TRUE(rejected_at(
      with_code({op(Op::LOAD_VAR, 0), op(Op::JUMP_IF_FALSE, 3), tasm::imm(1), tasm::imm(2), op(Op::RETURN)}),
      VerifyError::STACK_MISMATCH, 0, 2));
  // A loop that grows the stack on every iteration.
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::JUMP, 0)}), VerifyError::STACK_MISMATCH, 0, 1));
  // A loop that keeps the depth is fine (and runs out of fuel).
  std::vector<u8> loop = with_code({tasm::imm(1), op(Op::POP), op(Op::JUMP, 0)});
  ASSERT_TRUE(accepted(loop));
  vm::Limits limits;
  limits.fuel = 1000;
  vm::Runner runner(limits);
  vm::Value x = vm::Value::of_int(0);
  EXPECT_EQ(runner.run(*vm::Program::load(loop), 0, {&x, 1}).trap, vm::Trap::OUT_OF_FUEL);
}

TEST(Verifier, RejectsReturnWithTheWrongDepth) {
  EXPECT_TRUE(
      rejected_at(with_code({tasm::imm(1), tasm::imm(2), op(Op::RETURN)}), VerifyError::BAD_RETURN, 0, 2));
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::RETURN)}, 4, 0), VerifyError::BAD_RETURN, 0, 1))
      << "a value left under a function without results";
  EXPECT_TRUE(accepted(with_code({tasm::imm(1), tasm::imm(2), op(Op::RETURN)}, 4, 2)));
}

TEST(Verifier, RejectsFallingOffTheEnd) {
  EXPECT_TRUE(rejected_at(with_code({tasm::imm(1), op(Op::POP)}), VerifyError::FALLS_OFF_END, 0, 1));
  EXPECT_TRUE(rejected_at(with_code({op(Op::LOAD_VAR, 0), op(Op::JUMP_IF_FALSE, 0)}),
                          VerifyError::FALLS_OFF_END, 0, 1));
  EXPECT_TRUE(
      rejected_at(with_code({op(Op::LOAD_VAR, 0), op(Op::CALL, 1)}), VerifyError::FALLS_OFF_END, 0, 1));
  // The first function's last word falls into the second function's code: still an error.
  tasm::Container c = valid_container();
  c.functions[0].code.back() = op(Op::POP);
  c.functions[0].code.push_back(op(Op::LOAD_VAR, 0));
  EXPECT_TRUE(rejected_at(tasm::assemble(c), VerifyError::FALLS_OFF_END, 0, 10));
}

TEST(Verifier, IgnoresTheStackOfUnreachableCode) {
  EXPECT_TRUE(accepted(with_code({tasm::imm(0), op(Op::RETURN), op(Op::BINARY_ADD), op(Op::POP)})));
}

TEST(Verifier, ReportsTooLittleScratch) {
  std::vector<u8> bytes = valid_bytes();
  std::vector<u64> storage(bytes.size() / 8 + 1);
  std::memcpy(storage.data(), bytes.data(), bytes.size());
  u32 scratch[4];
  vm::ProgramView view;
  vm::VerifyResult r =
      vm::verify_program(reinterpret_cast<const u8*>(storage.data()), bytes.size(), scratch, 4, &view);
  EXPECT_EQ(r.error, VerifyError::SCRATCH_TOO_SMALL);
}

TEST(Verifier, DescribesWhereItFailed) {
  vm::VerifyResult r;
  EXPECT_FALSE(vm::Program::load(with_code({tasm::imm(0), op(Op::LOAD_CONST, 9), op(Op::RETURN)}), &r));
  EXPECT_EQ(vm::describe(r), "operand out of range (function 0, instruction 1)");
}

TEST(Verifier, ReadFileNamesTheFile) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("gpusynth-verifier-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string message;
  EXPECT_FALSE(vm::Program::read_file((dir / "missing.gsbc").string(), &message));
  EXPECT_NE(message.find("missing.gsbc: cannot read file"), std::string::npos) << message;
  std::vector<u8> bytes = valid_bytes();
  bytes[bytes.size() / 2] ^= 1;
  std::ofstream((dir / "bad.gsbc").string(), std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  message.clear();
  EXPECT_FALSE(vm::Program::read_file((dir / "bad.gsbc").string(), &message));
  EXPECT_NE(message.find("bad.gsbc: invalid bytecode: checksum mismatch"), std::string::npos) << message;
  fs::remove_all(dir);
}

// ---- round trip: compile -> bytes -> load -> the same bytes -> the same results -------------

TEST(Verifier, CompiledProgramsRoundTrip) {
  fuzz::Rng rng(fuzz::seed());
  u32 compiled = 0;
  for (const fuzz::SynFile& f : fuzz::syn_corpus()) {
    compiler::Output out = compiler::compile(f.text);
    if (!out.ok()) continue;
    ++compiled;
    vm::VerifyResult r;
    std::optional<vm::Program> first = vm::Program::load(out.bytecode, &r);
    ASSERT_TRUE(first.has_value()) << f.path << ": " << vm::describe(r);
    std::vector<u8> bytes(first->bytes().begin(), first->bytes().end());
    ASSERT_EQ(bytes, out.bytecode) << f.path;
    std::optional<vm::Program> second = vm::Program::load(bytes);
    ASSERT_TRUE(second.has_value()) << f.path;
    vm::Program copy = *second;  // the copy re-points its view at its own storage
    ASSERT_TRUE(std::equal(bytes.begin(), bytes.end(), copy.bytes().begin(), copy.bytes().end())) << f.path;
    u32 fn = fuzz::entry_of(*first);
    vm::Runner a(fuzz::small_limits()), b(fuzz::small_limits());
    for (int run = 0; run < 3; ++run) {
      std::vector<vm::Value> args = fuzz::random_args(rng, *first, fn);
      vm::Outcome x = a.run(*first, fn, args), y = b.run(copy, fn, args);
      ASSERT_EQ(x.trap, y.trap) << f.path;
      ASSERT_EQ(x.fuel_used, y.fuel_used) << f.path;
      ASSERT_EQ(x.results.size(), y.results.size()) << f.path;
      for (size_t k = 0; k < x.results.size(); ++k)
        EXPECT_TRUE(vm::identical(x.results[k], y.results[k])) << f.path << " result " << k;
    }
  }
  EXPECT_GT(compiled, 50u);
}

}  // namespace
}  // namespace gs
