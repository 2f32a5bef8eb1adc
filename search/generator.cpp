// The generators that do not learn from results: random programs and external samples
// (search/generator.h). Genetic programming lives in search/gp_generator.cpp.
#include "search/generator.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace gs::search {

const char* generator_name(GeneratorKind k) {
  switch (k) {
#define GS_X(id, name) \
  case GeneratorKind::id: return name;
    GS_GENERATOR_KINDS(GS_X)
#undef GS_X
  }
  return "?";
}

std::optional<GeneratorKind> parse_generator(std::string_view name) {
#define GS_X(id, text) \
  if (name == text && GeneratorKind::id != GeneratorKind::Bank) return GeneratorKind::id;
  GS_GENERATOR_KINDS(GS_X)
#undef GS_X
  return std::nullopt;
}

trees::RandomProgramConfig search_program_config() {
  trees::RandomProgramConfig c;
  c.max_helpers = 1;
  c.max_statements = 4;
  c.max_block_depth = 2;
  c.max_expr_depth = 3;
  c.cost_budget = 20000;
  c.p_risky = 0.05;
  c.p_recursive_helper = 0.1;
  c.p_deep_recursion = 0;
  c.p_tuple_result = 0.1;
  c.p_unit_helper = 0;
  c.p_shadow = 0;
  c.p_builtin_named_helper = 0;
  return c;
}

trees::RandomProgramConfig generator_config_for(const suites::Signature& signature,
                                                trees::RandomProgramConfig base) {
  base.entry = signature.entry;
  base.fixed_entry = true;
  base.entry_params = signature.params;
  base.entry_results = signature.results;
  return base;
}

namespace {

class RandomGenerator final : public Generator {
 public:
  RandomGenerator(const suites::Signature& signature, GeneratorSettings s)
      : config_(generator_config_for(signature, std::move(s.programs))), rng_(s.seed) {}

  GeneratorKind kind() const override { return GeneratorKind::Random; }

  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    std::vector<Proposal> out(count);
    const Rng for_iteration = rng_.derive(iteration);
    for (u32 k = 0; k < count; ++k) {
      Rng rng = for_iteration.derive(k);
      out[k].tree = std::make_shared<const trees::Tree>(trees::random_program(config_, rng));
      out[k].source = trees::to_source(*out[k].tree);
    }
    return out;
  }

  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64) override {}

 private:
  trees::RandomProgramConfig config_;
  Rng rng_;
};

class ExternalGenerator final : public Generator {
 public:
  explicit ExternalGenerator(std::vector<std::string> sources) : sources_(std::move(sources)) {}

  GeneratorKind kind() const override { return GeneratorKind::External; }

  std::vector<Proposal> propose(u32 count, u64) override {
    std::vector<Proposal> out;
    for (; next_ < sources_.size() && out.size() < count; ++next_)
      out.push_back({sources_[next_], {}, {-1, -1}});
    return out;
  }

  void observe(std::span<const Proposal>, const pipeline::BatchResults&, i64) override {}

 private:
  std::vector<std::string> sources_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Generator> make_random_generator(const suites::Signature& signature,
                                                 GeneratorSettings settings) {
  return std::make_unique<RandomGenerator>(signature, std::move(settings));
}

std::unique_ptr<Generator> make_external_generator(std::vector<std::string> sources) {
  return std::make_unique<ExternalGenerator>(std::move(sources));
}

void place_bank_beside(GeneratorChoice* choice, pipeline::Device device, u32 gpu) {
  choice->settings.enumerate.device = pipeline::resolve_device(device);
  choice->settings.enumerate.gpu = gpu;
}

std::unique_ptr<Generator> make_generator(const GeneratorChoice& choice, const suites::Problem& problem) {
  switch (choice.kind) {
    case GeneratorKind::Random: return make_random_generator(problem.signature, choice.settings);
    case GeneratorKind::Gp: return make_gp_generator(problem, choice.settings);
    case GeneratorKind::Enumerate: return make_enumerate_generator(problem, choice.settings.enumerate);
    case GeneratorKind::Portfolio: return make_portfolio_generator(problem, choice.settings);
    case GeneratorKind::External: return make_external_generator(choice.sources);
    case GeneratorKind::Bank: break;  // a name records keep, no generator's now
  }
  throw std::invalid_argument("make_generator: unknown generator kind");
}

}  // namespace gs::search
