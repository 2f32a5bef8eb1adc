// 64-bit FNV-1a, the one hash of the project: output hashes (pipeline/case_set.h, word by word),
// bytecode hashes (pipeline/batch.h), and host-side keys (problem seeds, lexicase's row classes).
#pragma once

#include "base/hd.h"

namespace gs {

inline constexpr u64 kHashSeed = 14695981039346656037ull;  // the FNV-1a offset basis

// One step: mixes a byte or a whole word into h.
GS_HD inline u64 mix_word(u64 h, u64 word) { return (h ^ word) * 1099511628211ull; }

// FNV-1a over bytes.
GS_HD inline u64 fnv1a64(const u8* bytes, u64 size) {
  u64 h = kHashSeed;
  for (u64 k = 0; k < size; ++k) h = mix_word(h, bytes[k]);
  return h;
}

}  // namespace gs
