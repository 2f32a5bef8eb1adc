// The value bank's scalar path, written once for the CPU and CUDA (docs/design.md "One core, two
// processors"): one case of a heap-free instruction over banked words (vm/scalar_ops.h, the very
// function the interpreter's case for it calls), and the hashes observational equivalence
// compares a word behaviour by. search/value_bank.cpp calls them over a chunk's vectors on the
// CPU; search/cuda_bank_device.cu from a kernel, one thread per application and case.
#pragma once

#include <array>

#include "base/hash.h"
#include "base/hd.h"
#include "pipeline/case_set.h"
#include "vm/scalar_ops.h"
#include "vm/trap.h"

namespace gs::search::bank {

// One case of `op` (a heap-free instruction of one or two word operands; with one, b and tb are
// a's) over operand words a and b that trapped ta and tb there: the first operand's trap, the
// second's, or the instruction's, as the interpreter would meet them. *word is the result, 0
// where it traps.
GS_HD GS_ALWAYS_INLINE u8 apply_word(vm::Op op, u8 ta, u64 a, u8 tb, u64 b, u64* word) {
  u64 r = 0;
  const u8 none = u8(vm::Trap::NONE);
  const u8 t = ta != none ? ta : tb != none ? tb : u8(vm::scalar_op(op, a, b, &r));
  *word = t == none ? r : 0;
  return t;
}

// A word behaviour's hash on one case, as search::bank::case_hash gives it (pipeline::result_hash
// of the word; 0 where it trapped).
GS_HD inline u64 word_case_hash(Type t, u8 trap, u64 word) {
  return trap != u8(vm::Trap::NONE) ? 0 : mix_word(kHashSeed, pipeline::word_key(t, word));
}

// A behaviour's key of observational equivalence is made of its case hashes c[k] (case_hash:
// pipeline::output_hash, 0 on a trap): the sum over its cases of case_term(k, c[k]), mixed. Not a
// chain of mix_word's over the cases: each of those waits for the one before (two dependent
// multiplies a case), where the terms of a sum are independent and the cases' multiplies overlap.
// A term is c[k] times the case's weight, odd (so no two case hashes give one term) and
// pseudo-random: two behaviours that differ on some cases share a key where their terms there
// sum alike, about once in 2^64. The weights come from a seed of their own: weights in a
// progression (1, 3, 5, ...) let a swap of two values between cases keep the sum ((x, y, y, x)
// against (y, x, x, y)), and weights made by the case hashes' own function and seed made
// c(1) * weight(0) equal c(0) * weight(1), so that every int behaviour (1, trap) had the key of
// (trap, 0) (BankEnumerator.NoTwoSmallIntBehavioursShareAKey fails for both). The host reads the
// first kTabledWeights from a table (a multiply a case rather than a mix_word: a third of a word
// behaviour's hash); a device computes them.
inline constexpr u64 kCaseWeightSeed = 0x243f6a8885a308d3ull;  // π's first hexadecimal digits
GS_HD inline u64 computed_case_weight(u32 k) { return mix_word(kCaseWeightSeed, k) | 1; }
inline constexpr u32 kTabledWeights = 4096;
#ifndef __CUDA_ARCH__
inline const std::array<u64, kTabledWeights> kCaseWeights = [] {
  std::array<u64, kTabledWeights> w{};
  for (u32 k = 0; k < kTabledWeights; ++k) w[k] = computed_case_weight(k);
  return w;
}();
#endif
GS_HD inline u64 case_weight(u32 k) {
#ifdef __CUDA_ARCH__
  return computed_case_weight(k);
#else
  return k < kTabledWeights ? kCaseWeights[k] : computed_case_weight(k);
#endif
}
GS_HD inline u64 case_term(u32 k, u64 case_hash) { return case_hash * case_weight(k); }
GS_HD inline u64 behaviour_key(u64 sum_of_terms) { return mix_word(kHashSeed, sum_of_terms); }

// A word behaviour's key over its n cases, as search::bank::behaviour_hash gives it.
GS_HD inline u64 word_behaviour_hash(Type t, const u8* traps, const u64* words, u32 n) {
  u64 sum = 0;
  for (u32 k = 0; k < n; ++k) sum += case_term(k, word_case_hash(t, traps[k], words[k]));
  return behaviour_key(sum);
}

}  // namespace gs::search::bank
