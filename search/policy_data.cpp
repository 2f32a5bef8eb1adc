#include "search/policy_data.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <unordered_set>

#include "base/hash.h"
#include "base/rng.h"
#include "pipeline/case_set.h"
#include "search/bank_grammar.h"
#include "search/bank_lambdas.h"
#include "trees/syntax.h"

namespace gs::search {

namespace {

using bank::BankEnumerator;
using bank::Cases;
using bank::Leaf;

// The range a bank's inputs are drawn from, drawn per bank so that the data covers the problems
// people pose: ints within ±10, ±100 or ±1000, or their non-negative halves (list functions
// hold 0..99), lists of up to 5, 10 or 15 of them, strings of up to 10 letters and spaces, lists
// of up to 5 strings.
struct InputRange {
  i64 lo = -10, hi = 10;
  i64 longest = 10;
};

InputRange random_range(Rng& rng) {
  static const i64 kHighs[] = {10, 100, 1000};
  static const i64 kLongest[] = {5, 10, 15};
  InputRange r;
  r.hi = kHighs[rng.below(3)];
  r.lo = rng.bernoulli(0.5) ? 0 : -r.hi;
  r.longest = kLongest[rng.below(3)];
  return r;
}

vm::Value random_input(Type t, const InputRange& range, Rng& rng) {
  // Mostly small ints whatever the range: the answers' constants and indices are small.
  auto ints = [&] {
    return rng.bernoulli(0.3) ? rng.uniform_int(std::max<i64>(range.lo, -10), 10)
                              : rng.uniform_int(range.lo, range.hi);
  };
  auto text = [&] {
    static const char kLetters[] = "abcdexyz  ";
    std::string s(size_t(rng.uniform_int(0, 10)), ' ');
    for (char& c : s) c = kLetters[rng.below(sizeof(kLetters) - 1)];
    return s;
  };
  std::vector<vm::Value> items;
  switch (t) {
    case Type::Int: return vm::Value::of_int(ints());
    case Type::Str: return vm::Value::of_str(text());
    case Type::IntArray:
      for (i64 k = rng.uniform_int(0, range.longest); k > 0; --k) items.push_back(vm::Value::of_int(ints()));
      return vm::Value::of_array(Type::Int, std::move(items));
    default:  // [str]
      for (i64 k = rng.uniform_int(0, 5); k > 0; --k) items.push_back(vm::Value::of_str(text()));
      return vm::Value::of_array(Type::Str, std::move(items));
  }
}

// A parameter's name by its type and how many of that type came before: n, m, k; xs, ys, zs; …
std::string parameter_name(Type t, u32 before) {
  static const char* const kInts[] = {"n", "m", "k"};
  static const char* const kLists[] = {"xs", "ys", "zs"};
  static const char* const kStrs[] = {"s", "t", "u"};
  static const char* const kWords[] = {"words", "lines", "names"};
  switch (t) {
    case Type::Int: return kInts[before];
    case Type::IntArray: return kLists[before];
    case Type::Str: return kStrs[before];
    default: return kWords[before];
  }
}

// One bank: its signature, cases and enumeration, and the problems drawn from it.
class PolicyBank {
 public:
  PolicyBank(const PolicyDataConfig& config, u64 index)
      : config_(config), index_(index), rng_(Rng(config.seed, index)) {
    static const Type kParams[] = {Type::Int,      Type::Int, Type::IntArray,
                                   Type::IntArray, Type::Str, Type::StrArray};
    static const Type kResults[] = {Type::Int,      Type::Int,      Type::Bool,
                                    Type::IntArray, Type::IntArray, Type::Str};
    const u32 count = u32(rng_.uniform_int(1, 3));
    u32 before[256] = {};
    for (u32 i = 0; i < count; ++i) params_.push_back(kParams[rng_.below(6)]);
    std::sort(params_.begin(), params_.end());  // n before xs before s: one order per set of types
    result_ = kResults[rng_.below(6)];
    std::string text = "fn solve(";
    for (u32 i = 0; i < count; ++i) {
      names_.push_back(parameter_name(params_[i], before[u8(params_[i])]++));
      text += (i ? ", " : "") + names_[i] + ": " + type_name(params_[i]);
    }
    text += std::string(") -> ") + type_name(result_);
    std::string error;
    if (!suites::parse_signature(text, &signature_, &error)) throw std::logic_error(error);
    const InputRange range = random_range(rng_);
    for (u32 k = 0; k < config.cases; ++k) {
      inputs_.emplace_back();
      for (Type t : params_) inputs_.back().push_back(random_input(t, range, rng_));
    }
  }

