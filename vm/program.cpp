#include "vm/program.h"

#include <fstream>
#include <iterator>

#include "base/input_file.h"

namespace gs::vm {

std::optional<Program> Program::load(std::span<const u8> bytes, VerifyResult* error) {
  if (bytes.size() > kMaxProgramBytes) {
    if (error) *error = {VerifyError::BAD_SIZE};
    return std::nullopt;
  }
  Program p;
  p.size_ = u32(bytes.size());
  p.storage_.assign((bytes.size() + 7) / 8, 0);
  if (!bytes.empty()) std::memcpy(p.storage_.data(), bytes.data(), bytes.size());
  u32 largest = 0;
  if (bytes.size() >= sizeof(Header)) {
    // Scratch for the largest function the header allows; the verifier checks the rest.
    largest = std::min<u32>(reinterpret_cast<const Header*>(p.storage_.data())->code_words, kMaxCodeWords);
  }
  std::vector<u32> scratch(verifier_scratch_words(largest) + 2);
  VerifyResult r = verify_program(reinterpret_cast<const u8*>(p.storage_.data()), bytes.size(),
                                  scratch.data(), u32(scratch.size()), &p.view_);
  if (error) *error = r;
  if (!r.ok()) return std::nullopt;
  return p;
}

Program& Program::operator=(const Program& other) {
  if (this == &other) return *this;
  storage_ = other.storage_;
  size_ = other.size_;
  view_program(reinterpret_cast<const u8*>(storage_.data()), size_, &view_);
  return *this;
}

std::optional<Program> Program::read_file(const std::string& path, std::string* message) {
  const auto text = read_input_file(path, kMaxProgramBytes, message);
  if (!text) return std::nullopt;
  const std::vector<u8> bytes(text->begin(), text->end());
  VerifyResult r;
  auto p = load(bytes, &r);
  if (!p) *message = path + ": invalid bytecode: " + describe(r);
  return p;
}

std::string_view Program::function_name(u32 i) const {
  const FunctionRecord& f = view_.functions[i];
  return {view_.names + f.name_offset, f.name_length};
}

i32 Program::find(std::string_view name) const { return find_function(view_, name.data(), u32(name.size())); }

std::string Program::signature(u32 i) const {
  const FunctionRecord& f = view_.functions[i];
  std::string s = "fn " + std::string(function_name(i)) + "(";
  for (u32 k = 0; k < f.param_count; ++k) {
    if (k) s += ", ";
    s += "p" + std::to_string(k) + ": " + type_name(f.param_type(k));
  }
  s += ")";
  if (f.result_count == 1) s += std::string(" -> ") + type_name(f.result_type(0));
  if (f.result_count > 1) {
    s += " -> (";
    for (u32 k = 0; k < f.result_count; ++k) s += std::string(k ? ", " : "") + type_name(f.result_type(k));
    s += ")";
  }
  return s;
}

std::string describe(const VerifyResult& r) {
  std::string s = verify_error_text(r.error);
  switch (r.error) {
    case VerifyError::BAD_OPCODE:
    case VerifyError::BAD_OPERAND:
    case VerifyError::STACK_UNDERFLOW:
    case VerifyError::STACK_OVERFLOW:
    case VerifyError::STACK_MISMATCH:
    case VerifyError::BAD_RETURN:
    case VerifyError::FALLS_OFF_END:
      s += " (function " + std::to_string(r.function) + ", instruction " + std::to_string(r.pc) + ")";
      break;
    case VerifyError::BAD_FUNCTION:
    case VerifyError::SCRATCH_TOO_SMALL: s += " (function " + std::to_string(r.function) + ")"; break;
    default: break;
  }
  return s;
}

}  // namespace gs::vm
