// Lambda bodies for the value bank (issue 21, docs/search.md "The value bank"): map, filter,
// count and find over an [int] parameter whose body is an enumerated expression, not one of
// search/bank_loops.h's fixed forms — the bottom-up enumeration of lambdas of LambdaBeam (Shi et
// al. 2023) and Probe, over an element context.
//
// The element context of a parameter xs is a bank of its own whose cases are the train cases'
// elements: one case per (train case k, index j), with the leaves x = xs[j] and i = j beside the
// problem's parameters (case k's) and a few constants. Its enumeration banks int and bool bodies
// up to a size and a budget, with the traps they make; each body b then gives leaves of the
// problem's bank, their behaviours assembled case by case from b's outputs on that case's
// elements (in order; the first element's trap is the case's, as the loop's would be):
//
//   map_N(...)     [b(x, i) for each x of xs]                 b an int body
//   filter_N(...)  the x of xs with b(x, i)                    b a bool body
//   count_N(...)   how many x of xs have b(x, i)
//   find_N(...)    the first i with b(x, i), or -1
//
// each written out as a helper function over the problem's parameters (the body's chooses as
// helpers of its own, named after it), of size b's + 1.
#pragma once

#include <functional>
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
};

struct LambdaLeaves {
  std::vector<Leaf> leaves;
  u64 evaluated = 0;  // body expressions evaluated
};

// The lambda leaves of every [int] parameter. params/names are the signature's, inputs[k] case
// k's arguments (the cases of `cases`), constants the body's constant leaves (literal, value); productions()
// gives the body's productions over a set of types (the element context's: the parameters' and
// int and bool).
LambdaLeaves lambda_leaves(std::span<const Type> params, std::span<const std::string> names,
                           std::span<const std::vector<vm::Value>> inputs, Cases& cases,
                           std::span<const std::pair<std::string, vm::Value>> constants,
                           const std::function<std::vector<Production>()>& productions,
                           const LambdaSettings& settings = {});

}  // namespace gs::search::bank
