// The search policy that --policy loads (search/policy.h): a policy file's model
// (neural/policy_model.h) asked about a problem. A key the model never learnt (a production of a
// type the training data lacks, a problem's own constant) gets the median of the probabilities
// it gives the keys it knows in the same question.
#pragma once

#include <memory>
#include <string>

#include "search/policy.h"

namespace gs::neural {

// The policy in a policy file; throws std::runtime_error naming the file when it cannot be read.
std::shared_ptr<const search::Policy> load_learned_policy(const std::string& path);

// Registers load_learned_policy as search::load_policy's loader (gpusynth-neural's main does).
void register_policy();

}  // namespace gs::neural
