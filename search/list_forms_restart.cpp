// The enumeration begun again with DeepCoder's list language (search/list_forms_restart.h).
#include "search/list_forms_restart.h"

#include <algorithm>
#include <string>
#include <utility>

#include "search/restarting_generator.h"

namespace gs::search {

namespace {

// How a phase is named in the notes.
const char* phase_name(ListForms grammar) {
  switch (grammar) {
    case ListForms::Without: return "the enumeration without DeepCoder's list forms";
    case ListForms::Alone: return "the enumeration of DeepCoder's list language alone";
    case ListForms::Beside: return "the enumeration with DeepCoder's list forms";
  }
  return "";
}

class ListFormsRestart final : public RestartingGenerator {
 public:
  ListFormsRestart(u64 after, u64 alone, ListFormsFactory make)
      : shares_{after, alone}, make_(std::move(make)) {
    begin_again("", [&] { return make_(ListForms::Without); });
  }

  std::vector<Proposal> propose(u32 count, u64 iteration) override {
    while (grammar_ != ListForms::Beside) {
      const u64 share = shares_[int(grammar_)];
      if (spent_ < share) {
        std::vector<Proposal> out = current().propose(u32(std::min<u64>(count, share - spent_)), iteration);
        const u64 internal = current().evaluated_internally();
        spent_ += internal + out.size();
        if (!out.empty() || internal > 0) return out;
      }
      // Its expressions are spent, or it ended: again, by the next grammar.
      const ListForms next =
          grammar_ == ListForms::Without && shares_[1] > 0 ? ListForms::Alone : ListForms::Beside;
      const std::string n = std::to_string(spent_);
      say(std::string(phase_name(grammar_)) + (spent_ < share ? " ended after " : " went ") + n +
          " expressions; " +
          (next == ListForms::Alone ? "it began again in DeepCoder's list language alone"
                                    : "it began again with the whole grammar and the forms"));
      begin_again(grammar_ == ListForms::Without ? "without the list forms: " : "the list language alone: ",
                  [&] { return make_(next); });
      grammar_ = next;
      spent_ = 0;
    }
    return current().propose(count, iteration);
  }

 private:
  u64 shares_[2];  // the expressions of the first two phases
  ListFormsFactory make_;
  ListForms grammar_ = ListForms::Without;  // the current phase's
  u64 spent_ = 0;                           // by the current phase
};

}  // namespace

std::unique_ptr<Generator> make_list_forms_restart(u64 after, u64 alone, ListFormsFactory make) {
  return std::make_unique<ListFormsRestart>(after, alone, std::move(make));
}

}  // namespace gs::search
