// The one check behind every CUDA runtime call (ggml's habit: one CUDA_CHECK): a call that does
// not return cudaSuccess becomes gs::CudaError, a std::runtime_error naming the call, its
// file:line and CUDA's message. Callers that must not unwind past other processes (a rank inside
// a collective) catch it at their boundary and end the job there (cluster/nccl_collective.cpp).
// Include it only from files that use the CUDA runtime.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gs {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check_cuda(cudaError_t e, const char* call, const char* file, int line) {
  if (e != cudaSuccess)
    throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                    cudaGetErrorString(e));
}

}  // namespace gs

#define CUDA_CHECK(call) ::gs::check_cuda((call), #call, __FILE__, __LINE__)
