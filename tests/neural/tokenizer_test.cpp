// The neural compiler's tokenisers and data (neural/): the vocabulary derives from the tables,
// bytecode survives encode -> decode byte for byte over many random programs, garbage token
// sequences are refused cleanly, source renaming is canonical, and the data is deterministic.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "base/rng.h"
#include "compiler/compiler.h"
#include "neural/bytecode_tokenizer.h"
#include "neural/data.h"
#include "neural/source_tokenizer.h"
#include "neural/vocabulary.h"
#include "trees/random_program.h"
#include "trees/syntax.h"
#include "vm/program.h"

namespace gs::neural {
namespace {

const Vocabulary& vocab() { return Vocabulary::get(); }

u32 program_count(u32 fallback) {
  const char* env = std::getenv("GPUSYNTH_PROPERTY_PROGRAMS");
  return env ? u32(std::strtoul(env, nullptr, 10)) : fallback;
}

TEST(Vocabulary, SectionsComeFromTheTables) {
  const Vocabulary& v = vocab();
  EXPECT_EQ(v.count(Section::Opcode), vm::kOpCount);
  EXPECT_EQ(v.spell(v.op(vm::Op::LOAD_CONST)), "LOAD_CONST");
  EXPECT_EQ(v.spell(v.op(vm::Op::PARSE_INT)), "PARSE_INT");
  EXPECT_EQ(v.spell(v.syn(compiler::Tok::KW_WHILE)), "while");
  EXPECT_GE(v.builtin_index("len"), 0);
  EXPECT_GE(v.builtin_index("parse_int"), 0);
  EXPECT_EQ(v.builtin_index("solve"), -1);
  // Every id has exactly one meaning, and the sections tile [0, size).
  std::set<std::string> spelled;
  for (TokenId id = 0; id < TokenId(v.size()); ++id) {
    TokenMeaning m = v.meaning(id);
    EXPECT_EQ(v.base(m.section) + TokenId(m.index), id);
  }
  EXPECT_EQ(v.meaning(TokenId(v.size())).section, Section::Special);
  EXPECT_EQ(v.fingerprint(), Vocabulary::get().fingerprint());
}

TEST(Vocabulary, NumbersRoundTrip) {
  const Vocabulary& v = vocab();
  for (u64 x : {u64(0), u64(1), u64(255), u64(256), u64(1000), u64(8388607), ~u64(0)}) {
    TokenSeq ids;
    append_number(v, x, &ids);
    EXPECT_EQ(ids.size() == 1, x < kSmallInts);
    size_t at = 0;
    u64 back = 1234;
    ASSERT_TRUE(read_number(v, ids, &at, &back)) << x;
    EXPECT_EQ(back, x);
    EXPECT_EQ(at, ids.size());
  }
  TokenSeq too_big;  // 2^64 = 18446744073709551616
  for (char c : std::string("18446744073709551616")) too_big.push_back(v.digit(u32(c - '0')));
  size_t at = 0;
  u64 x;
  EXPECT_FALSE(read_number(v, too_big, &at, &x));
  EXPECT_EQ(at, 0u);
}

TEST(SourceTokenizer, RenamesCanonicallyAndKeepsLiterals) {
  const Vocabulary& v = vocab();
  std::string a =
      "fn solve(xs: [int], k: int) -> int { let t = len(xs) + k * 300; return helper(t); }\n"
      "fn helper(x: int) -> int { return x; }";
  std::string b =
      "fn main(ys: [int], n: int) -> int { let q = len(ys) + n * 300; return other(q); }\n"
      "fn other(z: int) -> int { return z; }";
  auto ta = encode_source(a), tb = encode_source(b);
  ASSERT_TRUE(ta && tb);
  EXPECT_EQ(ta->ids, tb->ids);  // only names differ
  EXPECT_EQ(ta->function_names, (std::vector<std::string>{"solve", "helper"}));
  EXPECT_EQ(ta->variable_names, (std::vector<std::string>{"xs", "k", "t", "x"}));
  EXPECT_EQ(ta->ids.back(), v.eos());
  std::string spelled = v.spell(ta->ids);
  EXPECT_NE(spelled.find("fn F0 ( V0 : [ int ] , V1 : int ) -> int"), std::string::npos) << spelled;
  EXPECT_NE(spelled.find("len ( V0 ) + V1 * d3 d0 d0"), std::string::npos) << spelled;
  EXPECT_NE(spelled.find("return F1 ( V2 )"), std::string::npos) << spelled;

  auto lits = encode_source("fn f() -> str { let x = 0x10 + 2; let y = 2e-3; return \"a\\n\"; }");
  ASSERT_TRUE(lits);
  std::string s = v.spell(lits->ids);
  EXPECT_NE(s.find("= 16 + 2"), std::string::npos) << s;
  EXPECT_NE(s.find("LIT_FLOAT '0' '.' '0' '0' '2' LIT_END"), std::string::npos) << s;
  EXPECT_NE(s.find("LIT_STR 'a' 0x0a LIT_END"), std::string::npos) << s;

  auto bad = encode_source("fn f() -> int { return 1 $ 2; }");
  ASSERT_TRUE(bad);  // lexical errors are tokens, not failures
  std::string too_many = "fn f() -> int { ";
  for (u32 i = 0; i <= kMaxVariables; ++i) too_many += "let v" + std::to_string(i) + " = 1; ";
  std::string why;
  EXPECT_FALSE(encode_source(too_many + "return 0; }", &why));
  EXPECT_NE(why.find("variable"), std::string::npos);
}

// The property: for many random programs of every curriculum level and of the generator's own
// defaults, the compiler's container survives encode -> decode byte for byte, the decoded one
// verifies, and the function names agree with the source's declaration order.
TEST(BytecodeTokenizer, RoundTripsRandomPrograms) {
  const u32 n = program_count(600);
  compiler::Compiler compiler;
  u32 checked = 0, floats = 0, strings = 0;
  for (u32 i = 0; i < n; ++i) {
    trees::RandomProgramConfig config = i % 5 == 4 ? trees::RandomProgramConfig{} : curriculum_config(i % 4);
    Rng rng = Rng(2024, 77).derive(i);
    std::string source = trees::to_source(trees::random_program(config, rng));
    compiler::Output out = compiler.compile(source);
    ASSERT_TRUE(out.ok()) << source;
    auto src = encode_source(source);
    ASSERT_TRUE(src) << source;
    EXPECT_EQ(src->function_names, function_names_of(out.bytecode)) << source;
    BytecodeTokens tokens = encode_bytecode(out.bytecode, src->function_names);
    ASSERT_TRUE(tokens.ok()) << tokens.error << "\n" << source;
    DecodedBytecode back = decode_bytecode(tokens.ids, src->function_names);
    ASSERT_TRUE(back.ok()) << back.error << "\n" << source;
    ASSERT_EQ(back.bytecode, out.bytecode) << source << "\n" << vocab().spell(tokens.ids);
    EXPECT_TRUE(vm::Program::load(back.bytecode).has_value());
    std::string spelled = vocab().spell(tokens.ids);
    floats += spelled.find("CONST_FLOAT") != std::string::npos;
    strings += spelled.find("LIT_STR") != std::string::npos;
    ++checked;
  }
  EXPECT_EQ(checked, n);
  if (n >= 100) {  // the sample reaches float constants and string literals
    EXPECT_GT(floats, 0u);
    EXPECT_GT(strings, 0u);
  }
}

TEST(BytecodeTokenizer, LayoutIsAsDocumented) {
  const Vocabulary& v = vocab();
  compiler::Output out = compiler::compile("fn solve(x: int) -> float { return float(x + 100000) * 1.5; }");
  ASSERT_TRUE(out.ok());
  std::vector<std::string> names{"solve"};
  BytecodeTokens t = encode_bytecode(out.bytecode, names);
  ASSERT_TRUE(t.ok()) << t.error;
  std::string s = v.spell(t.ids);
  EXPECT_EQ(s.rfind("<bos> CONST_FLOAT '1' '.' '5' LIT_END FUNC F0 int RESULTS float LOCALS 1 LOAD_VAR 0", 0),
            0u)
      << s;
  EXPECT_NE(s.find("LOAD_INT d1 d0 d0 d0 d0 d0 BINARY_ADD FLOAT_OF_INT"), std::string::npos) << s;
  EXPECT_EQ(t.ids.back(), v.eos());
  // A name missing from the table is refused; so is a container that is not canonical.
  EXPECT_FALSE(encode_bytecode(out.bytecode, std::vector<std::string>{"other"}).ok());
  std::vector<u8> broken = out.bytecode;
  broken[broken.size() - 1] ^= 1;  // checksum
  EXPECT_FALSE(encode_bytecode(broken, names).ok());
}

TEST(BytecodeTokenizer, NegativeImmediatesAndLargeConstants) {
  compiler::Output out = compiler::compile(
      "fn solve(x: int) -> int { return x - -5 + 9000000000 * -8388608 + 0x7fffffffffffffff; }");
  ASSERT_TRUE(out.ok());
  std::vector<std::string> names{"solve"};
  BytecodeTokens t = encode_bytecode(out.bytecode, names);
  ASSERT_TRUE(t.ok()) << t.error;
  DecodedBytecode back = decode_bytecode(t.ids, names);
  ASSERT_TRUE(back.ok()) << back.error;
  EXPECT_EQ(back.bytecode, out.bytecode);
}

// Garbage never crashes the decoder: random sequences, random edits of real sequences, and
// truncations each either decode to a verified container or fail with a reason.
TEST(BytecodeTokenizer, GarbageFailsCleanly) {
  const Vocabulary& v = vocab();
  const u32 n = program_count(600);
  Rng rng(99);
  std::vector<std::string> names{"solve", "h1", "h2"};
  u32 failed = 0, decoded = 0;
  auto check = [&](const TokenSeq& ids) {
    DecodedBytecode d = decode_bytecode(ids, names);
    if (d.ok()) {
      ++decoded;
      EXPECT_TRUE(vm::Program::load(d.bytecode).has_value());
    } else {
      ++failed;
      EXPECT_FALSE(d.error.empty());
      EXPECT_TRUE(d.bytecode.empty());
    }
  };
  for (u32 i = 0; i < n; ++i) {  // uniform garbage, with ids outside the vocabulary too
    TokenSeq ids(rng.below(60));
    for (TokenId& id : ids) id = TokenId(rng.uniform_int(-3, i64(v.size()) + 3));
    check(ids);
  }
  compiler::Compiler compiler;
  for (u32 i = 0; i < n; ++i) {  // real sequences, mutated
    Rng prog = Rng(7, 1).derive(i);
    std::string source = trees::to_source(trees::random_program(curriculum_config(i % 4), prog));
    compiler::Output out = compiler.compile(source);
    ASSERT_TRUE(out.ok());
    auto src = encode_source(source);
    BytecodeTokens t = encode_bytecode(out.bytecode, src->function_names);
    ASSERT_TRUE(t.ok());
    TokenSeq ids = t.ids;
    switch (i % 4) {
      case 0: ids[rng.below(u32(ids.size()))] = TokenId(rng.below(v.size())); break;
      case 1: ids.resize(rng.below(u32(ids.size()))); break;
      case 2: ids.erase(ids.begin() + rng.below(u32(ids.size()))); break;
      default: ids.insert(ids.begin() + rng.below(u32(ids.size())), TokenId(rng.below(v.size()))); break;
    }
    DecodedBytecode d = decode_bytecode(ids, src->function_names);
    if (d.ok())
      EXPECT_TRUE(vm::Program::load(d.bytecode).has_value());
    else
      EXPECT_FALSE(d.error.empty());
  }
  EXPECT_GT(failed, n / 2);
  // Specific refusals name the problem.
  EXPECT_NE(decode_bytecode({}, names).error.find("FUNC expected"), std::string::npos);
  TokenSeq bad_name{v.bos(), v.marker(Marker::FUNC), v.function(9)};
  EXPECT_NE(decode_bytecode(bad_name, names).error.find("name table"), std::string::npos);
  TokenSeq underflow{v.bos(),
                     v.marker(Marker::FUNC),
                     v.function(0),
                     v.marker(Marker::RESULTS),
                     v.type(Type::Int),
                     v.marker(Marker::LOCALS),
                     v.small(0),
                     v.op(vm::Op::BINARY_ADD),
                     v.op(vm::Op::RETURN),
                     v.eos()};
  EXPECT_NE(decode_bytecode(underflow, names).error.find("verifier"), std::string::npos);
  TokenSeq ok{v.bos(),
              v.marker(Marker::FUNC),
              v.function(0),
              v.marker(Marker::RESULTS),
              v.type(Type::Int),
              v.marker(Marker::LOCALS),
              v.small(0),
              v.op(vm::Op::LOAD_INT),
              v.marker(Marker::NEG),
              v.small(7),
              v.op(vm::Op::RETURN),
              v.eos()};
  DecodedBytecode good = decode_bytecode(ok, names);
  ASSERT_TRUE(good.ok()) << good.error;
  EXPECT_TRUE(vm::Program::load(good.bytecode).has_value());
}

TEST(Data, DeterministicDisjointAndCurriculumOrdered) {
  PairMaker maker(5, 160, 256), same(5, 160, 256), other(6, 160, 256);
  std::vector<Example> a = maker.training_batch(100, 8, 2), b = same.training_batch(100, 8, 2);
  ASSERT_EQ(a.size(), 8u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].source, b[i].source);
    EXPECT_EQ(a[i].bytecode_ids, b[i].bytecode_ids);
    EXPECT_LE(a[i].source_ids.size(), 160u);
    EXPECT_LE(a[i].bytecode_ids.size(), 256u);
    EXPECT_EQ(a[i].bytecode_ids.front(), vocab().bos());
    DecodedBytecode d = decode_bytecode(a[i].bytecode_ids, a[i].function_names);
    ASSERT_TRUE(d.ok()) << d.error;
    EXPECT_EQ(d.bytecode, a[i].bytecode);
  }
  EXPECT_NE(other.training_batch(100, 8, 2)[0].source, a[0].source);
  // The held-out programs never occur in the training stream's first examples.
  std::vector<Example> held = maker.held_out(16);
  std::set<std::string> held_sources;
  for (const Example& e : held) held_sources.insert(e.source);
  for (u32 level = 0; level < kCurriculumLevels; ++level)
    for (const Example& e : maker.training_batch(0, 64, level)) EXPECT_EQ(held_sources.count(e.source), 0u);
  // Small programs first: the mean target length grows with the level (with no length cap,
  // which would hide the growth).
  PairMaker uncapped(5, 1u << 20, 1u << 20);
  double previous = 0;
  for (u32 level = 0; level < kCurriculumLevels; ++level) {
    double total = 0;
    for (u64 i = 0; i < 40; ++i) total += double(uncapped.make(Split::Train, i, level).bytecode_ids.size());
    EXPECT_GT(total / 40, previous) << "level " << level;
    previous = total / 40;
  }
  EXPECT_EQ(curriculum_level(0, 100), 0u);
  EXPECT_EQ(curriculum_level(99, 100), kCurriculumLevels - 1);
  EXPECT_THROW(PairMaker(1, 4, 4).make(Split::Train, 0, 0), std::runtime_error);
}

}  // namespace
}  // namespace gs::neural
