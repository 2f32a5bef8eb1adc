// The data-parallel batch lexer (pipeline/lex_stage.h, CPU backend) against the sequential
// lex(): every token (pos, len, kind), the diagnostic count and the kept diagnostics must be the
// same for every program — the test programs and examples, random generated programs, and
// mutated or random byte strings. Also: the DFA's map composition against running it, the
// fallback's repair of a disagreement, and compile_stage_lexed against compile_stage.
// The fallback count (programs the DFA got wrong, lexed again by lex()) is printed and must be 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.h"
#include "base/thread_pool.h"
#include "pipeline/cpu_lexer.h"
#include "pipeline/pipeline.h"
#include "trees/random_program.h"
#include "trees/syntax.h"

namespace gs {
namespace {

using compiler::Code;
using compiler::Diagnostic;
using compiler::Token;
using pipeline::CpuBatchLexer;
using pipeline::HostLexedBatch;
using pipeline::kLexDiagnostics;
using pipeline::SourceBatch;

using Batch = pipeline::Sources;

Batch head(const Batch& all, u32 programs) {
  Batch b;
  for (u32 i = 0; i < programs && i < all.count(); ++i) b.add(all.source(i));
  return b;
}

// Every diagnostic lex() reports, none dropped.
struct AllDiagnostics {
  std::vector<Diagnostic> items;
  void add(Code code, u32 pos, u32 len, u32 a = 0, u32 b = 0) { items.push_back({code, pos, len, a, b}); }
};

bool same(const Token& a, const Token& b) { return a.pos == b.pos && a.len == b.len && a.kind == b.kind; }
bool same(const Diagnostic& a, const Diagnostic& b) {
  return a.code == b.code && a.pos == b.pos && a.len == b.len && a.a == b.a && a.b == b.b;
}

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 200)) {
    if (c >= 32 && c < 127 && c != '\\') {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u8(c));
      out += buf;
    }
  }
  return s.size() > 200 ? out + "..." : out;
}

// Program i of the batch lexer's output against lex() on its own.
::testing::AssertionResult matches_lex(const Batch& b, const HostLexedBatch& out, u32 i) {
  std::string_view src = b.source(i);
  const u32 n = u32(src.size());
  std::vector<Token> want(n + 2);
  AllDiagnostics d;
  const u32 count = compiler::lex(src.data(), n, want.data(), n + 2, d);
  auto fail = [&](const std::string& what) {
    return ::testing::AssertionFailure() << "program " << i << " (\"" << printable(src) << "\"): " << what;
  };
  if (out.token_count[i] != count)
    return fail("token count " + std::to_string(out.token_count[i]) + ", lex() " + std::to_string(count));
  const Token* got = out.tokens.data() + pipeline::token_slot(b.view(), i);
  for (u32 k = 0; k < count; ++k)
    if (!same(got[k], want[k]))
      return fail("token " + std::to_string(k) + " is (" + std::to_string(got[k].pos) + ", " +
                  std::to_string(got[k].len) + ", " + compiler::token_text(got[k].kind) + "), lex() has (" +
                  std::to_string(want[k].pos) + ", " + std::to_string(want[k].len) + ", " +
                  compiler::token_text(want[k].kind) + ")");
  if (out.diagnostic_count[i] != d.items.size())
    return fail("diagnostic count " + std::to_string(out.diagnostic_count[i]) + ", lex() " +
                std::to_string(d.items.size()));
  for (u32 k = 0; k < d.items.size() && k < kLexDiagnostics; ++k)
    if (!same(out.diagnostics[u64(i) * kLexDiagnostics + k], d.items[k]))
      return fail("diagnostic " + std::to_string(k) + " differs");
  return ::testing::AssertionSuccess();
}

struct Outcome {
  u32 fallbacks = 0;
  double seconds = 0;
};

// Lexes the batch and compares every program with lex().
Outcome lex_and_compare(const Batch& b, u64 block_bytes, ThreadPool& pool) {
  HostLexedBatch out;
  out.resize(b.view());
  CpuBatchLexer lexer(pool, block_bytes);
  auto t0 = std::chrono::steady_clock::now();
  Outcome r;
  r.fallbacks = lexer.lex(b.view(), out.view());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  u32 marked = 0;
  for (u32 i = 0; i < b.count(); ++i) {
    marked += out.fallback[i];
    EXPECT_TRUE(matches_lex(b, out, i)) << "block_bytes " << block_bytes;
    if (::testing::Test::HasFailure()) break;  // one report is enough
  }
  EXPECT_EQ(marked, r.fallbacks);
  return r;
}

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

