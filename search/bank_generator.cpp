// The value-bank enumeration as a generator (search/generator.h make_bank_generator): the
// problem's train cases become the bank's cases, its parameters and a few constants the leaves,
// the operators and builtins of the signature's types, the loops of search/bank_loops.h and a
// lazy choose per type the productions; each propose() goes on enumerating for `count` expressions and
// proposes the expressions that meet the goal, written out as programs, which the pipeline judges.
#include <set>

#include "pipeline/case_set.h"
#include "search/bank_enumerator.h"
#include "search/bank_loops.h"
#include "search/generator.h"
#include "trees/syntax.h"

namespace gs::search {

namespace {

using bank::Production;

const Type I = Type::Int, B = Type::Bool, A = Type::IntArray, S = Type::Str, F = Type::Float,
           SA = Type::StrArray, FA = Type::FloatArray;

// The productions over the types the signature has (int and bool always).
std::vector<Production> productions_for(const std::set<Type>& types) {
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
  for (Production& loop : bank::loop_productions(types)) p.push_back(std::move(loop));
  for (Type t : types) p.push_back(bank::choose_production(t));
  return p;
}

class BankGenerator final : public Generator {
 public:
  BankGenerator(const suites::Problem& problem, EnumerateSettings settings) : settings_(settings) {
    const suites::Signature& sig = problem.signature;
    if (sig.results.size() != 1) return;  // one result only, for now
    std::set<Type> types = {I, B, sig.results[0]};
    for (Type t : sig.params) types.insert(t);
    for (Type t : types)
      if (t != I && t != B && t != A && t != S && t != F && t != SA && t != FA) return;  // a type they lack
    std::vector<std::vector<vm::Value>> inputs;
    for (const suites::Case& c : problem.train) {
      inputs.push_back(c.inputs);
      expected_.push_back(c.outputs[0]);
    }
    tolerance_ = problem.float_tolerance;
    cases_ = std::make_unique<bank::Cases>(sig.params, inputs, vm::Limits{});
    std::vector<bank::Leaf> leaves;
    std::string parameters;
    for (u32 i = 0; i < sig.params.size(); ++i) {
      leaves.push_back({sig.param_names[i], cases_->parameter(i)});
      parameters += (i ? ", " : "") + sig.param_names[i] + ": " + type_name(sig.params[i]);
    }
    std::vector<vm::Value> constants = {vm::Value::of_int(0), vm::Value::of_int(1), vm::Value::of_int(2),
                                        vm::Value::of_bool(true), vm::Value::of_bool(false)};
    if (types.count(S)) constants.push_back(vm::Value::of_str(" "));
    if (types.count(F)) constants.push_back(vm::Value::of_float(0.0));
    for (const vm::Value& c : problem.constants)  // the scalar ones
      if (types.count(c.type) && is_scalar(c.type)) constants.push_back(c);
    for (const vm::Value& c : constants) leaves.push_back({literal(c), bank::constant(c, *cases_)});
    enumerator_ = std::make_unique<bank::BankEnumerator>(*cases_, std::move(leaves), productions_for(types),
                                                         std::move(parameters));
    result_ = sig.results[0];
    entry_ = sig.entry;
  }

  GeneratorKind kind() const override { return GeneratorKind::Bank; }

  std::vector<Proposal> propose(u32 count, u64) override {
    evaluated_ = 0;
    std::vector<Proposal> out;
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
    spent_ = stats.evaluated;
    evaluated_ = spent_ - before;
    if (answer) {
      Proposal p;
      p.source = enumerator_->program(*answer, entry_);
      out.push_back(std::move(p));
      // The answer was evaluated in the bank and is judged by the pipeline: count it once.
      if (evaluated_ > 0) --evaluated_;
    }
    return out;
  }

  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64) override {}
  u64 evaluated_internally() const override { return evaluated_; }

 private:
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
