// Runs every Syn program under tests/programs/ against the expectations written in its comments
// (the format is in tests/programs/README.md). One test case per file; the expected values come
// from docs/language.md, so a failure here is a disagreement between the toolchain and the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiler.h"
#include "suites/json_values.h"
#include "vm/runner.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

// ---- the expectations a file declares -------------------------------------------------------

struct Run {
  u32 line = 0;          // of the `// args:` line
  std::string args;      // JSON array
  u32 expect_line = 0;   // of its expectation
  bool traps = false;    // `// expect trap:` rather than `// expect:`
  std::string expected;  // JSON value, or a trap name
};

struct ExpectedError {
  u32 line = 0;
  std::string text;  // a substring of the diagnostic's message
};

struct Spec {
  std::string entry = "solve";
  vm::Limits limits;
  compiler::CompileLimits compile_limits;
  std::vector<Run> runs;
  std::vector<ExpectedError> errors;
  std::vector<std::string> problems;  // mistakes in the file's own directives
};

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The rest of the line after marker, when the line holds it.
std::optional<std::string> after(std::string_view line, std::string_view marker) {
  size_t at = line.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  return trim(line.substr(at + marker.size()));
}

bool parse_number(std::string_view text, u64* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// "fuel=100 heap=4096": calls set(key, value) for each pair; false on a malformed pair.
template <typename Set>
bool parse_pairs(const std::string& text, Set set) {
  std::istringstream in(text);
  std::string pair;
  while (in >> pair) {
    size_t eq = pair.find('=');
    u64 value = 0;
    if (eq == std::string::npos || !parse_number(std::string_view(pair).substr(eq + 1), &value)) return false;
    if (!set(pair.substr(0, eq), value)) return false;
  }
  return true;
}

bool set_limit(vm::Limits* l, const std::string& key, u64 v) {
  if (key == "fuel")
    l->fuel = v;
  else if (key == "heap")
    l->heap_bytes = u32(v);
  else if (key == "stack")
    l->stack_slots = u32(v);
  else if (key == "call_depth")
    l->call_depth = u32(v);
  else
    return false;
  return true;
}

bool set_compile_limit(compiler::CompileLimits* l, const std::string& key, u64 v) {
  if (key == "max_depth")
    l->max_depth = u32(v);
  else if (key == "max_nodes")
    l->max_nodes = u32(v);
  else if (key == "max_source")
    l->max_source_bytes = u32(v);
  else
    return false;
  return true;
}

bool is_trap_name(const std::string& name) {
  for (u32 t = 1; t < vm::kTrapCount; ++t)
    if (name == vm::trap_name(vm::Trap(t))) return true;
  return false;
}

// Where the directives of a file go while it is read line by line.
struct Reader {
  Spec* spec;
  std::optional<Run> pending;  // an `// args:` still waiting for its expectation
  u32 line = 0;

  void problem(const std::string& what) {
    spec->problems.push_back("line " + std::to_string(line) + ": " + what);
  }

  // Several errors on one line: one marker each, in the order they are reported.
  void errors(std::string_view text) {
    constexpr std::string_view kError = "// expect error:";
    for (size_t at = text.find(kError); at != std::string_view::npos;) {
      size_t from = at + kError.size();
      size_t next = text.find(kError, from);
      size_t stop = next == std::string_view::npos ? text.size() : next;
      spec->errors.push_back({line, trim(text.substr(from, stop - from))});
      at = next;
    }
  }

  void args(const std::string& json) {
    if (pending) problem("`// args:` of line " + std::to_string(pending->line) + " has no expectation");
    pending = Run{};
    pending->line = line, pending->args = json;
  }

  void expectation(bool traps, const std::string& text) {
    if (!pending) return problem("an expectation without a preceding `// args:` line");
    Run r = *pending;
    r.expect_line = line, r.traps = traps, r.expected = text;
    if (traps && !is_trap_name(text)) problem("unknown trap name '" + text + "'");
    spec->runs.push_back(r);
    pending.reset();
  }

  void limits(const std::string& pairs, bool compile) {
    auto set = [&](const std::string& k, u64 x) {
      return compile ? set_compile_limit(&spec->compile_limits, k, x) : set_limit(&spec->limits, k, x);
    };
    if (!parse_pairs(pairs, set))
      problem(compile ? "bad `// compile-limits:` (keys: max_depth max_nodes max_source)"
                      : "bad `// limits:` (keys: fuel heap stack call_depth)");
  }

  void read(std::string_view text) {
    ++line;
    if (text.find("// expect error:") != std::string_view::npos)
      errors(text);
    else if (auto v = after(text, "// expect trap:"))
      expectation(true, *v);
    else if (auto v = after(text, "// expect:"))
      expectation(false, *v);
    else if (auto v = after(text, "// args:"))
      args(*v);
    else if (auto v = after(text, "// entry:"))
      spec->entry = *v;
    else if (auto v = after(text, "// compile-limits:"))
      limits(*v, true);
    else if (auto v = after(text, "// limits:"))
      limits(*v, false);
    else if (text.find("// expect") != std::string_view::npos)
      problem("unknown expectation (use `// expect:`, `// expect trap:` or `// expect error:`)");
  }
};

Spec read_spec(std::string_view source) {
  Spec spec;
  Reader reader{&spec, std::nullopt};
  for (size_t start = 0; start <= source.size();) {
    size_t end = std::min(source.find('\n', start), source.size());
    reader.read(source.substr(start, end - start));
    start = end + 1;
  }
  if (reader.pending)
    spec.problems.push_back("line " + std::to_string(reader.pending->line) +
                            ": `// args:` has no expectation");
  if (!spec.errors.empty() && !spec.runs.empty())
    spec.problems.push_back("a file expects compile errors and runs at once; split it");
  if (spec.errors.empty() && spec.runs.empty())
    spec.problems.push_back("the file expects nothing: add `// args:` + `// expect:` or `// expect error:`");
  return spec;
}

// ---- checking a program against its spec ----------------------------------------------------

// Failures are collected as text ("path:line: ..."), so the self-checks below can assert on them.
class Checker {
 public:
  Checker(std::string path, std::string_view source) : path_(std::move(path)), source_(source) {}

  std::vector<std::string> check() {
    Spec spec = read_spec(source_);
    for (const std::string& p : spec.problems) fail(0, "malformed test file: " + p);
    if (!spec.problems.empty()) return failures_;
    compiler::Output out = compiler::compile(source_, spec.compile_limits);
    if (!spec.errors.empty()) {
      check_errors(out, spec.errors);
    } else if (!out.ok()) {
      fail(0, "does not compile:\n" + compiler::render(out.diagnostics, path_, source_));
    } else {
      run_all(out.bytecode, spec);
    }
    return failures_;
  }

 private:
  void fail(u32 line, const std::string& what) {
    failures_.push_back(path_ + ":" + std::to_string(line) + ": " + what);
  }

  u32 line_of(const compiler::Diagnostic& d) const {
    u32 line = 0, column = 0;
    compiler::line_and_column(source_, d.pos, &line, &column);
    return line;
  }

  // The diagnostics must be exactly the expected ones, in order.
  void check_errors(const compiler::Output& out, const std::vector<ExpectedError>& want) {
    if (out.ok()) return fail(want[0].line, "expected compile errors, but the program compiled");
    const auto& got = out.diagnostics;
    for (size_t k = 0; k < std::max(want.size(), got.size()); ++k) {
      if (k >= got.size()) {
        fail(want[k].line, "expected error '" + want[k].text + "' was not reported");
        continue;
      }
      std::string rendered = compiler::render(got[k], path_, source_);
      if (k >= want.size()) {
        fail(line_of(got[k]), "unexpected extra diagnostic:\n" + rendered);
      } else if (line_of(got[k]) != want[k].line ||
                 compiler::message(got[k], source_).find(want[k].text) == std::string::npos) {
        fail(want[k].line, "expected error '" + want[k].text + "' on this line; got:\n" + rendered);
      }
    }
  }

  void run_all(const std::vector<u8>& bytecode, const Spec& spec) {
    vm::VerifyResult why;
    std::optional<vm::Program> program = vm::Program::load(bytecode, &why);
    if (!program) return fail(0, "the verifier rejects the compiler's output: " + vm::describe(why));
    i32 fn = program->find(spec.entry);
    if (fn < 0) return fail(0, "no function named '" + spec.entry + "'");
    vm::Runner runner(spec.limits);
    for (const Run& r : spec.runs) run_one(*program, u32(fn), runner, r);
  }

  void run_one(const vm::Program& program, u32 fn, vm::Runner& runner, const Run& r) {
    const vm::FunctionRecord& f = program.function(fn);
    std::vector<Type> params;
    for (u32 k = 0; k < f.param_count; ++k) params.push_back(f.param_type(k));
    std::vector<vm::Value> args;
    std::string error;
    if (!suites::parse_values(r.args, params, &args, &error))
      return fail(r.line, "bad `// args:` for " + program.signature(fn) + ": " + error);
    vm::Outcome o;
    try {
      o = runner.run(program, fn, args);
    } catch (const std::exception& e) {
      return fail(r.line, std::string("the runner refused the arguments: ") + e.what());
    }
    std::string actual =
        o.trap != vm::Trap::NONE ? std::string("trap ") + vm::trap_name(o.trap) : json_of(o.results);
    if (r.traps) {
      if (o.trap == vm::Trap::NONE || r.expected != vm::trap_name(o.trap))
        fail(r.expect_line, "args " + r.args + ": expected trap " + r.expected + ", actual " + actual);
      return;
    }
    if (!matches(f, r, o, &error))
      fail(r.expect_line, "args " + r.args + ": expected " + r.expected + ", actual " + actual + error);
  }

  // Parses the expectation with the result types and compares it with the outcome.
  static bool matches(const vm::FunctionRecord& f, const Run& r, const vm::Outcome& o, std::string* note) {
    note->clear();
    if (o.trap != vm::Trap::NONE) return false;
    if (f.result_count == 0) return r.expected == "null" && o.results.empty();
    std::vector<Type> types;
    for (u32 k = 0; k < f.result_count; ++k) types.push_back(f.result_type(k));
    std::string text = f.result_count == 1 ? "[" + r.expected + "]" : r.expected;
    std::vector<vm::Value> want;
    std::string error;
    if (!suites::parse_values(text, types, &want, &error)) {
      *note = " (the expectation does not parse: " + error + ")";
      return false;
    }
    if (want.size() != o.results.size()) return false;
    for (size_t k = 0; k < want.size(); ++k)
      if (!vm::identical(want[k], o.results[k])) return false;
    return true;
  }

  static std::string json_of(const std::vector<vm::Value>& results) {
    if (results.empty()) return "null";
    if (results.size() == 1) return vm::to_json(results[0]);
    std::string out = "[";
    for (size_t k = 0; k < results.size(); ++k) out += (k ? ", " : "") + vm::to_json(results[k]);
    return out + "]";
  }

  std::string path_;
  std::string_view source_;
  std::vector<std::string> failures_;
};

std::vector<std::string> verify_stage(const std::string& path, std::string_view source) {
  return Checker(path, source).check();
}

// ---- the programs on disk -------------------------------------------------------------------

const fs::path kSourceDir = fs::path(GPUSYNTH_SOURCE_DIR);
const std::string kSuite = "tests/programs/";
// The README's demo programs carry expectations too, so the demo cannot silently rot.
const std::string kExamples = "docs/examples/";

// Paths relative to the source directory of every .syn file under root.
std::vector<std::string> find_programs(const std::string& root = kSuite) {
  std::vector<std::string> found;
  if (!fs::is_directory(kSourceDir / root)) return found;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / root))
    if (entry.is_regular_file() && entry.path().extension() == ".syn")
      found.push_back(fs::relative(entry.path(), kSourceDir).generic_string());
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::string> all_programs() {
  std::vector<std::string> found = find_programs(kSuite), examples = find_programs(kExamples);
  found.insert(found.end(), examples.begin(), examples.end());
  return found;
}