  // Enumerates, then hands each problem drawn to `emit` until it returns false.
  void run(const std::function<bool(PolicyExample&&)>& emit) {
    std::vector<Type> used = params_;
    used.push_back(result_);
    const std::set<Type> types = bank::grammar_types(used);
    Cases cases(params_, inputs_, vm::Limits{});
    std::vector<Leaf> leaves;
    std::string parameters;
    for (u32 i = 0; i < params_.size(); ++i) {
      leaves.push_back({names_[i], cases.parameter(i)});
      parameters += (i ? ", " : "") + names_[i] + ": " + type_name(params_[i]);
    }
    const u32 first_constant = u32(leaves.size());
    const std::vector<vm::Value> constants = bank::small_constants(types);
    for (const vm::Value& c : constants)
      leaves.push_back({trees::to_source(*trees::literal_of(c)), bank::constant(c, cases)});
    if (config_.lambda_budget > 0) {  // as the search's (search/enumerate_generator.cpp), smaller
      const bank::LambdaSettings settings{
          .budget = config_.lambda_budget, .max_body_size = kMaxBodySize, .max_leaves = kMaxLeavesPerForm};
      for (Leaf& leaf : bank::lambda_leaves(
                            params_, names_, inputs_, cases, bank::body_constants({}),
                            [&] { return bank::body_grammar(types, true); }, settings)
                            .leaves)
        leaves.push_back(std::move(leaf));
    }
    const bool forms = config_.list_forms && index_ % 2 == 1 &&
                       std::find(params_.begin(), params_.end(), Type::IntArray) != params_.end();
    BankEnumerator bank(cases, std::move(leaves), bank::grammar(types, true, true, forms), parameters);
    bank::EnumerationStats stats;
    bank.search([](const bank::Behaviour&) { return false; }, config_.max_size, config_.budget, &stats);

    std::vector<u32> candidates;
    for (u32 id : bank.banked(result_))
      if (bank.size(id) >= 2 && informative(bank.behaviour(id), cases)) candidates.push_back(id);
    std::vector<bool> productions, leaves_used;
    for (u32 k = 0; k < config_.per_bank && !candidates.empty(); ++k) {
      const u32 at = rng_.below(u32(candidates.size()));
      const u32 id = candidates[at];
      candidates.erase(candidates.begin() + at);
      PolicyExample e;
      e.problem.name = "policy-" + std::to_string(index_) + "-" + std::to_string(k);
      e.problem.signature = signature_;
      e.problem.source = "gpusynth policy-data (seed " + std::to_string(config_.seed) + ")";
      for (u32 c = 0; c < cases.count(); ++c)
        e.problem.train.push_back({inputs_[c], {cases.value(bank.behaviour(id), c)}});
      e.program = bank.program(id, "solve");
      e.size = bank.size(id);
      bank.uses(id, &productions, &leaves_used);
      for (u32 i = 0; i < productions.size(); ++i)
        if (productions[i]) e.uses.push_back(bank::production_key(bank.production(i)));
      for (u32 j = first_constant; j < leaves_used.size(); ++j)
        if (leaves_used[j] && j - first_constant < constants.size())
          e.uses.push_back(bank::constant_key(constants[j - first_constant]));
        else if (leaves_used[j] && !bank.leaf(j).form.empty()) {
          e.uses.push_back(bank.leaf(j).form);
          if (bank.leaf(j).body_uses) {
            const std::vector<std::string> body = bank.leaf(j).body_uses();
            e.uses.insert(e.uses.end(), body.begin(), body.end());
          }
        }
      std::sort(e.uses.begin(), e.uses.end());
      e.uses.erase(std::unique(e.uses.begin(), e.uses.end()), e.uses.end());
      if (!emit(std::move(e))) return;
    }
  }

 private:
  // Outputs on every case, not all one value: a problem whose cases tell something.
  static bool informative(const bank::Behaviour& b, Cases& cases) {
    for (u8 t : b.traps)
      if (t != u8(vm::Trap::NONE)) return false;
    const std::vector<u64> outputs = bank::output_hashes(b, cases);
    return std::any_of(outputs.begin(), outputs.end(), [&](u64 h) { return h != outputs[0]; });
  }

  // The lambda bodies' nodes at most, and each form's leaves: the smaller of the search's bodies.
  static constexpr u32 kMaxBodySize = 5, kMaxLeavesPerForm = 1000;

  const PolicyDataConfig& config_;
  u64 index_;
  Rng rng_;
  std::vector<Type> params_;
  Type result_ = Type::Int;
  std::vector<std::string> names_;
  suites::Signature signature_;
  std::vector<std::vector<vm::Value>> inputs_;
};

// What makes two problems the same: the signature and every case's inputs and outputs.
u64 fingerprint(const suites::Problem& p) {
  u64 h = fnv1a64(reinterpret_cast<const u8*>(p.signature.text.data()), p.signature.text.size());
  for (const suites::Case& c : p.train) {
    h = mix_word(h, pipeline::output_hash(c.inputs));
    h = mix_word(h, pipeline::output_hash(c.outputs));
  }
  return h;
}

}  // namespace

void make_policy_data(const PolicyDataConfig& config, const std::function<void(const PolicyExample&)>& emit,
                      const std::function<void(u64 made, u64 banks)>& progress) {
  if (config.cases == 0) throw std::invalid_argument("policy data: a problem needs a case at least");
  std::unordered_set<u64> seen;
  u64 made = 0;
  for (u64 index = 0, idle = 0; made < config.examples; ++index) {
    const u64 before = made;
    PolicyBank(config, index).run([&](PolicyExample&& e) {
      if (!seen.insert(fingerprint(e.problem)).second) return true;
      emit(e);
      return ++made < config.examples;
    });
    if (progress) progress(made, index + 1);
    idle = made > before ? 0 : idle + 1;
    if (idle == 1000)  // a budget or size too small to bank anything of 2 nodes, say
      throw std::runtime_error("policy data: 1000 banks in a row made no new problem (budget " +
                               std::to_string(config.budget) + ", max size " +
                               std::to_string(config.max_size) + ")");
  }
}

std::string policy_example_json(const PolicyExample& e) {
  nlohmann::json j = nlohmann::json::parse(suites::problem_json(e.problem));
  if (!e.program.empty()) {
    j["program"] = e.program;
    j["size"] = e.size;
  }
  j["uses"] = e.uses;
  return j.dump();
}

}  // namespace gs::search
