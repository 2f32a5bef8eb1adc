#include "search/restarting_generator.h"

namespace gs::search {

std::vector<std::string> RestartingGenerator::notes() const {
  std::vector<std::string> out = notes_;
  for (std::string& note : current_->notes()) out.push_back(std::move(note));
  return out;
}

void RestartingGenerator::begin_again(const std::string& prefix,
                                      const std::function<std::unique_ptr<Generator>()>& make) {
  if (current_) {
    prepared_ += current_->evaluated_preparing();
    for (const std::string& note : current_->notes()) notes_.push_back(prefix + note);
    current_.reset();
  }
  current_ = make();
}

}  // namespace gs::search
