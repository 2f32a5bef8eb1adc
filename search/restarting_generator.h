// A generator that begins again: it hands every call to a current generator, which it may drop
// and replace by a new one (search/case_sample.h, over a larger sample of the cases;
// search/list_forms_restart.h, with DeepCoder's list forms). What the dropped ones did stays
// counted and said: the expressions that prepared them (evaluated_preparing()) and their notes,
// each after a prefix that says which it was.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "search/generator.h"

namespace gs::search {

class RestartingGenerator : public Generator {
 public:
  GeneratorKind kind() const override { return current_->kind(); }
  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    return current_->propose(count, iteration);
  }
  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& results,
               i64 first_id) override {
    current_->observe(proposals, results, first_id);  // the proposals were the current one's
  }
  u64 evaluated_internally() const override { return current_->evaluated_internally(); }
  u64 evaluated_preparing() const override { return prepared_ + current_->evaluated_preparing(); }
  std::optional<Alike> alike(const Proposal& solution) override { return current_->alike(solution); }
  std::vector<std::string> uses(const Proposal& solution) const override { return current_->uses(solution); }
  // Those said so far (say()), then the current generator's.
  std::vector<std::string> notes() const override;

 protected:
  // The current generator is dropped (its memory freed) before make() makes the next: its notes
  // are kept, each after `prefix`, and its evaluated_preparing() counted.
  void begin_again(const std::string& prefix, const std::function<std::unique_ptr<Generator>()>& make);
  // A note of this generator's own, after those said before.
  void say(std::string note) { notes_.push_back(std::move(note)); }
  Generator& current() { return *current_; }

 private:
  std::unique_ptr<Generator> current_;
  u64 prepared_ = 0;                // evaluated_preparing() of the generators dropped
  std::vector<std::string> notes_;  // their notes and this one's own, in order
};

}  // namespace gs::search
