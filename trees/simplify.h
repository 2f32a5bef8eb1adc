// Shrinking a solution: the programs one step smaller than a given one that still compile and
// keep its entry function. The search loop runs them on the problem's cases and keeps going from
// the smallest that still passes ("the first solution is simplified, shrunk while it still
// passes"), so the program it reports carries no dead weight from evolution.
//
// One step is: drop a helper the entry can no longer reach (or all of them at once), delete a
// statement (trees/variation.h says which may go), replace an `if` by one of its blocks, or
// replace an expression by one of its children of the same type, or by the literal 0 / 0.0 /
// false / "" / [x] of its type. The generator's termination patterns (variation.h) are kept:
// while counters and recursion depths are never removed or changed.
#pragma once

#include <vector>

#include "suites/problem.h"
#include "trees/syntax.h"

namespace gs::trees {

// Every one-step simplification of p, each with fewer nodes (node_count) than p, in this order:
// helpers dropped, statements deleted, ifs replaced by a block, expressions replaced by a child,
// expressions replaced by a literal. Throws std::invalid_argument when p lacks the signature's
// entry function.
std::vector<Tree> simplifications(const Tree& p, const suites::Signature& signature);

}  // namespace gs::trees
