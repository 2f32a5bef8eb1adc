// The value-bank enumeration as a generator (search/generator.h make_bank_generator): the
// problem's train cases become the bank's cases, its parameters and a few constants the leaves,
// the operators and builtins of the signature's types, the loops of search/bank_loops.h and a
// lazy choose per type the productions; each propose() goes on enumerating for `count` expressions and
// proposes the expressions that meet the goal, written out as programs, which the pipeline judges.
// Where none does yet, the goal may be met case by case (search/case_split.h): the banked
// expressions of the result's type right on some train cases are the terms, the bool ones that
// trap on no case the conditions, and a decision list over them is proposed as `if`s, so that a
// term runs only on the cases its branch takes (a term may trap on the others).
#include <algorithm>
#include <set>

#include "pipeline/case_set.h"
#include "search/bank_enumerator.h"
#include "search/bank_lambdas.h"
#include "search/bank_loops.h"
#include "search/case_split.h"
#include "search/generator.h"
#include "trees/syntax.h"

namespace gs::search {

namespace {

using bank::Production;

const Type I = Type::Int, B = Type::Bool, A = Type::IntArray, S = Type::Str, F = Type::Float,
           SA = Type::StrArray, FA = Type::FloatArray;

// The productions over the types the signature has (int and bool always); the loops of
// search/bank_loops.h when `loops` is set.
std::vector<Production> productions_for(const std::set<Type>& types, bool loops) {
  std::vector<Production> p;
  auto add = [&](std::vector<Type> args, Type result, const char* text) {
    for (Type t : args)
      if (!types.count(t)) return;
    if (types.count(result)) p.push_back(bank::operation_production(std::move(args), result, text));
  };
  for (const char* op : {"$0 + $1", "$0 - $1", "$0 * $1", "$0 / $1", "$0 % $1", "min($0, $1)", "max($0, $1)"})
    add({I, I}, I, op);
  for (Type t : {B, A, F, SA, FA}) add({t, t}, B, "$0 == $1");
  add({S, S}, B, "$0 < $1");
  add({I}, I, "-$0");
  add({I}, I, "abs($0)");
  for (const char* op : {"$0 < $1", "$0 <= $1", "$0 == $1"}) add({I, I}, B, op);
  add({B}, B, "!$0");
  for (const char* op : {"len($0)", "sum($0)", "max($0)", "min($0)"}) add({A}, I, op);
  add({A, I}, I, "$0[$1]");
  add({A, I}, I, "index_of($0, $1)");
  add({A, I}, B, "contains($0, $1)");
  for (const char* op : {"sort($0)", "reverse($0)", "pop($0)"}) add({A}, A, op);
  add({A, I}, A, "push($0, $1)");
  add({A, A}, A, "$0 + $1");
  add({I}, A, "[$0]");
  add({A, I}, A, "slice($0, 0, $1)");        // the first n
  add({A, I}, A, "slice($0, $1, len($0))");  // all but the first n
  add({A, I, I}, A, "slice($0, $1, $2)");
  add({A, I}, A, "slice($0, len($0) - $1, len($0))");               // the last n
  add({A, I}, A, "slice($0, 0, len($0) - $1)");                     // all but the last n
  add({A, I}, A, "slice($0, 0, $1) + slice($0, $1 + 1, len($0))");  // without element i
  add({A, I}, A,
      "slice($0, 0, index_of($0, $1)) + slice($0, index_of($0, $1) + 1, len($0))");  // the first v gone
  add({A, I, I}, A, "slice($0, 0, $1) + [$2] + slice($0, $1, len($0))");      // v inserted before element i
  add({A, I, I}, A, "slice($0, 0, $1) + [$2] + slice($0, $1 + 1, len($0))");  // element i replaced by v
  add({S}, I, "len($0)");
  add({S, I}, I, "$0[$1]");
  add({S, S}, S, "$0 + $1");
  add({S, S}, B, "contains($0, $1)");
  add({S, S}, I, "index_of($0, $1)");
  add({S, S}, B, "$0 == $1");
  add({I}, S, "str($0)");
  add({S}, I, "parse_int($0)");
  add({S}, S, "reverse($0)");
  add({S, I, I}, S, "slice($0, $1, $2)");
  for (const char* op : {"$0 + $1", "$0 - $1", "$0 * $1", "$0 / $1"}) add({F, F}, F, op);
  add({F, F}, B, "$0 < $1");
  add({I}, F, "float($0)");
  add({F}, I, "int($0)");
  for (const char* op : {"sqrt($0)", "floor($0)", "abs($0)"}) add({F}, F, op);
  add({FA}, I, "len($0)");
  for (const char* op : {"sum($0)", "max($0)", "min($0)"}) add({FA}, F, op);
  add({FA, I}, F, "$0[$1]");
  add({S, S}, SA, "split($0, $1)");
  add({SA, S}, S, "join($0, $1)");
  add({SA}, I, "len($0)");
  add({SA, I}, S, "$0[$1]");
  add({SA, S}, B, "contains($0, $1)");
  for (const char* op : {"sort($0)", "reverse($0)"}) add({SA}, SA, op);
  if (loops)
    for (Production& loop : bank::loop_productions(types)) p.push_back(std::move(loop));
  for (Type t : types) p.push_back(bank::choose_production(t));
  return p;
}

class BankGenerator final : public Generator {
 public:
  BankGenerator(const suites::Problem& problem, EnumerateSettings settings) : settings_(settings) {
    const suites::Signature& sig = problem.signature;
    if (sig.results.size() != 1) return;  // one result only, for now
    types_ = {I, B, sig.results[0]};
    for (Type t : sig.params) types_.insert(t);
    for (Type t : types_)
      if (t != I && t != B && t != A && t != S && t != F && t != SA && t != FA) return;  // a type they lack
    for (const suites::Case& c : problem.train) {
      inputs_.push_back(c.inputs);
      expected_.push_back(c.outputs[0]);
      expected_hashes_.push_back(pipeline::output_hash(c.outputs));
    }
    tolerance_ = problem.float_tolerance;
    params_ = sig.params;
    names_ = sig.param_names;
    constants_ = {vm::Value::of_int(0), vm::Value::of_int(1), vm::Value::of_int(2), vm::Value::of_bool(true),
                  vm::Value::of_bool(false)};
    if (types_.count(S)) constants_.push_back(vm::Value::of_str(" "));
    if (types_.count(F)) constants_.push_back(vm::Value::of_float(0.0));
    for (const vm::Value& c : problem.constants)  // the scalar ones
      if (types_.count(c.type) && is_scalar(c.type)) constants_.push_back(c);
    if (settings.splits)  // the ints at which the outputs step, for the conditions
      for (i64 t : split_thresholds(problem))
        if (std::none_of(constants_.begin(), constants_.end(),
                         [&](const vm::Value& c) { return c.type == I && c.i == t; }))
          constants_.push_back(vm::Value::of_int(t));
    result_ = sig.results[0];
    entry_ = sig.entry;
    usable_ = true;
  }