// "tests/programs/arithmetic/int_add.syn" -> "arithmetic_int_add" (GoogleTest names are
// [A-Za-z0-9_]); "docs/examples/x.syn" -> "docs_examples_x".
std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.size() - 4);
  if (name.rfind(kSuite, 0) == 0) name = name.substr(kSuite.size());
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Programs : public testing::TestWithParam<std::string> {};

TEST_P(Programs, MeetsItsExpectations) {
  fs::path path = kSourceDir / GetParam();
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string& shown = GetParam();
  for (const std::string& failure : verify_stage(shown, source)) ADD_FAILURE() << failure;
}

INSTANTIATE_TEST_SUITE_P(Syn, Programs, testing::ValuesIn(all_programs()), test_name);

TEST(ProgramsFolder, HoldsTheSuite) {
  EXPECT_GE(find_programs(kSuite).size(), 150u) << "looked in " << kSourceDir / kSuite;
  EXPECT_GE(find_programs(kExamples).size(), 5u) << "looked in " << kSourceDir / kExamples;
}

// ---- the driver checks itself: each mistake below must be reported ---------------------------

bool reports(std::string_view source, std::string_view needle) {
  std::vector<std::string> failures = verify_stage("self.syn", source);
  for (const std::string& f : failures)
    if (f.find(needle) != std::string::npos) return true;
  ADD_FAILURE() << "no failure containing '" << needle << "'; got " << failures.size() << " failures";
  return false;
}

