// Two CUDA events around work on a stream, and the time between them.
#pragma once
#include <cuda_runtime_api.h>

#include "eval/cuda_check.hpp"

namespace gemmforge {

struct EventPair {
  cudaEvent_t begin = nullptr, end = nullptr;
  EventPair() {
    GF_CUDA(cudaEventCreate(&begin));
    if (const cudaError_t e = cudaEventCreate(&end); e != cudaSuccess) {
      cudaEventDestroy(begin);
      GF_CUDA(e);
    }
  }
  ~EventPair() {
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  double elapsed_us() const {
    float ms = 0;
    GF_CUDA(cudaEventElapsedTime(&ms, begin, end));
    return double(ms) * 1e3;
  }
};

}  // namespace gemmforge
