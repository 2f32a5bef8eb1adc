// The project's hashes: 64-bit FNV-1a over bytes (bytecode hashes, pipeline/batch.h; keys from
// text: problem seeds, shard names), and mix_word over sequences of 64-bit words (output hashes,
// pipeline/case_set.h, word by word; the value bank's behaviours; lexicase's row classes).
#pragma once

#include "base/hd.h"

namespace gs {

inline constexpr u64 kHashSeed = 14695981039346656037ull;  // the FNV-1a offset basis
inline constexpr u64 kFnvPrime = 1099511628211ull;

// One step of a word sequence's hash: mixes a whole word into h, by splitmix64's finaliser of
// h ^ word (for a given h, a bijection of the word). FNV-1a's step, (h ^ word) * prime, is made
// for bytes: over words it collided on small and negative ints (12 % of the int vectors over 5
// cases with values in -3..3 hashed alike), so observational equivalence threw distinct
// behaviours away as duplicates.
GS_HD inline u64 mix_word(u64 h, u64 word) {
  u64 x = h ^ word;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// FNV-1a over bytes.
GS_HD inline u64 fnv1a64(const u8* bytes, u64 size) {
  u64 h = kHashSeed;
  for (u64 k = 0; k < size; ++k) h = (h ^ bytes[k]) * kFnvPrime;
  return h;
}

}  // namespace gs