constexpr std::string_view kDouble = "fn solve(x: int) -> int { return x * 2; }\n";

TEST(ProgramsDriver, AcceptsACorrectProgram) {
  std::string src = std::string(kDouble) + "// args: [21]\n// expect: 42\n";
  EXPECT_TRUE(verify_stage("self.syn", src).empty());
}

TEST(ProgramsDriver, ReportsAWrongValueWithLineExpectedAndActual) {
  std::string src = std::string(kDouble) + "// args: [21]\n// expect: 43\n";
  EXPECT_TRUE(reports(src, "self.syn:3: args [21]: expected 43, actual 42"));
}

TEST(ProgramsDriver, ReportsAValueWhereATrapWasExpected) {
  std::string src = std::string(kDouble) + "// args: [1]\n// expect trap: division_by_zero\n";
  EXPECT_TRUE(reports(src, "expected trap division_by_zero, actual 2"));
}

TEST(ProgramsDriver, ReportsATrapWhereAValueWasExpected) {
  std::string src = "fn solve(x: int) -> int { return 1 / x; }\n// args: [0]\n// expect: 0\n";
  EXPECT_TRUE(reports(src, "actual trap division_by_zero"));
}

TEST(ProgramsDriver, ReportsTheWrongTrap) {
  std::string src = "fn solve(x: int) -> int { return 1 / x; }\n// args: [0]\n// expect trap: out_of_fuel\n";
  EXPECT_TRUE(reports(src, "expected trap out_of_fuel, actual trap division_by_zero"));
}

