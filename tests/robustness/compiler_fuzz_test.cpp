// Bad source never breaks the compiler: random bytes, mutated Syn programs and pathological
// inputs (deep nesting, huge literals, oversized sources, NUL bytes, strings cut off at the end)
// each give either bytecode that the verifier accepts and that runs to a result or a trap, or
// diagnostics whose spans lie inside the source and that render.
//
//   GPUSYNTH_FUZZ_SEED   seed of the random inputs (default in fuzz_support.h)
//   GPUSYNTH_FUZZ_CASES  random inputs per fuzz test (default kDefaultCases)
//
// A failure names its input (escaped, and saved under fuzz-reproducers/ in the test's working
// directory) and the seed and case number that make it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "tests/robustness/fuzz_support.h"
#include "tests/robustness/guarded_machine.h"
#include "vm/runner.h"

namespace gs {
namespace {

constexpr u64 kDefaultCases = 40000;
constexpr u32 kRunsPerProgram = 3;

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// ---- the property every input must have --------------------------------------------------

// Compiles inputs and checks each outcome; collects what went wrong with an input as text.
class CompileChecker {
 public:
  explicit CompileChecker(const compiler::CompileLimits& limits = {})
      : limits_(limits), reused_(limits), runner_(fuzz::small_limits()), guarded_(fuzz::small_limits()) {}

  // Empty when the input was handled as the standard demands; otherwise what went wrong.
  std::string check(std::string_view source, fuzz::Rng& rng) {
    compiler::Output out = reused_.compile(source);
    std::string problem = compare_with_fresh_compile(source, out);
    if (problem.empty()) problem = out.ok() ? check_bytecode(out, rng) : check_diagnostics(source, out);
    return problem;
  }

 private:
  // A reused workspace (as a batch worker reuses one) must give what a fresh one gives.
  std::string compare_with_fresh_compile(std::string_view source, const compiler::Output& out) {
    compiler::Output fresh = compiler::compile(source, limits_);
    if (fresh.bytecode != out.bytecode) return "a reused Compiler gives other bytecode than a fresh one";
    bool same = fresh.diagnostics.size() == out.diagnostics.size();
    for (size_t i = 0; same && i < out.diagnostics.size(); ++i) {
      const compiler::Diagnostic &a = out.diagnostics[i], &b = fresh.diagnostics[i];
      same = a.code == b.code && a.pos == b.pos && a.len == b.len && a.a == b.a && a.b == b.b;
    }
    return same ? "" : "a reused Compiler gives other diagnostics than a fresh one";
  }

  std::string check_diagnostics(std::string_view source, const compiler::Output& out) {
    if (!out.bytecode.empty()) return "bytecode and diagnostics both present";
    // max_errors diagnostics, then one "too many errors" (docs/language.md section 7).
    size_t n = out.diagnostics.size();
    if (n > limits_.max_errors + 1 ||
        (n == limits_.max_errors + 1 && out.diagnostics.back().code != compiler::Code::TOO_MANY_ERRORS))
      return std::to_string(n) + " diagnostics where max_errors is " + std::to_string(limits_.max_errors);
    u32 previous = 0;
    for (size_t i = 0; i < out.diagnostics.size(); ++i) {
      const compiler::Diagnostic& d = out.diagnostics[i];
      std::string where = "diagnostic " + std::to_string(i) + " (" + compiler::message(d, source) + ")";
      if (d.pos > source.size() || d.len > source.size() - d.pos)
        return where + ": span [" + std::to_string(d.pos) + ", +" + std::to_string(d.len) +
               ") outside the source of " + std::to_string(source.size()) + " bytes";
      bool last_too_many = d.code == compiler::Code::TOO_MANY_ERRORS && i + 1 == out.diagnostics.size();
      if (!last_too_many && d.pos < previous) return where + ": diagnostics not in source order";
      if (!last_too_many) previous = d.pos;
    }
    std::string text = compiler::render(out.diagnostics, "fuzz.syn", source);
    if (text.rfind("fuzz.syn:", 0) != 0 || text.find(": error: ") == std::string::npos)
      return "render() gave no 'fuzz.syn:L:C: error: ...' text: " + fuzz::escaped(text, 200);
    return "";
  }

