#include "search/case_sample.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace gs::search {

namespace {

class SampledGenerator final : public Generator {
 public:
  SampledGenerator(const suites::Problem& problem, u32 sample, GeneratorFactory make)
      : train_(problem.train), shell_(problem), make_(std::move(make)) {
    shell_.train.clear();
    shell_.test.clear();  // the search never sees them; kept, every restart would copy them
    if (sample == 0) throw std::invalid_argument("a sample of the train cases needs one case at least");
    // The first half of the sample from the first cases (a suite's hand-picked edge cases are
    // there), the rest spread evenly over the others (a file sorted by size is sampled whole).
    const u32 n = u32(train_.size()), first = std::min(n, (sample + 1) / 2);
    for (u32 k = 0; k < first; ++k) sample_.push_back(k);
    const u32 spread = std::min(n, sample) - first;
    for (u32 j = 0; j < spread; ++j) sample_.push_back(first + u32(u64(j) * (n - first) / spread));
    restart();
  }

  GeneratorKind kind() const override { return inner_->kind(); }
  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    return inner_->propose(count, iteration);
  }

  // Each proposal's train cases that failed outside the sample; up to kCounterexamples of them
  // (the first proposal's first) join it, and the enumeration starts again. Not after a batch that
  // solved the problem (alike() and uses() ask about its solution).
  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& results,
               i64 first_id) override {
    inner_->observe(proposals, results, first_id);
    const u32 n = results.cases;
    if (n != train_.size() || results.pass.size() != u64(results.programs) * n) return;
    std::vector<bool> in_sample(n, false);
    for (u32 k : sample_) in_sample[k] = true;
    std::vector<u32> failed;
    for (u32 i = 0; i < results.programs; ++i) {
      if (results.cases_passed[i] == n) return;
      for (u32 k = 0; k < n; ++k)
        if (!results.pass[u64(i) * n + k] && !in_sample[k] && failed.size() < kCounterexamples) {
          in_sample[k] = true;
          failed.push_back(k);
        }
    }
    if (failed.empty()) return;
    sample_.insert(sample_.end(), failed.begin(), failed.end());
    std::sort(sample_.begin(), sample_.end());
    restart();
  }

  u64 evaluated_internally() const override { return inner_->evaluated_internally(); }
  u64 evaluated_preparing() const override { return prepared_ + inner_->evaluated_preparing(); }
  std::optional<Alike> alike(const Proposal& solution) override { return inner_->alike(solution); }
  std::vector<std::string> uses(const Proposal& solution) const override { return inner_->uses(solution); }
  // The current generator's notes, after those of the ones restarts replaced (a bank that filled
  // over an earlier sample is said too).
  std::vector<std::string> notes() const override {
    std::vector<std::string> out = earlier_notes_;
    for (std::string& note : inner_->notes()) out.push_back(std::move(note));
    return out;
  }

 private:
  void restart() {
    if (inner_) {
      prepared_ += inner_->evaluated_preparing();
      for (const std::string& note : inner_->notes())
        earlier_notes_.push_back("over " + std::to_string(inner_cases_) +
                                 " sampled cases, before a restart: " + note);
    }
    inner_cases_ = u32(sample_.size());
    suites::Problem sampled = shell_;
    for (u32 k : sample_) sampled.train.push_back(train_[k]);
    inner_ = make_(sampled);
  }

  std::vector<suites::Case> train_;  // the problem's
  suites::Problem shell_;            // the problem without its cases
  GeneratorFactory make_;
  std::vector<u32> sample_;  // train cases' indices, in order
  std::unique_ptr<Generator> inner_;
  u64 prepared_ = 0;                        // evaluated_preparing() of the generators before this one
  u32 inner_cases_ = 0;                     // the cases inner_ was made with
  std::vector<std::string> earlier_notes_;  // notes() of the generators before this one
};

}  // namespace

std::unique_ptr<Generator> make_sampled_generator(const suites::Problem& problem, u32 sample,
                                                  GeneratorFactory make) {
  return std::make_unique<SampledGenerator>(problem, sample, std::move(make));
}

}  // namespace gs::search
