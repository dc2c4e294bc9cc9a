// Host entry points for the gate's device code (kernels/reference/check_kernels.cuh).
#pragma once
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "../../kernels/reference/check_types.hpp"

namespace gemmforge::check_ops {

using check::CompareStats;
using check::FillPattern;

// Fills a logical rows×cols matrix, stored row-major or transposed; `k_is_col` names K's axis.
void fill(__half* dst, int64_t rows, int64_t cols, bool store_transposed, FillPattern, uint64_t seed,
          bool k_is_col, cudaStream_t);
void fill_normal_bytes(void* dst, size_t halves, uint64_t seed, cudaStream_t);
// C_ref = A · B with B K×N row-major, in fp32 on plain CUDA cores.
void reference_gemm(const __half* A, const __half* B, float* C_ref, int64_t M, int64_t N, int64_t K,
                    cudaStream_t);
// Synchronizes `stream` only (design.md 6.7: off-stream work left running shows up as poison).
CompareStats compare(const __half* C, const float* ref, float expected, int64_t n, float rel_tol,
                     float abs_tol, bool exact, cudaStream_t);
void count_changed_bytes(const void* p, size_t bytes, unsigned char sentinel,
                         unsigned long long* counter, cudaStream_t);

}  // namespace gemmforge::check_ops
