// The batch layout (docs/design.md "Batch-first memory layout"): a batch of programs is a handful of
// flat arrays plus offsets, the same on the host and on the device. These views hold only
// pointers and counts; the CPU backend points them at host vectors, the CUDA backend at device
// memory allocated once (pipeline/cuda_pipeline.h). Program i's bytecode lives in its own 8-aligned
// slot bytes[offsets[i] .. offsets[i+1]); pair (i, k) — program i on case k — is index
// i * case_count + k of every per-pair array.
#pragma once

#include "base/hash.h"
#include "base/hd.h"
#include "vm/trap.h"

namespace gs::pipeline {

// What became of a program before it ran. docs/pipeline.md describes each.
#define GS_PROGRAM_STATUSES(X)                                                         \
  X(OK, "ok")                                 /* compiled, verified, entry found */    \
  X(COMPILE_ERROR, "compile_error")           /* diagnostics in the compile results */ \
  X(BYTECODE_TOO_LARGE, "bytecode_too_large") /* the container outgrew its slot */     \
  X(INVALID_BYTECODE, "invalid_bytecode")     /* the verifier rejected it */           \
  X(NO_ENTRY, "no_entry")                     /* no function with the problem's signature */

enum class ProgramStatus : u8 {
#define GS_STATUS_ENUM(name, text) name,
  GS_PROGRAM_STATUSES(GS_STATUS_ENUM)
#undef GS_STATUS_ENUM
};

inline constexpr u32 kProgramStatusCount = 5;

inline const char* status_name(ProgramStatus s) {
  switch (s) {
#define GS_STATUS_CASE(name, text) \
  case ProgramStatus::name: return text;
    GS_PROGRAM_STATUSES(GS_STATUS_CASE)
#undef GS_STATUS_CASE
  }
  return "?";
}

// The trap byte of a pair whose program never ran (its status is not OK).
inline constexpr u8 kNotRun = 0xff;

// Bytes reserved for program i's container, from its source length: a container is at most
// about 3 bytes per source byte plus its fixed parts on everything the generators and test
// programs produce (measured in cases/unit/batch_test.cpp), so this leaves ample room; a
// program that needs more gets BYTECODE_TOO_LARGE, never a stray write.
GS_HD inline u64 bytecode_slot_bytes(u32 source_len) {
  return (u64(1024) + u64(source_len) * 8 + 7) & ~u64(7);
}

// The slot offsets of a batch's bytecode from its sources' offsets (n programs): slots[0] = 0,
// slots[i + 1] = slots[i] + bytecode_slot_bytes(length of source i). Both backends size slots so.
GS_HD inline void fill_slot_offsets(const u64* source_offsets, u32 n, u64* slots) {
  slots[0] = 0;
  for (u32 i = 0; i < n; ++i) {
    const u64 length = source_offsets[i + 1] - source_offsets[i];
    slots[i + 1] = slots[i] + bytecode_slot_bytes(u32(length < 0xffffffffu ? length : 0xffffffffu));
  }
}

struct BytecodeBatch {
  u32 count = 0;
  u8* bytes = nullptr;
  const u64* offsets = nullptr;  // count + 1, multiples of 8
  u32* sizes = nullptr;          // container bytes in each slot (0 when there is none)
  u8* status = nullptr;          // ProgramStatus
  u32* entry = nullptr;          // index of the entry function (valid when status is OK)
};

// Per (program, case) pair.
struct PairResults {
  u8* trap = nullptr;           // Trap, or kNotRun
  u8* pass = nullptr;           // 1 when the outputs matched the expected ones
  u32* instructions = nullptr;  // bytecode instructions executed
  u64* output_hash = nullptr;   // hash of the outputs (docs/pipeline.md), 0 on a trap
  float* error = nullptr;       // graded error of the outputs (pipeline/output_error.h), +inf on a trap;
                                // nullptr: not computed
};

// Per program, reduced over its cases.
struct ProgramResults {
  u32* cases_passed = nullptr;
  u64* instructions = nullptr;  // over all cases
  float* reward = nullptr;
  u64* bytecode_hash = nullptr;  // bytecode_hash() of the container, 0 when there is none
};

// 64-bit FNV-1a over a program's bytecode container: equal hashes, (almost surely) equal
// bytecode — what a search's records use to spot programs that compile alike.
GS_HD inline u64 bytecode_hash(const u8* bytes, u32 size) { return fnv1a64(bytes, size); }

// The paper's reward: R = 10·[all cases pass] + 1·[valid bytecode] − λ·cost, with the cost the
// mean fuel fraction a test used (instructions / fuel limit, in [0, 1]).
struct RewardWeights {
  float solved = 10.0f;
  float valid = 1.0f;
  float cost = 1.0f;  // λ
};

GS_HD inline float reward_of(const RewardWeights& w, u8 status, u32 passed, u32 tests, u64 instructions,
                             u64 fuel) {
  if (status != u8(ProgramStatus::OK)) return 0.0f;
  float r = w.valid;
  if (passed == tests) r += w.solved;
  if (tests > 0 && fuel > 0) r -= w.cost * float(double(instructions) / (double(tests) * double(fuel)));
  return r;
}

}  // namespace gs::pipeline
