// The search policy as GP's guide (issue 22; docs/search.md "Guided GP"): the weight
// trees/variation.h's mutations give a node of new code, from the probability the policy gives its
// key (search/bank_grammar.h node_key) — 2^-(c - 1) for the cost c the guided enumeration gives
// the same key (search/policy.h policy_cost), so GP and the enumeration prefer the same
// productions by the same amounts, and a node no key names (a variable, a call of the program's
// own function) weighs 1. A guided mutation keeps one of several fresh subtrees in proportion to
// the product of their nodes' weights: GP draws its new code from the generator's distribution
// reweighted by the policy's.
#pragma once

#include "search/policy.h"
#include "suites/problem.h"
#include "trees/variation.h"

namespace gs::search {

// The policy's probabilities for `problem` are asked once (one forward pass), for its grammar's
// keys, its constants and the ints -1 to 10; any other key a node names (a comparison the grammar
// writes otherwise, `$0 > $1`; another literal) gets what the policy gives a key it lacks. The
// weight keeps its table, not the policy; it is not thread-safe (GP breeds on one thread).
trees::NodeWeight gp_guide(const std::shared_ptr<const Policy>& policy, const suites::Problem& problem,
                           double temperature);

}  // namespace gs::search
