#include "search/goal_index.h"

#include <algorithm>

namespace gs::search {

void GoalIndex::add(const Goal& goal) {
  const u32 id = count_++;
  OfType& of = of_type_[u8(goal.type)];
  if (!goal.key) {
    of.unhashed.push_back(id);
    return;
  }
  of.by_key[goal.permutation].emplace(*goal.key, id);
  if (goal.by_case) of.by_case.push_back(id);
  if (goal.offset) of.offset.push_back(id);
}

bool GoalIndex::hashed(Type t, bool permutation) const {
  const auto of = of_type_.find(u8(t));
  return of != of_type_.end() && !of->second.by_key[permutation].empty();
}

void GoalIndex::candidates(Type t, const std::optional<u64> (&key)[2], bool assembling, bool may_offset,
                           std::vector<u32>* out) const {
  out->clear();
  const auto found = of_type_.find(u8(t));
  if (found == of_type_.end()) return;
  const OfType& of = found->second;
  out->insert(out->end(), of.unhashed.begin(), of.unhashed.end());
  for (bool permutation : {false, true}) {
    if (!key[permutation]) continue;
    const auto [from, to] = of.by_key[permutation].equal_range(*key[permutation]);
    for (auto it = from; it != to; ++it) out->push_back(it->second);
  }
  if (assembling) {
    out->insert(out->end(), of.by_case.begin(), of.by_case.end());
    if (may_offset) out->insert(out->end(), of.offset.begin(), of.offset.end());
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace gs::search
