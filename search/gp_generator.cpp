// Genetic programming as a generator (search/generator.h): a generational GP whose population
// is each iteration's batch. Selection and variation are search/selection.h and
// trees/variation.h; this file only keeps the population between propose() and observe().
#include <stdexcept>
#include <utility>

#include "search/generator.h"
#include "search/gp_guide.h"
#include "search/selection.h"
#include "trees/variation.h"

namespace gs::search {

const char* selection_name(Selection s) {
  switch (s) {
    case Selection::Lexicase: return "lexicase";
    case Selection::DownsampledLexicase: return "downsampled";
    case Selection::Tournament: return "tournament";
  }
  return "?";
}

std::optional<Selection> parse_selection(std::string_view name) {
  for (Selection s : {Selection::Lexicase, Selection::DownsampledLexicase, Selection::Tournament})
    if (name == selection_name(s)) return s;
  return std::nullopt;
}

const char* case_scores_name(CaseScores s) { return s == CaseScores::Error ? "error" : "pass"; }

std::optional<CaseScores> parse_case_scores(std::string_view name) {
  for (CaseScores s : {CaseScores::Error, CaseScores::Pass})
    if (name == case_scores_name(s)) return s;
  return std::nullopt;
}

namespace {

class GpGenerator final : public Generator {
 public:
  GpGenerator(const suites::Problem& problem, GeneratorSettings s)
      : signature_(problem.signature), gp_(s.gp), rng_(s.seed) {
    variation_.generator = generator_config_for(signature_, std::move(s.programs));
    variation_.max_nodes = gp_.max_nodes;
    variation_.max_depth = gp_.max_depth;
    if (s.enumerate.policy && gp_.policy_draws > 0) {
      variation_.weight = gp_guide(s.enumerate.policy, problem, s.enumerate.policy_temperature);
      variation_.guided_draws = gp_.policy_draws;
    }
    GeneratorSettings random = s;
    random.programs = variation_.generator;
    random_ = make_random_generator(signature_, std::move(random));
  }

  GeneratorKind kind() const override { return GeneratorKind::Gp; }

  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    if (population_.empty()) return random_->propose(count, iteration);
    Rng rng = rng_.derive(iteration);
    Rng selecting = rng.derive(~u64(0));
    std::vector<u32> parents = select(2 * count, selecting);
    std::vector<Proposal> out(count);
    for (u32 k = 0; k < count; ++k) {
      Rng child = rng.derive(k);
      const u32 a = parents[2 * k], b = parents[2 * k + 1];
      const bool cross = child.bernoulli(gp_.p_crossover);
      trees::Offspring o = cross ? crossover(*population_[a], *population_[b], signature_, variation_, child)
                                 : mutation(*population_[a], signature_, variation_, child);
      out[k].parents[0] = first_id_ + a;
      out[k].parents[1] = cross ? first_id_ + b : -1;
      out[k].source = trees::to_source(o.program);
      out[k].tree = std::make_shared<const trees::Tree>(std::move(o.program));
    }
    return out;
  }

  // The batch just judged becomes the population (programs without a tree cannot breed: a
  // random program takes their place).
  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& e, i64 first_id) override {
    population_.clear();
    for (const Proposal& p : proposals) {
      if (!p.tree) throw std::logic_error("GP population member without a syntax tree");
      population_.push_back(p.tree);
    }
    first_id_ = first_id;
    if (gp_.scores == CaseScores::Error && e.error.size() != e.pass.size())
      throw std::logic_error(
          "GP lexicase on errors needs the pipeline's graded errors (PipelineConfig::grade)");
    if (selected_.empty())
      selected_ = cases_held_in(e.cases, e.cases <= GpSettings::kHoldoutCases ? gp_.holdout : 0,
                                rng_.derive(~u64(1)));
    const std::vector<float> all =
        gp_.scores == CaseScores::Pass ? pass_scores(e.pass) : error_scores(e.error);
    scores_.clear();
    for (u64 i = 0; i < population_.size(); ++i)
      for (u32 c : selected_) scores_.push_back(all[i * e.cases + c]);
    reward_.assign(e.reward.begin(), e.reward.end());
    cases_ = u32(selected_.size());
  }

 private:
  std::vector<u32> select(u32 n, Rng& rng) const {
    const ScoreMatrix m{u32(population_.size()), cases_, scores_};
    switch (gp_.selection) {
      case Selection::Lexicase: return lexicase_select(m, n, rng);
      case Selection::DownsampledLexicase: return downsampled_lexicase_select(m, gp_.downsample, n, rng);
      case Selection::Tournament: return tournament_select(reward_, gp_.tournament, n, rng);
    }
    return {};
  }

  suites::Signature signature_;
  GpSettings gp_;
  trees::VariationConfig variation_;
  Rng rng_;
  std::unique_ptr<Generator> random_;
  std::vector<std::shared_ptr<const trees::Tree>> population_;
  i64 first_id_ = 0;
  std::vector<float> scores_, reward_;
  u32 cases_ = 0;              // … of selected_
  std::vector<u32> selected_;  // the cases selection sees (the same every iteration)
};

}  // namespace

std::unique_ptr<Generator> make_gp_generator(const suites::Problem& problem, GeneratorSettings settings) {
  return std::make_unique<GpGenerator>(problem, std::move(settings));
}

}  // namespace gs::search
