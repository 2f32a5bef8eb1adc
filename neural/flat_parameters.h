// A module's parameters or gradients as one flat tensor, and back: the buffer a collective sums
// (neural/selfplay.cpp averages the compiler's gradients, neural/learned_policy.cpp a campaign's
// policy's) and a weights hash reads. Parameters in the module's order.
#pragma once

#include <torch/nn/module.h>

namespace gs::neural {

torch::Tensor flat_parameters(torch::nn::Module& module);
void set_parameters(torch::nn::Module& module, const torch::Tensor& flat);
// Zeros where a parameter got no gradient.
torch::Tensor flat_gradients(torch::nn::Module& module);
void set_gradients(torch::nn::Module& module, const torch::Tensor& flat);  // copies out of `flat`

}  // namespace gs::neural