  GeneratorKind kind() const override { return GeneratorKind::Bank; }

  std::vector<Proposal> propose(u32 count, u64) override {
    evaluated_ = 0;
    std::vector<Proposal> out;
    if (usable_ && !enumerator_) start();
    if (!enumerator_ || enumerator_->finished()) return out;
    bank::EnumerationStats stats;
    const u64 before = spent_;
    const u32 n = cases_->count();
    auto meets = [&](const bank::Behaviour& b) {
      for (u32 k = 0; k < n; ++k)
        if (!right_on(b, k)) return false;
      return true;
    };
    const std::optional<u32> answer = enumerator_->search(result_, meets, settings_.max_size, count, &stats);
    spent_ = lambda_evaluated_ + stats.evaluated;
    evaluated_ = spent_ - before;
    if (answer) {
      Proposal p;
      p.source = enumerator_->program(*answer, entry_);
      answer_ = {*answer, p.source};
      out.push_back(std::move(p));
      // The answer was evaluated in the bank and is judged by the pipeline: count it once.
      if (evaluated_ > 0) --evaluated_;
    } else if (settings_.splits) {
      if (std::optional<std::string> split = split_program()) {
        Proposal p;
        p.source = std::move(*split);
        out.push_back(std::move(p));
      }
    }
    return out;
  }

  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64) override {}
  u64 evaluated_internally() const override { return evaluated_; }
  u64 evaluated_preparing() const override { return lambda_evaluated_; }
  std::optional<Alike> alike(const Proposal& solution) override {
    if (!answer_ || answer_->second != solution.source) return std::nullopt;
    bank::EnumerationStats stats;
    Alike a;
    a.size = enumerator_->size(answer_->first);
    a.programs = enumerator_->alike(answer_->first, kAlikeBudget, &stats, &a.complete);
    return a;
  }