  std::string check_bytecode(const compiler::Output& out, fuzz::Rng& rng) {
    if (out.bytecode.empty()) return "no diagnostics and no bytecode";
    vm::VerifyResult r;
    std::optional<vm::Program> p = vm::Program::load(out.bytecode, &r);
    if (!p) return "the verifier rejects the compiler's output: " + vm::describe(r);
    u32 fn = fuzz::entry_of(*p);
    for (u32 run = 0; run < kRunsPerProgram; ++run) {
      std::string problem = run_once(*p, fn, fuzz::random_args(rng, *p, fn));
      if (!problem.empty()) return problem;
    }
    return "";
  }

  // Compiled code may trap, but never with the traps only hand-made bytecode can cause.
  // The guarded run goes first: what writes outside its memory there is not run again on the
  // Runner's unguarded buffers.
  std::string run_once(const vm::Program& p, u32 fn, const std::vector<vm::Value>& args) {
    std::string what = std::string("running ") + p.signature(fn) + ": ";
    fuzz::GuardedOutcome g = guarded_.run(p, fn, args);
    if (!g.damage.empty()) return what + "wrote outside its memory: " + g.damage;
    vm::Outcome o;
    try {
      o = runner_.run(p, fn, args);
    } catch (const std::exception& e) {
      return std::string("Runner::run threw: ") + e.what();
    }
    if (o.trap == vm::Trap::BAD_REFERENCE || o.trap == vm::Trap::BAD_INSTRUCTION)
      return what + "compiled code trapped " + vm::trap_name(o.trap);
    if (o.trap == vm::Trap::NONE && o.results.size() != p.function(fn).result_count)
      return what + "wrong number of results";
    if (o.fuel_used > runner_.limits().fuel) return what + "used more fuel than it was given";
    if (g.trap != o.trap || g.fuel_used != o.fuel_used)
      return what + "two runs of the same input differ: " + vm::trap_name(o.trap) + " vs " +
             vm::trap_name(g.trap);
    return "";
  }

  compiler::CompileLimits limits_;
  compiler::Compiler reused_;
  vm::Runner runner_;
  fuzz::GuardedMachine guarded_;
};

// Runs inputs through a CompileChecker under a watchdog, logging what fails.
class Campaign {
 public:
  Campaign(std::string name, const compiler::CompileLimits& limits = {})
      : name_(std::move(name)), checker_(limits), watchdog_(name_), failures_(name_) {}

  void check(const std::string& label, std::string_view source, fuzz::Rng& rng) {
    watchdog_.begin(label, fuzz::bytes_of(source));
    std::string problem = checker_.check(source, rng);
    if (!problem.empty())
      failures_.add(label, problem, fuzz::bytes_of(source), fuzz::escaped(source, 400), ".syn");
  }

