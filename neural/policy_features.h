// What the search policy sees of a problem (issue 22; docs/neural.md "The search policy"), torch-
// free: each train case as a fixed vector of numbers — every parameter and the first result
// encoded alone (type, magnitude, length, first elements, order), and properties of the result
// against each parameter (equal, contained, a prefix, its length, its sum, ...), the property
// signatures of BUSTLE (Odena et al. 2021) taken case by case, so that averaging over the cases
// gives the fraction of cases where each holds. The model (neural/policy_model.h) reads the
// cases of a problem as rows and pools them.
#pragma once

#include <vector>

#include "suites/problem.h"

namespace gs::neural {

inline constexpr u32 kPolicyParams = 3;    // parameters encoded (the first ones)
inline constexpr u32 kPolicyElements = 8;  // elements of a list or characters of a str
inline constexpr u32 kPolicyCases = 16;    // train cases read (the first ones)
inline constexpr u32 kValueFeatures = 22;  // one value
inline constexpr u32 kPairFeatures = 16;   // the result against one parameter
inline constexpr u32 kCaseFeatures = (kPolicyParams + 1) * kValueFeatures + kPolicyParams * kPairFeatures;

// One case's features, kCaseFeatures numbers in [-1, 1]; a parameter the signature lacks is zeros.
std::vector<float> case_features(const suites::Case& c);

// The features of a problem's first train cases (at most kPolicyCases), row after row.
struct PolicyInput {
  std::vector<float> features;  // rows * kCaseFeatures
  u32 rows = 0;
};
PolicyInput policy_input(const suites::Problem& problem);

}  // namespace gs::neural
