// Every CUDA runtime, cuBLAS and cuBLASLt call goes through one of these: a failure becomes a
// gemmforge::Error that names the call, the file and the line.
#pragma once
#include <string>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "gemmforge/types.hpp"

namespace gemmforge::detail {

[[noreturn]] void throw_cuda(cudaError_t, const char* expr, const char* file, int line);
[[noreturn]] void throw_cublas(cublasStatus_t, const char* expr, const char* file, int line);

}  // namespace gemmforge::detail

#define GF_CUDA(expr)                                                                  \
  do {                                                                                 \
    cudaError_t gf_err_ = (expr);                                                      \
    if (gf_err_ != cudaSuccess) ::gemmforge::detail::throw_cuda(gf_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define GF_CUBLAS(expr)                                                                \
  do {                                                                                 \
    cublasStatus_t gf_st_ = (expr);                                                    \
    if (gf_st_ != CUBLAS_STATUS_SUCCESS)                                               \
      ::gemmforge::detail::throw_cublas(gf_st_, #expr, __FILE__, __LINE__);            \
  } while (0)

// After a kernel launch: launch-configuration errors show up here, not at the <<<>>>.
#define GF_CHECK_LAUNCH() GF_CUDA(cudaGetLastError())
