// The enumeration over the value bank as a generator (search/generator.h make_enumerate_generator): the
// problem's train cases become the bank's cases, its parameters and a few constants the leaves,
// the operators and builtins of the signature's types, the loops of search/bank_loops.h and a
// lazy choose per type the productions. Each propose() goes on enumerating for `count`
// expressions against the problem's goals (search/goal_shapes.h: each result's outputs, and for
// a string or list result the part between its affixes, or the int under chr or str) and proposes a
// program once every result is met, which the pipeline judges. A goal may be met case by case
// (search/case_split.h): the banked expressions of its type right on some train cases are the
// terms, the bool ones that trap on no case the conditions, and a decision list over them is a
// helper of `if`s, so that a term runs only on the cases its branch takes (it may trap on the
// others).
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "base/hash.h"
#include "pipeline/case_set.h"
#include "search/bank_enumerator.h"
#include "search/bank_grammar.h"
#include "search/bank_lambdas.h"
#include "search/bank_loops.h"
#include "search/bank_words.h"
#include "search/case_sample.h"
#include "search/case_split.h"
#include "search/forward_steps.h"
#include "search/generator.h"
#include "search/goal_index.h"
#include "search/goal_shapes.h"
#include "search/list_forms_restart.h"
#include "trees/syntax.h"

namespace gs::search {

namespace {

using bank::Production;

const Type I = Type::Int, B = Type::Bool, A = Type::IntArray, S = Type::Str, F = Type::Float,
           SA = Type::StrArray, FA = Type::FloatArray;

// The hash of a list of ints whatever their order: a permutation goal's (search/last_steps.h, sort).
u64 multiset_hash(std::span<const u64> elements) {
  u64 sum = 0;
  for (u64 x : elements) {  // splitmix64's finaliser, so that no sum of two collides by carries
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    sum += x ^ (x >> 31);
  }
  return mix_word(mix_word(kHashSeed, elements.size()), sum);
}

// Whether t is a partial operation's trap (a division by zero, an index out of range, an empty
// list's max), which a guard may keep a term from, rather than a loop's fuel or a full heap.
bool partial_operation_trap(vm::Trap t) {
  return t == vm::Trap::DIVISION_BY_ZERO || t == vm::Trap::INDEX_OUT_OF_RANGE ||
         t == vm::Trap::INVALID_ARGUMENT;
}

// Whether some train output is a string of lines, joined with "\n".
bool has_lines(const suites::Problem& problem) {
  for (const suites::Case& c : problem.train)
    for (const vm::Value& v : c.outputs)
      if (v.type == S && v.s.find('\n') != std::string::npos) return true;
  return false;
}

// Whether the [str] at ref, its elements joined with "\n" (as the VM's join writes them), is
// `expected`: compared in the heap, nothing made.
bool joined_lines_are(vm::Heap& heap, u64 ref, std::string_view expected) {
  if (!heap.is_array(ref)) throw std::logic_error("lines goal: no [str] to compare");
  const u32 lines = heap.header(u32(ref))->length;
  size_t at = 0;
  for (u32 j = 0; j < lines; ++j) {
    if (j > 0 && (at == expected.size() || expected[at++] != '\n')) return false;
    const u64 line = heap.slots(u32(ref))[j];
    if (!heap.is_string(line)) throw std::logic_error("lines goal: a line that is no str");
    const u32 length = heap.header(u32(line))->length;
    if (expected.size() - at < length ||
        std::memcmp(heap.bytes(u32(line)), expected.data() + at, length) != 0)
      return false;
    at += length;
  }
  return at == expected.size();
}

// Whether a parameter is an [int]: where DeepCoder's list forms apply.
bool has_int_list(const suites::Problem& problem) {
  const std::vector<Type>& params = problem.signature.params;
  return std::find(params.begin(), params.end(), A) != params.end();
}

class EnumerateGenerator final : public Generator {
 public:
  // The bank's cases are problem's train cases; the constants that the outputs suggest (the
  // recurring strings, the ints at which the outputs step) are taken from `whole`'s where the
  // cases are a sample of its (search/case_sample.h), so that a word or a threshold no case of
  // the sample shows is a leaf all the same.
  // `grammar`: the whole grammar, with DeepCoder's list forms or without, or that list language
  // alone (search/list_forms_restart.h); the forms only where a parameter is an [int].
  EnumerateGenerator(const suites::Problem& problem, EnumerateSettings settings, ListForms grammar,
                     const suites::Problem* whole = nullptr)
      : settings_(settings) {
    const suites::Problem& all = whole != nullptr ? *whole : problem;
    const suites::Signature& sig = problem.signature;
    types_ = bank::grammar_types(problem);
    if (has_int_list(problem)) grammar_ = grammar;
    if (grammar_ == ListForms::Alone) settings_.lambdas = false;  // its maps and filters are the forms
    const bool lines = has_lines(problem);
    if (lines) types_.insert(A);  // lines of numbers: a list of ints, then map_str
    // A map over a str's characters or a [str]'s elements with an int body is an [int] (the
    // codes, the lengths): with its productions, sum(map_1(s)).
    if (settings.lambdas && settings.lambda_budget > 0 &&
        std::any_of(sig.params.begin(), sig.params.end(), [](Type t) { return t == S || t == SA; }))
      types_.insert(A);
    for (Type t : types_)
      if (t != I && t != B && t != A && t != S && t != F && t != SA && t != FA) return;  // a type they lack
    for (const suites::Case& c : problem.train) inputs_.push_back(c.inputs);
    std::vector<GoalShape> shapes = goal_shapes(problem, settings.last_steps);
    key_case_ = key_case(shapes, u32(problem.train.size()));
    for (GoalShape& shape : shapes) {
      Goal g;
      for (const vm::Value& v : shape.outputs) {
        std::vector<u64> elements;
        for (const vm::Value& x : v.items) elements.push_back(u64(x.i));
        g.hashes.push_back(shape.step.permutation ? multiset_hash(elements) : pipeline::output_hash({&v, 1}));
      }
      if (shape.outputs.size() > key_case_ && (shape.type == I || shape.type == A)) {
        const vm::Value& key = shape.outputs[key_case_];
        if (shape.type == I) g.key = {key.i};
        for (const vm::Value& x : key.items) g.key.push_back(x.i);
        if (shape.step.permutation) std::sort(g.key.begin(), g.key.end());
      }
      if (!shape.joined() && (shape.type == I || shape.type == A)) {
        forward_goals_[shape.step.permutation].emplace(key_of(shape.type, g.key, shape.step.permutation),
                                                       u32(goals_.size()));
        if (shape.type == A) forward_lengths_.insert(g.key.size());
      }
      g.shape = std::move(shape);
      goals_.push_back(std::move(g));
    }
    index_goals();
    met_.assign(sig.results.size(), std::nullopt);
    parts_met_.assign(goals_.size(), std::nullopt);
    tolerance_ = problem.float_tolerance;
    params_ = sig.params;
    names_ = sig.param_names;
    results_ = sig.results;
    constants_ = bank::small_constants(types_);
    if (types_.count(S)) {
      if (lines) constants_.push_back(vm::Value::of_str("\n"));
      // The string outputs that recur (a problem that answers "small" or "large" needs those
      // words), of results without affixes: up to 8.
      std::map<std::string, u32> counts;
      for (u32 r = 0; r < sig.results.size(); ++r) {
        const auto [prefix, suffix] = output_affixes(all, r);
        if (sig.results[r] != S || GoalShape::has_affix(prefix) || GoalShape::has_affix(suffix)) continue;
        for (const suites::Case& c : all.train)
          if (c.outputs[r].s.size() <= 40) ++counts[c.outputs[r].s];
      }
      const u32 recurring = std::max<u32>(2, u32(all.train.size() / 20));
      u32 added = 0;
      for (const auto& output : counts)
        if (output.second >= recurring && added < 8 &&
            std::none_of(constants_.begin(), constants_.end(),
                         [&](const vm::Value& c) { return c.type == S && c.s == output.first; })) {
          constants_.push_back(vm::Value::of_str(output.first));
          ++added;
        }
    }
    // A result, or a part of one, whose every train output is the same value (of three or more
    // cases) has it as a constant: a constant answer, one to be built around (listfunctions
    // c001's list), or an element of a list (c095's `[xs[0], 23, 68, 42, 99, 71, …]`).
    for (const Goal& g : goals_) {
      if ((!g.shape.plain() && g.shape.layout.empty()) || g.shape.outputs.size() < 3) continue;
      const vm::Value& first = g.shape.outputs[0];
      if (std::all_of(g.shape.outputs.begin(), g.shape.outputs.end(),
                      [&](const vm::Value& v) { return vm::identical(v, first); }) &&
          trees::literal_of(first) &&
          std::none_of(constants_.begin(), constants_.end(),
                       [&](const vm::Value& c) { return vm::identical(c, first); }))
        constants_.push_back(first);
    }
    if (types_.count(F)) constants_.push_back(vm::Value::of_float(0.0));
    for (const vm::Value& c : problem.constants)
      if (types_.count(c.type) && trees::literal_of(c)) constants_.push_back(c);
    if (settings.splits)  // the ints at which the outputs step, for the conditions
      for (i64 t : split_thresholds(all))
        if (std::none_of(constants_.begin(), constants_.end(),
                         [&](const vm::Value& c) { return c.type == I && c.i == t; }))
          constants_.push_back(vm::Value::of_int(t));
    if (settings.forward_steps && types_.count(A) && !problem.train.empty()) {
      forward_ = forward_steps(problem);
      for (const vm::Value& p : problem.train[key_case_].inputs) {  // the [int] parameters, for the sketches
        key_lists_.emplace_back();
        for (const vm::Value& y : p.items) key_lists_.back().push_back(u64(y.i));
      }
    }
    entry_ = sig.entry;
    if (settings.policy) problem_ = problem;
    usable_ = true;
  }

  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }

