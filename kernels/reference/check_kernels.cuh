// Device code of the correctness gate: input patterns, the trusted fp32 reference GEMM, and the
// output comparison. Deliberately plain (SIMT fp32, no tensor cores, bounds on every access):
// the reference must not share a failure mode with the kernels it judges.
#pragma once
#include <cuda_fp16.h>
#include <stdint.h>

#include "check_types.hpp"

namespace gemmforge::check {

__device__ inline float cancel_value(int64_t k, int64_t K, bool b_side) {
  if (k == 0) return 64.f;
  if (k == K - 1) return b_side ? -64.f : 64.f;
  return cancel_unit_position(k, K) ? 1.f : 0.f;
}

__device__ inline uint64_t mix64(uint64_t x) {  // splitmix64 finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__device__ inline float uniform01(uint64_t seed, uint64_t i) {  // (0, 1]
  return (float((mix64(seed ^ mix64(i)) >> 40) + 1)) * (1.0f / 16777216.0f);
}

// Logical matrix rows×cols; stored row-major, or transposed (column-major) when store_transposed.
// `k_is_col` says which logical axis is K, for the probe patterns.
__global__ void fill_matrix(__half* dst, int64_t rows, int64_t cols, bool store_transposed,
                            FillPattern pattern, uint64_t seed, bool k_is_col) {
  const int64_t total = rows * cols;
  for (int64_t s = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; s < total;
       s += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = store_transposed ? s % rows : s / cols;
    const int64_t c = store_transposed ? s / rows : s % cols;
    const uint64_t logical = uint64_t(r * cols + c);
    float v = 0.f;
    switch (pattern) {
      case FillPattern::normal: {
        const float u1 = uniform01(seed, 2 * logical), u2 = uniform01(seed, 2 * logical + 1);
        v = sqrtf(-2.f * logf(u1)) * cospif(2.f * u2);
        break;
      }
      case FillPattern::binary: v = (mix64(seed ^ mix64(logical)) >> 63) ? 1.f : 0.f; break;
      case FillPattern::ones: v = 1.f; break;
      case FillPattern::cancel_a:
      case FillPattern::cancel_b: {
        const int64_t k = k_is_col ? c : r, K = k_is_col ? cols : rows;
        v = cancel_value(k, K, pattern == FillPattern::cancel_b);
        break;
      }
    }
    dst[s] = __float2half_rn(v);
  }
}

// C_ref[M×N] (fp32) = A[M×K] · B[K×N], both fp16 row-major. 128×128 tile, 8×8 per thread.
constexpr int kRefTile = 128, kRefK = 8, kRefThreads = 256, kRefMicro = 8;
__global__ void __launch_bounds__(kRefThreads)
reference_gemm_f32(const __half* A, const __half* B, float* C, int64_t M, int64_t N, int64_t K) {
  __shared__ float As[kRefK][kRefTile];
  __shared__ float Bs[kRefK][kRefTile];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t row0 = int64_t(blockIdx.y) * kRefTile, col0 = int64_t(blockIdx.x) * kRefTile;
  float acc[kRefMicro][kRefMicro] = {};
  for (int64_t k0 = 0; k0 < K; k0 += kRefK) {
    for (int i = threadIdx.x; i < kRefK * kRefTile; i += kRefThreads) {
      const int kk = i % kRefK, m = i / kRefK;  // A: consecutive threads walk K (row-major rows)
      const int64_t gr = row0 + m, gk = k0 + kk;
      As[kk][m] = (gr < M && gk < K) ? __half2float(A[gr * K + gk]) : 0.f;
      const int n = i % kRefTile, kb = i / kRefTile;  // B: consecutive threads walk N
      const int64_t gc = col0 + n, gkb = k0 + kb;
      Bs[kb][n] = (gc < N && gkb < K) ? __half2float(B[gkb * N + gc]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kRefK; ++kk) {
      float a[kRefMicro], b[kRefMicro];
#pragma unroll
      for (int i = 0; i < kRefMicro; ++i) a[i] = As[kk][ty * kRefMicro + i];
#pragma unroll
      for (int j = 0; j < kRefMicro; ++j) b[j] = Bs[kk][tx * kRefMicro + j];
#pragma unroll
      for (int i = 0; i < kRefMicro; ++i)
#pragma unroll
        for (int j = 0; j < kRefMicro; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kRefMicro; ++i)
#pragma unroll
    for (int j = 0; j < kRefMicro; ++j) {
      const int64_t r = row0 + ty * kRefMicro + i, c = col0 + tx * kRefMicro + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}


// ref == nullptr compares against the uniform value `expected`.
__global__ void compare_output(const __half* C, const float* ref, float expected, int64_t n,
                               float rel_tol, float abs_tol, bool exact, CompareStats* out) {
  double err_sq = 0, ref_sq = 0;
  float max_err = 0;
  unsigned long long nans = 0, bad = 0, first = ~0ull;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const float r = ref ? ref[i] : expected;
    const __half ch = C[i];
    const float c = __half2float(ch);
    if (!isfinite(c)) {
      ++nans;
      first = min(first, (unsigned long long)i);
      continue;
    }
    const float e = fabsf(c - r);
    err_sq += double(e) * e;
    ref_sq += double(r) * r;
    max_err = fmaxf(max_err, e);
    const bool ok = exact ? (__half_as_ushort(ch) == __half_as_ushort(__float2half_rn(r)))
                          : (e <= abs_tol + rel_tol * fabsf(r));
    if (!ok) {
      ++bad;
      first = min(first, (unsigned long long)i);
    }
  }
  for (int off = 16; off > 0; off /= 2) {
    err_sq += __shfl_down_sync(0xffffffffu, err_sq, off);
    ref_sq += __shfl_down_sync(0xffffffffu, ref_sq, off);
    max_err = fmaxf(max_err, __shfl_down_sync(0xffffffffu, max_err, off));
    nans += __shfl_down_sync(0xffffffffu, nans, off);
    bad += __shfl_down_sync(0xffffffffu, bad, off);
    first = min(first, __shfl_down_sync(0xffffffffu, first, off));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->err_sq, err_sq);
    atomicAdd(&out->ref_sq, ref_sq);
    atomicMax(&out->max_err_bits, __float_as_uint(max_err));
    atomicAdd(&out->nan_count, nans);
    atomicAdd(&out->bad_count, bad);
    atomicMin(&out->first_bad, first);
  }
}

// Guard bands hold one byte value everywhere; count the bytes that changed. Bytes, not words:
// the band after an odd-sized matrix starts at an odd address.
__global__ void count_changed_bytes(const uint8_t* p, int64_t bytes, uint8_t expected,
                                    unsigned long long* changed) {
  unsigned long long n = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < bytes;
       i += int64_t(gridDim.x) * blockDim.x)
    n += p[i] != expected;
  for (int off = 16; off > 0; off /= 2) n += __shfl_down_sync(0xffffffffu, n, off);
  if (threadIdx.x % 32 == 0 && n) atomicAdd(changed, n);
}

}  // namespace gemmforge::check
