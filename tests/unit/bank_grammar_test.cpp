// The value bank's grammar (search/bank_grammar.h): one name per production, so that names can
// be counted and weighed (the search policy's vocabulary); a problem's grammar is the part of
// the whole one over its types.
#include "search/bank_grammar.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace gs::search::bank {
namespace {

const std::set<Type> kAllTypes = {Type::Int,      Type::Bool,       Type::Float,   Type::Str,
                                  Type::IntArray, Type::FloatArray, Type::StrArray};

TEST(BankGrammar, EveryProductionHasANameOfItsOwn) {
  std::set<std::string> keys;
  const std::vector<Production> all = grammar(kAllTypes, true, true);
  for (const Production& p : all) {
    EXPECT_TRUE(keys.insert(production_key(p)).second) << production_key(p);
    EXPECT_EQ(p.cost, 1u) << production_key(p);
  }
  EXPECT_GT(all.size(), 120u);
  EXPECT_TRUE(keys.count("$0 + $1 (int, int) -> int"));
  EXPECT_TRUE(keys.count("$0 + $1 (str, str) -> str"));
  EXPECT_TRUE(keys.count("fold_add($0, $1) ([int], int) -> int"));
  // map_str is written around a lines goal's [int], not enumerated (search/bank_loops.h).
  EXPECT_FALSE(keys.count("map_str($0) ([int]) -> [str]"));
  EXPECT_TRUE(keys.count("choose($0, $1, $2) (bool, [str], [str]) -> [str]"));
}

// A syntax tree's node is named as the production that writes it (what GP's guide weighs,
// search/gp_guide.h): the same key, so the policy's probability for it is the enumeration's.
TEST(BankGrammar, ASyntaxNodeHasItsProductionsName) {
  using trees::Expr;
  std::set<std::string> whole;
  for (const Production& p : grammar(kAllTypes, true, true)) whole.insert(production_key(p));
  const Expr a = Expr::name("a", Type::Int), xs = Expr::name("xs", Type::IntArray),
             s = Expr::name("s", Type::Str);
  const std::vector<std::pair<Expr, std::string>> nodes = {
      {Expr::binary(trees::BinaryOp::Add, a, Expr::int_lit(1)), "$0 + $1 (int, int) -> int"},
      {Expr::binary(trees::BinaryOp::Mod, a, a), "$0 % $1 (int, int) -> int"},
      {Expr::binary(trees::BinaryOp::Le, a, a), "$0 <= $1 (int, int) -> bool"},
      {Expr::binary(trees::BinaryOp::Add, s, s), "$0 + $1 (str, str) -> str"},
      {Expr::unary(trees::UnaryOp::Neg, a), "-$0 (int) -> int"},
      {Expr::call("len", Type::Int, {xs}), "len($0) ([int]) -> int"},
      {Expr::call("min", Type::Int, {a, Expr::int_lit(0)}), "min($0, $1) (int, int) -> int"},
      {Expr::call("slice", Type::IntArray, {xs, a, a}), "slice($0, $1, $2) ([int], int, int) -> [int]"},
      {Expr::index(xs, Expr::int_lit(0)), "$0[$1] ([int], int) -> int"},
      {Expr::array_lit(Type::IntArray, {a}), "[$0] (int) -> [int]"},
  };
  for (const auto& [node, key] : nodes) {
    EXPECT_EQ(node_key(node), key);
    EXPECT_TRUE(whole.count(key)) << key;
  }
  // A nested operand is still $i: only the node itself is named.
  EXPECT_EQ(node_key(Expr::binary(trees::BinaryOp::Mul, Expr::call("len", Type::Int, {xs}), a)),
            "$0 * $1 (int, int) -> int");
  EXPECT_EQ(node_key(Expr::int_lit(2)), constant_key(vm::Value::of_int(2)));
  EXPECT_EQ(node_key(Expr::str_lit(" ")), constant_key(vm::Value::of_str(" ")));
  EXPECT_EQ(node_key(Expr::binary(trees::BinaryOp::Gt, a, a)),
            "$0 > $1 (int, int) -> bool");  // no production's
  EXPECT_FALSE(node_key(a));
  EXPECT_FALSE(node_key(Expr::call("helper", Type::Int, {a})));
  EXPECT_FALSE(node_key(Expr::array_lit(Type::IntArray, {a, a})));
}

TEST(BankGrammar, AProblemsGrammarIsPartOfTheWhole) {
  std::set<std::string> whole;
  for (const Production& p : grammar(kAllTypes, true, true)) whole.insert(production_key(p));
  for (const std::set<Type>& types :
       std::vector<std::set<Type>>{{Type::Int, Type::Bool},
                                   {Type::Int, Type::Bool, Type::IntArray},
                                   {Type::Int, Type::Bool, Type::Str, Type::StrArray}}) {
    const std::vector<Production> part = grammar(types, true, false);
    ASSERT_FALSE(part.empty());
    for (const Production& p : part) {
      EXPECT_TRUE(whole.count(production_key(p))) << production_key(p);
      EXPECT_TRUE(types.count(p.result)) << production_key(p);
      for (Type t : p.operands) EXPECT_TRUE(types.count(t)) << production_key(p);
    }
  }
}

}  // namespace
}  // namespace gs::search::bank