  std::vector<Proposal> propose(u32 count, u64) override {
    evaluated_ = 0;
    std::vector<Proposal> out;
    if (usable_ && !enumerator_) start();
    if (!enumerator_ || enumerator_->finished() || bank_full()) return out;  // ended, or full
    const u64 before = spent_;
    // While the body of a map or filter that gives the result is sought, half of each batch
    // goes to it (bank::LambdaBodies::seek).
    if (bodies_ && bodies_->seeking()) {
      const u64 sought = bodies_->evaluated();
      std::optional<bank::LambdaBodies::Met> met = bodies_->seek(std::max<u32>(count / 2, 1));
      sought_ += bodies_->evaluated() - sought;
      count -= u32(std::min<u64>(count - 1, bodies_->evaluated() - sought));
      if (met) {
        Proposal p;
        p.source = entry(type_name(results_[0]), met->leaf.text) + met->leaf.helper();
        if (sources_.insert(p.source).second) {
          sought_forms_.emplace(p.source, met->leaf.form);
          spent_ = lambda_evaluated_ + sought_ + enumerated_ + stepped_;
          evaluated_ = spent_ - before;
          if (evaluated_ > 0) --evaluated_;
          out.push_back(std::move(p));
          return out;
        }
      }
    }
    bank::EnumerationStats stats;
    auto meets = [&](const bank::Behaviour& b) {
      candidate_goals(b, {}, false, &candidates_);
      for (u32 j : candidates_)
        if (!closed(j) && meets_all(goals_[j], b)) return true;
      return false;
    };
    // meets() is false for a type no open goal has, and for a behaviour whose key case rules out
    // every open goal (candidate_goals() looks at nothing else).
    bank::MayMeet may_meet;
    may_meet.type = [&](Type t) {
      for (u32 j = 0; j < goals_.size(); ++j)
        if (goals_[j].shape.type == t && !closed(j)) return true;
      return false;
    };
    may_meet.key_case = key_case_;
    may_meet.on_key_case = [&](const bank::Behaviour& b) {
      if (b.too_long) return false;  // not made (its word means nothing), and never banked
      candidate_goals(b, {}, false, &candidates_);
      for (u32 j : candidates_)  // a goal no hash finds (lines joined, floats) compared there
        if (!closed(j) && (keyed(goals_[j]) || right_on(goals_[j], b, key_case_))) return true;
      return false;
    };
    // On through the batch while what meets a goal makes no program yet (a goal of one result of
    // several, met by a parameter before anything is evaluated).
    for (u64 left = count; out.empty() && left > 0 && !enumerator_->finished();) {
      const u64 start = enumerated_;
      const std::optional<u32> answer =
          enumerator_->search(meets, settings_.max_size, left, &stats, may_meet);
      enumerated_ = stats.evaluated;
      bytes_ = stats.bytes + cases_->heap_used();
      if (answer && results_.size() == 1 && meets_all(goals_[0], enumerator_->behaviour(*answer))) {
        // The result's outputs as they are: the program is the expression (whose twins alike() counts).
        Proposal p;
        p.source = enumerator_->program(*answer, entry_);
        answer_ = {*answer, p.source};
        out.push_back(std::move(p));
      } else if (std::optional<std::string> assembled = assemble()) {
        Proposal p;
        p.source = std::move(*assembled);
        out.push_back(std::move(p));
      }
      if (!answer) break;
      left -= std::min(left, enumerated_ - start);
    }
    spent_ = lambda_evaluated_ + sought_ + enumerated_ + stepped_;
    if (stats.heaps_full && !heaps_filled_) heaps_filled_ = Filled{spent_, stats.level};
    if (bank_full() && !bank_filled_) bank_filled_ = Filled{spent_, stats.level};
    evaluated_ = spent_ - before;
    // An answer was evaluated in the bank and is judged by the pipeline: count it once.
    if (!out.empty() && evaluated_ > 0) --evaluated_;
    return out;
  }

  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64) override {}
  u64 evaluated_internally() const override { return evaluated_; }
  // Where the bank filled: silently, the search would go on counting expressions that could no
  // longer make what an answer needs (even-squares as a str, 18 cases: not solved in 20,000,000
  // at the default --bank-memory, at 806,303 with three times as much).
  std::vector<std::string> notes() const override {
    std::vector<std::string> out;
    const auto when = [](const Filled& f) {
      return "after " + std::to_string(f.expressions) + " expressions, at level " + std::to_string(f.level);
    };
    const u64 memory_mib = settings_.memory >> 20;
    if (heaps_filled_) {
      // Each case's heap is the heaps' share of --bank-memory over the cases, held to 1-256 MiB.
      const u64 heap_mib = cases_->limits().heap_bytes >> 20;
      const u64 quarter_mib = (heaps_share() >> 20) / std::max<u64>(cases_->count(), 1);
      const std::string share =
          heap_mib == quarter_mib
              ? std::string(grammar_ == ListForms::Alone ? "three quarters" : "a quarter") +
                    " of --bank-memory " + std::to_string(memory_mib) + " over " +
                    std::to_string(cases_->count()) + " cases"
          : heap_mib > quarter_mib ? "the least a case heap is given"
                                   : "the most a case heap may hold";
      out.push_back(
          "the value bank's case heaps filled " + when(*heaps_filled_) + " (" + std::to_string(heap_mib) +
          " MiB a case: " + share +
          "); no list or string was banked after that (each of a goal's type was only tried as an answer)" +
          (heap_mib < quarter_mib ? std::string() : std::string(": a larger --bank-memory gives them room")));
    }
    if (bank_filled_)
      out.push_back("the value bank filled --bank-memory (" + std::to_string(memory_mib) + " MiB) " +
                    when(*bank_filled_) + "; the enumeration ended there");
    return out;
  }
  u64 evaluated_preparing() const override { return lambda_evaluated_; }
  std::optional<Alike> alike(const Proposal& solution) override {
    if (!answer_ || answer_->second != solution.source) return std::nullopt;
    bank::EnumerationStats stats;
    Alike a;
    a.size = enumerator_->size(answer_->first);
    a.programs = enumerator_->alike(answer_->first, kAlikeBudget, &stats, &a.complete);
    return a;
  }
  // A whole answer's, or an assembled one's: the union over the expressions it was assembled from
  // and what it is written with around them (keys_of()) that this problem's grammar holds (a
  // production of the bank, a constant leaf, a lambda leaf's form and its body's productions and
  // constants); a goal's map or filter (met by its body sought against the outputs): its form.
  std::vector<std::string> uses(const Proposal& solution) const override {
    if (auto it = sought_forms_.find(solution.source); it != sought_forms_.end()) return {it->second};
    std::vector<u32> ids;
    std::set<std::string> keys;
    if (answer_ && answer_->second == solution.source) {
      ids = {answer_->first};
    } else if (auto it = assembled_.find(solution.source); it != assembled_.end()) {
      ids = it->second.ids;
      std::set<std::string> grammar;
      for (u32 i = 0; i < enumerator_->production_count(); ++i)
        grammar.insert(bank::production_key(enumerator_->production(i)));
      for (const vm::Value& c : constants_) grammar.insert(bank::constant_key(c));
      for (u32 j = 0; j < enumerator_->leaf_count(); ++j)
        if (!enumerator_->leaf(j).form.empty()) grammar.insert(enumerator_->leaf(j).form);
      for (const std::string& k : it->second.keys)
        if (grammar.count(k)) keys.insert(k);
    }
    for (u32 id : ids) {
      std::vector<bool> productions, leaves;
      enumerator_->uses(id, &productions, &leaves);
      for (u32 i = 0; i < productions.size(); ++i)
        if (productions[i]) keys.insert(bank::production_key(enumerator_->production(i)));
      for (u32 j = 0; j < constants_.size(); ++j)  // the constants' leaves follow the parameters'
        if (leaves[params_.size() + j]) keys.insert(bank::constant_key(constants_[j]));
      for (u32 j = 0; j < leaves.size(); ++j)
        if (const bank::Leaf& leaf = enumerator_->leaf(j); leaves[j] && !leaf.form.empty()) {
          keys.insert(leaf.form);
          if (leaf.body_uses) {
            const std::vector<std::string> body = leaf.body_uses();
            keys.insert(body.begin(), body.end());
          }
        }
    }
    return {keys.begin(), keys.end()};
  }