TEST(ProgramsDriver, ComparesFloatsByBits) {
  std::string src = "fn solve() -> float { return -0.0; }\n// args: []\n// expect: 0.0\n";
  EXPECT_TRUE(reports(src, "expected 0.0"));
}

TEST(ProgramsDriver, ComparesEveryResultOfATuple) {
  std::string src = "fn solve() -> (int, str) { return (1, \"a\"); }\n// args: []\n// expect: [1, \"b\"]\n";
  EXPECT_TRUE(reports(src, "expected [1, \"b\"]"));
}

TEST(ProgramsDriver, ReportsAProgramThatCompilesWhenErrorsWereExpected) {
  std::string src = "fn solve() -> int { return 1; }  // expect error: unknown name\n";
  EXPECT_TRUE(reports(src, "but the program compiled"));
}

TEST(ProgramsDriver, ReportsAnErrorOnAnotherLine) {
  std::string src = "fn solve() -> int {  // expect error: unknown name\n  return y;\n}\n";
  EXPECT_TRUE(reports(src, "self.syn:1: expected error 'unknown name' on this line"));
}

TEST(ProgramsDriver, ReportsAnErrorWithAnotherMessage) {
  std::string src = "fn solve() -> int {\n  return y;  // expect error: type mismatch\n}\n";
  EXPECT_TRUE(reports(src, "expected error 'type mismatch' on this line"));
}

TEST(ProgramsDriver, ReportsAnUnexpectedExtraError) {
  std::string src = "fn solve() -> int {\n  let a = y;  // expect error: unknown name 'y'\n  return z;\n}\n";
  EXPECT_TRUE(reports(src, "self.syn:3: unexpected extra diagnostic"));
}

TEST(ProgramsDriver, AcceptsSeveralErrorsOnOneLine) {
  std::string src = "fn solve() -> int {\n  return y + z;  // expect error: 'y' // expect error: 'z'\n}\n";
  EXPECT_TRUE(verify_stage("self.syn", src).empty());
}

TEST(ProgramsDriver, ReportsAMissingError) {
  std::string src =
      "fn solve() -> int {\n  return y;  // expect error: unknown name\n}\n// expect error: more\n";
  EXPECT_TRUE(reports(src, "expected error 'more' was not reported"));
}

TEST(ProgramsDriver, RejectsArgsWithoutAnExpectation) {
  std::string src = std::string(kDouble) + "// args: [1]\n";
  EXPECT_TRUE(reports(src, "malformed test file: line 2: `// args:` has no expectation"));
}

TEST(ProgramsDriver, RejectsAFileThatExpectsNothing) {
  EXPECT_TRUE(reports(kDouble, "the file expects nothing"));
}

TEST(ProgramsDriver, RejectsArgumentsOfTheWrongType) {
  std::string src = std::string(kDouble) + "// args: [\"x\"]\n// expect: 0\n";
  EXPECT_TRUE(reports(src, "bad `// args:`"));
}

TEST(ProgramsDriver, RejectsAnUnknownTrapName) {
  std::string src = std::string(kDouble) + "// args: [1]\n// expect trap: overflow\n";
  EXPECT_TRUE(reports(src, "unknown trap name 'overflow'"));
}

TEST(ProgramsDriver, AppliesRunLimits) {
  std::string src =
      "// limits: fuel=10\nfn solve() -> int { let i = 0; while i < 100 { i = i + 1; } return i; }\n"
      "// args: []\n// expect: 100\n";
  EXPECT_TRUE(reports(src, "actual trap out_of_fuel"));
}

TEST(ProgramsDriver, AppliesCompileLimits) {
  std::string src =
      "// compile-limits: max_source=20\nfn solve() -> int { return 1; }\n// args: []\n// expect: 1\n";
  EXPECT_TRUE(reports(src, "does not compile"));
}

}  // namespace
}  // namespace gs