std::vector<std::string> syn_files() {
  std::vector<std::string> files;
  for (const char* dir : {"/tests/programs", "/docs/examples"})
    for (const auto& e :
         std::filesystem::recursive_directory_iterator(std::string(GPUSYNTH_SOURCE_DIR) + dir))
      if (e.is_regular_file() && e.path().extension() == ".syn") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<std::string> sources;
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    sources.push_back(ss.str());
  }
  return sources;
}

std::vector<std::string> random_programs(u32 count) {
  trees::RandomProgramConfig config;
  std::vector<std::string> sources;
  for (u32 k = 0; k < count; ++k) {
    Rng rng(0x1e7e2025, k);
    sources.push_back(trees::to_source(trees::random_program(config, rng)));
  }
  return sources;
}

// Pieces that sit on the lexer's edges: escapes, exponents, comments, operators, stray bytes.
const std::vector<std::string>& snippets() {
  static const std::vector<std::string> s = {"\"",
                                             "\\",
                                             "\\\"",
                                             "\"\\",
                                             "\\x",
                                             "\\x4",
                                             "\\xZ",
                                             "\\xff",
                                             "//",
                                             "/",
                                             "\n",
                                             "\r",
                                             "\t",
                                             " ",
                                             "0x",
                                             "0X",
                                             "1e",
                                             "1e+",
                                             "1E-",
                                             "e",
                                             "E",
                                             ".",
                                             "..",
                                             "...",
                                             "1.",
                                             "1.5",
                                             ".5",
                                             "0x1g",
                                             "9999999999999999999999",
                                             ">",
                                             ">>",
                                             ">>>",
                                             ">>>>",
                                             "-",
                                             "->",
                                             "=",
                                             "==",
                                             "!",
                                             "!=",
                                             "<",
                                             "<=",
                                             "<<",
                                             "&",
                                             "&&",
                                             "|",
                                             "||",
                                             "@",
                                             "$",
                                             "'",
                                             "#",
                                             "`",
                                             "?",
                                             std::string(1, '\0'),
                                             "\x80",
                                             "\xff",
                                             "\xc3\xa9",
                                             "_",
                                             "fn",
                                             "let",
                                             "return",
                                             "\"abc",
                                             "\"a\\nb\"",
                                             "// c\n",
                                             "1..5",
                                             "1.e5",
                                             "1e5.5",
                                             "0x.5",
                                             "12ab",
                                             "1_000",
                                             "+",
                                             "*",
                                             "%",
                                             "^",
                                             "~",
                                             "{",
                                             "}",
                                             "(",
                                             ")",
                                             "[",
                                             "]",
                                             ",",
                                             ";",
                                             ":"};
  return s;
}

std::string mutate(std::string s, std::mt19937_64& rng) {
  const std::vector<std::string>& pieces = snippets();
  u32 edits = 1 + rng() % 4;
  for (u32 e = 0; e < edits; ++e) {
    u64 at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 6) {
      case 0: s.insert(at, pieces[rng() % pieces.size()]); break;
      case 1:
        if (at < s.size()) s.erase(at, 1 + rng() % 3);
        break;
      case 2:
        if (at < s.size()) s[at] = char(rng() % 256);
        break;
      case 3: s.insert(at, 1, char(rng() % 256)); break;
      case 4: s.resize(at); break;  // cut: ends inside a token, a string or a comment
      default:
        if (at < s.size()) s[at] = pieces[rng() % pieces.size()][0];
        break;
    }
  }
  return s;
}

std::string random_bytes(std::mt19937_64& rng, bool full_range) {
  const std::vector<std::string>& pieces = snippets();
  u32 len = rng() % 64;
  std::string s;
  for (u32 k = 0; k < len; ++k) {
    if (full_range)
      s += char(rng() % 256);
    else
      s += pieces[rng() % pieces.size()];
  }
  return s;
}

