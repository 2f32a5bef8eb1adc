// A set of 64-bit hashes by open addressing (linear probing, a power-of-two table at most half
// full): what the value bank's observational equivalence asks of every candidate, "is this
// behaviour's hash new?", in one or two cache lines instead of std::unordered_set's node chase
// (27 % of an enumeration over ints by perf, bench/bank_device_bench). The keys are hashes
// already; they are mixed once more so that keys alike in their low bits spread.
#pragma once

#include <algorithm>
#include <vector>

#include "base/types.h"

namespace gs {

class HashSet64 {
 public:
  // Whether `key` is in the set.
  bool contains(u64 key) const {
    if (key == kEmpty) return has_empty_;
    if (slots_.empty()) return false;
    for (u64 i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i] == key) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  // Adds `key`; true when it was not in the set.
  bool insert(u64 key) {
    if (key == kEmpty) {
      const bool added = !has_empty_;
      has_empty_ = true;
      size_ += added;
      return added;
    }
    if (2 * (size_ + 1) > slots_.size()) grow();
    for (u64 i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i] == key) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }
  // Asks for the cache line where `key` would be looked for, so that a contains() or insert() of
  // it soon after finds it there: a table of millions of keys is out of every cache, and a chunk
  // of keys known at once can have their lines on their way together. (Unconditionally: a prefetch
  // never faults, and GCC 12 dropped one behind an `if (!slots_.empty())`; an empty set's data()
  // + 0 asks for nothing useful and harms nothing.)
  void prefetch(u64 key) const { __builtin_prefetch(slots_.data() + home(key)); }
  u64 size() const { return size_; }
  // Empties the set, keeping its table.
  void clear() {
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    size_ = 0;
    has_empty_ = false;
  }

 private:
  static constexpr u64 kEmpty = 0;  // a free slot; the key 0 itself is has_empty_
  u64 home(u64 key) const { return ((key ^ (key >> 29)) * 0xbf58476d1ce4e5b9ull >> 17) & mask_; }
  void grow() {
    std::vector<u64> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), kEmpty);
    mask_ = slots_.size() - 1;
    for (u64 key : old)
      if (key != kEmpty)
        for (u64 i = home(key);; i = (i + 1) & mask_)
          if (slots_[i] == kEmpty) {
            slots_[i] = key;
            break;
          }
  }

  std::vector<u64> slots_;
  u64 mask_ = 0, size_ = 0;
  bool has_empty_ = false;
};

}  // namespace gs
