// The goals a new entry of the value bank may meet (search/enumerate_generator.cpp), found by the
// hash of their output on one train case, the key case (the enumeration chooses it: the case whose
// outputs say most), rather than by comparing the entry with every goal:
// deepcoder-neo100's problems have about 90 goals (the outputs, one or two last steps back from
// them, search/last_steps.h), and every banked list was compared with each (issue 21). A goal
// whose output on the key case differs from the entry's cannot be met by it whole; what is compared
// whatever the key case gives is named by the goal: lines joined and floats (no hash finds them), and
// when assembling, a goal met case by case (its terms are kept for splits) and an int goal an
// offset may meet.
#pragma once

#include <optional>
#include <unordered_map>
#include <vector>

#include "base/types.h"

namespace gs::search {

class GoalIndex {
 public:
  struct Goal {
    Type type = Type::Int;
    // The hash of its output on the key case, of its kind: the output hash, or a permutation goal's
    // multiset hash; none for a goal no hash finds.
    std::optional<u64> key;
    bool permutation = false;
    bool by_case = false;  // met case by case: its terms are kept for splits
    bool offset = false;   // an int goal an offset may meet
  };
  // Goal ids count up from 0 in the order added.
  void add(const Goal& goal);

  // Whether some goal of type t is found by a hash of that kind (the entry's is needed).
  bool hashed(Type t, bool permutation) const;

  // The goals an entry of type t may meet, ascending, into *out: `key[kind]` is the entry's hash
  // on the key case of each kind (none where it traps there, or where hashed() says no goal needs it);
  // `assembling` adds the goals met case by case, and `may_offset` (an int entry an offset may
  // fit) the offset goals.
  void candidates(Type t, const std::optional<u64> (&key)[2], bool assembling, bool may_offset,
                  std::vector<u32>* out) const;

 private:
  struct OfType {
    std::unordered_multimap<u64, u32> by_key[2];
    std::vector<u32> unhashed, by_case, offset;
  };
  std::unordered_map<u8, OfType> of_type_;
  u32 count_ = 0;
};

}  // namespace gs::search