 private:
  // A term right wherever it does not trap: the cases where it traps, and the others.
  struct Guarded {
    u32 term;
    CaseMask trapped, rest;
  };
  // A goal (search/goal_shapes.h): what an expression must give on each train case, and the
  // terms of its case split.
  struct Goal {
    GoalShape shape;
    std::vector<u64> hashes;  // the outputs' hashes, by case
    SplitTerms terms;
    // Terms right wherever they do not trap (partial_traps()).
    std::vector<Guarded> guarded;
    // An int or [int] goal's output on the key case (its elements; sorted for a permutation goal).
    std::vector<i64> key;
  };
  // The train case the goals are looked up by (candidate_goals()) and the forward steps sketched
  // on (step_forward()): the one whose int and [int] outputs say most — the longest lists, then
  // the most ints not 0; the first of equals. An entry whose output there is a goal's is compared
  // with it on every case, and a step whose sketch gives one is applied on every case by the VM:
  // where that output is [] (deepcoder-027's and 078's first case; most filters and takes of a
  // list give it somewhere), nearly every step was, and the VM took 84 % of the search.
  static u32 key_case(const std::vector<GoalShape>& shapes, u32 cases) {
    std::vector<u64> said(cases, 0);
    for (const GoalShape& shape : shapes) {
      if (shape.joined() || (shape.type != I && shape.type != A) || shape.outputs.size() != cases) continue;
      for (u32 k = 0; k < cases; ++k)
        said[k] += shape.type == A ? shape.outputs[k].items.size() : u64(shape.outputs[k].i != 0);
    }
    return u32(std::max_element(said.begin(), said.end()) - said.begin());
  }
  // How a result (or a part of one) was met: by goal `goal`, with one expression (a list without
  // branches) or case by case (entry ids); the expression taken a step forward first, if
  // `forward`. A result taken apart: by its parts, goal `goal` the first of them.
  struct Met {
    u32 goal = 0;
    DecisionList list;
    const ForwardStep* forward = nullptr;
    std::vector<Met> parts;
    i64 offset = 0;  // added to the expression: an int goal met up to a constant (offset_of())
    // A bool goal met by whether the expression, a sequence, is empty (+1: `len(e) == 0`) or not
    // (-1: `0 < len(e)`): meet_by_emptiness().
    int empty = 0;
    // A goal met by `if cause { fallback } else { e }`, the condition under which e traps and the
    // one output of the cases where it does (meet_by_trap_cause()); empty cause: none.
    std::string cause;
    vm::Value fallback;
  };
  static Met met_by(u32 goal, DecisionList list, const ForwardStep* forward = nullptr) {
    Met m;
    m.goal = goal;
    m.list = std::move(list);
    m.forward = forward;
    return m;
  }

