// The libtorch headers neural/'s torch files include between them, compiled once as the
// library's precompiled header (neural/CMakeLists.txt): each of those files parses ~350,000 lines
// of torch otherwise, about half its compile time (docs/neural.md "Build cost"). The files still
// include what they use; this list only has to cover them for the header to pay.
#pragma once

// clang-format off
#include <torch/types.h>  // first: the optimizer and clip_grad headers use Tensor
// clang-format on
#include <torch/autograd.h>
#include <torch/cuda.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/init.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>
#include <torch/optim/optimizer.h>
#include <torch/serialize/archive.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>
#include <torch/utils.h>