 private:
  std::string name_;
  CompileChecker checker_;
  fuzz::Watchdog watchdog_;
  fuzz::FailureLog failures_;
};

std::string case_label(u64 seed, u64 index) {
  return "GPUSYNTH_FUZZ_SEED=" + std::to_string(seed) + " case " + std::to_string(index);
}

// ---- random inputs -----------------------------------------------------------------------

std::string random_bytes(fuzz::Rng& rng) {
  std::string s(rng.below(rng.chance(50) ? 64 : 2001), '\0');
  // Half uniform over all 256 byte values; half mostly the bytes Syn is made of, so some
  // inputs get past the lexer.
  static const std::string syn_bytes = "fnletifwhrusoabcdxyz_0123456789 \n\t(){}[],;:.=+-*/%<>!&|^~\"\\";
  bool uniform = rng.chance(50);
  for (char& c : s)
    c = uniform || rng.chance(5) ? char(rng.below(256)) : syn_bytes[rng.below(syn_bytes.size())];
  return s;
}

// clang-format off
const std::vector<std::string>& fragments() {
  static const std::vector<std::string> items = {
      "fn", "let", "if", "else", "while", "for", "in", "break", "continue", "return", "true", "false",
      "int", "float", "bool", "str", "[int]", "[str]", "(", ")", "[", "]", "{", "}", ",", ";", ":", "->",
      "..", "=", "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", "&", "|",
      "^", "~", "<<", ">>", ">>>", "0", "1", "-1", "42", "9223372036854775807", "9223372036854775808",
      "0xffffffffffffffff", "0x", "1.5", "2e-3", "1e400", "1e", "0.", "\"s\"", "\"", "\"\\x4\"",
      "\"\\q\"", "x", "xs", "solve", "helper", "len", "push", "pop", "sort", "split", "join",
      "parse_int", "array", "slice", "chr", "str(", "len(", "array(100000, 1)", "solve(", "while true {",
      "for i in 0..", "return;", "return (1, 2);", "let (a, b) = ", "fn f() {}", "//", "\n",
      std::string(1, '\0'), "\xff", " ", "@", "$", "'"};
  return items;
}
// clang-format on

std::string mutate_once(fuzz::Rng& rng, std::string s, const std::vector<fuzz::SynFile>& corpus) {
  size_t at = rng.below(s.size() + 1);
  size_t span = 1 + rng.below(rng.chance(80) ? 8 : 200);
  switch (rng.below(9)) {
    case 0:  // byte flip
      if (!s.empty()) s[rng.below(s.size())] = char(rng.below(256));
      return s;
    case 1:  // bit flip
      if (!s.empty()) s[rng.below(s.size())] ^= char(1u << rng.below(8));
      return s;
    case 2:
    case 3:  // insert a token, keyword or piece of punctuation
      return s.insert(at, rng.pick(fragments()));
    case 4:  // delete a span
      return s.erase(at, span);
    case 5: {  // duplicate a span somewhere
      std::string piece = s.substr(at, span);
      return s.insert(rng.below(s.size() + 1), repeat(piece, 1 + rng.below(rng.chance(90) ? 2 : 50)));
    }
    case 6:  // truncate
      return s.substr(0, at);
    case 7: {  // splice: this program's head, another's tail
      const std::string& other = rng.pick(corpus).text;
      return s.substr(0, at) + other.substr(rng.below(other.size() + 1));
    }
    default:  // replace a span by a fragment
      return s.replace(at, std::min(span, s.size() - at), rng.pick(fragments()));
  }
}

std::string mutated_program(fuzz::Rng& rng, const std::vector<fuzz::SynFile>& corpus) {
  std::string s = rng.pick(corpus).text;
  u64 mutations = 1 + rng.below(rng.chance(70) ? 3 : 12);
  for (u64 i = 0; i < mutations; ++i) s = mutate_once(rng, std::move(s), corpus);
  return s;
}

// ---- the tests ---------------------------------------------------------------------------

TEST(CompilerFuzz, CorpusProgramsAreHandled) {
  std::vector<fuzz::SynFile> corpus = fuzz::syn_corpus();
  ASSERT_GT(corpus.size(), 50u) << "tests/programs not found under " << GPUSYNTH_SOURCE_DIR;
  fuzz::Rng rng(fuzz::seed());
  Campaign campaign("corpus");
  for (const fuzz::SynFile& f : corpus) campaign.check(f.path, f.text, rng);
}

TEST(CompilerFuzz, RandomBytes) {
  const u64 seed = fuzz::seed(), n = fuzz::cases(kDefaultCases);
  fuzz::Rng rng(seed);
  Campaign campaign("random-bytes");
  campaign.check("empty source", "", rng);
  for (u64 i = 0; i < n; ++i) campaign.check(case_label(seed, i), random_bytes(rng), rng);
}

TEST(CompilerFuzz, MutatedPrograms) {
  const u64 seed = fuzz::seed() + 1, n = fuzz::cases(kDefaultCases);
  std::vector<fuzz::SynFile> corpus = fuzz::syn_corpus();
  ASSERT_FALSE(corpus.empty());
  fuzz::Rng rng(seed);
  Campaign campaign("mutated");
  for (u64 i = 0; i < n; ++i) campaign.check(case_label(seed, i), mutated_program(rng, corpus), rng);
}

// Tiny compile bounds put every bound's error path in reach of ordinary programs.
TEST(CompilerFuzz, MutatedProgramsUnderTinyLimits) {
  const u64 seed = fuzz::seed() + 2, n = fuzz::cases(kDefaultCases) / 4;
  std::vector<fuzz::SynFile> corpus = fuzz::syn_corpus();
  ASSERT_FALSE(corpus.empty());
  fuzz::Rng rng(seed);
  const u32 sizes[] = {1, 2, 3, 5, 8, 40, 200};
  for (u32 limit_case = 0; limit_case < 8; ++limit_case) {
    compiler::CompileLimits limits;
    limits.max_errors = sizes[rng.below(std::size(sizes))];
    limits.max_depth = sizes[rng.below(std::size(sizes))];
    limits.max_nodes = sizes[rng.below(std::size(sizes))] * (rng.chance(50) ? 1 : 10);
    limits.max_source_bytes = rng.chance(50) ? 65536 : sizes[rng.below(std::size(sizes))] * 10;
    Campaign campaign("tiny-limits-" + std::to_string(limit_case), limits);
    for (u64 i = 0; i < n / 8 + 1; ++i) {
      std::string s = rng.chance(20) ? rng.pick(corpus).text : mutated_program(rng, corpus);
      campaign.check(case_label(seed, i) + " limits " + std::to_string(limit_case), s, rng);
    }
  }
}

// ---- pathological inputs -----------------------------------------------------------------

struct Named {
  std::string name;
  std::string source;
};

// Checks each input, and that it was refused with one of the wanted diagnostics (when given).
void check_all(const std::string& campaign_name, const std::vector<Named>& inputs,
               std::initializer_list<compiler::Code> wanted = {}) {
  fuzz::Rng rng(fuzz::seed());
  Campaign campaign(campaign_name);
  for (const Named& in : inputs) {
    campaign.check(in.name, in.source, rng);
    if (wanted.size() == 0) continue;
    compiler::Output out = compiler::compile(in.source);
    bool found = false;
    for (const compiler::Diagnostic& d : out.diagnostics)
      for (compiler::Code c : wanted) found = found || d.code == c;
    EXPECT_TRUE(found) << in.name << ": expected a bound's diagnostic, got "
                       << (out.ok() ? std::string("bytecode")
                                    : compiler::render(out.diagnostics, "x.syn", in.source));
  }
}

// How many repetitions of `unit` (up to 10,000) fit well inside the 64 KiB source bound, so
// that the input reaches the parser instead of the size check.
size_t levels(std::string_view unit) { return std::min<size_t>(10000, 60000 / unit.size()); }

std::string entry_returning(std::string_view type, std::string_view expr) {
  return "fn solve() -> " + std::string(type) + " { return " + std::string(expr) + "; }\n";
}

TEST(CompilerPathological, DeepNestingIsRefusedNotRecursedInto) {
  const size_t n = 10000;
  std::vector<Named> bare;
  for (const char* c : {"(", "{", "[", "-", "!", "~", "fn", "if", "f("})
    bare.push_back({std::string(c) + " x10000", repeat(c, n)});
  check_all("nesting-bare", bare);

  std::vector<Named> nested = {
      {"parentheses", entry_returning("int", repeat("(", n) + "1" + repeat(")", n))},
      {"unary minus", entry_returning("int", repeat("-", n) + "1")},
      {"unary not", entry_returning("bool", repeat("!", n) + "true")},
      {"unary invert", entry_returning("int", repeat("~", n) + "1")},
      {"array literals", entry_returning("[int]", repeat("[", n) + "1" + repeat("]", n))},
      {"calls",
       entry_returning("int", repeat("f(", n) + "1" + repeat(")", n)) + "fn f(x: int) -> int { return x; }"},
      {"blocks", "fn solve() { " + repeat("{", n) + repeat("}", n) + " }"},
      // Statements take more bytes per level: as many levels as fit in the source bound.
      {"ifs", "fn solve() -> int { " + repeat("if true { ", levels("if true { }")) +
                  repeat("}", levels("if true { }")) + " return 1; }"},
      {"whiles", "fn solve() { " + repeat("while false { ", levels("while false { }")) +
                     repeat("}", levels("while false { }")) + " }"},
      {"else ifs", "fn solve(x: int) -> int { " +
                       repeat("if x == 1 { return 1; } else ", levels("if x == 1 { return 1; } else ")) +
                       "{ return 0; } }"},
      {"unclosed parentheses", entry_returning("int", repeat("(", n) + "1")},
      {"unclosed blocks", "fn solve() { " + repeat("{", n)},
  };
  check_all("nesting", nested, {compiler::Code::TOO_DEEP, compiler::Code::TOO_MANY_NODES});
}

// Long chains are flat in the grammar but deep as trees: passes that walk the tree must not
// recurse once per link. 8,000 links stay within the syntax-node bound, so most compile.
TEST(CompilerPathological, LongChainsAreHandled) {
  const size_t n = 8000;
  std::vector<Named> chains = {
      {"sum chain", entry_returning("int", repeat("1 + ", n) + "1")},
      {"and chain", entry_returning("bool", repeat("true && ", n) + "true")},
      {"or chain", entry_returning("bool", repeat("false || ", n) + "true")},
      {"string concatenation", entry_returning("str", repeat("\"a\" + ", n) + "\"a\"")},
      {"index chain", "fn solve(xs: [int]) -> int { return xs" + repeat("[0]", n) + "; }"},
      {"statements",
       "fn solve() -> int { let x = 0; " + repeat("x = x + 1; ", levels("x = x + 1; ")) + "return x; }"},
      {"nested index",
       "fn solve(xs: [int]) -> int { return " + repeat("xs[", n / 2) + "0" + repeat("]", n / 2) + "; }"},
      {"array literal", entry_returning("[int]", "[" + repeat("1, ", n) + "1]")},
      {"call arguments",
       entry_returning("int", "f(" + repeat("1, ", n) + "1)") + "fn f(x: int) -> int { return x; }"},
      {"parameters", "fn solve(" + repeat("a: int, ", 1000) + "z: int) -> int { return z; }"},
      {"functions", repeat("fn f() {}\n", 2000) + entry_returning("int", "1")},
      {"distinct functions",
       [] {
         std::string s;
         for (int i = 0; i < 400; ++i)
           s += "fn f" + std::to_string(i) + "() -> int { return " + std::to_string(i) + "; }\n";
         return s;
       }()},
      {"locals",
       [] {
         std::string s = "fn solve() -> int {\n";
         for (int i = 0; i < 400; ++i) s += "let v" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
         return s + "return v0; }";
       }()},
      {"errors", repeat("fn ( ", 5000)},
  };
  check_all("chains", chains);
}

TEST(CompilerPathological, HugeLiteralsAreHandled) {
  // clang-format off
  const std::vector<std::string> ints = {
      "99999999999999999999999999999999999999", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "-9223372036854775809", "--9223372036854775808", "- 9223372036854775808",
      "0x" + repeat("f", 16), "0x1" + repeat("0", 16), "0x" + repeat("f", 5000), "0x", "0xg", "0x_1",
      repeat("9", 60000), "1" + repeat("0", 30000)};
  const std::vector<std::string> floats = {
      "1e400", "1e-400", "1e" + repeat("9", 5000), "1e-" + repeat("9", 5000), "1e+99999999999",
      "1" + repeat("0", 5000) + ".5", "0." + repeat("0", 5000) + "1", "1." + repeat("7", 5000),
      repeat("9", 400) + ".0e-400", "1e", "1e+", "1.e5", "1.", ".5", "1.5.5", "1e5e5", "1.5x",
      "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308"};
  // clang-format on
  std::vector<Named> inputs;
  for (const std::string& lit : ints)
    inputs.push_back({"int " + lit.substr(0, 30), entry_returning("int", lit)});
  for (const std::string& lit : floats)
    inputs.push_back({"float " + lit.substr(0, 30), entry_returning("float", lit)});
  for (const std::string& lit : ints) inputs.push_back({"bare " + lit.substr(0, 30), lit});
  inputs.push_back({"long string literal", entry_returning("str", "\"" + repeat("a", 60000) + "\"")});
  inputs.push_back({"many escapes", entry_returning("str", "\"" + repeat("\\x41\\n", 5000) + "\"")});
  inputs.push_back({"many string literals", entry_returning("str", repeat("\"ab\" + ", 8000) + "\"\"")});
  check_all("literals", inputs);
}

TEST(CompilerPathological, LargeSourcesAreRefusedByTheBound) {
  const std::string program = entry_returning("int", "1");
  auto padded = [&](size_t total) {
    std::string s = program + "//";
    return s + repeat("x", total - s.size());
  };
  check_all("large-ok", {{"65536 bytes", padded(65536)}});
  check_all(
      "large",
      {{"65537 bytes", padded(65537)}, {"1 MiB", padded(1u << 20)}, {"8 MiB of '('", repeat("(", 8u << 20)}},
      {compiler::Code::SOURCE_TOO_LARGE});
  EXPECT_TRUE(compiler::compile(padded(65536)).ok());
}

TEST(CompilerPathological, NulBytesAreHandled) {
  const std::string nul(1, '\0');
  check_all("nul", {
                       {"only NULs", std::string(1000, '\0')},
                       {"NUL after a program", entry_returning("int", "1") + nul},
                       {"NUL before a program", nul + entry_returning("int", "1")},
                       {"NUL in an expression", entry_returning("int", "1 " + nul + "+ 2")},
                       {"NUL in a string", entry_returning("str", "\"a" + nul + "b\"")},
                       {"NUL in a comment", "// a" + nul + "b\n" + entry_returning("int", "1")},
                       {"NUL in a name", "fn so" + nul + "lve() -> int { return 1; }"},
                       {"escaped NUL", entry_returning("str", "\"\\0\"")},
                   });
}

TEST(CompilerPathological, UnterminatedStringsAtEndOfInput) {
  const std::string head = "fn solve() -> str { return ";
  std::vector<Named> inputs;
  for (const char* tail :
       {"\"", "\"abc", "\"abc\\", "\"\\x", "\"\\x4", "\"\\x41", "\"\\", "\"\\\"", "\"a\nb\""}) {
    inputs.push_back({std::string("after a program: ") + tail, head + tail});
    inputs.push_back({std::string("bare: ") + tail, tail});
  }
  check_all("unterminated", inputs);
}

// ---- regressions: minimal reproducers of bugs the fuzz tests found ------------------------

// A function header without its block is a syntax error, not an empty function for the code
// generator (which once failed its own stack analysis: "internal compiler error 10").
TEST(CompilerRegressions, AFunctionWithoutABodyIsASyntaxError) {
  for (const char* source :
       {"fn f()", "fn f() -> int", "fn f(x: int)", "fn f() fn g() {}", "fn g() {} fn f()"}) {
    compiler::Output out = compiler::compile(source);
    ASSERT_FALSE(out.ok()) << source;
    EXPECT_NE(compiler::render(out.diagnostics, "x.syn", source).find("expected '{'"), std::string::npos)
        << source << "\n"
        << compiler::render(out.diagnostics, "x.syn", source);
  }
}

// The same program after another on one Compiler: the empty function's stack analysis reads a
// code word left in the reused workspace and indexes the opcode table with it (UBSan:
// "index 169 out of bounds for type 'OpInfo [90]'").
TEST(CompilerRegressions, AFunctionWithoutABodyAfterAnotherProgram) {
  compiler::Compiler reused;
  std::string big = "fn solve() -> [int] { return [1";
  for (int i = 1; i < 5000; ++i) big += ", 1";
  reused.compile(big + "]; }");
  compiler::Output out = reused.compile("fn solve() -> int");
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].code, compiler::Code::EXPECTED);
}

// "Nesting too deep" at the end of the input points one byte past the source.
TEST(CompilerRegressions, NestingTooDeepAtTheEndOfInputStaysInsideTheSource) {
  const std::string source = "fn f() -> int { return " + repeat("(", 65);
  compiler::Output out = compiler::compile(source);
  ASSERT_FALSE(out.ok());
  for (const compiler::Diagnostic& d : out.diagnostics)
    EXPECT_LE(u64(d.pos) + d.len, source.size()) << compiler::render(d, "x.syn", source);
  compiler::CompileLimits shallow;
  shallow.max_depth = 2;
  out = compiler::compile("fn ", shallow);
  for (const compiler::Diagnostic& d : out.diagnostics)
    EXPECT_LE(u64(d.pos) + d.len, 3u) << compiler::render(d, "x.syn", "fn ");
}

}  // namespace
}  // namespace gs