  // The bank, its leaves (the lambda leaves' bodies enumerated first) and its enumerator.
  void start() {
    // Every banked value of a case lives in its heap: the heaps take a quarter of --bank-memory
    // (512 MiB at the default), shared by the cases, 1 to 256 MiB each; what they hold counts
    // against --bank-memory with the behaviours. Lists are what fill them, and an application
    // on a case whose heap is full is not banked: with 64 MiB in all (before), the heaps of
    // listfunctions' eight cases were full after about 600,000 candidates and the bank made no
    // list after that (c130's `range_by(min(xs), max(xs), 2)` was never reached). Larger heaps
    // cost time where there are many cases, as more and larger lists are banked (PSB1 at
    // 300,000: +22 % against 64 MiB; docs/results.md "The bank's heaps, and list results taken apart").
    vm::Limits limits;
    limits.heap_bytes = u32(
        std::clamp<u64>(heaps_share() / std::max<size_t>(inputs_.size(), 1), 1u << 20, vm::kMaxHeapBytes));
    cases_ = std::make_unique<bank::Cases>(
        params_, inputs_, limits,
        bank::Evaluation{.threads = settings_.threads, .interpreter_only = settings_.bank_interpreter});
    std::vector<bank::Leaf> leaves;
    for (u32 i = 0; i < params_.size(); ++i) {
      leaves.push_back({names_[i], cases_->parameter(i)});
      parameters_ += (i ? ", " : "") + names_[i] + ": " + type_name(params_[i]);
      arguments_ += (i ? ", " : "") + names_[i];
    }
    for (const vm::Value& c : constants_) leaves.push_back({literal(c), bank::constant(c, *cases_)});
    // The decimal digits of each int parameter, from the last (decimal_digits, search/bank_loops.h):
    // leaves, not a production — as a production it made a list of every banked int, and PSB1's
    // for-loop-index went from 121,708 candidates to past 300,000 (2,391,000 on all 200 cases).
    if (types_.count(A)) {
      const std::string helper = bank::loop_helper("decimal_digits");
      const bank::Operation digits(std::vector<Type>{I}, A, "decimal_digits(a0)", helper, bank::kLoopFuel);
      for (u32 i = 0; i < params_.size(); ++i)
        if (params_[i] == I) {
          const bank::Behaviour* n = &cases_->parameter(i);
          leaves.push_back({"decimal_digits(" + names_[i] + ")", digits.apply({&n, 1}, *cases_), 2,
                            [helper] { return helper; }});
        }
    }
    // Where guards may be made (partial_traps()), whether each sequence parameter is empty: a
    // leaf of 4 nodes at level 2, so that the condition of a guard against an empty list's traps
    // is `len(xs) == 0`. Made by the productions at size 4, it came after `xs == map_4(xs)` (xs
    // equal to a list of as many ones, a lambda leaf), which the bank kept for the same cases and
    // which misjudges `[1]`.
    if (settings_.splits && cases_->count() >= kTrustedCases)
      for (u32 i = 0; i < params_.size(); ++i)
        if (params_[i] == S || is_array(params_[i])) {
          const bank::Operation empty(std::vector<Type>{params_[i]}, B, "len(a0) == 0");
          const bank::Behaviour* p = &cases_->parameter(i);
          bank::Leaf leaf("len(" + names_[i] + ") == 0", empty.apply({&p, 1}, *cases_), 4);
          leaf.cost = 2;
          leaves.push_back(std::move(leaf));
        }
    if (settings_.lambdas && settings_.lambda_budget > 0) {
      // The bodies' constants and productions (search/bank_grammar.h): those that make an int, a
      // bool or a str, the loops over an element among them (count_where_eq(xs, x): how often the
      // element occurs; digits_add(x, 10, 0)), and the builders of a flat map's lists ([x], push,
      // range_to(1, x)).
      const auto body_constants = bank::body_constants(constants_);
      auto body_productions = [&] {
        return bank::body_grammar(types_, settings_.choose, grammar_ == ListForms::Beside);
      };
      // The result's outputs as they are: a map's or a filter's over a sequence sets its body's
      // (a problem of one result).
      std::vector<std::vector<vm::Value>> outputs;
      if (results_.size() == 1)
        for (const Goal& g : goals_)
          if (g.shape.plain()) outputs.push_back(g.shape.outputs);
      bodies_ = std::make_unique<bank::LambdaBodies>(
          params_, names_, inputs_, *cases_, body_constants, body_productions, outputs,
          bank::LambdaSettings{.budget = settings_.lambda_budget, .goal_budget = settings_.body_goal_budget});
      lambda_evaluated_ = bodies_->evaluated();
      for (bank::Leaf& leaf : bodies_->take_leaves()) leaves.push_back(std::move(leaf));
    }
    // Within a size, the productions that make a goal's type first (a goal met there ends the
    // search), those of a part's type after them (a part alone meets nothing: for-loop-index's
    // [int] answer came at 267,000 candidates rather than 121,708 once its lines' int elements were
    // goals and the ints went first).
    // DeepCoder's one-node list forms (--list-forms) where a parameter is an [int]: at 300,000
    // candidates deepcoder-neo100 24 → 30, listfunctions 113 → 107 (docs/results.md "DeepCoder's
    // list language"); where the [int] is only a lines goal's, PSB1's for-loop-index is lost.
    // The list language alone (search/list_forms_restart.h): its functions over the parameters.
    std::vector<Production> productions =
        grammar_ == ListForms::Alone
            ? bank::list_language(types_)
            : bank::grammar(types_, true, settings_.choose, grammar_ == ListForms::Beside);
    if (grammar_ == ListForms::Alone) leaves.resize(params_.size());
    const auto rank = [&](const Production& p) {
      u32 r = 2;
      for (const Goal& g : goals_)
        if (g.shape.type == p.result) r = std::min<u32>(r, g.shape.layout.empty() ? 0 : 1);
      return r;
    };
    std::stable_sort(productions.begin(), productions.end(),
                     [&](const Production& a, const Production& b) { return rank(a) < rank(b); });
    if (settings_.policy && grammar_ != ListForms::Alone) guide(leaves, productions);
    enumerator_ = std::make_unique<bank::BankEnumerator>(*cases_, std::move(leaves), std::move(productions),
                                                         parameters_);
    // DeepCoder's programs are lines over earlier lines: one used twice is made once.
    if (grammar_ == ListForms::Alone) enumerator_->share_operands();
    enumerator_->keep_case_hashes();  // assemble() compares the lists and strs with goals case by case
    if (settings_.device == pipeline::Device::Cuda)
      enumerator_->evaluate_on(bank::make_cuda_bank_device(cases_->count(), settings_.gpu));
    // Lists and strs at most 4 times as long as the longest of the problem's inputs, outputs and
    // goals, 256 at least (PSB1's for-loop-index was out of reach without a bound: its heaps
    // were full of long lists by size 5).
    u32 longest[2] = {0, 0};  // list, str
    auto measure = [&](const vm::Value& v) {
      if (is_array(v.type)) longest[0] = std::max(longest[0], u32(v.items.size()));
      if (v.type == S) longest[1] = std::max(longest[1], u32(v.s.size()));
    };
    for (const std::vector<vm::Value>& inputs : inputs_)
      for (const vm::Value& v : inputs) measure(v);
    for (const Goal& g : goals_)
      for (const vm::Value& v : g.shape.outputs) measure(v);
    enumerator_->bound_lengths(std::max(kShortestBound, kBoundFactor * longest[0]),
                               std::max(kShortestBound, kBoundFactor * longest[1]));
  }

  // The policy's costs (search/policy.h) for the productions, the constants and the lambda
  // leaves' forms, from the probability it gives each of being in the answer. The parameters cost
  // 1; a lambda leaf its size, less 1, plus its form's cost (its body is enumerated unguided; a
  // form the policy never learnt gets the median probability, as any key it lacks).
  void guide(std::vector<bank::Leaf>& leaves, std::vector<Production>& productions) const {
    std::vector<std::string> keys;
    for (const Production& p : productions) keys.push_back(bank::production_key(p));
    for (const vm::Value& c : constants_) keys.push_back(bank::constant_key(c));
    std::map<std::string, size_t> forms;  // key → index in keys
    for (const bank::Leaf& leaf : leaves)
      if (!leaf.form.empty() && forms.emplace(leaf.form, keys.size()).second) keys.push_back(leaf.form);
    const std::vector<double> p = settings_.policy->probabilities(*problem_, keys);
    const double t = settings_.policy_temperature;
    for (size_t i = 0; i < productions.size(); ++i) productions[i].cost = policy_cost(p[i], t);
    for (size_t j = 0; j < constants_.size(); ++j)  // the constants' leaves follow the parameters'
      leaves[params_.size() + j].cost = policy_cost(p[productions.size() + j], t);
    for (bank::Leaf& leaf : leaves)
      if (!leaf.form.empty()) leaf.cost = leaf.size - 1 + policy_cost(p[forms.at(leaf.form)], t);
  }

