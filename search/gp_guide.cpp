#include "search/gp_guide.h"

#include <bit>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "search/bank_grammar.h"

namespace gs::search {

namespace {

class Guide {
 public:
  Guide(const Policy& policy, const suites::Problem& problem, double temperature)
      : temperature_(temperature) {
    const std::set<Type> types = bank::grammar_types(problem);
    std::vector<std::string> keys;
    for (const bank::Production& p : bank::grammar(types, false, false))
      keys.push_back(bank::production_key(p));
    for (const vm::Value& c : bank::small_constants(types)) keys.push_back(bank::constant_key(c));
    for (i64 k = -1; k <= 10; ++k) keys.push_back(bank::constant_key(vm::Value::of_int(k)));
    for (const vm::Value& c : problem.constants)
      if (trees::literal_of(c)) keys.push_back(bank::constant_key(c));
    keys.push_back(kNobody);
    const std::vector<double> p = policy.probabilities(problem, keys);
    for (size_t i = 0; i < keys.size(); ++i) by_key_[keys[i]] = weight(p[i]);
    otherwise_ = by_key_.at(kNobody);
  }

  double operator()(const trees::Expr& node) {
    std::string shape = shape_of(node);
    if (auto it = by_shape_.find(shape); it != by_shape_.end()) return it->second;
    double w = 1;
    if (const std::optional<std::string> key = bank::node_key(node)) {
      const auto it = by_key_.find(*key);
      w = it != by_key_.end() ? it->second : otherwise_;
    }
    by_shape_.emplace(std::move(shape), w);
    return w;
  }

 private:
  // What tells nodes' keys apart, cheaper to make than the key: kind, operator, types, callee or
  // literal.
  static std::string shape_of(const trees::Expr& node) {
    std::string s{char(node.kind), char(node.op), char(node.type)};
    for (const trees::Expr& c : node.children) s += char(c.type);
    switch (node.kind) {
      case trees::ExprKind::IntLit:
      case trees::ExprKind::BoolLit: return s + std::to_string(node.int_value);
      case trees::ExprKind::FloatLit: return s + std::to_string(std::bit_cast<u64>(node.float_value));
      case trees::ExprKind::StrLit:
      case trees::ExprKind::Call: return s + '\0' + node.text;
      default: return s;
    }
  }

  double weight(double p) const { return std::exp2(1 - double(policy_cost(p, temperature_))); }

  // A key no policy's vocabulary holds: what the policy gives any key it lacks.
  static constexpr const char* kNobody = "(a key no grammar holds) () -> bool";

  double temperature_;
  std::unordered_map<std::string, double> by_key_, by_shape_;
  double otherwise_ = 1;
};

}  // namespace

trees::NodeWeight gp_guide(const std::shared_ptr<const Policy>& policy, const suites::Problem& problem,
                           double temperature) {
  auto guide = std::make_shared<Guide>(*policy, problem, temperature);
  return [guide](const trees::Expr& node) { return (*guide)(node); };
}

}  // namespace gs::search
