// The bank of an enumeration (search/enumeration_bank.h).
#include "search/enumeration_bank.h"

namespace gs::search::enumeration {

Bank::Bank(const Grammar& grammar) : grammar_(grammar) {
  const u32 contexts = u32(grammar.contexts().size()), types = u32(grammar.types().size());
  by_size_.assign(contexts, std::vector<std::vector<std::vector<u32>>>(types));
  seen_.assign(contexts, std::vector<std::unordered_set<u64>>(types));
  const std::vector<trees::Expr>& leaves = grammar.leaves();
  for (u32 c = 1; c < contexts; ++c)
    for (u32 l = 0; l < leaves.size(); ++l)
      if (is_array(leaves[l].type) && grammar.rules()[l].context == kAnyContext)
        add({l, {kNone, kNone, kNone}}, c, grammar.index_of_type(leaves[l].type), 1);
}

u32 Bank::add(const Node& node, u32 context, u32 type, u32 size) {
  const u32 id = u32(entries_.size());
  bool variable = grammar_.rules()[node.rule].context == context && context != 0;  // the variable itself
  for (u32 c : node.child)
    variable = variable || (c != kNone && entries_[c].context == context && entries_[c].variable);
  entries_.push_back({node, grammar_.types()[type], context, variable});
  auto& by_size = by_size_[context][type];
  if (by_size.size() <= size) by_size.resize(size + 1);
  by_size[size].push_back(id);
  return id;
}

const std::vector<u32>& Bank::at(u32 context, Type t, u32 size) const {
  static const std::vector<u32> none;
  const auto& by_size = by_size_[context][grammar_.index_of_type(t)];
  return size < by_size.size() ? by_size[size] : none;
}

}  // namespace gs::search::enumeration