  // Whether b's output on case k is goal g's, as the pipeline judges it: no trap, and floats
  // within the tolerance (decoded), lines joined as join(lines, "\n") writes them, anything else by
  // its output hash.
  bool right_on(const Goal& g, const bank::Behaviour& b, u32 k) {
    if (b.traps[k] != u8(vm::Trap::NONE)) return false;
    if (g.shape.joined()) return joined_lines_are(cases_->machine(k).heap, b.words[k], g.shape.outputs[k].s);
    if (b.type == F || b.type == FA)
      return pipeline::values_match(cases_->value(b, k), g.shape.outputs[k], tolerance_);
    return goal_hash(g, b, k) == g.hashes[k];
  }
  // Whether goal g is found by its hash on the key case (search/goal_index.h): all but lines joined
  // and floats.
  bool keyed(const Goal& g) const {
    return !g.shape.joined() && g.shape.type != F && g.shape.type != FA && g.hashes.size() > key_case_;
  }
  // b's hash on case k (no trap) as goal g's hashes are taken: the pipeline's output hash, or
  // for a permutation goal its elements' multiset hash.
  u64 goal_hash(const Goal& g, const bank::Behaviour& b, u32 k) {
    return entry_hash(b, k, g.shape.step.permutation);
  }
  // … as goals of either kind take it: its output hash, or its elements' multiset hash.
  u64 entry_hash(const bank::Behaviour& b, u32 k, bool permutation) {
    if (!permutation)  // a word's inline, without the heap
      return bank::is_word(b.type) ? bank::word_case_hash(b.type, b.traps[k], b.words[k])
                                   : bank::case_hash(b, *cases_, k);
    vm::Heap& heap = cases_->machine(k).heap;
    if (!heap.is_array(b.words[k])) return 0;
    const u32 ref = u32(b.words[k]);
    return multiset_hash({heap.slots(ref), heap.header(ref)->length});
  }
  bool meets_all(const Goal& g, const bank::Behaviour& b) {
    if (b.type != g.shape.type) return false;
    for (u32 k = 0; k < cases_->count(); ++k)
      if (!right_on(g, b, k)) return false;
    return true;
  }

  // The entries banked since the last call, against the goals of the results not met yet: a
  // goal met whole, or a term or condition of case splits; then, where those are due, the splits.
  // Once every result is met, the program that returns them all. Each program once.
  std::optional<std::string> assemble() {
    const u32 n = cases_->count();
    bool terms_changed = false;
    for (; scanned_ < enumerator_->count(); ++scanned_) {
      const bank::Behaviour& b = enumerator_->behaviour(scanned_);
      const std::span<const u64> kept = enumerator_->case_hashes(scanned_);  // empty where not kept
      bool hashed[2] = {false, false};  // b's hashes by case, as each kind of goal takes them, once
      auto right = [&](const Goal& g, u32 k) {
        if (g.shape.joined() || b.type == F || b.type == FA) return right_on(g, b, k);
        if (b.traps[k] != u8(vm::Trap::NONE)) return false;
        if (!g.shape.step.permutation && !kept.empty()) return kept[k] == g.hashes[k];
        std::vector<u64>& h = entry_hashes_[g.shape.step.permutation];
        if (!hashed[g.shape.step.permutation]) {
          hashed[g.shape.step.permutation] = true;
          h.assign(n, 0);
          for (u32 c = 0; c < n; ++c)
            if (b.traps[c] == u8(vm::Trap::NONE)) h[c] = goal_hash(g, b, c);
        }
        return h[k] == g.hashes[k];
      };
      candidate_goals(b, kept, true, &candidates_);
      for (u32 j : candidates_) {
        Goal& g = goals_[j];
        if (closed(j)) continue;
        const bool whole = !g.shape.step.empty() || !g.shape.layout.empty();  // met whole or not at all
        // (An int goal with a last step, a kept part's chr goal, may be met up to an offset.)
        if (whole && n > 0 && !right(g, 0) && !may_offset(g, b)) continue;
        CaseMask& right_cases = right_cases_;
        clear_cases(&right_cases, n);
        u32 count = 0;
        for (u32 k = 0; k < n; ++k)
          if (right(g, k)) {
            add_case(&right_cases, k);
            ++count;
          }
        if (count == n) {
          meet(j, met_by(j, {{}, scanned_}));
        } else if (std::optional<i64> offset = offset_of(g, b)) {
          Met m = met_by(j, {{}, scanned_});
          m.offset = *offset;
          meet(j, std::move(m));
        } else if (settings_.splits && !whole) {
          if (count > 0 && g.guarded.size() < kMostGuarded)
            if (std::optional<Guarded> guarded = partial_traps(b, count)) {
              guarded->term = scanned_;
              g.guarded.push_back(std::move(*guarded));
              terms_changed = true;
            }
          terms_changed = g.terms.add(scanned_, right_cases) || terms_changed;
        }
      }
      if (b.type == A && !forward_.empty()) step_forward(b);
      meet_by_emptiness(b);
      if (settings_.splits && b.traps_anywhere()) meet_by_trap_cause(b);
      if (settings_.splits && b.type == B && !b.traps_anywhere()) {
        CaseMask holds = case_mask(n);
        for (u32 k = 0; k < n; ++k)
          if (b.words[k] != 0) add_case(&holds, k);
        conditions_.add(scanned_, std::move(holds));
      }
    }
    enumerator_->forget_case_hashes();  // every entry is scanned
    const bool all_met = std::find(met_.begin(), met_.end(), std::nullopt) == met_.end();
    if (!all_met && settings_.splits && conditions_.due(terms_changed))
      for (u32 j = 0; j < goals_.size(); ++j)
        if (!closed(j))
          if (std::optional<DecisionList> list = guard(goals_[j]); list || (list = split(goals_[j].terms)))
            meet(j, met_by(j, *list));
    if (std::find(met_.begin(), met_.end(), std::nullopt) != met_.end()) return std::nullopt;
    std::string source = program();
    if (!sources_.insert(source).second) return std::nullopt;
    Assembly& a = assembled_[source];
    for (const std::optional<Met>& m : met_) {
      expressions(*m, &a.ids);
      keys_of(*m, &a.keys);
    }
    return source;
  }

  // Each forward step (search/forward_steps.h) of b, the entry assemble() is at (an [int]),
  // against the goals of the results not met yet: sketched on the key case, and where that is a goal's
  // output there (looked up by its hash), applied on every case by the VM; the first that meets a
  // goal meets its result.
  void step_forward(const bank::Behaviour& b) {
    if (cases_->count() == 0 || b.traps[key_case_] != u8(vm::Trap::NONE)) return;
    vm::Heap& heap = cases_->machine(key_case_).heap;
    const u32 ref = u32(b.words[key_case_]);
    xs_.assign(heap.slots(ref), heap.slots(ref) + heap.header(ref)->length);
    for (const ForwardStep& step : forward_) {
      const i64 n = step.parameter ? inputs_[key_case_][*step.parameter].i : 0;
      const std::span<const u64> ys =
          step.parameter ? std::span<const u64>(key_lists_[*step.parameter]) : std::span<const u64>();
      if (step.result == A)  // a list no goal's output on the key case is as long as
        if (const std::optional<size_t> length = sketch_length(step, xs_.size(), n, ys.size()))
          if (!forward_lengths_.contains(*length)) continue;
      sketch(step, xs_, n, ys, &sketch_);
      ++sketched_;
      if (sketch_.traps) continue;
      const std::span<const i64> items =
          step.result == I ? std::span<const i64>(&sketch_.value, 1) : std::span<const i64>(sketch_.items);
      for (bool permutation : {false, true}) {
        const auto& index = forward_goals_[permutation];
        if (index.empty() || (permutation && step.result != A)) continue;
        const auto [from, to] = index.equal_range(key_of(step.result, items, permutation));
        for (auto it = from; it != to; ++it) {
          const Goal& g = goals_[it->second];
          if (closed(it->second) || g.shape.type != step.result) continue;
          std::span<const i64> these = items;
          if (permutation) {  // sorted only where the multiset's hash is a goal's
            sorted_.assign(items.begin(), items.end());
            std::sort(sorted_.begin(), sorted_.end());
            these = sorted_;
          }
          if (!std::equal(g.key.begin(), g.key.end(), these.begin(), these.end())) continue;
          std::vector<const bank::Behaviour*> operands = {&b};
          if (step.parameter) operands.push_back(&cases_->parameter(*step.parameter));
          const bank::Cases::Mark mark = cases_->mark();
          const bank::Behaviour out = step.operation->apply(operands, *cases_);
          ++stepped_;
          const bool met = meets_all(g, out);
          cases_->rollback(mark);
          if (met) {
            meet(it->second, met_by(it->second, {{}, scanned_}, &step));
            return;
          }
        }
      }
    }
  }
  // The key forward_goals_ looks a goal up by: its type and its elements on the key case (its int's), in
  // order, or for a permutation goal in any order (a step's list is not sorted to be looked up).
  // A few of the elements only, or their sum and a sum of their bits without carries (cheaper than
  // multiset_hash's finaliser per element, and a key only): a list with the same key is compared
  // whole.
  static u64 key_of(Type t, std::span<const i64> items, bool permutation) {
    u64 h = mix_word(mix_word(kHashSeed, u64(t)), items.size());
    if (permutation) {
      u64 sum = 0, bits = 0;
      for (i64 x : items) {
        sum += u64(x);
        bits ^= u64(x) * 0x9e3779b97f4a7c15ull;
      }
      return mix_word(mix_word(h, sum), bits);
    }
    if (items.empty()) return h;
    for (size_t i : {size_t(0), items.size() / 3, items.size() / 2, items.size() - 1})
      h = mix_word(h, u64(items[i]));
    return h;
  }