// The hard cases by hand: empty programs, ends of input in every context, very long tokens,
// programs over the source limit.
std::vector<std::string> edge_cases() {
  std::vector<std::string> v = {"",
                                "",
                                " ",
                                "\n",
                                "\"",
                                "\"\\",
                                "\"\\\n\"",
                                "\"abc\\",
                                "\"\\x4",
                                "\"\\x4\"",
                                "//",
                                "// no newline",
                                "/",
                                "a//b\nc",
                                "1e",
                                "1e+",
                                "0x",
                                "0x;",
                                ".",
                                "..",
                                "...",
                                "....",
                                ">>>>>",
                                "->->",
                                "1..2",
                                "1.2.3",
                                "1.e5",
                                "1e5.5",
                                "0x1.5",
                                "\x80\x81",
                                std::string(3, '\0'),
                                "\"\x80\xff\"",
                                "\"unterminated\nfn",
                                "a\\b",
                                "\"\\q\\w\\e\"",
                                "fn f() { return 1; }",
                                "x.y",
                                "1_000",
                                "1ee5",
                                "1e+-5",
                                "\r\n\t "};
  v.push_back(std::string(100000, 'a'));
  v.push_back(std::string(100000, '7'));
  v.push_back("\"" + std::string(100000, 'x') + "\"");
  v.push_back("\"" + std::string(100000, 'x'));
  v.push_back("// " + std::string(100000, '"'));
  v.push_back(std::string(100000, '>'));
  v.push_back(std::string(100000, '.'));
  v.push_back(std::string(50000, '\\'));
  v.push_back("\"" + std::string(50000, '\\'));
  v.push_back(std::string(70000, ' ') + "fn");  // over the 64 KiB source limit
  std::string many;
  for (int k = 0; k < 10000; ++k) many += "fn x(a: int) -> int { return a >>> 1.5e3 + \"s\\n\"; } // c\n";
  v.push_back(many);
  return v;
}

void print_outcome(const char* what, const Batch& b, const Outcome& r) {
  std::printf("[batch lexer] %s: %u programs, %zu bytes, %u fallbacks, %.1f ms (%.0f MB/s, 2 threads)\n",
              what, b.count(), b.text.size(), r.fallbacks, r.seconds * 1e3, b.text.size() / r.seconds / 1e6);
}

TEST(BatchLexer, TestProgramsAndExamplesAsOneBatch) {
  Batch b;
  for (const std::string& s : syn_files()) b.add(s);
  ASSERT_GT(b.count(), 100u);
  Outcome r = lex_and_compare(b, u64(1) << 16, pool());
  print_outcome("tests/programs + docs/examples", b, r);
  EXPECT_EQ(r.fallbacks, 0u);
  // Blocks far smaller than a program: the scans must carry their states across blocks.
  for (u64 block : {1, 7, 64})
    EXPECT_EQ(lex_and_compare(b, block, pool()).fallbacks, 0u) << "block_bytes " << block;
}

TEST(BatchLexer, RandomPrograms) {
  Batch b;
  for (const std::string& s : random_programs(5000)) b.add(s);
  Outcome r = lex_and_compare(b, u64(1) << 16, pool());
  print_outcome("random programs", b, r);
  // For scale: lex() over the same programs, one after another on one thread.
  std::vector<Token> tokens;
  pipeline::CountDiagnostics d;
  auto t0 = std::chrono::steady_clock::now();
  for (u32 i = 0; i < b.count(); ++i) {
    tokens.resize(b.source(i).size() + 2);
    compiler::lex(b.source(i).data(), u32(b.source(i).size()), tokens.data(), u32(tokens.size()), d);
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[batch lexer] lex() program by program, 1 thread: %.1f ms (%.0f MB/s)\n", s * 1e3,
              b.text.size() / s / 1e6);
  EXPECT_EQ(r.fallbacks, 0u);
  EXPECT_EQ(lex_and_compare(head(b, 1000), 61, pool()).fallbacks, 0u);
}

