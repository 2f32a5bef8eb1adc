// The project's hashes: 64-bit FNV-1a over bytes (bytecode hashes, pipeline/batch.h; keys from
// text: problem seeds, shard names), and mix_word over sequences of 64-bit words (output hashes,
// pipeline/case_set.h, word by word, an [int]'s by mix_words; the value bank's behaviours;
// lexicase's row classes).
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

// A list of n words mixed into h: its length, then its words. From kLanesFrom words on, in four
// chains (word k into chain k % 4, each chain seeded apart), mixed together at the end: one
// mix_word after another is a chain of dependent multiplies, and four at once take about the
// time of one (a 20-word list hashes in about half the time). word(k) gives the k-th word.
inline constexpr u32 kLanesFrom = 8;
template <class Words>
GS_HD inline u64 mix_words(u64 h, u32 n, const Words& word) {
  h = mix_word(h, n);
  if (n < kLanesFrom) {
    for (u32 k = 0; k < n; ++k) h = mix_word(h, word(k));
    return h;
  }
  // Four named chains, not an array: a tail indexed by a variable kept an array in memory.
  u64 a = h, b = h ^ 0x9e3779b97f4a7c15ull, c = h ^ 0x3c6ef372fe94f82aull, d = h ^ 0xdaa66d2c7ddf743full;
  u32 k = 0;
  for (; k + 4 <= n; k += 4) {
    a = mix_word(a, word(k));
    b = mix_word(b, word(k + 1));
    c = mix_word(c, word(k + 2));
    d = mix_word(d, word(k + 3));
  }
  if (k < n) a = mix_word(a, word(k++));
  if (k < n) b = mix_word(b, word(k++));
  if (k < n) c = mix_word(c, word(k));
  return mix_word(mix_word(mix_word(a, b), c), d);
}

// FNV-1a over bytes.
GS_HD inline u64 fnv1a64(const u8* bytes, u64 size) {
  u64 h = kHashSeed;
  for (u64 k = 0; k < size; ++k) h = (h ^ bytes[k]) * kFnvPrime;
  return h;
}

}  // namespace gs
