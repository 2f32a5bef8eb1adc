// The enumeration begun again with DeepCoder's list forms (search/list_forms_restart.h).
#include "search/list_forms_restart.h"

#include <algorithm>
#include <string>
#include <utility>

namespace gs::search {

namespace {

class ListFormsRestart final : public Generator {
 public:
  ListFormsRestart(u64 after, ListFormsFactory make)
      : after_(after), make_(std::move(make)), current_(make_(false)) {}

  GeneratorKind kind() const override { return GeneratorKind::Enumerate; }

  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    internal_ = 0;
    if (!restarted_) {
      if (spent_ < after_) {
        std::vector<Proposal> out = current_->propose(u32(std::min<u64>(count, after_ - spent_)), iteration);
        internal_ = current_->evaluated_internally();
        spent_ += internal_ + out.size();
        if (!out.empty() || internal_ > 0) return out;
      }
      // Its expressions are spent, or it ended: again, with the forms.
      const bool ended = spent_ < after_;
      const std::string n = std::to_string(spent_);
      notes_ = {ended ? "the enumeration without DeepCoder's list forms ended after " + n +
                            " expressions; it began again with them"
                      : "the enumeration went " + n +
                            " expressions without DeepCoder's list forms, then began "
                            "again with them"};
      for (const std::string& note : current_->notes()) notes_.push_back("without the list forms: " + note);
      prepared_ = current_->evaluated_preparing();
      current_.reset();
      current_ = make_(true);
      restarted_ = true;
    }
    std::vector<Proposal> out = current_->propose(count, iteration);
    internal_ = current_->evaluated_internally();
    return out;
  }

  void observe(std::span<const Proposal> proposals, const pipeline::BatchResults& results,
               i64 first_id) override {
    current_->observe(proposals, results, first_id);  // the proposals were the current one's
  }
  u64 evaluated_internally() const override { return internal_; }
  u64 evaluated_preparing() const override { return prepared_ + current_->evaluated_preparing(); }
  std::optional<Alike> alike(const Proposal& solution) override { return current_->alike(solution); }
  std::vector<std::string> uses(const Proposal& solution) const override { return current_->uses(solution); }
  std::vector<std::string> notes() const override {
    std::vector<std::string> out = notes_;
    for (std::string& note : current_->notes()) out.push_back(std::move(note));
    return out;
  }

 private:
  u64 after_;
  ListFormsFactory make_;
  std::unique_ptr<Generator> current_;
  bool restarted_ = false;
  u64 spent_ = 0;     // by the enumeration without the forms
  u64 internal_ = 0;  // in the last propose()
  u64 prepared_ = 0;  // the first enumeration's lambda bodies
  std::vector<std::string> notes_;
};

}  // namespace

std::unique_ptr<Generator> make_list_forms_restart(u64 after, ListFormsFactory make) {
  return std::make_unique<ListFormsRestart>(after, std::move(make));
}

}  // namespace gs::search
