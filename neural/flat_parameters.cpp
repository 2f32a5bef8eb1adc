#include "neural/flat_parameters.h"

#include <torch/types.h>
#include <torch/utils.h>

#include <vector>

#include "base/hd.h"

namespace gs::neural {

torch::Tensor flat_parameters(torch::nn::Module& module) {
  std::vector<torch::Tensor> parts;
  for (const torch::Tensor& p : module.parameters()) parts.push_back(p.detach().reshape(-1));
  return torch::cat(parts);
}

void set_parameters(torch::nn::Module& module, const torch::Tensor& flat) {
  torch::NoGradGuard no_grad;
  i64 offset = 0;
  for (torch::Tensor& p : module.parameters()) {
    p.copy_(flat.narrow(0, offset, p.numel()).view_as(p));
    offset += p.numel();
  }
}

torch::Tensor flat_gradients(torch::nn::Module& module) {
  std::vector<torch::Tensor> parts;
  for (const torch::Tensor& p : module.parameters())
    parts.push_back(p.grad().defined() ? p.grad().reshape(-1) : torch::zeros({p.numel()}, p.options()));
  return torch::cat(parts);
}

void set_gradients(torch::nn::Module& module, const torch::Tensor& flat) {
  i64 offset = 0;
  for (torch::Tensor& p : module.parameters()) {
    p.mutable_grad() = flat.narrow(0, offset, p.numel()).view_as(p).to(p.device()).clone();
    offset += p.numel();
  }
}

}  // namespace gs::neural