  // The goals by their output on the key case, for candidate_goals().
  void index_goals() {
    for (const Goal& g : goals_) {
      GoalIndex::Goal entry;
      entry.type = g.shape.type;
      if (keyed(g)) entry.key = g.hashes[key_case_];
      entry.permutation = g.shape.step.permutation;
      entry.by_case = g.shape.step.empty() && g.shape.layout.empty();  // assemble()'s !whole
      entry.offset = g.shape.type == I && g.shape.layout.empty();      // may_offset()'s
      goal_index_.add(entry);
    }
  }
  // The goals b may meet, ascending, into *out (search/goal_index.h): the rest differ from b on
  // the key case. `kept`: b's case hashes, where the bank kept them; `assembling`: for assemble(), which
  // keeps a goal's terms for its splits and meets an int goal up to an offset.
  void candidate_goals(const bank::Behaviour& b, std::span<const u64> kept, bool assembling,
                       std::vector<u32>* out) {
    const u32 n = cases_->count();
    if (n == 0) {  // no case to look up by: every goal of b's type
      out->clear();
      for (u32 j = 0; j < goals_.size(); ++j)
        if (goals_[j].shape.type == b.type) out->push_back(j);
      return;
    }
    std::optional<u64> key[2];
    for (bool permutation : {false, true})
      if (b.traps[key_case_] == u8(vm::Trap::NONE) && goal_index_.hashed(b.type, permutation))
        key[permutation] =
            !permutation && !kept.empty() ? kept[key_case_] : entry_hash(b, key_case_, permutation);
    goal_index_.candidates(b.type, key, assembling, b.type == I && n >= kTrustedCases && !b.traps_anywhere(),
                           out);
  }

  // Whether goal g needs meeting no more: its result is met, or (a part) it is.
  bool closed(u32 j) const {
    const GoalShape& shape = goals_[j].shape;
    return met_[shape.result] || (!shape.layout.empty() && parts_met_[j]);
  }
  // Goal j met as m: its result, or a part of it and, once every part of its layout is, the result.
  void meet(u32 j, Met m) {
    const GoalShape& shape = goals_[j].shape;
    if (shape.layout.empty()) {
      met_[shape.result] = std::move(m);
      return;
    }
    parts_met_[j] = std::move(m);
    const u32 first = j - shape.part;
    Met whole;
    whole.goal = first;
    for (u32 i = first;
         i < goals_.size() && goals_[i].shape.layout == shape.layout && goals_[i].shape.part == i - first;
         ++i) {
      if (!parts_met_[i]) return;
      whole.parts.push_back(*parts_met_[i]);
    }
    met_[shape.result] = std::move(whole);
  }
  // The entries m's expressions are written from, in the order program() writes them.
  static void expressions(const Met& m, std::vector<u32>* ids) {
    if (m.parts.empty()) append_expressions(m.list, ids);
    for (const Met& part : m.parts) expressions(part, ids);
  }
  // The productions and constants m is written with around its expressions, by key: its goal's
  // shape_keys() (affixes, chr or str, lines, last steps, a layout), its forward step's, and for
  // an int met up to a constant the + or - and the constant. (A split's ifs are no production;
  // its conditions are among the expressions.)
  void keys_of(const Met& m, std::set<std::string>* keys) const {
    for (std::string& k : shape_keys(goals_[m.goal].shape)) keys->insert(std::move(k));
    if (m.forward != nullptr) keys->insert(m.forward->keys.begin(), m.forward->keys.end());
    if (m.offset != 0) {
      keys->insert(bank::production_key(m.offset > 0 ? "$0 + $1" : "$0 - $1", {I, I}, I));
      keys->insert(bank::constant_key(vm::Value::of_int(m.offset > 0 ? m.offset : -m.offset)));
    }
    if (m.empty != 0) {
      keys->insert(bank::production_key("len($0)", {enumerator_->behaviour(m.list.otherwise).type}, I));
      keys->insert(bank::production_key(m.empty > 0 ? "$0 == $1" : "$0 < $1", {I, I}, B));
      keys->insert(bank::constant_key(vm::Value::of_int(0)));
    }
    for (const Met& part : m.parts) keys_of(part, keys);
  }

  // The constant c with b + c an int goal's output on every case (not 0): checksum's `chr(e +
  // 32)` where 32 is no leaf. Only where a problem has kTrustedCases train cases or more: with
  // fewer, an expression off by the same amount on every case is too often a coincidence. Not
  // for a part of a list taken apart; at most 2^31 either way. (Of the goals with a last step,
  // the ints are those of a kept part's rest, `chr($0) + slice(s, 1, len(s))`: the offset goes
  // inside the step, capitalise's `chr((s[0] - 32))`.)
  std::optional<i64> offset_of(const Goal& g, const bank::Behaviour& b) const {
    if (!may_offset(g, b)) return std::nullopt;
    const u32 n = cases_->count();
    const i64 c = i64(u64(g.shape.outputs[0].i) - b.words[0]);
    if (c == 0 || c > (i64(1) << 31) || c < -(i64(1) << 31)) return std::nullopt;
    for (u32 k = 1; k < n; ++k)
      if (i64(b.words[k] + u64(c)) != g.shape.outputs[k].i) return std::nullopt;
    return c;
  }
  // The bool goals not met whose every output says whether b, a sequence, is empty there (or
  // whether it is not), met by `len(b) == 0` (or `0 < len(b)`) — PSB1's super-anagrams is
  // `len(difference(a's codes, b's codes)) == 0`, three nodes past what the goal would otherwise
  // wait for. As offset_of(), only where a problem has kTrustedCases train cases or more: with
  // fewer, a list empty on just the true cases is too often a coincidence.
  void meet_by_emptiness(const bank::Behaviour& b) {
    const u32 n = cases_->count();
    if ((b.type != A && b.type != S && b.type != SA && b.type != FA) || n < kTrustedCases) return;
    bool checked = false;  // b's traps, looked at once a goal could take it (most problems have none)
    for (u32 j = 0; j < goals_.size(); ++j) {
      const GoalShape& shape = goals_[j].shape;
      if (shape.type != B || !shape.plain() || closed(j)) continue;
      if (!checked && b.traps_anywhere()) return;
      checked = true;
      bool empty_where_true = true, empty_where_false = true;
      for (u32 k = 0; k < n && (empty_where_true || empty_where_false); ++k) {
        const bool empty = cases_->machine(k).heap.header(u32(b.words[k]))->length == 0;
        empty_where_true = empty_where_true && empty == (shape.outputs[k].i != 0);
        empty_where_false = empty_where_false && empty == (shape.outputs[k].i == 0);
      }
      if (!empty_where_true && !empty_where_false) continue;
      Met m = met_by(j, {{}, scanned_});
      m.empty = empty_where_true ? 1 : -1;
      meet(j, std::move(m));
    }
  }

