// A problem's cases as the pipeline's case sets (suites/cases.h).
#include "suites/cases.h"

#include <stdexcept>
#include <string>

namespace gs::suites {

std::optional<Split> parse_split(std::string_view name) {
  if (name == "train") return Split::Train;
  if (name == "test") return Split::Test;
  if (name == "all") return Split::All;
  return std::nullopt;
}

pipeline::CaseSet problem_cases(const Problem& p, Split split) {
  std::vector<pipeline::CaseSet::Case> cases;
  auto add = [&](const std::vector<Case>& from) {
    for (const Case& c : from) cases.push_back({c.inputs, c.outputs});
  };
  if (split != Split::Test) add(p.train);
  if (split != Split::Train) add(p.test);
  const Signature& s = p.signature;
  return pipeline::CaseSet(s.entry, s.params, s.results, cases, p.float_tolerance);
}

}  // namespace gs::suites
