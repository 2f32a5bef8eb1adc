// What an enumeration may look for besides a result's outputs as they are (docs/search.md
// "Goals"): for a string or list result whose train outputs share a prefix or a suffix, the
// strings or lists between them (`return [8] + e + [8];`); where those are single characters or decimal
// integers, the ints that chr() or str() turns into them; where they hold lines, the [str] that join(…, "\n")
// turns into them, and where those are numbers the [int] whose texts they are; where they keep a str
// parameter's text or part of it at one end, what comes before or after it; for an [int] result, what goes
// into a last reverse, sort, running sum or map (search/last_steps.h). The enumeration assembles an answer
// from expressions that meet these: `return "Check sum is " + chr(e);`, `return (e1, e2);`, `return
// map_mul(e, 2);`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "suites/problem.h"

namespace gs::search {

// The last steps around the expression that meets a goal (search/last_steps.h): Syn with $0 for
// the expression, "sort($0)", "map_mul(reverse($0), 2)", and the helper functions they call.
struct LastStep {
  std::string text;
  std::vector<std::string> helpers;
  bool permutation = false;  // a step sorts: any order of the goal's outputs meets it
  // The productions and constants the steps are written with, by key (search/bank_grammar.h),
  // a parameter they take not among them.
  std::vector<std::string> keys;
  bool empty() const { return text.empty(); }
};

struct GoalShape {
  u32 result = 0;  // which of the signature's results
  Type type = Type::Unit;
  vm::Value prefix, suffix;  // of the result's type (a str or a list), or none (Unit)
  // "chr", "str": the builtin applied to the expression; "map_str": the loop (lines of numbers,
  // an [int] expression); or none.
  const char* convert = nullptr;
  bool lines = false;  // join(…, "\n") around the expression (converted)
  // By train case: what the expression must give; of a lines goal of [str], its lines joined
  // (the strs between the affixes).
  std::vector<vm::Value> outputs;
  LastStep step;  // the answer's last step, if any (outputs: what goes into it)
  // A part of a list result taken apart, or of a lines of numbers goal: `layout` writes the
  // list from its parts' expressions ($0, $1, …: "[$0, $1, $2]", "[$0] + $1 + [$2]"), this goal
  // is part `part` of it, an element or a list between them, and the result is met once every
  // part is (the goals of one layout follow each other, part 0 first). A part's affixes, convert
  // and lines are its whole's, written around the layout.
  std::string layout;
  u32 part = 0;
  // The result's outputs as they are.
  bool plain() const {
    return !has_affix(prefix) && !has_affix(suffix) && convert == nullptr && !lines && step.empty() &&
           layout.empty();
  }
  // Whether the outputs are the texts the expression's lines join into (a lines goal of [str]).
  bool joined() const { return lines && convert == nullptr; }
  static bool has_affix(const vm::Value& v) { return !v.s.empty() || !v.items.empty(); }
};

// The prefix and suffix every train output of result r shares: strs' texts, or (of three or more
// cases) lists' elements; none (Unit values) for a result of another type.
std::pair<vm::Value, vm::Value> output_affixes(const suites::Problem& problem, u32 r);

// Per result in order: its outputs as they are, then the goals last steps from them
// (search/last_steps.h) (up to `last_steps` of them), then without the affixes, then taken apart
// (a list result of three or more cases: its elements where every output is as long, 1 to 8;
// else its first element and the rest, all but its last and the last, and the first, those
// between and the last), then as ints under chr or str, then as lines (strs, then numbers, then
// the numbers taken apart as a list result is), where they exist, and where the outputs have
// affixes, those of the outputs as they are, then what a kept part of a str parameter leaves.
std::vector<GoalShape> goal_shapes(const suites::Problem& problem, u32 last_steps = 3);

// The productions and constants an answer met through goal g is written with besides the
// expression that meets it, by key (search/bank_grammar.h): the + of its affixes and their
// elements or texts, its chr or str, the join of its lines and "\n", its last steps', its
// layout's [$0] and +. None for a plain goal; map_str (lines of numbers) is no production.
std::vector<std::string> shape_keys(const GoalShape& g);

}  // namespace gs::search
