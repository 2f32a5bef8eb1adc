// The goal index (search/goal_index.h) against the comparison it saves: an entry is compared with
// every goal, and a goal is a candidate where the entry could meet it — of its type, and either
// compared whatever case 0 gives or with the entry's hash there.
#include "search/goal_index.h"

#include <gtest/gtest.h>

#include <random>

namespace gs::search {
namespace {

// The goals a linear scan would compare b with.
std::vector<u32> reference(const std::vector<GoalIndex::Goal>& goals, Type t,
                           const std::optional<u64> (&key)[2], bool assembling, bool may_offset) {
  std::vector<u32> out;
  for (u32 j = 0; j < goals.size(); ++j) {
    const GoalIndex::Goal& g = goals[j];
    if (g.type != t) continue;
    const bool compared = !g.key || (key[g.permutation] && *key[g.permutation] == *g.key) ||
                          (assembling && (g.by_case || (g.offset && may_offset)));
    if (compared) out.push_back(j);
  }
  return out;
}

TEST(GoalIndex, FindsWhatALinearScanWouldCompare) {
  std::mt19937_64 rng(7);
  const Type types[] = {Type::Int, Type::IntArray, Type::Str, Type::Float};
  u64 found = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<GoalIndex::Goal> goals(rng() % 40);
    GoalIndex index;
    for (GoalIndex::Goal& g : goals) {
      g.type = types[rng() % 4];
      if (rng() % 5 != 0) g.key = rng() % 6;  // few hashes: goals share them
      g.permutation = rng() % 3 == 0;
      g.by_case = g.key && rng() % 4 == 0;
      g.offset = g.key && g.type == Type::Int && rng() % 3 == 0;
      index.add(g);
    }
    for (int query = 0; query < 50; ++query) {
      const Type t = types[rng() % 4];
      std::optional<u64> key[2];
      for (bool permutation : {false, true})
        if (index.hashed(t, permutation) && rng() % 4 != 0) key[permutation] = rng() % 6;
      const bool assembling = rng() % 2, may_offset = rng() % 2;
      std::vector<u32> got;
      index.candidates(t, key, assembling, may_offset, &got);
      ASSERT_EQ(got, reference(goals, t, key, assembling, may_offset)) << "round " << round;
      found += got.size();
    }
  }
  EXPECT_GT(found, 1000u);
}

TEST(GoalIndex, HashedSaysWhichKindsAGoalOfTheTypeTakes) {
  GoalIndex index;
  index.add({Type::IntArray, 5, true});
  index.add({Type::Str, std::nullopt});
  EXPECT_TRUE(index.hashed(Type::IntArray, true));
  EXPECT_FALSE(index.hashed(Type::IntArray, false));
  EXPECT_FALSE(index.hashed(Type::Str, false));
  EXPECT_FALSE(index.hashed(Type::Int, false));
  std::vector<u32> out;
  index.candidates(Type::Str, {}, false, false, &out);
  EXPECT_EQ(out, std::vector<u32>{1});
}

}  // namespace
}  // namespace gs::search
