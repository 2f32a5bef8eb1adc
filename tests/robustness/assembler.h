// Test utility: assembles bytecode containers by hand, so tests can build exactly the program
// (or exactly the malformed program) they need without the compiler. Header-only; any test
// target that links gpusynth::vm can include it.
//
//   tasm::Container c;
//   c.functions.push_back({.name = "solve", .params = {Type::Int}, .results = {Type::Int},
//                          .max_stack = 2,
//                          .code = {tasm::op(vm::Op::LOAD_VAR, 0), tasm::imm(1),
//                                   tasm::op(vm::Op::BINARY_ADD), tasm::op(vm::Op::RETURN)}});
//   std::vector<u8> bytes = tasm::assemble(c);      // valid layout, total_bytes and checksum
//   tasm::edit_header(bytes, [](vm::Header& h) { h.flags = 1; });   // then break one thing
//
// assemble() writes whatever it is given (a local_count below param_count, an unknown type
// code, a jump past the end): only the container's layout, total_bytes and checksum are
// computed, from vm::layout_of and vm::container_checksum, so every other defect reaches the verifier.
// The edit_* helpers re-seal the checksum afterwards, so the verifier sees the intended
// defect rather than a checksum mismatch; use reseal() after editing bytes directly.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "vm/bytecode.h"
#include "vm/opcodes.h"

