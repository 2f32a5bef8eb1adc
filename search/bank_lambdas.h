// Lambda bodies for the value bank (issue 21, docs/search.md "The value bank"): map, filter,
// count, find, flat map and sort by a key over an [int] parameter whose body is an enumerated expression, not
// one of search/bank_loops.h's fixed forms — the bottom-up enumeration of lambdas of LambdaBeam (Shi et al.
// 2023) and Probe, over an element context.
//
// The element context of a parameter xs is a bank of its own whose cases are the train cases'
// elements: one case per (train case k, index j), with the leaves x = xs[j] and i = j beside the
// problem's parameters (case k's) and a few constants. Its enumeration banks int, bool and [int]
// bodies up to a size and a budget, with the traps they make; each body b then gives leaves of
// the problem's bank, their behaviours assembled case by case from b's outputs on that case's
// elements (in order; the first element's trap is the case's, as the loop's would be):
//
//   map_N(...)     [b(x, i) for each x of xs]                 b an int body
//   filter_N(...)  the x of xs with b(x, i)                    b a bool body
//   count_N(...)   how many x of xs have b(x, i)
//   find_N(...)    the first i with b(x, i), or -1
//   flat_map_N(...)  b(x, i) of each x of xs, one after the other   b an [int] body
//   sort_by_N(...)   an [int] xs in the order of b(x, i), stable    b an int body (a key)
//
// each written out as a helper function over the problem's parameters (the body's chooses as
// helpers of its own, named after it), of size b's + 1.
//
// Where a result's train outputs are a map or a filter over the sequence, or over all but its
// first or last element, or either reversed (search/body_goals.h), they fix the body's output on
// every element the loop visits, and the body is sought against them: a body right
// on every element, up to an affine map for an int one (99 - x, 3 * x + 7), or a case split over
// the elements (if x % 2 == 0 { 3 * x } else { x }: search/case_split.h with the bodies as terms
// and conditions). LambdaBodies::seek goes on with it between the bank's batches.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "search/bank_enumerator.h"

namespace gs::search::bank {

struct LambdaSettings {
  u64 budget = 50000;          // body expressions evaluated, over all the list parameters
  u32 max_body_size = 8;       // the bodies' expression nodes
  u32 max_elements = 8192;     // element cases per parameter (all train cases'): past it, no lambdas
  u32 max_leaves = 20000;      // leaves per parameter and form, smallest bodies first
  u32 heap_bytes = 1u << 16;   // each element case's heap, at most
  u64 heap_total = 64u << 20;  // … and all of them together (each at least 8 KiB)
  u64 memory = 128u << 20;     // the bodies' behaviours per parameter, at most: fewer bodies past it
  u64 goal_budget = 100000;    // more body expressions, over all the list parameters, while a goal's body is
                               // not met (0: no goals)
};

// The lambda bodies of every sequence parameter: the leaves of the bodies enumerated first
// (settings.budget of them, over all the parameters), and the goals' bodies sought on, a budget at
// a time, between the bank's batches. params/names are the signature's, inputs[k] case k's
// arguments (the cases of `cases`, in whose heaps the leaves' lists are placed), constants the
// body's constant leaves (literal, value); productions() gives the body's productions over a set
// of types (the element context's: the parameters' and int and bool); goals[g][k] is a result's
// output on case k, whose map or filter body is sought (none when settings.goal_budget is 0).
class LambdaBodies {
 public:
  LambdaBodies(std::span<const Type> params, std::span<const std::string> names,
               std::span<const std::vector<vm::Value>> inputs, Cases& cases,
               std::span<const std::pair<std::string, vm::Value>> constants,
               const std::function<std::vector<Production>()>& productions,
               std::span<const std::vector<vm::Value>> goals, const LambdaSettings& settings = {});
  ~LambdaBodies();
  LambdaBodies(const LambdaBodies&) = delete;
  LambdaBodies& operator=(const LambdaBodies&) = delete;

  // The leaves, once.
  std::vector<Leaf> take_leaves() { return std::move(leaves_); }
  // Body expressions evaluated so far, for the leaves and the goals.
  u64 evaluated() const { return evaluated_; }

  // Whether a goal's body is sought still: not met, and its budget not spent (or met and not yet given).
  bool seeking() const;
  // A goal met: its index in `goals` and the expression that gives the result's outputs — a call
  // of the form's helper (leaf.text, leaf.helper; leaf.size nodes; no behaviour).
  struct Met {
    u32 goal = 0;
    Leaf leaf;
  };
  // Goes on seeking the goals' bodies through at most `budget` more body expressions; a goal met
  // (each once), or none yet.
  std::optional<Met> seek(u64 budget);

 private:
  struct Context;
  void enumerate(Context& c, u64 until);

  std::vector<Type> params_;
  u32 max_body_size_ = 8;
  std::vector<std::unique_ptr<Context>> contexts_;
  std::vector<Leaf> leaves_;
  u64 evaluated_ = 0;
  u64 goal_limit_ = 0;  // body expressions a parameter's enumeration may evaluate while its goals are sought
  u32 counter_ = 0;     // the helpers' names
};

struct LambdaLeaves {
  std::vector<Leaf> leaves;
  u64 evaluated = 0;  // body expressions evaluated
};

// LambdaBodies' leaves, without goals.
LambdaLeaves lambda_leaves(std::span<const Type> params, std::span<const std::string> names,
                           std::span<const std::vector<vm::Value>> inputs, Cases& cases,
                           std::span<const std::pair<std::string, vm::Value>> constants,
                           const std::function<std::vector<Production>()>& productions,
                           const LambdaSettings& settings = {});

}  // namespace gs::search::bank
