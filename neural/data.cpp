#include "neural/data.h"

#include <stdexcept>

#include "compiler/compiler.h"
#include "neural/bytecode_tokenizer.h"
#include "neural/source_tokenizer.h"
#include "search/generator.h"
#include "trees/syntax.h"

namespace gs::neural {
namespace {

constexpr u32 kMaxAttempts = 2000;

bool is_held_out(const std::string& source) {
  u64 h = 1469598103934665603ull;
  for (char c : source) h = (h ^ u8(c)) * 1099511628211ull;
  return (h >> 32) % 16 == 0;
}

}  // namespace

trees::RandomProgramConfig curriculum_config(u32 level) {
  trees::RandomProgramConfig c = search::search_program_config();
  switch (level) {
    case 0:  // straight-line int code
      c.max_helpers = 0;
      c.max_params = 2;
      c.max_statements = 2;
      c.max_block_depth = 1;
      c.max_expr_depth = 2;
      c.floats = c.strings = c.arrays = c.tuples = c.loops = c.recursion = false;
      c.p_observe_locals = 0.5;
      break;
    case 1:  // ints and arrays, one level of loops and branches
      c.max_helpers = 0;
      c.max_params = 2;
      c.max_statements = 3;
      c.max_block_depth = 2;
      c.max_expr_depth = 2;
      c.floats = c.strings = c.tuples = c.recursion = false;
      c.p_observe_locals = 0.5;
      break;
    case 2:  // the search's own programs (search/generator.h search_program_config)
      break;
    default:  // more helpers and statements
      c.max_helpers = 2;
      c.max_statements = 5;
      c.max_block_depth = 3;
      break;
  }
  return c;
}

u32 curriculum_level(u64 step, u64 total_steps, u32 levels) {
  if (total_steps == 0 || levels == 0) return 0;
  u64 level = step * levels / total_steps;
  return u32(level >= levels ? levels - 1 : level);
}

PairMaker::PairMaker(u64 seed, u32 max_source, u32 max_bytecode)
    : seed_(seed), max_source_(max_source), max_bytecode_(max_bytecode) {}

Example PairMaker::make(Split split, u64 index, u32 level) const {
  trees::RandomProgramConfig config = curriculum_config(level);
  Rng base = Rng(seed_, u64(split)).derive(index);
  compiler::Compiler compiler;
  for (u32 attempt = 0; attempt < kMaxAttempts; ++attempt) {
    Rng rng = base.derive(attempt);
    Example e;
    e.level = level;
    e.source = trees::to_source(trees::random_program(config, rng));
    if (is_held_out(e.source) != (split == Split::HeldOut)) continue;
    auto src = encode_source(e.source);
    if (!src || src->ids.size() > max_source_) continue;
    compiler::Output out = compiler.compile(e.source);
    if (!out.ok()) continue;  // the generator's programs compile; a size limit may still bite
    BytecodeTokens tgt = encode_bytecode(out.bytecode, src->function_names);
    if (!tgt.ok() || tgt.ids.size() > max_bytecode_) continue;
    e.bytecode = std::move(out.bytecode);
    e.source_ids = std::move(src->ids);
    e.function_names = std::move(src->function_names);
    e.bytecode_ids = std::move(tgt.ids);
    return e;
  }
  throw std::runtime_error("no random program of curriculum level " + std::to_string(level) + " fits " +
                           std::to_string(max_source_) + " source and " + std::to_string(max_bytecode_) +
                           " bytecode tokens; raise the maximum lengths");
}

std::vector<Example> PairMaker::training_batch(u64 first, u32 count, u32 level) const {
  std::vector<Example> batch;
  batch.reserve(count);
  for (u64 i = first; i < first + count; ++i) {
    Rng pick = Rng(seed_, 3).derive(i);
    u32 l = level > 0 && pick.below(4) == 0 ? pick.below(level) : level;
    batch.push_back(make(Split::Train, i, l));
  }
  return batch;
}

std::vector<Example> PairMaker::held_out(u32 count, u32 levels) const {
  std::vector<Example> set;
  set.reserve(count);
  for (u32 i = 0; i < count; ++i) set.push_back(make(Split::HeldOut, i, levels == 0 ? 0 : i % levels));
  return set;
}

}  // namespace gs::neural
