#include "search/case_sample.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "search/restarting_generator.h"

namespace gs::search {

namespace {

class SampledGenerator final : public RestartingGenerator {
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

  // Each proposal's train cases that failed outside the sample; up to kCounterexamples of them
  // (the first proposal's first) join it, and the enumeration starts again. Not after a batch that
  // solved the problem (alike() and uses() ask about its solution).
  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& results,
               i64 first_id) override {
    RestartingGenerator::observe(proposals, results, first_id);
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

 private:
  // The enumeration over the sample as it is now; the notes of the one before, a bank that filled
  // over an earlier sample, are said too.
  void restart() {
    const std::string prefix = "over " + std::to_string(inner_cases_) + " sampled cases, before a restart: ";
    inner_cases_ = u32(sample_.size());
    begin_again(prefix, [&] {
      suites::Problem sampled = shell_;
      for (u32 k : sample_) sampled.train.push_back(train_[k]);
      return make_(sampled);
    });
  }

  std::vector<suites::Case> train_;  // the problem's
  suites::Problem shell_;            // the problem without its cases
  GeneratorFactory make_;
  std::vector<u32> sample_;  // train cases' indices, in order
  u32 inner_cases_ = 0;      // the cases the current enumeration was made with
};

}  // namespace

std::unique_ptr<Generator> make_sampled_generator(const suites::Problem& problem, u32 sample,
                                                  GeneratorFactory make) {
  return std::make_unique<SampledGenerator>(problem, sample, std::move(make));
}

}  // namespace gs::search
