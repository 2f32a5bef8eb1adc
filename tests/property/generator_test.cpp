// The parts the differential test stands on: Philox known answers, the printer's literals and
// parentheses, the generator's determinism, and the reference evaluator on the spec's examples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "base/rng.h"
#include "compiler/compiler.h"
#include "tests/reference/evaluator.h"
#include "trees/random_program.h"
#include "trees/syntax.h"

namespace gs {
namespace {

using trees::BinaryOp;
using trees::Expr;
using trees::Stmt;

TEST(Philox, MatchesRandom123KnownAnswers) {
  auto check = [](Philox4x32 ctr, u32 k0, u32 k1, Philox4x32 want) {
    Philox4x32 got = philox4x32_10(ctr, k0, k1);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], want.v[i]) << "word " << i;
  };
  check({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}});
  check({{~0u, ~0u, ~0u, ~0u}}, ~0u, ~0u, {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}});
  check({{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, 0xa4093822, 0x299f31d0,
        {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}});
}

TEST(Philox, StreamsAreReproducibleAndDistinct) {
  Rng a(42, 7), b(42, 7), c(42, 8);
  for (int i = 0; i < 100; ++i) {
    u64 x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    EXPECT_NE(x, c.next_u64());
  }
  Rng r(1);
  for (int i = 0; i < 1000; ++i) {
    i64 v = r.uniform_int(-3, 3);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 3);
    double d = r.uniform01();
    EXPECT_GE(d, 0.0);
    EXPECT_LT(d, 1.0);
  }
  EXPECT_EQ(Rng(5, 1).derive(3).next_u64(), Rng(5, 1).derive(3).next_u64());
}