TEST(BatchLexer, MutationsAndRandomBytes) {
  std::vector<std::string> bases = syn_files();
  for (const std::string& s : random_programs(200)) bases.push_back(s);
  std::mt19937_64 rng(20250917);
  Batch b;
  for (u32 k = 0; k < 16000; ++k) b.add(mutate(bases[rng() % bases.size()], rng));
  for (u32 k = 0; k < 3000; ++k) b.add(random_bytes(rng, false));
  for (u32 k = 0; k < 3000; ++k) b.add(random_bytes(rng, true));
  for (u32 k = 0; k < 500; ++k) b.add("");
  for (const std::string& s : edge_cases()) b.add(s);
  ASSERT_GE(b.count(), 20000u);
  Outcome r = lex_and_compare(b, u64(1) << 16, pool());
  print_outcome("mutations and random bytes", b, r);
  EXPECT_EQ(r.fallbacks, 0u);
  EXPECT_EQ(lex_and_compare(head(b, 4000), 13, pool()).fallbacks, 0u);
}

TEST(BatchLexer, EdgeCasesOneByOneAndOddBatches) {
  for (const std::string& s : edge_cases()) {
    Batch b;
    b.add(s);
    EXPECT_EQ(lex_and_compare(b, 5, pool()).fallbacks, 0u);
  }
  // No programs at all; only empty ones; text before the first program (offsets[0] > 0).
  Batch none;
  HostLexedBatch out;
  out.resize(none.view());
  CpuBatchLexer lexer(pool());
  EXPECT_EQ(lexer.lex(none.view(), out.view()), 0u);
  Batch empties;
  for (int k = 0; k < 5; ++k) empties.add("");
  EXPECT_EQ(lex_and_compare(empties, 3, pool()).fallbacks, 0u);
  Batch shifted;
  shifted.text = "\"unowned //";
  shifted.offsets = {shifted.text.size()};
  for (const char* s : {"1.5e", "", "\"a\\", "x // y", ">>>"}) shifted.add(s);
  EXPECT_EQ(lex_and_compare(shifted, 2, pool()).fallbacks, 0u);
}

// The GPU's scan composes byte maps in whatever grouping its tiles make; every grouping must
// give the states that running the DFA byte by byte gives.
TEST(BatchLexer, ComposedMapsEqualRunningTheDfa) {
  std::mt19937_64 rng(7);
  Batch b;
  for (const std::string& s : syn_files()) b.add(mutate(s, rng));
  for (u32 k = 0; k < 200; ++k) b.add(random_bytes(rng, k % 2 == 0));
  SourceBatch s = b.view();
  std::vector<u8> flags(b.text.size(), 0);
  for (u32 p = 0; p < s.count; ++p) pipeline::lex_mark_program(s, flags.data(), p);
  std::vector<u8> running(b.text.size());  // packed steps
  u32 q = pipeline::kGap;
  for (u64 i = 0; i < b.text.size(); ++i) {
    running[i] = pipeline::pack_step(pipeline::step(q, pipeline::byte_window(s, flags.data(), i)));
    q = pipeline::packed_state(running[i]);
  }
  for (u32 trial = 0; trial < 4; ++trial) {
    // Random tiles; each tile's inclusive maps, then the tiles' carries.
    pipeline::StateMap carry = pipeline::identity_map();
    u64 i = 0;
    while (i < b.text.size()) {
      u64 end = std::min<u64>(b.text.size(), i + 1 + rng() % 300);
      std::vector<pipeline::StateMap> local;
      pipeline::StateMap acc = pipeline::identity_map();
      for (u64 j = i; j < end; ++j)
        local.push_back(acc = pipeline::map_compose(acc, pipeline::lex_byte_map(s, flags.data(), j)));
      for (u64 j = i; j < end; ++j) {
        u32 state = pipeline::map_apply(pipeline::map_compose(carry, local[j - i]), pipeline::kGap);
        ASSERT_EQ(state, running[j]) << "byte " << j;
      }
      carry = pipeline::map_compose(carry, acc);
      i = end;
    }
  }
  // Associativity on random maps over the states.
  for (u32 k = 0; k < 10000; ++k) {
    pipeline::StateMap m[3];
    for (auto& x : m) {
      x = 0;
      for (u32 st = 0; st < pipeline::kLexStates; ++st)
        x |= pipeline::StateMap(pipeline::pack_step({u8(rng() % pipeline::kLexStates), u8(rng() % 3)}))
             << (6 * st);
    }
    ASSERT_EQ(pipeline::map_compose(pipeline::map_compose(m[0], m[1]), m[2]),
              pipeline::map_compose(m[0], pipeline::map_compose(m[1], m[2])));
  }
}

