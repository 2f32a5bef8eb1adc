// The bank of a bottom-up enumeration: one expression per distinct behaviour, for each context,
// type and size — the expressions whose outputs on the train inputs differ from every expression
// banked before. An expression is a node: a rule of the grammar over banked operands.
#pragma once

#include <array>
#include <unordered_set>
#include <vector>

#include "search/enumeration_grammar.h"

namespace gs::search::enumeration {

// One expression: a rule over banked operands (Leaf: the leaf's index in Grammar::leaves()).
struct Node {
  u32 rule = 0;
  std::array<u32, 3> child{kNone, kNone, kNone};
};

struct Entry {
  Node node;
  Type type;
  u32 context;
  bool variable;  // a lambda body that uses its context's variable
};

class Bank {
 public:
  // An empty bank, but for the array parameters and constants, which each lambda context holds
  // at size 1 as they are: its body enumerates scalar types only (its probe returns an array of
  // them), and `xs[i]` and `len(xs)` must be buildable there.
  explicit Bank(const Grammar& grammar);

  // Banks an expression of type index `type` and size `size` in `context`; its id.
  u32 add(const Node& node, u32 context, u32 type, u32 size);
  // True the first time a behaviour is seen for a context and type (then it is remembered).
  bool first_of(u32 context, u32 type, u64 behaviour) {
    return seen_[context][type].insert(behaviour).second;
  }

  // The ids banked for a context, type and size, in the order banked.
  const std::vector<u32>& at(u32 context, Type t, u32 size) const;
  const Entry& entry(u32 id) const { return entries_[id]; }

 private:
  const Grammar& grammar_;
  std::vector<Entry> entries_;                                       // by id
  std::vector<std::vector<std::vector<std::vector<u32>>>> by_size_;  // context → type index → size → ids
  std::vector<std::vector<std::unordered_set<u64>>> seen_;  // context → type index → behaviours banked
};

}  // namespace gs::search::enumeration
