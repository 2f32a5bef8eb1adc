// The search policy that --policy loads (search/policy.h): a policy file's model
// (neural/policy_model.h) asked about a problem. A key the model never learnt (a production of a
// type the training data lacks, a problem's own constant) gets the median of the probabilities
// it gives the keys it knows in the same question.
//
// The learner (search::PolicyLearner) is the same model going on learning during a campaign from
// the problems it solves: full-batch binary cross-entropy over every example so far, Adam, the
// gradients summed over the ranks. Keys of an answer outside the file's vocabulary are left out.
#pragma once

#include <memory>
#include <string>

#include "search/policy.h"

namespace gs::neural {

// The policy in a policy file; throws std::runtime_error naming the file when it cannot be read.
std::shared_ptr<const search::Policy> load_learned_policy(const std::string& path);

// A learner starting from a policy file; throws std::runtime_error naming the file.
std::unique_ptr<search::PolicyLearner> load_policy_learner(const std::string& path,
                                                           const search::LearnSettings& settings);

// Registers load_learned_policy and load_policy_learner as search's loaders (gpusynth-neural's
// main does).
void register_policy();

}  // namespace gs::neural