TEST(Printer, WritesEveryIntExactly) {
  EXPECT_EQ(trees::to_source(Expr::int_lit(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(trees::to_source(Expr::int_lit(INT64_MAX)), "9223372036854775807");
  EXPECT_EQ(trees::to_source(Expr::int_lit(-1, true)), "0xffffffffffffffff");
  Expr e = Expr::binary(BinaryOp::Sub, Expr::int_lit(1), Expr::int_lit(-5));
  EXPECT_EQ(trees::to_source(e), "1 - -5");
}

TEST(Printer, ParenthesisesByPrecedence) {
  Expr a = Expr::int_lit(1), b = Expr::int_lit(2), c = Expr::int_lit(3);
  EXPECT_EQ(trees::to_source(Expr::binary(BinaryOp::Mul, Expr::binary(BinaryOp::Add, a, b), c)),
            "(1 + 2) * 3");
  EXPECT_EQ(trees::to_source(Expr::binary(BinaryOp::Sub, a, Expr::binary(BinaryOp::Sub, b, c))),
            "1 - (2 - 3)");
  EXPECT_EQ(trees::to_source(Expr::binary(BinaryOp::Sub, Expr::binary(BinaryOp::Sub, a, b), c)), "1 - 2 - 3");
  Expr lt = Expr::binary(BinaryOp::Lt, a, b);
  EXPECT_EQ(trees::to_source(Expr::binary(BinaryOp::Eq, lt, Expr::bool_lit(true))), "(1 < 2) == true");
  EXPECT_EQ(trees::to_source(Expr::unary(trees::UnaryOp::Neg, Expr::binary(BinaryOp::Add, a, b))),
            "-(1 + 2)");
}

TEST(Printer, WritesFloatsThatConvertExactly) {
  for (double v : {1.5, 0.1, 2.0, 1000.0, 0.00015, 1e21, 2.5e-10, 123456.789, 1e22, 999999999999.5}) {
    ASSERT_TRUE(trees::float_literal_is_exact(v)) << v;
    std::string text = trees::float_literal(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    EXPECT_NE(text.find_first_of(".e"), std::string::npos) << text;
  }
  EXPECT_EQ(trees::float_literal(2.0), "2.0");
  EXPECT_EQ(trees::float_literal(-0.0), "-0.0");
  EXPECT_EQ(trees::float_literal(1e21), "1e21");
  EXPECT_FALSE(trees::float_literal_is_exact(0.1 + 0.2));  // 17 digits: 0.30000000000000004
}

TEST(Printer, EscapesStrings) {
  EXPECT_EQ(trees::string_literal(std::string("a\"\\\n\t\r\0\x01\xff", 9)),
            "\"a\\\"\\\\\\n\\t\\r\\0\\x01\xff\"");
}

TEST(Generator, IsDeterministicPerSeedAndStream) {
  trees::RandomProgramConfig config;
  for (u64 k = 0; k < 20; ++k) {
    Rng a(9, k), b(9, k);
    EXPECT_EQ(trees::to_source(trees::random_program(config, a)),
              trees::to_source(trees::random_program(config, b)));
  }
}

// Programs compile under every switch of the configuration, not only the defaults.
TEST(Generator, EveryConfigurationCompiles) {
  std::vector<trees::RandomProgramConfig> configs(9);
  configs[0].floats = false;
  configs[1].strings = false;
  configs[2].arrays = false;
  configs[3].tuples = configs[3].recursion = configs[3].loops = false;
  configs[4].disabled_builtins = {"len", "min", "max", "push", "slice", "chr", "split", "sum", "abs"};
  configs[5].arrays = configs[5].strings = false;
  configs[6].max_expr_depth = 1;
  configs[6].max_statements = 1;
  configs[7].max_helpers = 8;
  configs[7].max_block_depth = 5;
  configs[7].p_builtin_named_helper = 0.5;
  configs[8].p_risky = 1.0;
  configs[8].entry = "main";
  for (size_t c = 0; c < configs.size(); ++c) {
    for (u64 k = 0; k < 150; ++k) {
      Rng rng(77, c * 1000 + k);
      std::string source = trees::to_source(trees::random_program(configs[c], rng));
      compiler::Output out = compiler::compile(source);
      ASSERT_TRUE(out.ok()) << "config " << c << "\n"
                            << compiler::render(out.diagnostics, "random.syn", source) << source;
      for (const std::string& name : configs[c].disabled_builtins)
        ASSERT_EQ(source.find(name + "("), std::string::npos) << "disabled " << name << " used:\n" << source;
    }
  }
}

TEST(Generator, SubtreesCanBeCollectedByType) {
  trees::RandomProgramConfig config;
  Rng rng(3, 1);
  trees::Tree p = trees::random_program(config, rng);
  for (Expr* e : trees::collect_exprs(p, Type::Int)) EXPECT_EQ(e->type, Type::Int);
  EXPECT_FALSE(trees::collect_blocks(p).empty());
  EXPECT_GT(trees::node_count(p), 0u);
}

TEST(Reference, FormatsFloatsAsTheSpecSays) {
  EXPECT_EQ(reference::format_float(1.5), "1.5");
  EXPECT_EQ(reference::format_float(2.0), "2.0");
  EXPECT_EQ(reference::format_float(1.0 / 3.0), "0.333333");
  EXPECT_EQ(reference::format_float(1e12), "1.0e12");
  EXPECT_EQ(reference::format_float(2.5e20), "2.5e20");
  EXPECT_EQ(reference::format_float(-0.0), "0.0");
  EXPECT_EQ(reference::format_float(-2.5), "-2.5");
  EXPECT_EQ(reference::format_float(9.9999999e12), "1.0e13");  // q rounds up to 10000000
  EXPECT_EQ(reference::format_float(NAN), "nan");
  EXPECT_EQ(reference::format_float(-INFINITY), "-inf");
}

// fn solve(xs: [int]) -> int { let b = xs; b[0] = 9; return xs[0] * 100 + b[0] + len(split("a,,b", ",")); }
TEST(Reference, KeepsArraysValues) {
  trees::Tree p;
  trees::Function f{"solve", {{"xs", Type::IntArray}}, {Type::Int}, {}};
  f.body.push_back(Stmt::let("b", Expr::name("xs", Type::IntArray)));
  f.body.push_back(Stmt::element_assign("b", Expr::int_lit(0), Expr::int_lit(9)));
  Expr first = Expr::index(Expr::name("xs", Type::IntArray), Expr::int_lit(0));
  Expr sum = Expr::binary(BinaryOp::Add, Expr::binary(BinaryOp::Mul, first, Expr::int_lit(100)),
                          Expr::index(Expr::name("b", Type::IntArray), Expr::int_lit(0)));
  Expr pieces = Expr::call(
      "len", Type::Int, {Expr::call("split", Type::StrArray, {Expr::str_lit("a,,b"), Expr::str_lit(",")})});
  f.body.push_back(Stmt::ret({Expr::binary(BinaryOp::Add, sum, pieces)}));
  p.functions.push_back(f);
  std::vector<vm::Value> args = {vm::Value::of_array(Type::Int, {vm::Value::of_int(4)})};
  reference::Outcome o = reference::evaluate(p, "solve", args);
  ASSERT_EQ(o.trap, vm::Trap::NONE);
  EXPECT_EQ(o.results[0].i, 412);
  args[0].items.clear();
  EXPECT_EQ(reference::evaluate(p, "solve", args).trap, vm::Trap::INDEX_OUT_OF_RANGE);
}

// fn solve(n: int) -> int { return solve(n - 1); }: the 64th nested call is the last allowed.
TEST(Reference, BoundsCallDepthWithTheEntryCountingOne) {
  trees::Tree p;
  trees::Function f{"solve", {{"n", Type::Int}}, {Type::Int}, {}};
  std::vector<trees::Block> arms(1);
  arms[0].push_back(Stmt::ret({Expr::int_lit(7)}));
  std::vector<Expr> cond;
  cond.push_back(Expr::binary(BinaryOp::Le, Expr::name("n", Type::Int), Expr::int_lit(1)));
  f.body.push_back(Stmt::if_chain(std::move(cond), std::move(arms)));
  f.body.push_back(Stmt::ret({Expr::call(
      "solve", Type::Int, {Expr::binary(BinaryOp::Sub, Expr::name("n", Type::Int), Expr::int_lit(1))})}));
  p.functions.push_back(f);
  std::vector<vm::Value> args = {vm::Value::of_int(64)};
  EXPECT_EQ(reference::evaluate(p, "solve", args).trap, vm::Trap::NONE);
  args[0] = vm::Value::of_int(65);
  EXPECT_EQ(reference::evaluate(p, "solve", args).trap, vm::Trap::CALL_DEPTH_EXCEEDED);
}

}  // namespace
}  // namespace gs
