// Goals of a bottom-up enumeration. A problem with several results (a tuple), or a string result
// whose train outputs all share a prefix or suffix ("The number of syllables is 3"), has its
// answer assembled from parts: for each result a goal — its train outputs, less the common
// prefix and suffix — that an expression of the entry's context meets when its outputs are
// exactly those (a probe may meet one). When every result has an expression meeting its goal,
// the assembled program, `return (e1, e2);` or `return "The number of syllables is " + e;`, is a
// candidate. Where no expression meets a goal, it may be met case by case (search/case_split.h):
// by a decision list of expressions each right on some train cases, under the entry's bool
// expressions as conditions — choose(n < 1000, "small", choose(n < 2000, "", "large")).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "search/case_split.h"
#include "search/enumeration_bank.h"
#include "search/enumeration_grammar.h"
#include "search/enumeration_writer.h"

namespace gs::search::enumeration {

// An expression's behaviour: the hash of its output hashes on the train inputs, in order. Two
// expressions with one behaviour are one; a goal is met by the behaviour of its outputs.
u64 behaviour_of(std::span<const u64> output_hashes);

// What one result of the problem must be, given as an expression's outputs on the train inputs:
// the result's outputs less a prefix and a suffix that every one of them has. Where what is
// left of every output is one character, or an integer's decimal digits, the goal is an int
// expression that chr() or str() turns into it. A single result's outputs as they are are a
// goal too (`whole`), met only case by case: an expression with exactly those outputs is a
// candidate itself.
struct Goal {
  u32 result = 0;  // which of the signature's results
  Type type = Type::Unit;
  std::string prefix, suffix;
  const char* convert = nullptr;  // "chr", "str": the builtin applied to the expression, or none
  bool whole = false;
  std::vector<u64> outputs;  // by train case: the output hash an expression must have
  u64 behaviour = 0;         // the hash observe() computes for an expression with exactly these outputs
  SplitTerms terms;          // of its case split
};

// How a result's goal was met: by one expression (a list without branches), or case by case.
// Entry ids.
struct Met {
  u32 goal = 0;
  DecisionList list;
};

class Goals {
 public:
  // One goal per result, its outputs as they are (for a single result, `whole`: met only case
  // by case); for a string result whose train outputs share a prefix or suffix, one without them
  // too; for a string result whose outputs, less the affixes, are single characters or decimal
  // integers, an int goal under chr() or str(). The grammar's entry context then enumerates the
  // goals' types first within a size.
  Goals(const suites::Problem& problem, Grammar& grammar, const Bank& bank, const Writer& writer,
        const EnumerateSettings& settings);

  // A newly banked expression (entry id) with these outputs (behaviour; by case, where known):
  // the goals it meets, the case splits it is a term or condition of, and once every result has
  // its goal met, the assembled candidate.
  void reached(u32 id, u64 behaviour, std::span<const u64> outputs);
  // Tries the case splits of the goals not met, when there are new terms or an eighth more
  // conditions than at the last try (a try costs terms × conditions).
  void split();
  // The candidates assembled since the last call.
  std::vector<trees::Tree> take_assembled();

 private:
  void add_term(Goal* goal, u32 id, std::span<const u64> outputs);
  void assemble();

  const Grammar& grammar_;
  const Bank& bank_;
  const Writer& writer_;
  EnumerateSettings settings_;
  std::vector<Goal> goals_;
  std::vector<std::optional<Met>> met_;  // by result: how its goal was met, if it was
  u32 cases_ = 0;                        // train cases
  u64 true_hash_ = 0;                    // the output hash of `true`
  SplitConditions conditions_;           // the entry's bool expressions
  bool terms_changed_ = false;           // since split() last tried
  std::vector<trees::Tree> assembled_;   // candidates to propose next
};

}  // namespace gs::search::enumeration
