// A verified program owned by the host: the bytecode container in 8-byte-aligned storage,
// accepted by the verifier. The only way to get one is through the verifier.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vm/bytecode.h"
#include "vm/verifier.h"

namespace gs::vm {

class Program {
 public:
  // Copies and verifies bytes; on rejection returns nullopt and says why in *error.
  static std::optional<Program> load(std::span<const u8> bytes, VerifyResult* error = nullptr);
  // Reads a file and loads it; nullopt with a message naming the file on failure.
  static std::optional<Program> read_file(const std::string& path, std::string* message);

  Program(const Program& other) { *this = other; }
  Program& operator=(const Program& other);
  Program(Program&&) = default;
  Program& operator=(Program&&) = default;

  const ProgramView& view() const { return view_; }
  std::span<const u8> bytes() const { return {reinterpret_cast<const u8*>(storage_.data()), size_}; }
  u32 function_count() const { return view_.function_count(); }
  const FunctionRecord& function(u32 i) const { return view_.functions[i]; }
  std::string_view function_name(u32 i) const;
  // Index of the named function, or -1.
  i32 find(std::string_view name) const;
  // "fn solve(xs: [int], k: int) -> int"
  std::string signature(u32 i) const;

 private:
  Program() = default;
  std::vector<u64> storage_;
  u32 size_ = 0;
  ProgramView view_;
};

// "function 2 at 17: operand out of range" and the like.
std::string describe(const VerifyResult& r);

}  // namespace gs::vm
