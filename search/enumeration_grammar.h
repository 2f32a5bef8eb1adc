// The grammar a bottom-up enumeration (search/enumerate_generator.cpp) works in for one problem:
// the types it enumerates, the leaves (parameters, small constants, recurring outputs, the
// problem's constants and thresholds), the contexts expressions live in (the entry's body, and
// with lambdas the body of a map or filter), and the rules — productions with their operand
// and result types — that build larger expressions from banked ones.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "search/case_split.h"
#include "search/generator.h"
#include "search/goal_shapes.h"
#include "suites/problem.h"
#include "trees/syntax.h"

namespace gs::search::enumeration {

enum class Production : u8 { Leaf, Unary, Binary, Builtin, Index, Choose, Map, MapRange, Filter };

inline constexpr u32 kNone = ~0u;
inline constexpr u32 kAnyContext = ~0u;
inline constexpr i64 kRangeProbe = 64;  // a range context over an int parameter n takes 0..min(n, 64)

struct Rule {
  Production kind;
  u8 op = 0;               // UnaryOp / BinaryOp
  std::string callee;      // Builtin: the builtin's name
  std::vector<Type> args;  // operand types
  Type result = Type::Unit;
  bool commutative = false;   // operands of one type whose order does not matter
  u32 context = kAnyContext;  // the one context the rule belongs to (a lambda's variable: its own)
  u32 body = 0;               // Map, MapRange, Filter: the lambda context of the second operand
};

// Map, MapRange and Filter: the productions whose second operand is a lambda's body.
inline bool is_lambda(const Rule& r) {
  return r.kind == Production::Map || r.kind == Production::MapRange || r.kind == Production::Filter;
}

// Where expressions are enumerated: the entry's body (context 0) or a lambda's body, which also
// sees `var`, bound to each element of its sources (parameters) or, for a range, to each index.
struct Context {
  std::string var;
  Type var_type = Type::Unit;
  bool range = false;
  std::vector<u32> sources;  // parameter indices
  std::vector<u32> types;    // the type indices enumerated in it (a lambda: the scalar ones)
  u32 variable = kNone;      // the rule of its variable's leaf
  bool indexed = false;      // a range whose sequences' elements at i are leaves
};

class Grammar {
 public:
  Grammar(const suites::Problem& problem, const EnumerateSettings& settings);

  const suites::Signature& signature() const { return signature_; }
  const std::vector<Type>& types() const { return types_; }
  u32 index_of_type(Type t) const { return type_index_[u8(t)]; }
  const std::vector<trees::Expr>& leaves() const {
    return leaves_;
  }  // rule i < leaves().size() is leaves()[i]
  const std::vector<Rule>& rules() const { return rules_; }
  const std::vector<Context>& contexts() const { return contexts_; }
  // The rules of a context with result type index t, in rule order.
  const std::vector<u32>& rules_for(u32 context, u32 t) const { return by_result_[context][t]; }
  // The lambda helpers' sequence, count, result and index names, clear of the parameters'.
  const std::vector<std::string>& helper_names() const { return helper_names_; }
  // The prefix and suffix all train outputs of result r share (empty for a result not a str).
  const std::pair<std::string, std::string>& affixes(u32 r) const { return affixes_[r]; }
  // Moves the types `first` holds to the front of the entry context's order, keeping the rest
  // in order: within a size, the entry's context enumerates them first.
  template <class First>
  void put_first(First first) {
    std::vector<u32>& order = contexts_[0].types;
    std::stable_partition(order.begin(), order.end(), [&](u32 t) { return first(types_[t]); });
  }

 private:
  void make_affixes(const suites::Problem& problem);
  void add_type(Type t);
  bool has_type(Type t) const;
  void make_types(const suites::Problem& problem);
  std::vector<Type> map_results() const;
  void make_leaves(const suites::Problem& problem);
  void add_leaf_once(trees::Expr e);
  std::string fresh(std::string base);
  void make_contexts();
  void add_rule(Rule r);
  void make_rules();

  suites::Signature signature_;
  EnumerateSettings settings_;
  std::vector<std::pair<std::string, std::string>> affixes_;  // by result
  std::vector<Type> types_;
  std::array<u32, 256> type_index_{};
  std::vector<trees::Expr> leaves_;
  std::vector<Rule> rules_;  // leaves first: rule i < leaves_.size() is leaves_[i]
  std::vector<Context> contexts_;
  std::vector<std::string> names_;         // names fresh() gave out
  std::vector<std::string> helper_names_;  // the lambda helpers' sequence, count, result and index names
  std::vector<std::vector<std::vector<u32>>> by_result_;  // context → type index → rules
};

}  // namespace gs::search::enumeration
