// The random program generator's entry points (trees/random_program.h): random::ProgramMaker
// (random_statements.h) over random::ExpressionMaker (random_expressions.h) and their State.
#include "trees/random_program.h"

#include "trees/random_statements.h"

namespace gs::trees {

Tree random_program(const RandomProgramConfig& config, Rng& rng) {
  return random::ProgramMaker(config, rng).run();
}

namespace {

// Inside an existing program new variables never shadow visible ones: a shadowing let of
// another type would break the statements after it, which the generator did not write.
RandomProgramConfig embedded(const RandomProgramConfig& config) {
  RandomProgramConfig c = config;
  c.p_shadow = 0;
  return c;
}

}  // namespace

Expr random_expr(Type t, const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  random::ProgramMaker g(c, rng);
  g.enter(at);
  return g.make_expr(t);
}

Block random_statements(const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  random::ProgramMaker g(c, rng);
  g.enter(at);
  return g.make_statements();
}

Block random_block(const Surroundings& at, const RandomProgramConfig& config, Rng& rng) {
  RandomProgramConfig c = embedded(config);
  random::ProgramMaker g(c, rng);
  g.enter(at);
  return g.make_block();
}

Expr random_literal(Type t, Rng& rng) {
  RandomProgramConfig c;
  return random::ProgramMaker(c, rng).make_literal(t);
}

}  // namespace gs::trees
