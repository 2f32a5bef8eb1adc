// The last steps an answer may end with (docs/search.md "Goals"): for a list result, the goal of
// the expression that goes into a final reverse, sort, running sum or elementwise map. A program
// that ends `return map_mul(e, 2);` needs the bank to reach e and then two more nodes; the goal
// "the outputs halved" is met by e itself, a level or two earlier (the witness functions of
// FlashMeta, Polozov & Gulwani 2015, one step deep). Each is the inverse of its step on the train
// outputs, where it has one:
//
//   reverse($0)          the outputs reversed
//   sort($0)             any order of the outputs (where every output is sorted ascending)
//   reverse(sort($0))    any order again (where every output is sorted descending)
//   scan_add($0, 0)      the differences of consecutive elements (the outputs are running sums)
//   map_mul($0, k)       the outputs divided by k = 2, 3, 4 (where every element divides)
//   map_negate($0)       the outputs negated
//   map_add($0, 1), map_sub($0, 1)   the outputs less one, plus one
//   zip_add($0, ys), zip_sub($0, ys), zip_sub(ys, $0), zip_mul($0, ys)   with an [int] parameter ys:
//                        the outputs less ys, element by element (where ys is as long or longer)
//   map_add($0, n), map_sub($0, n), map_mul($0, n)   with an int parameter n
//
// and up to three of them, one inside another (map_mul(reverse(e), 2), zip_add(reverse(zip_sub(xs,
// e)), xs)), but for one that repeats or undoes the step it goes into, and anything but a map inside
// a sort.
//
// DeepCoder's list language (Balog et al. 2017) ends most of its programs with one of these.
#pragma once

#include <vector>

#include "base/types.h"
#include "search/goal_shapes.h"
#include "suites/problem.h"

namespace gs::search {

// The goals up to `depth` last steps from `goal`, a goal of `problem` (whose parameters the
// zips and maps may take), each once: none unless it is a plain [int] goal whose outputs hold an
// element; a step whose inverse overflows or divides unevenly on some element, or changes no
// output, gives none.
std::vector<GoalShape> last_step_goals(const GoalShape& goal, const suites::Problem& problem, u32 depth = 3);

}  // namespace gs::search
