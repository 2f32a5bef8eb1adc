// The value-bank enumeration as a generator (search/generator.h make_bank_generator): the
// problem's train cases become the bank's cases, its parameters and a few constants the leaves,
// the operators and builtins of the signature's types, the loops of search/bank_loops.h and a
// lazy choose per type the productions; each propose() goes on enumerating for `count` expressions and
// proposes the expressions that meet the goal, written out as programs, which the pipeline judges.
#include <algorithm>
#include <set>

#include "pipeline/case_set.h"
#include "search/bank_enumerator.h"
#include "search/bank_lambdas.h"
#include "search/bank_loops.h"
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
    // The goal as the pipeline judges it: every train output matches, floats within the tolerance.
    auto meets = [&](const bank::Behaviour& b) {
      for (u32 k = 0; k < cases_->count(); ++k)
        if (b.traps[k] != u8(vm::Trap::NONE) ||
            !pipeline::values_match(cases_->value(b, k), expected_[k], tolerance_))
          return false;
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
    std::string parameters;
    for (u32 i = 0; i < params_.size(); ++i) {
      leaves.push_back({names_[i], cases_->parameter(i)});
      parameters += (i ? ", " : "") + names_[i] + ": " + type_name(params_[i]);
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
    enumerator_ = std::make_unique<bank::BankEnumerator>(
        *cases_, std::move(leaves), productions_for(types_, true), std::move(parameters));
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
  std::vector<vm::Value> expected_;  // by train case
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