// skip_gap (lexer.h) is the gap scan_token skips: where it stops, scan_token finds its token, or
// reports the invalid byte there.
TEST(BatchLexer, SkipGapStopsWhereScanTokenDoes) {
  struct FirstReport {
    u32 count = 0, pos = 0;
    Code code{};
    void add(Code c, u32 p, u32, u32 = 0, u32 = 0) {
      if (count++ == 0) pos = p, code = c;
    }
  };
  std::mt19937_64 rng(11);
  std::vector<std::string> texts = edge_cases();
  for (u32 k = 0; k < 3000; ++k) texts.push_back(random_bytes(rng, k % 3 == 0));
  for (const std::string& text : texts) {
    const u32 n = u32(std::min<size_t>(text.size(), 4096));
    for (u32 p = 0; p <= n; p += 1 + u32(rng() % 3)) {
      const u32 stop = compiler::skip_gap(text.data(), n, p);
      Token t;
      FirstReport r;
      compiler::scan_token(text.data(), n, p, &t, r);
      if (stop == n) {
        ASSERT_TRUE(t.kind == compiler::Tok::END && r.count == 0) << printable(text) << " at " << p;
      } else if (compiler::char_class(u8(text[stop])) == compiler::kOther) {
        ASSERT_TRUE(r.count > 0 && r.pos == stop && r.code == Code::INVALID_CHARACTER)
            << printable(text) << " at " << p;
      } else {
        ASSERT_EQ(t.pos, stop) << printable(text) << " at " << p;
      }
    }
  }
}

// The safety net: the per-token checks catch a DFA that is wrong, and lex() repairs the
// program. The steps run here one after another with states corrupted in between.
TEST(BatchLexer, FallbackRepairsCorruptedStates) {
  std::mt19937_64 rng(99);
  Batch b;
  std::vector<std::string> files = syn_files();
  for (u32 k = 0; k < 400; ++k) b.add(mutate(files[k % files.size()], rng));
  SourceBatch s = b.view();
  const u64 bytes = b.text.size();
  std::vector<u8> flags(bytes, 0), states(bytes);
  std::vector<u64> counts(bytes);
  for (u32 p = 0; p < s.count; ++p) pipeline::lex_mark_program(s, flags.data(), p);
  pipeline::StateMap prefix = pipeline::identity_map();
  for (u64 i = 0; i < bytes; ++i)
    states[i] = u8(pipeline::map_apply(
        prefix = pipeline::map_compose(prefix, pipeline::lex_byte_map(s, flags.data(), i)), pipeline::kGap));
  u32 corrupted = 0;
  for (u64 i = 0; i < bytes; i += 1 + rng() % 4000) {
    u8 wrong = pipeline::pack_step({u8(rng() % pipeline::kLexStates), u8(rng() % 3)});
    corrupted += wrong != states[i];
    states[i] = wrong;
  }
  ASSERT_GT(corrupted, 50u);
  const pipeline::LexScratch x{flags.data(), states.data(), counts.data()};
  u64 sum = 0;
  for (u64 i = 0; i < bytes; ++i) {
    u32 p = 0;  // (no hint: the binary search)
    counts[i] = sum += pipeline::lex_count_byte(s, x, i, &p);
  }
  HostLexedBatch out;
  out.resize(s);
  std::vector<u8> disagreed(s.count, 0);
  for (u64 i = 0; i < bytes; ++i) {
    u32 p = 0;
    if (!pipeline::lex_write_byte(s, x, i, out.view(), &p)) disagreed[p] = 1;
  }
  u32 fallbacks = 0;
  for (u32 p = 0; p < s.count; ++p) {
    out.fallback[p] = pipeline::lex_finish_program(s, x, p, disagreed[p] != 0, out.view()) ? 0 : 1;
    fallbacks += out.fallback[p];
  }
  std::printf("[batch lexer] %u corrupted states: %u of %u programs fell back to lex()\n", corrupted,
              fallbacks, s.count);
  EXPECT_GT(fallbacks, 0u);
  for (u32 p = 0; p < s.count; ++p) ASSERT_TRUE(matches_lex(b, out, p));
}

