// The value bank's scalar path, written once for the CPU and CUDA (docs/design.md "One core, two
// processors"): one case of a heap-free instruction over banked words (vm/scalar_ops.h, the very
// function the interpreter's case for it calls), and the hashes observational equivalence
// compares a word behaviour by. search/value_bank.cpp calls them over a chunk's vectors on the
// CPU; search/cuda_bank_device.cu from a kernel, one thread per application and case.
#pragma once

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
// A term is c[k] mixed with a word of its case's own, so that the order counts: two behaviours
// that differ on some cases share a key where their terms there sum alike, about once in 2^64.
// Not c[k] times a pseudo-random weight(k): mix_word(kHashSeed, 1) * weight(0) equals
// mix_word(kHashSeed, 0) * weight(1) where the weights are mix_word's of the case hashes' seed, and
// every int behaviour (1, trap) then shared its key with (trap, 0).
GS_HD inline u64 case_term(u32 k, u64 case_hash) {
  return mix_word(case_hash, u64(k) * 0x9e3779b97f4a7c15ull);
}
GS_HD inline u64 behaviour_key(u64 sum_of_terms) { return mix_word(kHashSeed, sum_of_terms); }

// A word behaviour's key over its n cases, as search::bank::behaviour_hash gives it.
GS_HD inline u64 word_behaviour_hash(Type t, const u8* traps, const u64* words, u32 n) {
  u64 sum = 0;
  for (u32 k = 0; k < n; ++k) sum += case_term(k, word_case_hash(t, traps[k], words[k]));
  return behaviour_key(sum);
}

}  // namespace gs::search::bank
