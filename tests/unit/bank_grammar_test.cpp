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
