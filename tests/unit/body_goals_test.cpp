// Goals for a lambda's body (search/body_goals.h): what a map's or a filter's outputs fix of its
// body element by element, and the affine fit a * body + b, against the VM's wrapping arithmetic on
// random words.
#include "search/body_goals.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/unit/int_list.h"
#include "vm/arith.h"

namespace gs::search::bank {
namespace {

using vm::Value;

Value list(const std::vector<i64>& xs) { return testing::int_list(xs); }

std::vector<i64> values(const std::optional<Targets>& t) { return t ? t->values : std::vector<i64>{-9}; }
std::vector<u8> free(const std::optional<Targets>& t) { return t ? t->free : std::vector<u8>{9}; }

TEST(BodyGoals, AMapFixesEveryElementsOutput) {
  const std::vector<Value> in = {list({1, 2}), list({}), list({5})};
  const std::optional<Targets> t = map_targets(in, std::vector<Value>{list({10, 20}), list({}), list({50})});
  EXPECT_EQ(values(t), (std::vector<i64>{10, 20, 50}));
  EXPECT_EQ(free(t), (std::vector<u8>{0, 0, 0}));
  // A list of another length, or of another type, is no map's.
  EXPECT_FALSE(map_targets(in, std::vector<Value>{list({10}), list({}), list({50})}));
  EXPECT_FALSE(map_targets(in, std::vector<Value>{list({10, 20}), list({}), Value::of_int(5)}));
  // Nothing to fix.
  EXPECT_FALSE(map_targets(std::vector<Value>{list({})}, std::vector<Value>{list({})}));
  // A str's elements are its characters' codes.
  EXPECT_EQ(values(map_targets(std::vector<Value>{Value::of_str("ab")}, std::vector<Value>{list({98, 99})})),
            (std::vector<i64>{98, 99}));
}

// A map over all but the first or the last element (the output one shorter; the element not
// visited free), or with its output reversed.
TEST(BodyGoals, AMapsOutputLinesUpWithAPartOfTheSequence) {
  const std::vector<Value> in = {list({1, 2, 3}), list({7})};
  const std::vector<Value> shorter = {list({20, 30}), list({})};
  std::optional<Targets> t = map_targets(in, shorter, Span::DropFirst);
  EXPECT_EQ(values(t), (std::vector<i64>{0, 20, 30, 0}));
  EXPECT_EQ(free(t), (std::vector<u8>{1, 0, 0, 1}));
  t = map_targets(in, shorter, Span::DropLast);
  EXPECT_EQ(values(t), (std::vector<i64>{20, 30, 0, 0}));
  EXPECT_EQ(free(t), (std::vector<u8>{0, 0, 1, 1}));
  EXPECT_FALSE(map_targets(in, shorter, Span::All));
  t = map_targets(in, std::vector<Value>{list({30, 20, 10}), list({70})}, Span::Reversed);
  EXPECT_EQ(values(t), (std::vector<i64>{10, 20, 30, 70}));
  // No element visited at all.
  EXPECT_FALSE(map_targets(std::vector<Value>{list({4})}, std::vector<Value>{list({})}, Span::DropFirst));
}

TEST(BodyGoals, AFilterKeepsASubsequenceMatchedLeftmostOrRightmost) {
  const std::vector<Value> in = {list({3, 1, 3, 2}), list({7, 8})};
  const std::vector<Value> out = {list({3, 2}), list({8})};
  EXPECT_EQ(values(filter_targets(in, out)), (std::vector<i64>{1, 0, 0, 1, 0, 1}));
  EXPECT_EQ(values(filter_targets(in, out, true)), (std::vector<i64>{0, 0, 1, 1, 0, 1}));
  // Not a subsequence: out of order, or an element the input lacks.
  EXPECT_FALSE(filter_targets(in, std::vector<Value>{list({2, 3}), list({8})}));
  EXPECT_FALSE(filter_targets(in, std::vector<Value>{list({4}), list({8})}));
  // Every element kept, or none: no filter to seek.
  EXPECT_FALSE(filter_targets(in, std::vector<Value>{in[0], in[1]}));
  EXPECT_FALSE(filter_targets(in, std::vector<Value>{list({}), list({})}));
  // Over all but the last element: the last is free, and the output must come from the others.
  const std::optional<Targets> t =
      filter_targets(in, std::vector<Value>{list({1}), list({7})}, false, Span::DropLast);
  EXPECT_EQ(values(t), (std::vector<i64>{0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(free(t), (std::vector<u8>{0, 0, 0, 1, 0, 1}));
  EXPECT_FALSE(filter_targets(in, std::vector<Value>{list({2}), list({7})}, false, Span::DropLast));
  // Strs keep characters, [str]s strs.
  EXPECT_EQ(values(filter_targets(std::vector<Value>{Value::of_str("a b")},
                                  std::vector<Value>{Value::of_str("ab")})),
            (std::vector<i64>{1, 0, 1}));
  const Value words = Value::of_array(Type::Str, {Value::of_str("x"), Value::of_str("y")});
  EXPECT_EQ(values(filter_targets(std::vector<Value>{words},
                                  std::vector<Value>{Value::of_array(Type::Str, {Value::of_str("y")})})),
            (std::vector<i64>{0, 1}));
}

TEST(BodyGoals, AffineFitsAreExactAndNeedThreeDistinctWords) {
  const std::vector<u64> w = {0, 1, 2, 5};
  std::optional<Affine> fit = fit_affine(w, std::vector<i64>{99, 98, 97, 94});  // 99 - x
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->a, -1);
  EXPECT_EQ(fit->b, 99);
  fit = fit_affine(w, std::vector<i64>{7, 10, 13, 22});  // 3 * x + 7
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->a, 3);
  EXPECT_EQ(fit->b, 7);
  EXPECT_FALSE(fit_affine(w, std::vector<i64>{0, 1, 4, 25}));  // x * x
  EXPECT_FALSE(fit_affine(w, std::vector<i64>{0, 0, 1, 2}));   // x / 2: no integer slope
  EXPECT_FALSE(fit_affine(std::vector<u64>{1, 2, 1, 2}, std::vector<i64>{5, 9, 5, 9}));  // two points
  EXPECT_FALSE(fit_affine(w, std::vector<i64>{4, 4, 4, 4}));                             // a = 0
  EXPECT_FALSE(fit_affine(std::vector<u64>{3, 3, 3}, std::vector<i64>{1, 1, 1}));        // one word
  // Free elements are not fitted, nor counted among the distinct words.
  const std::vector<u8> last_free = {0, 0, 0, 1};
  EXPECT_TRUE(fit_affine(w, std::vector<i64>{7, 10, 13, -1}, last_free));
  EXPECT_FALSE(fit_affine(w, std::vector<i64>{7, 10, 13, -1}));
  EXPECT_FALSE(fit_affine(w, std::vector<i64>{7, 10, 13, -1}, std::vector<u8>{0, 0, 1, 1}));
}

// On random words and targets made by a random a * w + b with the VM's wrapping arithmetic (some
// wrapping), most are fitted, and every fit reproduces its targets (those moved off the line by
// one element included: no fit is claimed that the wrapping arithmetic does not bear out).
TEST(BodyGoals, AffineFitsReproduceTheirTargetsOnRandomWords) {
  std::mt19937_64 rng(13);
  u32 fitted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<u64> w(3 + rng() % 10);
    const i64 spread = trial % 4 == 0 ? i64(1) << 62 : 100;
    for (u64& x : w) x = u64(i64(rng() % (u64(2) * u64(spread))) - spread);
    const i64 a = i64(rng() % 21) - 10, b = i64(rng() % 2001) - 1000;
    std::vector<i64> t;
    for (u64 x : w) t.push_back(vm::wrap_add(vm::wrap_mul(a, i64(x)), b));
    if (trial % 3 == 0) {
      i64& off = t[rng() % t.size()];
      off = vm::wrap_add(off, 1);
    }
    const std::optional<Affine> fit = fit_affine(w, t);
    if (!fit) continue;
    ++fitted;
    EXPECT_NE(fit->a, 0);
    for (size_t e = 0; e < w.size(); ++e)
      ASSERT_EQ(vm::wrap_add(vm::wrap_mul(fit->a, i64(w[e])), fit->b), t[e]) << "trial " << trial;
  }
  EXPECT_GT(fitted, 8000u);
}

}  // namespace
}  // namespace gs::search::bank
