// The portfolio generator (search/generator.h, docs/search.md "Generators"): the enumeration
// over the value bank first, for its share of the budget (enumerate_share), then genetic
// programming.
//
// Why both: the enumeration finds small exact programs deterministically and, smallest first,
// ones that generalise (docs/results.md); GP can reach larger programs that the enumeration's
// size bound does not, and keeps searching once the enumeration's share is spent. The
// enumeration's lambda bodies are counted against the budget but kept out of its share.
#include <algorithm>

#include "search/generator.h"

namespace gs::search {

namespace {

class PortfolioGenerator final : public Generator {
 public:
  PortfolioGenerator(const suites::Problem& problem, GeneratorSettings settings)
      : portfolio_(settings.portfolio) {
    if (portfolio_.enumerate_candidates > 0)
      enumerate_ = make_enumerate_generator(problem, settings.enumerate);
    gp_ = make_gp_generator(problem, std::move(settings));
  }

  GeneratorKind kind() const override { return GeneratorKind::Portfolio; }
  std::optional<Alike> alike(const Proposal& solution) override {
    return enumerate_ ? enumerate_->alike(solution) : std::nullopt;
  }
  std::vector<std::string> notes() const override { return enumerate_ ? enumerate_->notes() : notes_; }
  std::vector<std::string> uses(const Proposal& solution) const override {
    return enumerate_ ? enumerate_->uses(solution) : std::vector<std::string>{};
  }

  std::vector<Proposal> propose(u32 count, u64) override {
    internal_ = 0;
    if (enumerate_) {
      const u64 preparing = enumerate_->evaluated_preparing();  // the share may be ~0: no bound
      const u64 share =
          portfolio_.enumerate_candidates + std::min(preparing, ~portfolio_.enumerate_candidates);
      if (spent_ < share) {
        const u64 left = share - spent_;
        std::vector<Proposal> out = enumerate_->propose(u32(std::min<u64>(count, left)), spent_);
        internal_ = enumerate_->evaluated_internally();
        spent_ += internal_ + out.size();
        if (!out.empty() || internal_ > 0) return out;
      }
      notes_ = enumerate_->notes();
      enumerate_.reset();  // its share is spent, or it is finished
    }
    return gp_->propose(count, gp_iteration_++);
  }

  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& e, i64 first_id) override {
    if (enumerate_) return;  // its proposals met the goals in the bank: nothing to learn from them
    gp_->observe(proposals, e, first_id);
  }

  u64 evaluated_internally() const override { return internal_; }

 private:
  PortfolioSettings portfolio_;
  std::unique_ptr<Generator> enumerate_, gp_;
  std::vector<std::string> notes_;  // the enumeration's, once it is done
  u64 spent_ = 0, internal_ = 0;    // by the enumeration: in all, in the last propose()
  u64 gp_iteration_ = 0;
};

}  // namespace

std::unique_ptr<Generator> make_portfolio_generator(const suites::Problem& problem,
                                                    GeneratorSettings settings) {
  return std::make_unique<PortfolioGenerator>(problem, std::move(settings));
}

}  // namespace gs::search
