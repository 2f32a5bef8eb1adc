// Training pairs for the neural compiler, made on demand: a random program from the typed
// generator (trees/random_program.h), its bytecode from the traditional compiler, both as
// tokens. No data files. docs/neural.md "Data" describes the curriculum.
//
// Determinism: example i of a split is a pure function of (seed, split, i, level) — it comes
// from the Philox stream Rng(seed, split).derive(i) — so a resumed run sees the very examples
// an uninterrupted one would have, whatever the batch size or thread.
//
// Splits are disjoint by construction: a program belongs to the held-out split when a hash of
// its source falls in 1/16 of the range, and each split skips the other's programs.
#pragma once

#include <string>
#include <vector>

#include "neural/vocabulary.h"
#include "trees/random_program.h"

namespace gs::neural {

struct Example {
  std::string source;
  std::vector<u8> bytecode;
  TokenSeq source_ids;    // encoder input (ends with EOS)
  TokenSeq bytecode_ids;  // decoder sequence: BOS ... EOS
  std::vector<std::string> function_names;
  u32 level = 0;
};

// The curriculum: program size grows with the level (0 = a few int statements; the last =
// helpers, loops, arrays, strings, floats).
inline constexpr u32 kCurriculumLevels = 4;
trees::RandomProgramConfig curriculum_config(u32 level);

// The level in force at `step` of `total_steps`: equal shares of the run, small programs first.
u32 curriculum_level(u64 step, u64 total_steps, u32 levels = kCurriculumLevels);

enum class Split : u8 { Train = 1, HeldOut = 2 };

class PairMaker {
 public:
  // Examples whose token sequences fit max_source / max_bytecode tokens (longer programs are
  // drawn again).
  PairMaker(u64 seed, u32 max_source, u32 max_bytecode);

  // Example `index` of `split`, at `level` exactly.
  Example make(Split split, u64 index, u32 level) const;
  // Examples first .. first+count-1 of the training split for the curriculum level `level`:
  // three in four at that level, the rest at a uniformly drawn lower one (so earlier levels are
  // not forgotten).
  std::vector<Example> training_batch(u64 first, u32 count, u32 level) const;
  // The held-out set: `count` examples spread evenly over the levels 0 .. levels-1.
  std::vector<Example> held_out(u32 count, u32 levels = kCurriculumLevels) const;

 private:
  u64 seed_;
  u32 max_source_, max_bytecode_;
};

}  // namespace gs::neural