  // An int goal met by `if c { v } else { b }`: b right on every case where it does not trap, and
  // where it traps (on two cases at least) the outputs all v, and c the condition under which it
  // traps, from its derivation (BankEnumerator::trap_cause: `i < 0 || len(e) <= i` for `e[i]`,
  // innermost first) — not fitted to the cases, as a split's condition is, so it holds on cases
  // unseen: "max minus min, 0 for an empty list"; DeepCoder's NULL, 256, where an ACCESS is out of
  // range (deepcoder-066, 088). On one trapping case any value would do, so two at least; and on
  // one right case many a term is right (deepcoder-024, 90 on four cases and 56 on the fifth, was
  // met by the max of a list empty on those four), so two at least of those too. And v is a
  // value the term never gives where it is right, as a NULL or a default is: without that, 024
  // was still met, by `(map_square(xs) - xs)[sum(map_double(xs))]`, 90 where the index is out of
  // range and on one case where it is not.
  void meet_by_trap_cause(const bank::Behaviour& b) {
    const u32 n = cases_->count();
    if (b.type != I) return;
    u32 trapped = 0, first = n;
    for (u32 k = 0; k < n; ++k) {
      const auto t = vm::Trap(b.traps[k]);
      if (t == vm::Trap::NONE) continue;
      if (!partial_operation_trap(t)) return;
      if (trapped++ == 0) first = k;
    }
    if (trapped < 2 || trapped + 2 > n) return;
    for (u32 j = 0; j < goals_.size(); ++j) {
      const Goal& g = goals_[j];
      if (g.shape.type != I || !g.shape.plain() || closed(j)) continue;
      const i64 v = g.shape.outputs[first].i;
      bool fits = true;  // v where it traps, and only there; right elsewhere
      for (u32 k = 0; k < n && fits; ++k)
        fits = b.traps[k] != u8(vm::Trap::NONE)
                   ? g.shape.outputs[k].i == v
                   : i64(b.words[k]) == g.shape.outputs[k].i && g.shape.outputs[k].i != v;
      if (!fits) continue;
      std::optional<std::string> cause = enumerator_->trap_cause(scanned_);
      if (!cause || *cause == "false") return;
      Met m = met_by(j, {{}, scanned_});
      m.cause = std::move(*cause);
      m.fallback = vm::Value::of_int(v);
      meet(j, std::move(m));
    }
  }

  // Whether offset_of() may find b meets g up to a constant (what it asks before it looks).
  bool may_offset(const Goal& g, const bank::Behaviour& b) const {
    return b.type == I && cases_->count() >= kTrustedCases && g.shape.layout.empty() && !b.traps_anywhere();
  }

  // Where b, right on `right` cases, is right on every other case but where a partial operation
  // traps (an empty list's max, an index past the end, a division by zero), those cases. Only
  // where there are kTrustedCases train cases or more and b is right on as many as a split's branch
  // must hold: on deepcoder-neo100's 5 cases a term right on 4 that traps on the fifth is a
  // coincidence, and guards made 7 more answers there that fit and are plainly wrong
  // (`if 0 < xs[2] { return 2 * max(xs); } return 2 / first_where_gt(xs, 1);`). The term's id
  // is the caller's to set.
  std::optional<Guarded> partial_traps(const bank::Behaviour& b, u32 right) const {
    const u32 n = cases_->count();
    if (n < kTrustedCases || right < split_min_cases(n)) return std::nullopt;
    CaseMask trapped = case_mask(n), rest = case_mask(n);
    u32 count = 0;
    for (u32 k = 0; k < n; ++k) {
      const auto t = vm::Trap(b.traps[k]);
      if (t == vm::Trap::NONE) {
        add_case(&rest, k);
        continue;
      }
      if (!partial_operation_trap(t)) return std::nullopt;
      add_case(&trapped, k);
      ++count;
    }
    if (count == 0 || right + count != n) return std::nullopt;
    return Guarded{0, std::move(trapped), std::move(rest)};
  }
  // A guard: `if c { u } else { t }` with t right wherever it does not trap, c the smallest
  // condition that holds exactly where it traps (or, negated, nowhere else), and u a term right
  // there — on however few cases (a split's branch needs split_min_cases(), but here the trap,
  // not the fit, draws the line): "max minus min, 0 for an empty list".
  std::optional<DecisionList> guard(const Goal& g) const {
    for (const auto& [t, trapped, rest] : g.guarded) {
      for (size_t c = 0; c < conditions_.ids().size(); ++c) {
        const CaseMask& holds = conditions_.cases()[c];
        const bool when = holds == trapped;
        if (!when && holds != rest) continue;
        for (size_t u = 0; u < g.terms.ids().size(); ++u)
          if (is_subset(trapped, g.terms.cases()[u]))
            return DecisionList{{{conditions_.ids()[c], when, g.terms.ids()[u]}}, t};
        break;  // the smallest condition has no term to go with it
      }
    }
    return std::nullopt;
  }
  // A decision list over the terms and the smallest conditions that split the cases.
  std::optional<DecisionList> split(const SplitTerms& terms) const {
    const u32 n = cases_->count();
    return split_by_size(n, terms, conditions_, [&](u32 id) { return enumerator_->size(id); },
                         {4, split_min_cases(n)});
  }

  // The program that returns every result as met: a result met case by case is a helper
  // function of `if`s (a term runs only where its branch is taken), a goal's affixes and chr or
  // str around the expression.
  std::string program() const {
    std::vector<u32> ids;  // per result: its expressions
    for (const std::optional<Met>& m : met_) expressions(*m, &ids);
    const bank::Written w = enumerator_->write(ids, "");
    std::string splits, steps, returned;  // the splits' functions, the last steps' helpers
    size_t at = 0;
    auto helper = [&](const std::string& h) {
      if (!h.empty() && w.functions.find(h) == std::string::npos && steps.find(h) == std::string::npos)
        steps += h;
    };
    // The expression of what m met (a split's function named `name`), in expressions()' order.
    auto written = [&](const Met& m, const std::string& name, auto& self) -> std::string {
      const GoalShape& shape = goals_[m.goal].shape;
      std::string e;
      if (!m.parts.empty()) {
        std::vector<std::string> parts;
        for (size_t i = 0; i < m.parts.size(); ++i)
          parts.push_back(self(m.parts[i], name + "_" + std::to_string(i + 1), self));
        std::vector<const std::string*> operands;
        for (const std::string& part : parts) operands.push_back(&part);
        e = bank::substitute(shape.layout, operands);
      } else if (m.list.branches.empty()) {
        e = w.expressions[at++];
        if (m.forward != nullptr) {
          e = around(*m.forward, e, m.forward->parameter ? names_[*m.forward->parameter] : "");
          helper(m.forward->helper);
        }
      } else {
        splits += decision_function(name, parameters_, type_name(shape.type), m.list, w.expressions, &at);
        e = name + "(" + arguments_ + ")";
      }
      if (!m.cause.empty()) {
        const std::string type = type_name(shape.type);
        splits += "fn " + name + "(" + parameters_ + ") -> " + type + " {\n  if " + m.cause +
                  " {\n    return " + literal(m.fallback) + ";\n  }\n  return " + e + ";\n}\n";
        e = name + "(" + arguments_ + ")";
      }
      if (m.offset != 0)
        e = "(" + e + (m.offset > 0 ? " + " : " - ") + std::to_string(m.offset > 0 ? m.offset : -m.offset) +
            ")";
      if (m.empty != 0) e = m.empty > 0 ? "(len(" + e + ") == 0)" : "(0 < len(" + e + "))";
      if (!shape.step.empty()) {
        e = bank::substitute(shape.step.text, {&e});
        for (const std::string& h : shape.step.helpers) helper(h);
      }
      if (m.parts.empty() && !shape.layout.empty())
        return e;  // a part: the whole's wrappers go around its layout
      if (shape.convert != nullptr) e = std::string(shape.convert) + "(" + e + ")";
      if (shape.convert != nullptr && std::string_view(shape.convert) == "map_str")
        helper(bank::loop_helper("map_str"));
      if (shape.lines) e = "join(" + e + ", \"\\n\")";
      if (GoalShape::has_affix(shape.prefix)) e = literal(shape.prefix) + " + " + e;
      if (GoalShape::has_affix(shape.suffix))
        e += " + " + literal(shape.suffix);  // + on strs and lists associates
      return e;
    };
    for (u32 r = 0; r < met_.size(); ++r)
      returned += (r ? ", " : "") + written(*met_[r], "split_" + std::to_string(r + 1), written);
    std::string type = type_name(results_[0]);
    if (results_.size() > 1) {
      type.clear();
      for (u32 r = 0; r < results_.size(); ++r) type += (r ? ", " : "") + std::string(type_name(results_[r]));
      type = "(" + type + ")";
      returned = "(" + returned + ")";
    }
    return entry(type, returned) + splits + w.functions + steps;
  }

