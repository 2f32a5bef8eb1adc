// A problem's cases as the pipeline's case sets (pipeline/case_set.h): the train or test split
// that a search judges its candidates on.
#pragma once

#include <optional>
#include <string_view>

#include "pipeline/case_set.h"
#include "suites/problem.h"

namespace gs::suites {

enum class Split { Train, Test, All };
// "train", "test" or "all"; nullopt for anything else.
std::optional<Split> parse_split(std::string_view name);

// The problem's cases of a split as a test set (std::invalid_argument when a value does not
// have the signature's type — load_problem has checked that already).
pipeline::CaseSet problem_cases(const Problem& p, Split split);

}  // namespace gs::suites
