// A Syn program compiled and loaded inside a test: the verified program, or a test failure that
// shows the source with the compiler's diagnostics (the value bank's tests write programs out and
// run them).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "compiler/compiler.h"
#include "vm/program.h"

namespace gs::testing {

inline std::optional<vm::Program> compiled(const std::string& source, const char* what = "program") {
  compiler::Output out = compiler::compile(source);
  EXPECT_TRUE(out.ok()) << compiler::render(out.diagnostics, what, source);
  if (!out.ok()) return std::nullopt;
  std::optional<vm::Program> program = vm::Program::load(out.bytecode);
  EXPECT_TRUE(program) << "the bytecode of this program does not load:\n" << source;
  return program;
}

}  // namespace gs::testing