 private:
  // The bank, its leaves (the lambda leaves' bodies enumerated first) and its enumerator.
  void start() {
    // Every banked value of a case lives in its heap: 64 MiB shared by the cases, 1 to 16 MiB each.
    vm::Limits limits;
    limits.heap_bytes =
        u32(std::clamp<u64>((u64(64) << 20) / std::max<size_t>(inputs_.size(), 1), 1u << 20, 16u << 20));
    cases_ = std::make_unique<bank::Cases>(
        params_, inputs_, limits,
        bank::Evaluation{.threads = settings_.threads, .interpreter_only = settings_.bank_interpreter});
    std::vector<bank::Leaf> leaves;
    for (u32 i = 0; i < params_.size(); ++i) {
      leaves.push_back({names_[i], cases_->parameter(i)});
      parameters_ += (i ? ", " : "") + names_[i] + ": " + type_name(params_[i]);
    }
    for (const vm::Value& c : constants_) leaves.push_back({literal(c), bank::constant(c, *cases_)});
    if (settings_.lambdas && settings_.lambda_budget > 0) {
      // The bodies' constants: small numbers and the base of decimal digits, and the problem's.
      std::vector<std::pair<std::string, vm::Value>> body_constants;
      for (i64 c : {0, 1, 2, 3, 10})
        body_constants.push_back({literal(vm::Value::of_int(c)), vm::Value::of_int(c)});
      for (const vm::Value& c : constants_)
        if (c.type == I && (c.i < 0 || c.i > 3) && c.i != 10) body_constants.push_back({literal(c), c});
      // The bodies' productions: those that make an int or a bool (the lists in a body are the
      // problem's, summarised).
      auto body_productions = [&] {
        std::vector<Production> all = productions_for(types_, false), scalar;
        for (Production& p : all)
          if (p.result == I || p.result == B) scalar.push_back(std::move(p));
        return scalar;
      };
      bank::LambdaLeaves lambdas = bank::lambda_leaves(params_, names_, inputs_, *cases_, body_constants,
                                                       body_productions, {.budget = settings_.lambda_budget});
      lambda_evaluated_ = lambdas.evaluated;
      for (bank::Leaf& leaf : lambdas.leaves) leaves.push_back(std::move(leaf));
    }
    enumerator_ = std::make_unique<bank::BankEnumerator>(*cases_, std::move(leaves),
                                                         productions_for(types_, true), parameters_);
  }

  // Whether b's output on case k is the expected one, as the pipeline judges it: no trap, and
  // floats within the tolerance (decoded), anything else by its output hash.
  bool right_on(const bank::Behaviour& b, u32 k) {
    if (b.traps[k] != u8(vm::Trap::NONE)) return false;
    if (b.type == F || b.type == FA)
      return pipeline::values_match(cases_->value(b, k), expected_[k], tolerance_);
    return bank::case_hash(b, *cases_, k) == expected_hashes_[k];
  }

