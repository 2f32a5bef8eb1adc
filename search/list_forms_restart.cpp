// The enumeration begun again with DeepCoder's list forms (search/list_forms_restart.h).
#include "search/list_forms_restart.h"

#include <algorithm>
#include <string>
#include <utility>

#include "search/restarting_generator.h"

namespace gs::search {

namespace {

class ListFormsRestart final : public RestartingGenerator {
 public:
  ListFormsRestart(u64 after, ListFormsFactory make) : after_(after), make_(std::move(make)) {
    begin_again("", [&] { return make_(false); });
  }

  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    if (!restarted_) {
      if (spent_ < after_) {
        std::vector<Proposal> out = current().propose(u32(std::min<u64>(count, after_ - spent_)), iteration);
        const u64 internal = current().evaluated_internally();
        spent_ += internal + out.size();
        if (!out.empty() || internal > 0) return out;
      }
      // Its expressions are spent, or it ended: again, with the forms.
      const std::string n = std::to_string(spent_);
      say(spent_ < after_ ? "the enumeration without DeepCoder's list forms ended after " + n +
                                " expressions; it began again with them"
                          : "the enumeration went " + n +
                                " expressions without DeepCoder's list forms, then began again with them");
      begin_again("without the list forms: ", [&] { return make_(true); });
      restarted_ = true;
    }
    return current().propose(count, iteration);
  }

 private:
  u64 after_;
  ListFormsFactory make_;
  bool restarted_ = false;
  u64 spent_ = 0;  // by the enumeration without the forms
};

}  // namespace

std::unique_ptr<Generator> make_list_forms_restart(u64 after, ListFormsFactory make) {
  return std::make_unique<ListFormsRestart>(after, std::move(make));
}

}  // namespace gs::search