// compile_stage_lexed, given the batch lexer's output, compiles exactly as compile_stage.
TEST(BatchLexer, CompileProgramLexedEqualsCompileProgram) {
  std::mt19937_64 rng(3);
  Batch b;
  std::vector<std::string> files = syn_files();
  for (const std::string& s : files) b.add(s);
  for (const std::string& s : random_programs(300)) b.add(s);
  for (u32 k = 0; k < 1500; ++k) b.add(mutate(files[k % files.size()], rng));
  b.add(std::string(70000, ' ') + "fn");      // over the source limit
  b.add("fn f() { @ @ @ @ @ @ @ @ @ @ @ }");  // more lexical diagnostics than are kept
  b.add("");
  SourceBatch s = b.view();
  HostLexedBatch lexed;
  lexed.resize(s);
  CpuBatchLexer lexer(pool());
  ASSERT_EQ(lexer.lex(s, lexed.view()), 0u);

  compiler::CompileLimits limits;
  std::vector<u64> slot_offsets{0};
  u64 longest = 0;
  for (u32 i = 0; i < s.count; ++i) {
    u64 len = s.offsets[i + 1] - s.offsets[i];
    longest = std::max(longest, len);
    slot_offsets.push_back(slot_offsets.back() +
                           pipeline::bytecode_slot_bytes(u32(std::min<u64>(len, 1u << 20))));
  }
  std::vector<u64> workspace(
      pipeline::batch_workspace_bytes(u32(std::min<u64>(longest, limits.max_source_bytes)), limits) / 8);
  struct Run {
    std::vector<u8> bytes;
    std::vector<u32> sizes, entry, diagnostic_count, syntax_nodes;
    std::vector<u8> status;
    std::vector<Diagnostic> diagnostics;
  } run[2];
  for (int pass = 0; pass < 2; ++pass) {
    Run& r = run[pass];
    r.bytes.assign(slot_offsets.back(), 0);
    r.sizes.assign(s.count, 0);
    r.entry.assign(s.count, 0);
    r.status.assign(s.count, 0);
    r.diagnostic_count.assign(s.count, 0);
    r.syntax_nodes.assign(s.count, 0);
    r.diagnostics.assign(u64(s.count) * pipeline::kBatchDiagnostics, Diagnostic{});
    pipeline::BytecodeBatch bb{s.count,        r.bytes.data(),  slot_offsets.data(),
                               r.sizes.data(), r.status.data(), r.entry.data()};
    pipeline::CompileResults cr{r.diagnostics.data(), r.diagnostic_count.data(), r.syntax_nodes.data()};
    for (u32 i = 0; i < s.count; ++i) {
      u8* ws = reinterpret_cast<u8*>(workspace.data());
      if (pass == 0)
        pipeline::compile_stage(s, i, limits, ws, bb, cr);
      else
        pipeline::compile_stage_lexed(s, i, pipeline::lexed_program(s, lexed.view(), i), limits, ws, bb, cr);
    }
  }
  u32 compiled = 0;
  for (u32 i = 0; i < s.count; ++i) {
    SCOPED_TRACE("program " + std::to_string(i) + ": " + printable(b.source(i)));
    ASSERT_EQ(run[0].status[i], run[1].status[i]);
    ASSERT_EQ(run[0].sizes[i], run[1].sizes[i]);
    ASSERT_EQ(run[0].syntax_nodes[i], run[1].syntax_nodes[i]);
    ASSERT_EQ(0, std::memcmp(run[0].bytes.data() + slot_offsets[i], run[1].bytes.data() + slot_offsets[i],
                             run[0].sizes[i]));
    ASSERT_EQ(run[0].diagnostic_count[i], run[1].diagnostic_count[i]);
    for (u32 k = 0; k < run[0].diagnostic_count[i] && k < pipeline::kBatchDiagnostics; ++k)
      ASSERT_TRUE(same(run[0].diagnostics[u64(i) * pipeline::kBatchDiagnostics + k],
                       run[1].diagnostics[u64(i) * pipeline::kBatchDiagnostics + k]));
    compiled += run[0].status[i] == u8(pipeline::ProgramStatus::OK);
  }
  EXPECT_GT(compiled, 300u);
}

}  // namespace
}  // namespace gs
