// Genetic operators on Syn syntax trees: subtree mutation, point mutation and crossover, and
// the analysis they (and trees/simplify.h) share: where a program may change.
//
// Every offspring compiles and keeps the entry function's header (name, parameters, results),
// by construction, not by trial compilation:
// - new code comes from the random program generator at the point it goes to
//   (random_program.h: Surroundings): only visible variables of the right type, only calls that
//   make no call cycle, new variables under names the function does not use;
// - a subtree from another program goes in only where every variable it mentions is visible
//   with the same name and type, every function it calls exists here with the same signature
//   (and makes no cycle), its break/continue have a loop and its returns the same results;
// - a statement is removed only when nothing after it mentions what it declares, never when it
//   is the final statement of a function that returns values.
// The generator's termination discipline is kept: a while loop's counter (`let c = 0;`, the
// `c < K` in the condition, the `c = c + 1;` first in the body) and a recursion's depth (the
// first parameter of a self-calling function, the first argument of its self-calls, its
// base-case test) are never changed, assigned or removed, and the bounds of `for i in a..b`
// are only changed under their `% K`. What is not kept (fuel and the heap bound it at run
// time): the cost budget (a mutation may call an expensive helper inside a loop), and the
// rule that what a loop assigns back to a sequence grows it linearly (`xs = xs + xs` can appear
// in a loop; it runs into heap_exhausted).
//
// An offspring over the size limits is discarded and the operator tries again, up to
// max_attempts times; then it returns a copy of the parent (Offspring::copied).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/rng.h"
#include "suites/problem.h"
#include "trees/random_program.h"
#include "trees/syntax.h"

namespace gs::trees {

// How much a guide likes an expression node (its operator, callee or literal), a weight > 0, 1
// for indifference: search/ makes one from the search policy (issue 22; docs/search.md "Guided
// GP"), so that GP draws new code from the policy's probabilities.
using NodeWeight = std::function<double(const Expr& node)>;

struct VariationConfig {
  RandomProgramConfig generator;  // what new code may contain (builtins, loops, floats, ...)
  // Guided (a weight given): a subtree mutation draws `guided_draws` fresh expressions (or
  // statements) for the site it picked and keeps one with probability proportional to the product
  // of their nodes' weights — sampling-importance-resampling of the generator's distribution
  // toward the guide's; a point mutation draws an operator's or callee's replacement in proportion
  // to the weight of the node it makes. Unguided, every draw is the generator's, as before.
  NodeWeight weight;
  u32 guided_draws = 4;
  u32 max_nodes = 1000;      // node_count() of an offspring
  u32 max_depth = 40;        // syntax_depth() of an offspring
  u32 max_attempts = 10;     // offspring tried before the parent is copied
  double p_point = 0.5;      // mutation(): point mutation, else subtree mutation
  double p_statement = 0.3;  // subtree mutation / crossover on statements, else on expressions
};

struct Offspring {
  Tree program;
  u32 attempts = 0;     // offspring made, the returned one included
  bool copied = false;  // every attempt failed: program is the parent
};

// Replaces a random expression with a fresh one of its type, or a statement or a nested block
// with fresh ones, or inserts a fresh statement.
Offspring subtree_mutation(const Tree& parent, const suites::Signature& signature,
                           const VariationConfig& config, Rng& rng);
// Changes one node: an operator to another of the same typing, a literal's value, a variable
// to another visible one of its type, a call to another function or builtin with the same
// argument and result types.
Offspring point_mutation(const Tree& parent, const suites::Signature& signature,
                         const VariationConfig& config, Rng& rng);
// point_mutation with probability config.p_point, else subtree_mutation.
Offspring mutation(const Tree& parent, const suites::Signature& signature, const VariationConfig& config,
                   Rng& rng);
// Parent a with one subtree (an expression, or a statement) replaced by, or a statement
// extended with, a same-typed subtree of parent b that fits there.
Offspring crossover(const Tree& a, const Tree& b, const suites::Signature& signature,
                    const VariationConfig& config, Rng& rng);

// How deeply statements, blocks and expressions nest (each else-if arm one deeper, as the
// parser sees it); at least the compiler's nesting depth (docs/language.md §7).
u32 syntax_depth(const Tree& p);

// Whether p has the entry function of `signature` (name, parameter and result types;
// parameter names may differ). The operators throw std::invalid_argument when a parent lacks it.
bool has_entry(const Tree& p, const suites::Signature& signature);

// ---- where a program may change (shared with trees/simplify.h) ---------------------------

// A replaceable expression: its type is a value type, it is not protected, and it is not the
// call a call statement or a `let (a, b) =` needs.
struct ExprSite {
  Expr* expr = nullptr;
  u32 function = 0;
  u32 scope = 0;  // index into EditSites::scopes
};

// A statement position: block->at(index) (index == size: the end, for insertions).
struct StmtSite {
  Block* block = nullptr;
  u32 index = 0;
  u32 function = 0;
  u32 scope = 0;            // what is visible before the statement
  bool removable = false;   // removing it (or replacing it) keeps the program compiling
  bool insertable = false;  // new statements may go before it
};

// A nested block (not a function body) whose statements may be replaced all at once.
struct BlockSite {
  Block* block = nullptr;
  u32 function = 0;
  u32 scope = 0;  // what is visible inside it (a loop's variable included)
  u32 keep = 0;   // leading statements to keep (a while loop's counter update)
};

// The sites of one program, pointing into it: valid until it changes shape.
struct EditSites {
  std::vector<ExprSite> exprs;
  std::vector<StmtSite> stmts;
  std::vector<BlockSite> blocks;
  // What is visible in each scope (variables, loops, block_depth, multiplier), and what holds
  // in each function (callees, results, hidden_builtins, taken_names, recursive, cost).
  std::vector<Surroundings> scopes;
  std::vector<u32> scope_function;
  std::vector<Surroundings> functions;
  std::vector<std::vector<bool>> reaches;  // reaches[f][g]: f calls g, directly or not
  u32 entry = 0;

  // Everything new code at `scope` needs.
  Surroundings at(u32 scope) const;
};

EditSites find_edit_sites(Tree& p, const suites::Signature& signature, const RandomProgramConfig& generator);

}  // namespace gs::trees
