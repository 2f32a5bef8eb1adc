// base/hash_set.h against std::unordered_set on random keys: the key 0 (the table's free mark),
// keys alike in their low or high bits, repeats, growth and clear().
#include "base/hash_set.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_set>

namespace gs {
namespace {

TEST(HashSet64, AgreesWithUnorderedSet) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 4; ++round) {
    HashSet64 set;
    std::unordered_set<u64> reference;
    for (int i = 0; i < 200'000; ++i) {
      u64 key = rng();
      switch (rng() % 5) {
        case 0: key %= 1000; break;             // small keys, 0 among them, repeated
        case 1: key <<= 40; break;              // low bits alike
        case 2: key = (key % 64) << 58; break;  // high bits only
        default: break;
      }
      if (rng() % 2 == 0) {
        ASSERT_EQ(set.insert(key), reference.insert(key).second) << key;
      } else {
        ASSERT_EQ(set.contains(key), reference.count(key) == 1) << key;
      }
      ASSERT_EQ(set.size(), reference.size());
    }
    for (u64 key : reference) ASSERT_TRUE(set.contains(key)) << key;
    set.clear();
    EXPECT_EQ(set.size(), 0u);
    for (u64 key : reference) ASSERT_FALSE(set.contains(key)) << key;
    EXPECT_TRUE(set.insert(0));
    EXPECT_FALSE(set.insert(0));
  }
}

}  // namespace
}  // namespace gs