  // The terms and conditions banked since the last call, and a decision list over them when one
  // is due and found: the program that answers case by case. Each program once.
  std::optional<std::string> split_program() {
    const u32 n = cases_->count();
    bool terms_changed = false;
    for (; scanned_ < enumerator_->count(); ++scanned_) {
      const bank::Behaviour& b = enumerator_->behaviour(scanned_);
      if (b.type == result_ && !terms_.full()) {
        CaseMask right = case_mask(n);
        for (u32 k = 0; k < n; ++k)
          if (right_on(b, k)) add_case(&right, k);
        terms_changed = terms_.add(scanned_, std::move(right)) || terms_changed;
      }
      if (b.type == B && !b.traps_anywhere()) {
        CaseMask holds = case_mask(n);
        for (u32 k = 0; k < n; ++k)
          if (b.words[k] != 0) add_case(&holds, k);
        conditions_.add(scanned_, std::move(holds));
      }
    }
    if (terms_.ids().size() < 2 || !conditions_.due(terms_changed)) return std::nullopt;
    // The smallest conditions that split the cases: those up to size 3 first, then up to 4, ...
    // (a larger condition that covers more cases would be taken over a smaller one, and fit the
    // train cases by chance more often).
    const std::vector<u32>& ids = conditions_.ids();
    std::optional<DecisionList> list;
    for (u32 end = 0; end < ids.size() && !list;) {
      const u32 size = enumerator_->size(ids[end]);
      while (end < ids.size() && enumerator_->size(ids[end]) <= size) ++end;
      list =
          split_cases(n, terms_.cases(), std::span(conditions_.cases()).first(end), {4, split_min_cases(n)});
    }
    if (!list) return std::nullopt;
    const DecisionList l = with_ids(*list, terms_.ids(), ids);
    std::vector<u32> parts;  // each branch's condition and term, then the last term
    for (const Branch& b : l.branches) {
      parts.push_back(b.predicate);
      parts.push_back(b.term);
    }
    parts.push_back(l.otherwise);
    const bank::Written w = enumerator_->write(parts, "");
    std::string source = "fn " + entry_ + "(" + parameters_ + ") -> " + type_name(result_) + " {\n";
    for (size_t j = 0; j < l.branches.size(); ++j) {
      const std::string& condition = w.expressions[2 * j];
      source += "  if " + (l.branches[j].when ? condition : "!(" + condition + ")") + " {\n    return " +
                w.expressions[2 * j + 1] + ";\n  }\n";
    }
    source += "  return " + w.expressions.back() + ";\n}\n" + w.functions;
    if (!split_sources_.insert(source).second) return std::nullopt;
    return source;
  }

  static std::string literal(const vm::Value& v) {
    switch (v.type) {
      case Type::Int: return trees::to_source(trees::Expr::int_lit(v.i));
      case Type::Bool: return v.i ? "true" : "false";
      case Type::Float: return trees::to_source(trees::Expr::float_lit(v.f));
      case Type::Str: return trees::to_source(trees::Expr::str_lit(v.s));
      default: return trees::to_source(trees::Expr::int_lit(0));
    }
  }

  EnumerateSettings settings_;
  bool usable_ = false;  // a signature the bank takes
  std::set<Type> types_;
  std::vector<Type> params_;
  std::vector<std::string> names_;
  std::vector<std::vector<vm::Value>> inputs_;  // by train case
  std::vector<vm::Value> constants_;
  u64 lambda_evaluated_ = 0;
  std::optional<std::pair<u32, std::string>> answer_;  // the last proposal's id in the bank, and source
  static constexpr u64 kAlikeBudget =
      20000;  // expressions alike() may evaluate  // body expressions evaluated for the lambda leaves
  std::unique_ptr<bank::Cases> cases_;
  std::unique_ptr<bank::BankEnumerator> enumerator_;
  std::vector<vm::Value> expected_;   // by train case
  std::vector<u64> expected_hashes_;  // … their output hashes
  std::string parameters_;            // the entry's parameter list
  // Case splits: the entries scanned for terms and conditions so far, those kept, and the
  // programs proposed.
  u32 scanned_ = 0;
  SplitTerms terms_;
  SplitConditions conditions_;
  std::set<std::string> split_sources_;
  double tolerance_ = 0;
  Type result_ = Type::Unit;
  std::string entry_;
  u64 spent_ = 0, evaluated_ = 0;
};

}  // namespace

std::unique_ptr<Generator> make_bank_generator(const suites::Problem& problem, EnumerateSettings settings) {
  return std::make_unique<BankGenerator>(problem, settings);
}

}  // namespace gs::search
