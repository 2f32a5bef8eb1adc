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

// A word behaviour's key of observational equivalence over its n cases, as
// search::bank::behaviour_hash gives it: the case hashes mixed in order.
GS_HD inline u64 word_behaviour_hash(Type t, const u8* traps, const u64* words, u32 n) {
  u64 h = kHashSeed;
  for (u32 k = 0; k < n; ++k) h = mix_word(h, word_case_hash(t, traps[k], words[k]));
  return h;
}

}  // namespace gs::search::bank
