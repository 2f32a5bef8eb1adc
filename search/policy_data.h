// Self-play data for the search policy (issue 22, docs/search.md "Policy data"): problems the
// value bank makes itself, labelled with the productions their answers use — DeepCoder's recipe
// (Balog et al. 2017: random programs of the search's language, run on random inputs, kept
// when they behave unlike the others), with the bank as the program generator. Each bank draws a
// signature over the bank's types (1 to 3 parameters of int, [int], str or [str]; a result of
// int, bool, [int] or str), random inputs for a few cases (small ints, short lists and strings,
// as the bundled suites hold), and enumerates the grammar over them (search/bank_grammar.h: the
// operators, builtins, loops and choose, and over a sequence parameter the lambda leaves of
// search/bank_lambdas.h, their bodies enumerated first) for a budget. Among its banked expressions of the
// result type of 2 nodes or more that trap on no case and do not give one output for every
// case, some are drawn at random: each is a problem whose outputs are the expression's, and its
// labels are the productions and constants the expression uses. The bank keeps one expression
// per behaviour, so no two problems of a bank behave alike; across banks, a problem whose
// signature and outputs were written before is skipped.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "suites/problem.h"

namespace gs::search {

struct PolicyDataConfig {
  u64 examples = 10000;  // problems to make
  u64 seed = 1;          // the same seed makes the same problems
  u32 cases = 8;         // per problem (listfunctions has 8 train cases, deepcoder-neo100 5)
  u64 budget = 20000;    // expressions each bank enumerates
  u32 per_bank = 16;     // problems drawn from each bank at most
  u32 max_size = 8;      // nodes of an answer at most
  // Lambda bodies each bank enumerates over its sequence parameters together, for the leaves map,
  // filter, count, find, flat map and sort by of search/bank_lambdas.h (0: none). Off by default:
  // policies trained with them (2000) solved 1 to 3 fewer listfunctions problems at 300,000 and 1
  // to 2 fewer deepcoder-neo100 ones (docs/results.md "Lambda forms in the policy's data").
  u64 lambda_budget = 0;
  // DeepCoder's one-node list forms (bank::list_language_form) among the productions of every
  // other bank whose parameters include an [int] (the odd-numbered ones: the others stay as they
  // were, as the search begins without the forms, search/list_forms_restart.h), so that the policy
  // learns the forms' keys rather than giving each the median of the keys it knows.
  bool list_forms = false;
};

struct PolicyExample {
  suites::Problem problem;        // its train cases; named policy-BANK-K
  std::string program;            // the answer, as a Syn program
  u32 size = 0;                   // its expression's nodes
  std::vector<std::string> uses;  // production keys (search/bank_grammar.h), each constant as
                                  // "LITERAL () -> TYPE", each lambda leaf's form; sorted
};

// Makes config.examples problems, handing each to `emit` in order. `progress`, when given, is
// called after each bank with the problems made so far.
void make_policy_data(const PolicyDataConfig& config, const std::function<void(const PolicyExample&)>& emit,
                      const std::function<void(u64 made, u64 banks)>& progress = {});

// One line of a policy data file (JSON Lines): the problem file's fields (docs/problems.md),
// "program" and "size" when the example has a program (a campaign's solved problem has none
// here: policy-data --from-run), and "uses".
std::string policy_example_json(const PolicyExample& e);

}  // namespace gs::search
