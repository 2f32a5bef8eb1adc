// libFuzzer target: any bytes are a Syn source, and then a typed-Python one (the two front ends
// share everything after the parser). The property is the compiler's contract: either
// bytecode the verifier accepts, which runs to a result or a trap (never bad_reference or
// bad_instruction, which only hand-made bytecode may cause), or diagnostics — none internal —
// whose spans lie inside the source and which render. The compiler passes are header-only
// cores, called here directly so that they are coverage-instrumented (see README.md).
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "tests/fuzz/fuzz_machine.h"

namespace gs::fuzzing {
namespace {

// Compiles source with the cores (as compiler::Compiler does) into *bytecode, or returns false
// with the diagnostics in w.
bool compile(std::string_view source, compiler::Language language, compiler::Workspace& w,
             std::vector<u64>& buffer, std::vector<u64>& output, u32* size) {
  compiler::CompileLimits limits;
  limits.language = language;
  u32 len = u32(source.size());
  buffer.resize((compiler::workspace_bytes(len, limits) + 7) / 8);
  compiler::carve_workspace(reinterpret_cast<u8*>(buffer.data()), source.data(), len, limits, &w);
  if (output.empty()) output.resize(64);
  compiler::CompileStatus s =
      compiler::compile_core(w, reinterpret_cast<u8*>(output.data()), u32(output.size() * 8), size);
  if (s == compiler::CompileStatus::OUTPUT_TOO_SMALL) {
    output.resize((*size + 7) / 8);
    compiler::write_container(w, compiler::container_header(w), reinterpret_cast<u8*>(output.data()));
    s = compiler::CompileStatus::OK;
  }
  return s == compiler::CompileStatus::OK;
}

void check_diagnostics(std::string_view source, const compiler::Workspace& w) {
  const compiler::Diagnostics& d = w.diagnostics;
  if (d.count == 0) fail("compile failed without a diagnostic");
  std::vector<compiler::Diagnostic> list(d.items, d.items + d.count);
  for (const compiler::Diagnostic& x : list) {
    if (x.pos > source.size() || x.len > source.size() - x.pos) fail("diagnostic span outside the source");
  }
  if (compiler::render(list, "fuzz.syn", source).empty()) fail("render() gave nothing");
}

void check_bytecode(const std::vector<u64>& output, u32 size, const u8* data, size_t data_size) {
  std::vector<u32> scratch(vm::verifier_scratch_words(vm::kMaxCodeWords) + 2);
  vm::ProgramView view;
  vm::VerifyResult r = vm::verify_program(reinterpret_cast<const u8*>(output.data()), size, scratch.data(),
                                          u32(scratch.size()), &view);
  if (!r.ok()) fail("the verifier rejects the compiler's output");
  i32 solve = vm::find_function(view, "solve", 5);
  static FuzzMachine machine;
  vm::Trap t = machine.run(view, solve >= 0 ? u32(solve) : 0, data, data_size);
  if (t == vm::Trap::BAD_REFERENCE || t == vm::Trap::BAD_INSTRUCTION) fail("compiled code trapped bad_*");
}

}  // namespace
}  // namespace gs::fuzzing

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gs;
  std::string_view source(reinterpret_cast<const char*>(data), size);
  if (size > compiler::CompileLimits{}.max_source_bytes) {
    // Refused before anything is sized from it (compiler::Compiler); nothing deeper to cover.
    if (compiler::compile(source).ok()) fuzzing::fail("an oversized source compiled");
    return 0;
  }
  static std::vector<u64> buffer, output;  // reused, as a batch worker reuses its workspace
  for (compiler::Language language : {compiler::Language::Syn, compiler::Language::Python}) {
    compiler::Workspace w;
    u32 bytecode_size = 0;
    if (fuzzing::compile(source, language, w, buffer, output, &bytecode_size)) {
      fuzzing::check_bytecode(output, bytecode_size, data, size);
    } else {
      fuzzing::check_diagnostics(source, w);
    }
  }
  return 0;
}
