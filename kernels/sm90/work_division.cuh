// How stream-K deals K iterations to CTAs: arithmetic shared by the kernel (tile_scheduler.cuh)
// and the host (grid and workspace sizes, src/core/kernel_config.cpp), so the two always agree.
//
// Stream-K here is the hybrid form: the tiles of whole waves go one per CTA as usual; only the
// tiles left over (fewer than the CTAs, which would leave SMs idle in a last partial wave) have
// their K iterations dealt out evenly to every CTA. A tile shared by several CTAs is finished by
// the one that arrives last, through the same workspace and counters as split-K (split_k.cuh).
#pragma once

#if !defined(__CUDACC_RTC__)
#include <cmath>  // the host's llrint (NVRTC compiles only the device's side)
#endif

#include "sm90/host_device.cuh"

namespace gemmforge::sm90 {

// Run-time switches of one launch (the kernel's `flags` argument).
enum LaunchFlags : int {
  kFlagStreamK = 1,           // deal the last partial wave's K iterations to every CTA
  kFlagSlicedReduction = 2,   // shared tiles: every part sums a slice (needs a persistent grid)
  // The parts of a tile are the CTAs of one cluster (launched with cluster size = splits, one unit
  // per CTA) and sum through distributed shared memory instead of a global workspace.
  kFlagClusterReduction = 4,
  // Builds with the dynamic walk (unit_feed.cuh), unsplit persistent launches: clusters take the
  // next tile from a counter in the workspace as they free up, instead of a fixed share.
  kFlagDynamicWalk = 8,
};

// x / d and x % d for a divisor fixed per launch, by a multiply-high and a shift (Granlund and
// Montgomery's round-up method) instead of the ~20 dependent instructions of an integer division.
// The tile walk (tile_scheduler.cuh, kFastWalk) runs between two units in every consumer warp of
// a cooperative tile, where the tensor cores wait for it. Exact for 0 <= x < 2^31 and
// 1 <= d < 2^31 (tests/cpu/test_work_division.cpp).
struct FastDivisor {
  unsigned d = 1, multiplier = 0, shift = 0;  // multiplier 0: d is 1
  FastDivisor() = default;
  GEMMFORGE_HOST_DEVICE explicit FastDivisor(int divisor) : d(unsigned(divisor)) {
    if (d <= 1) return;
#if defined(__CUDA_ARCH__)
    const unsigned log2_ceil = 32u - unsigned(__clz(int(d - 1)));
#else
    const unsigned log2_ceil = 32u - unsigned(__builtin_clz(d - 1));
#endif
    const unsigned p = 31 + log2_ceil;
    // multiplier = ceil(2^p / d) < 2^32, from a float reciprocal refined once, without branches:
    // 2^p · (1/d) is within ~2^10 of the quotient; the remainder 2^p − m·d (exact in 64 bits) times
    // the same reciprocal brings m within one half of it, and one integer check makes it exact.
    // A double division took ~100 instructions with a slow path, in every thread of every launch
    // (bench/NOTES.md, session 41). The device rounds as the host does (IEEE reciprocal, products
    // and conversions), so the host test covers the device's arithmetic.
    const unsigned long long two_p = 1ull << p;
#if defined(__CUDA_ARCH__)
    const float inverse = __frcp_rn(__uint2float_rn(d));
    long long m = __float2ll_rz(__fmul_rn(float(two_p), inverse));
    const long long rest = (long long)(two_p - (unsigned long long)m * d);
    m += __float2ll_rn(__fmul_rn(__ll2float_rn(rest), inverse));
#else
    const float inverse = 1.0f / float(d);
    long long m = (long long)(float(two_p) * inverse);
    const long long rest = (long long)(two_p - (unsigned long long)m * d);
    m += std::llrint(float(rest) * inverse);
#endif
    if ((unsigned long long)m * d < two_p) ++m;
    multiplier = unsigned(m);
    shift = p - 32;
  }
  GEMMFORGE_HOST_DEVICE int div(int x) const {
    if (multiplier == 0) return x;
#if defined(__CUDA_ARCH__)
    return int(__umulhi(unsigned(x), multiplier) >> shift);
#else
    return int(unsigned((unsigned long long)unsigned(x) * multiplier >> 32) >> shift);
#endif
  }
  GEMMFORGE_HOST_DEVICE int mod(int x, int quotient) const { return x - quotient * int(d); }
};

// Most CTAs in a cluster (16 needs the non-portable cluster size the host allows per kernel).
inline constexpr int kMaxClusterSplits = 16;

struct StreamKPlan {
  long long dp_tiles = 0;  // tiles done whole: the full waves
  long long sk_tiles = 0;  // tiles left over, shared out by K iteration
  long long sk_iters = 0;  // their K iterations: sk_tiles · k_blocks
  int sk_ctas = 0;         // CTAs that take iterations (every one gets at least one)
  int max_parts = 1;       // most CTAs that can share one tile: workspace slots per tile

  GEMMFORGE_HOST_DEVICE static StreamKPlan make(long long tiles, int k_blocks, int ctas) {
    StreamKPlan p;
    const long long left = ctas > 0 ? tiles % ctas : tiles;
    p.dp_tiles = tiles - left;
    p.sk_tiles = left;
    p.sk_iters = left * k_blocks;
    p.sk_ctas = int(p.sk_iters < ctas ? p.sk_iters : ctas);
    if (p.sk_ctas > 0) {
      // Every CTA's range is at least `shortest` iterations long, so a tile of k_blocks
      // iterations overlaps at most ceil(k_blocks / shortest) + 1 of them.
      const long long shortest = p.sk_iters / p.sk_ctas;
      const long long parts = (k_blocks + shortest - 1) / shortest + 1;
      p.max_parts = int(parts < p.sk_ctas ? parts : p.sk_ctas);
    }
    return p;
  }
  // The first stream-K iteration of CTA c (c = sk_ctas gives the end).
  GEMMFORGE_HOST_DEVICE long long begin(int c) const { return c * sk_iters / sk_ctas; }
  // The CTA whose range holds iteration x: the largest c with begin(c) <= x.
  GEMMFORGE_HOST_DEVICE int cta_of(long long x) const { return int(((x + 1) * sk_ctas + sk_iters - 1) / sk_iters - 1); }
};

}  // namespace gemmforge::sm90