namespace gs::tasm {

// One function; local_count and max_stack are written as given (the verifier checks them).
struct Function {
  std::string name = "f";
  std::vector<Type> params;
  std::vector<Type> results;
  int local_count = -1;  // -1: the parameter count
  u16 max_stack = 8;
  std::vector<u32> code;
};

struct Container {
  std::vector<Function> functions;
  std::vector<u64> constants;        // int or float bits
  std::vector<std::string> strings;  // literals, each becomes one heap object in the image
};

// One instruction word; the operand is truncated to its 24 bits.
inline u32 op(vm::Op o, u32 operand = 0) { return vm::encode(o, operand & vm::kMaxOperand); }
// LOAD_INT with a signed 24-bit immediate.
inline u32 imm(i32 value) { return op(vm::Op::LOAD_INT, u32(value)); }
// A word with an arbitrary opcode byte (also ones past the table).
inline u32 raw(u32 opcode_byte, u32 operand = 0) { return (opcode_byte & 0xffu) | (operand << 8); }

inline u64 round_up(u64 n, u64 to) { return (n + to - 1) / to * to; }

inline void reseal(std::vector<u8>& bytes) {
  if (bytes.size() < 4) return;
  u32 sum = vm::container_checksum(bytes.data(), bytes.size() - 4);
  std::memcpy(bytes.data() + bytes.size() - 4, &sum, 4);
}

// The string image: each literal as a heap object (length, capacity == length, bytes padded to
// 8), at the offsets the verifier expects.
inline std::vector<u8> string_image(const std::vector<std::string>& strings, std::vector<u32>* offsets) {
  std::vector<u8> image;
  for (const std::string& s : strings) {
    offsets->push_back(u32(image.size()));
    u32 header[2] = {u32(s.size()), u32(s.size())};
    size_t at = image.size();
    image.resize(at + 8 + round_up(s.size(), 8), 0);
    std::memcpy(image.data() + at, header, 8);
    if (!s.empty()) std::memcpy(image.data() + at + 8, s.data(), s.size());
  }
  return image;
}

inline vm::FunctionRecord record_of(const Function& f, u32 code_start, u32 name_offset) {
  vm::FunctionRecord r{};
  r.code_start = code_start;
  r.code_words = u32(f.code.size());
  r.name_offset = name_offset;
  r.name_length = u16(f.name.size());
  r.param_count = u8(f.params.size());
  r.result_count = u8(f.results.size());
  r.local_count = u16(f.local_count < 0 ? int(f.params.size()) : f.local_count);
  r.max_stack = f.max_stack;
  u32 k = 0;
  for (Type t : f.params)
    if (k < sizeof r.types) r.types[k++] = u8(t);
  for (Type t : f.results)
    if (k < sizeof r.types) r.types[k++] = u8(t);
  return r;
}

inline std::vector<u8> assemble(const Container& c) {
  std::vector<u32> offsets;
  std::vector<u8> image = string_image(c.strings, &offsets);
  std::string names;
  u32 code_words = 0;
  for (const Function& f : c.functions) names += f.name, code_words += u32(f.code.size());

  vm::Header h{};
  u32 magic = vm::kMagic;
  std::memcpy(h.magic, &magic, 4);
  h.version = vm::kBytecodeVersion;
  h.function_count = u32(c.functions.size());
  h.constant_count = u32(c.constants.size());
  h.string_count = u32(c.strings.size());
  h.string_image_bytes = u32(image.size());
  h.name_bytes = u32(names.size());
  h.code_words = code_words;
  vm::Layout l = vm::layout_of(h);
  h.total_bytes = u32(l.total);

  std::vector<u8> out(l.total, 0);
  std::memcpy(out.data(), &h, sizeof h);
  u32 start = 0, name_offset = 0;
  for (size_t i = 0; i < c.functions.size(); ++i) {
    const Function& f = c.functions[i];
    vm::FunctionRecord r = record_of(f, start, name_offset);
    std::memcpy(out.data() + l.functions + i * sizeof r, &r, sizeof r);
    if (!f.code.empty()) std::memcpy(out.data() + l.code + u64(start) * 4, f.code.data(), f.code.size() * 4);
    start += u32(f.code.size());
    name_offset += u32(f.name.size());
  }
  if (!c.constants.empty()) std::memcpy(out.data() + l.constants, c.constants.data(), c.constants.size() * 8);
  if (!offsets.empty()) std::memcpy(out.data() + l.string_offsets, offsets.data(), offsets.size() * 4);
  if (!image.empty()) std::memcpy(out.data() + l.string_image, image.data(), image.size());
  if (!names.empty()) std::memcpy(out.data() + l.names, names.data(), names.size());
  reseal(out);
  return out;
}

// ---- reading and editing an assembled container ------------------------------------------
// Through copies (memcpy), so a std::vector<u8>'s alignment does not matter.

inline vm::Header header(const std::vector<u8>& bytes) {
  vm::Header h{};
  std::memcpy(&h, bytes.data(), std::min(bytes.size(), sizeof h));
  return h;
}

inline vm::Layout layout(const std::vector<u8>& bytes) { return vm::layout_of(header(bytes)); }

template <class Edit>
void edit_header(std::vector<u8>& bytes, Edit edit) {
  vm::Header h = header(bytes);
  edit(h);
  std::memcpy(bytes.data(), &h, sizeof h);
  reseal(bytes);
}

inline vm::FunctionRecord function_record(const std::vector<u8>& bytes, u32 i) {
  vm::FunctionRecord r{};
  std::memcpy(&r, bytes.data() + layout(bytes).functions + u64(i) * sizeof r, sizeof r);
  return r;
}

template <class Edit>
void edit_function(std::vector<u8>& bytes, u32 i, Edit edit) {
  vm::FunctionRecord r = function_record(bytes, i);
  edit(r);
  std::memcpy(bytes.data() + layout(bytes).functions + u64(i) * sizeof r, &r, sizeof r);
  reseal(bytes);
}

// Byte offset of code word `word` (an index into the whole code section).
inline u64 code_offset(const std::vector<u8>& bytes, u32 word) { return layout(bytes).code + u64(word) * 4; }

inline u32 code_word(const std::vector<u8>& bytes, u32 word) {
  u32 w;
  std::memcpy(&w, bytes.data() + code_offset(bytes, word), 4);
  return w;
}

inline void set_code_word(std::vector<u8>& bytes, u32 word, u32 value) {
  std::memcpy(bytes.data() + code_offset(bytes, word), &value, 4);
  reseal(bytes);
}

}  // namespace gs::tasm
