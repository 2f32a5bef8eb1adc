// The compiler's host interface: source text in, bytecode container or diagnostics out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/compile_core.h"
#include "compiler/diagnostic.h"
#include "compiler/limits.h"

namespace gs::compiler {

struct Output {
  std::vector<u8> bytecode;  // the container; empty when there are errors
  std::vector<Diagnostic> diagnostics;
  u32 syntax_nodes = 0;  // the program's size: its syntax tree's nodes (0 when there are errors)
  bool ok() const { return diagnostics.empty(); }
};

// Compiles one program after another on the calling thread, reusing its workspace.
class Compiler {
 public:
  explicit Compiler(const CompileLimits& limits = {}) : limits_(limits) {}
  Output compile(std::string_view source);
  // Without copies: on OK the container is bytes()[0 .. *size); on ERRORS see diagnostics().
  CompileStatus compile_in_place(std::string_view source, u32* size);
  const u8* bytes() const { return reinterpret_cast<const u8*>(output_.data()); }
  const Diagnostic* diagnostics() const { return workspace_.diagnostics.items; }
  u32 diagnostic_count() const { return workspace_.diagnostics.count; }
  const CompileLimits& limits() const { return limits_; }

 private:
  CompileLimits limits_;
  std::vector<u64> buffer_;  // the workspace's memory
  std::vector<u64> output_;
  Workspace workspace_;
};

inline Output compile(std::string_view source, const CompileLimits& limits = {}) {
  return Compiler(limits).compile(source);
}

// "unknown name 'totl'"
std::string message(const Diagnostic& d, std::string_view source);
// "prog.syn:3:14: error: unknown name 'totl'" + the source line + a caret line.
std::string render(const Diagnostic& d, std::string_view path, std::string_view source);
std::string render(const std::vector<Diagnostic>& ds, std::string_view path, std::string_view source);
// 1-based line and column (in bytes) of a source offset.
void line_and_column(std::string_view source, u32 pos, u32* line, u32* column);

}  // namespace gs::compiler
