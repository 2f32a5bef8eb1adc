// The fixed corpus bench/compile_vm runs: random Syn programs from trees/random_program.h at a
// fixed seed, shaped like synthesis candidates (an entry, sometimes a helper, loops over input
// arrays, arithmetic, conditionals, strings sometimes), each with random inputs.
//
// Ints are kept small (programs and inputs): Syn ints wrap at 64 bits and Python's do not, so
// the CPython baseline computes the same results only while no value leaves the int64 range.
// The generator, made for fuzzing, likes INT64_MIN and random 64-bit patterns; the corpus
// replaces every int literal and input beyond ±int_bound by a small one. The verification pass
// still checks that no evaluation overflows (bench/cpython_baseline.py).
#pragma once

#include <string>
#include <vector>

#include "trees/random_program.h"
#include "trees/random_values.h"
#include "trees/syntax.h"
#include "vm/value.h"

namespace gs::bench {

// The generator settings of the default corpus: programs of about 200 bytes of source.
trees::RandomProgramConfig synthesis_generator_config();

struct CorpusConfig {
  u64 seed = 20251122;
  u32 programs = 2000;
  u32 inputs = 10;       // per program
  i64 int_bound = 1000;  // larger int literals and inputs are replaced by values in ±int_bound
  // Share of programs generated with up to generator.max_helpers helpers; the others have none.
  double helper_share = 0.3;
  // Candidates whose entry takes no input are drawn again: a synthesis candidate reads its input.
  bool require_inputs = true;
  trees::RandomProgramConfig generator = synthesis_generator_config();
  trees::InputConfig input;
};

struct CorpusProgram {
  trees::Tree tree;
  std::string source;                          // Syn, as trees::to_source prints it
  std::vector<std::vector<vm::Value>> inputs;  // one argument list per test
};

// Program k comes from stream 2k of the seed and its inputs from stream 2k + 1, so a program
// does not change when the corpus gets longer or the input count changes.
std::vector<CorpusProgram> make_corpus(const CorpusConfig& config);

struct SizeStats {
  double mean = 0;
  double median = 0;
  u64 min = 0, max = 0, p10 = 0, p90 = 0, total = 0;
};
SizeStats size_stats(std::vector<u64> sizes);

}  // namespace gs::bench
