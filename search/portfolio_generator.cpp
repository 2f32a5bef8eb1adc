// The portfolio generator (search/generator.h, docs/search.md "Generators"): the value-bank
// enumeration first, then bottom-up enumeration, each for a fixed number of candidates, then
// genetic programming, whose first population carries the best programs the enumeration found.
//
// The value bank goes first because it is cheap where it wins: its loops with state (folds,
// digit loops, "last index where") answer in a few hundred candidates what the enumeration needs
// 10^5 for or cannot express (last-index-of-zero), and its 10,000 candidates cost well under a
// second; it has no lambdas or case splits, which the enumeration then brings.
//
// Why both: on PSB1 the two solve different problems (docs/results.md "Program search"). The
// enumeration finds small exact programs quickly and deterministically (mirror-image in 486
// candidates, vector-average in 14,344) where GP never assembles them; GP finds larger ones
// (median, compare-string-lengths) that the enumeration's size bound does not reach. Spending a
// fixed head of the budget on enumeration costs GP little, and the enumeration's best programs
// (by train cases passed) give GP's lexicase parents that already pass some cases exactly.
//
// Elites are loop-free: the enumeration's map and filter helpers loop, and GP's statement
// operators copy a loop into its own body, so that a population seeded with them spends most of
// its time running candidates out of fuel (a third of GP's candidates on vectors-summed, which
// then ran at 1,200 candidates/s against 13,000).
#include <algorithm>

#include "search/generator.h"

namespace gs::search {

namespace {

bool has_loop(const trees::Block& b) {
  for (const trees::Stmt& s : b) {
    if (s.kind == trees::StmtKind::While || s.kind == trees::StmtKind::ForRange ||
        s.kind == trees::StmtKind::ForIn)
      return true;
    for (const trees::Block& inner : s.blocks)
      if (has_loop(inner)) return true;
  }
  return false;
}
bool has_loop(const trees::Tree& p) {
  return std::any_of(p.functions.begin(), p.functions.end(),
                     [](const trees::Function& f) { return has_loop(f.body); });
}

class PortfolioGenerator final : public Generator {
 public:
  PortfolioGenerator(const suites::Problem& problem, GeneratorSettings settings)
      : portfolio_(settings.portfolio) {
    if (portfolio_.bank_candidates > 0) bank_ = make_bank_generator(problem, settings.enumerate);
    if (portfolio_.enumerate_candidates > 0)
      enumerate_ = make_enumerate_generator(problem, settings.enumerate);
    gp_ = make_gp_generator(problem.signature, std::move(settings));
  }

  GeneratorKind kind() const override { return GeneratorKind::Portfolio; }
  std::optional<Alike> alike(const Proposal& solution) override {
    return bank_ ? bank_->alike(solution) : std::nullopt;
  }

  std::vector<Proposal> propose(u32 count, u64) override {
    internal_ = 0;
    if (bank_) {
      const u64 share = portfolio_.bank_candidates + bank_->evaluated_preparing();
      if (bank_spent_ < share) {
        const u64 left = share - bank_spent_;
        std::vector<Proposal> out = bank_->propose(u32(std::min<u64>(count, left)), bank_spent_);
        internal_ = bank_->evaluated_internally();
        bank_spent_ += internal_ + out.size();
        if (!out.empty() || internal_ > 0) return out;
      }
      bank_.reset();  // its budget is spent, or it is finished
    }
    if (enumerate_) {
      if (proposed_ < portfolio_.enumerate_candidates) {
        const u64 left = portfolio_.enumerate_candidates - proposed_;
        std::vector<Proposal> out = enumerate_->propose(u32(std::min<u64>(count, left)), proposed_);
        if (!out.empty()) {
          proposed_ += out.size();
          probe_ = enumerate_->probe_result();
          return out;
        }
      }
      enumerate_.reset();  // its budget is spent, or it is finished
    }
    probe_.reset();
    std::vector<Proposal> out = gp_->propose(count, gp_iteration_++);
    if (!elites_.empty()) {
      // GP's first population: its random programs, with the enumeration's best in the place of
      // the first ones.
      const size_t n = std::min(elites_.size(), out.size());
      for (size_t i = 0; i < n; ++i) out[i] = std::move(elites_[i].proposal);
      elites_.clear();
    }
    return out;
  }

  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& e, i64 first_id) override {
    if (bank_) return;  // its one proposal met the goal in the bank: nothing to learn from it
    if (gp_iteration_ > 0) return gp_->observe(proposals, e, first_id);
    enumerate_->observe(proposals, e, first_id);
    if (probe_) return;  // probes are not candidates for this problem
    for (u32 i = 0; i < e.programs && i < proposals.size(); ++i)
      if (e.cases_passed[i] > 0 && proposals[i].tree && !has_loop(*proposals[i].tree))
        elites_.push_back({e.cases_passed[i], order_++, proposals[i]});
    // The best by train cases passed, the earlier (smaller) first among equals.
    auto better = [](const Elite& a, const Elite& b) {
      return a.passed != b.passed ? a.passed > b.passed : a.order < b.order;
    };
    if (elites_.size() > portfolio_.elites) {
      std::nth_element(elites_.begin(), elites_.begin() + portfolio_.elites, elites_.end(), better);
      elites_.resize(portfolio_.elites);
    }
    std::sort(elites_.begin(), elites_.end(), better);
  }

  std::optional<Type> probe_result() const override { return probe_; }
  u64 evaluated_internally() const override { return internal_; }

 private:
  struct Elite {
    u32 passed = 0;
    u64 order = 0;
    Proposal proposal;
  };

  PortfolioSettings portfolio_;
  std::unique_ptr<Generator> bank_, enumerate_, gp_;
  u64 bank_spent_ = 0, internal_ = 0;  // by the value bank: in all, in the last propose()
  u64 proposed_ = 0;                   // by the enumeration
  u64 gp_iteration_ = 0;
  u64 order_ = 0;
  std::optional<Type> probe_;
  std::vector<Elite> elites_;
};

}  // namespace

std::unique_ptr<Generator> make_portfolio_generator(const suites::Problem& problem,
                                                    GeneratorSettings settings) {
  return std::make_unique<PortfolioGenerator>(problem, std::move(settings));
}

}  // namespace gs::search
