// Types and constants shared by the gate's device code and its host side (plain C++).
#pragma once
#include <stdint.h>

#ifndef __CUDACC__
#define GF_HOST_DEVICE
#else
#define GF_HOST_DEVICE __host__ __device__
#endif

namespace gemmforge::check {

enum class FillPattern : int {
  normal = 0,    // N(0, 1), counter-based so a value depends only on (seed, logical index)
  binary = 1,    // 0 or 1 with probability 1/2
  ones = 2,      // all ones: A·B = K exactly when accumulation is fp32 (design.md section 6.3)
  cancel_a = 3,  // accumulator probe, A side (see cancel_value)
  cancel_b = 4,  // accumulator probe, B side
};

// The accumulator probe for any K ≥ 64: the product at k = 0 is +4096 and at k = K-1 is -4096;
// in between, a product of exactly 1 at every k ≡ 16 (mod 32). An fp32 accumulator returns the
// count of those ones exactly; an fp16 accumulator, whose spacing at 4096 is 4, drops each one
// that arrives while the running sum is near 4096, whatever its chunking of K up to 32.
GF_HOST_DEVICE inline bool cancel_unit_position(int64_t k, int64_t K) {
  return k % 32 == 16 && k <= K - 2;
}
GF_HOST_DEVICE inline int64_t cancel_expected(int64_t K) {
  return K < 18 ? 0 : (K - 2 - 16) / 32 + 1;
}
struct CompareStats {
  unsigned long long nan_count;   // NaN or Inf in the output (poison left behind, or overflow)
  unsigned long long bad_count;   // elements outside tolerance (or not bit-exact in exact mode)
  unsigned long long first_bad;   // smallest bad index, ~0 when none
  double err_sq, ref_sq;          // for the relative Frobenius error
  unsigned int max_err_bits;      // max |c - ref| as float bits (non-negative floats order as ints)
};

}  // namespace gemmforge::check
