#include "bench/corpus.h"

#include <algorithm>

namespace gs::bench {

trees::RandomProgramConfig synthesis_generator_config() {
  trees::RandomProgramConfig c;
  // Small programs, as a synthesis loop proposes them: a few statements, shallow expressions,
  // at most one helper; the other knobs keep the generator's defaults (traps stay possible).
  // With CorpusConfig's defaults this gives about 200 bytes of source on average.
  c.max_helpers = 1;
  c.max_params = 2;
  c.max_statements = 1;
  c.max_block_depth = 2;
  c.max_expr_depth = 2;
  c.max_loop_nesting = 1;
  c.p_observe_locals = 0.3;
  c.p_tuple_result = 0.1;
  c.p_builtin_named_helper = 0.02;
  return c;
}

namespace {

i64 small_int(i64 v, i64 bound, Rng& rng) {
  if (v >= -bound && v <= bound) return v;
  return rng.uniform_int(-bound, bound);
}

void bound_literals(trees::Tree& p, i64 bound, Rng& rng) {
  for (trees::Expr* e : trees::collect_exprs(p, Type::Int)) {
    if (e->kind != trees::ExprKind::IntLit) continue;
    e->int_value = small_int(e->int_value, bound, rng);
    if (e->int_value < 0) e->hex = false;  // a negative hex literal prints as 0xffff...
  }
}

void bound_value(vm::Value& v, i64 bound, Rng& rng) {
  if (v.type == Type::Int) v.i = small_int(v.i, bound, rng);
  for (vm::Value& item : v.items) bound_value(item, bound, rng);
}

}  // namespace

std::vector<CorpusProgram> make_corpus(const CorpusConfig& config) {
  std::vector<CorpusProgram> corpus(config.programs);
  Rng root(config.seed);
  for (u32 k = 0; k < config.programs; ++k) {
    CorpusProgram& c = corpus[k];
    Rng program_rng = root.derive(2 * u64(k));
    Rng input_rng = root.derive(2 * u64(k) + 1);
    trees::RandomProgramConfig generator = config.generator;
    if (!program_rng.bernoulli(config.helper_share)) generator.max_helpers = 0;
    do c.tree = trees::random_program(generator, program_rng);
    while (config.require_inputs && c.tree.find(generator.entry)->params.empty());
    bound_literals(c.tree, config.int_bound, program_rng);
    c.source = trees::to_source(c.tree);
    const trees::Function* entry = c.tree.find(config.generator.entry);
    for (u32 t = 0; t < config.inputs; ++t) {
      std::vector<vm::Value> args = trees::random_inputs(*entry, config.input, input_rng);
      for (vm::Value& a : args) bound_value(a, config.int_bound, input_rng);
      c.inputs.push_back(std::move(args));
    }
  }
  return corpus;
}

SizeStats size_stats(std::vector<u64> sizes) {
  SizeStats s;
  if (sizes.empty()) return s;
  std::sort(sizes.begin(), sizes.end());
  for (u64 n : sizes) s.total += n;
  size_t n = sizes.size();
  s.mean = double(s.total) / double(n);
  s.median = n % 2 ? double(sizes[n / 2]) : (double(sizes[n / 2 - 1]) + double(sizes[n / 2])) / 2;
  s.min = sizes.front();
  s.max = sizes.back();
  s.p10 = sizes[n / 10];
  s.p90 = sizes[std::min(n - 1, n * 9 / 10)];
  return s;
}

}  // namespace gs::bench