  // The entry function, returning `returned` of type `type`.
  std::string entry(const std::string& type, const std::string& returned) const {
    return "fn " + entry_ + "(" + parameters_ + ") -> " + type + " {\n  return " + returned + ";\n}\n";
  }

  // The bytes of --bank-memory the case heaps share: a quarter; in the list language alone, where
  // nearly every banked value is a list, three quarters (deepcoder-018, 5 cases: at a quarter,
  // 102 MiB a case, they were full at the fourth function and it was not solved in 15 s; at the
  // most a heap may hold, 256 MiB, in 3.2 s).
  u64 heaps_share() const {
    return grammar_ == ListForms::Alone ? settings_.memory / 4 * 3 : settings_.memory / 4;
  }

  static std::string literal(const vm::Value& v) { return trees::to_source(*trees::literal_of(v)); }

  EnumerateSettings settings_;
  std::optional<suites::Problem> problem_;  // kept for the policy
  bool usable_ = false;                     // a signature the bank takes
  std::set<Type> types_;
  ListForms grammar_ = ListForms::Without;  // DeepCoder's list forms beside the grammar, or alone
  std::vector<Type> params_, results_;
  std::vector<std::string> names_;
  std::string entry_, parameters_, arguments_;  // the entry's name, parameter list and its names
  std::vector<std::vector<vm::Value>> inputs_;  // by train case
  std::vector<vm::Value> constants_;
  double tolerance_ = 0;
  // When the bank's case heaps, and the bank, first filled (notes()).
  struct Filled {
    u64 expressions = 0;
    u32 level = 0;
  };
  std::optional<Filled> heaps_filled_, bank_filled_;
  bool bank_full() const { return bytes_ > settings_.memory; }
  std::vector<Goal> goals_;
  std::vector<std::optional<Met>> met_;        // by result
  std::vector<std::optional<Met>> parts_met_;  // by goal: the parts of a result taken apart
  u32 scanned_ = 0;                            // entries seen by assemble()
  SplitConditions conditions_;                 // the bank's bool expressions that never trap
  std::set<std::string> sources_;              // the programs assemble() proposed
  // … and the entries each was assembled from, and what it is written with around them.
  struct Assembly {
    std::vector<u32> ids;
    std::set<std::string> keys;  // keys_of() its results'
  };
  std::map<std::string, Assembly> assembled_;
  u64 lambda_evaluated_ = 0;  // body expressions evaluated for the lambda leaves
  u64 sought_ = 0;            // … and then for the goals' bodies
  u64 enumerated_ = 0;        // expressions the bank evaluated
  std::unique_ptr<bank::LambdaBodies> bodies_;
  std::vector<ForwardStep> forward_;  // the steps each banked [int] is taken on (search/forward_steps.h)
  u64 sketched_ = 0, stepped_ = 0;    // … sketched on the key case, and applied on every case
  u32 key_case_ = 0;                  // key_case()
  // assemble()'s: an entry's hashes by case (of each kind of goal), and the cases a goal it is
  // right on, kept between entries so that each entry allocates nothing.
  std::vector<u64> entry_hashes_[2];
  CaseMask right_cases_;
  std::vector<std::vector<u64>> key_lists_;  // by parameter: its elements on the key case, if a list
  // The int and [int] goals by key_of(), those met in order [0] and in any order [1].
  std::unordered_multimap<u64, u32> forward_goals_[2];
  std::vector<i64> sorted_;                     // step_forward()'s sketch sorted, for a permutation goal
  std::unordered_set<size_t> forward_lengths_;  // the [int] goals' outputs' lengths on the key case
  GoalIndex goal_index_;
  std::vector<u32> candidates_;                        // candidate_goals()'s
  std::vector<u64> xs_;                                // step_forward()'s list on the key case
  Sketch sketch_;                                      // … and its sketch of a step
  std::optional<std::pair<u32, std::string>> answer_;  // the last whole answer's id in the bank, and source
  std::unordered_map<std::string, std::string> sought_forms_;   // bodies_->seek()'s answers' forms, by source
  static constexpr u64 kAlikeBudget = 20000;                    // expressions alike() may evaluate
  static constexpr u32 kBoundFactor = 4, kShortestBound = 256;  // of a banked list's or str's length
  static constexpr u32 kMostGuarded = 8;                        // Goal::guarded, the first found
  // The fewest train cases on which a guard (partial_traps()) or an offset (offset_of()) is
  // trusted: with fewer, a term that fits but for its traps, or but for a constant, is too often
  // a coincidence.
  static constexpr u32 kTrustedCases = 10;
  std::unique_ptr<bank::Cases> cases_;
  std::unique_ptr<bank::BankEnumerator> enumerator_;
  u64 spent_ = 0, evaluated_ = 0;
  u64 bytes_ = 0;  // the bank's, at the last propose()
};

// The enumeration with the forms as the settings say from the start (or never), on a sample of the
// cases where the problem has more than settings.sample_cases.
std::unique_ptr<Generator> make_bank_generator(const suites::Problem& problem, EnumerateSettings settings,
                                               ListForms grammar) {
  if (settings.sample_cases > 0 && problem.train.size() > settings.sample_cases)
    return make_sampled_generator(
        problem, settings.sample_cases, [settings, grammar, whole = problem](const suites::Problem& sample) {
          return std::make_unique<EnumerateGenerator>(sample, settings, grammar, &whole);
        });
  return std::make_unique<EnumerateGenerator>(problem, settings, grammar);
}

}  // namespace

std::unique_ptr<Generator> make_enumerate_generator(const suites::Problem& problem,
                                                    EnumerateSettings settings) {
  if (settings.list_forms_after == kNoListForms || !has_int_list(problem))
    return make_bank_generator(problem, settings, ListForms::Without);
  if (settings.list_forms_after == 0) return make_bank_generator(problem, settings, ListForms::Beside);
  return make_list_forms_restart(
      settings.list_forms_after, settings.list_language,
      [problem, settings](ListForms grammar) { return make_bank_generator(problem, settings, grammar); });
}

}  // namespace gs::search
