// One warp's share of a stage: ldmatrix the A and B fragments of its warp tile from the swizzled
// shared tiles, and mma.sync them into its accumulators, one 16-deep k-step at a time.
//
// Which row and chunk each lane addresses (ldmatrix: lane i names row i % 8 of 8×8 matrix i / 8):
//  - A, x4 → a0..a3: row lane % 16 of the mma tile, chunk (8 k) lane / 16 of the k-step.
//  - B in tn (N×K tile), x4 → b of mma tiles n, n+1: row (lane / 16)·8 + lane % 8, chunk
//    (lane / 8) % 2. x2 (one mma tile): lanes 0-15 of the same map.
//  - B in nn (K×N tile, .trans), x4 → b of mma tiles n, n+1: k-row lane % 16, chunk lane / 16.
//    x2: lanes 0-15, chunk 0.
// A swizzle mask repeats every 8 lines, so it is the same for rows 8 or 16 apart: each lane's
// offsets are computed once per k-step or mma tile, and mma tiles add compile-time constants.
#pragma once
#include "ptx/ldmatrix.cuh"
#include "ptx/mma_sync.cuh"
#include "sm80/hgemm_mma_traits.cuh"

namespace gemmforge::sm80 {

template <bool kF32>
struct AccOf {
  using type = float;
};
template <>
struct AccOf<false> {
  using type = ptx::u32;  // two fp16, packed
};

template <class T>
struct WarpMma {
  using ATile = typename T::ATile;
  using BTile = typename T::BTile;
  using Acc = typename AccOf<T::kF32Acc>::type;
  using Accumulators = Acc[T::kMmaM][T::kMmaN][T::kAccRegs];

  static constexpr int kAMmaTileBytes = T::kMmaTileM * ATile::kChunksPerRow * 16;  // 16 rows of A
  static constexpr int kBPairs = T::kMmaN / 2;  // pairs of mma tiles along N (one ldmatrix.x4 each)
  static constexpr bool kBOdd = T::kMmaN % 2 == 1;
  // The lane offsets kept in registers: per k-step for A and B in tn, per pair of mma tiles for
  // B in nn (k-steps then add constants).
  static constexpr int kBOffsets = T::kBNMajor ? kBPairs : T::kKSteps;

  ptx::u32 a_off[T::kKSteps];
  ptx::u32 b_off[kBOffsets > 0 ? kBOffsets : 1];
  ptx::u32 b_off_x2[T::kBNMajor ? 1 : T::kKSteps];  // the odd last mma tile, lanes 0-15's map

  // warp_m0, warp_n0: the warp tile's first row and column inside the CTA tile.
  __device__ WarpMma(int warp_m0, int warp_n0) {
    const int lane = int(ptx::lane_id());
    {
      const int row = warp_m0 + lane % 16;
#pragma unroll
      for (int ks = 0; ks < T::kKSteps; ++ks) a_off[ks] = ATile::offset(row, 2 * ks + lane / 16);
    }
    if constexpr (T::kBNMajor) {
      const int krow = lane % 16, first_chunk = warp_n0 / T::kChunkElems;
#pragma unroll
      for (int p = 0; p < kBPairs; ++p) b_off[p] = BTile::offset(krow, first_chunk + 2 * p + lane / 16);
      b_off_x2[0] = BTile::offset(krow % 16, first_chunk + 2 * kBPairs);
    } else {
      const int row = warp_n0 + (lane / 16) * 8 + lane % 8, row_x2 = warp_n0 + 16 * kBPairs + lane % 8;
#pragma unroll
      for (int ks = 0; ks < T::kKSteps; ++ks) {
        b_off[ks] = BTile::offset(row, 2 * ks + (lane / 8) % 2);
        b_off_x2[ks] = BTile::offset(row_x2, 2 * ks + (lane / 8) % 2);
      }
    }
  }

  __device__ static void zero(Accumulators& acc) {
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
      for (int nj = 0; nj < T::kMmaN; ++nj)
#pragma unroll
        for (int r = 0; r < T::kAccRegs; ++r) acc[mi][nj][r] = Acc(0);
  }

  // acc += this warp's part of A_tile · B_tile for one stage (shared addresses of the tiles).
  __device__ void stage(ptx::u32 a_tile, ptx::u32 b_tile, Accumulators& acc) const {
    using namespace ptx;
#pragma unroll
    for (int ks = 0; ks < T::kKSteps; ++ks) {
      u32 a[T::kMmaM][4];
      u32 b[T::kMmaN][2];
#pragma unroll
      for (int mi = 0; mi < T::kMmaM; ++mi) ldmatrix_x4(a[mi], a_tile + a_off[ks] + mi * kAMmaTileBytes);
#pragma unroll
      for (int p = 0; p < kBPairs; ++p) {
        u32 r[4];
        if constexpr (T::kBNMajor) {
          // 16 k-rows further per k-step: whole lines, the swizzle mask is unchanged.
          ldmatrix_x4_trans(r, b_tile + b_off[p] + ks * 16 * BTile::kChunksPerRow * 16);
        } else {
          ldmatrix_x4(r, b_tile + b_off[ks] + p * 16 * BTile::kChunksPerRow * 16);
        }
        b[2 * p][0] = r[0], b[2 * p][1] = r[1], b[2 * p + 1][0] = r[2], b[2 * p + 1][1] = r[3];
      }
      if constexpr (kBOdd) {
        if constexpr (T::kBNMajor)
          ldmatrix_x2_trans(b[T::kMmaN - 1], b_tile + b_off_x2[0] + ks * 16 * BTile::kChunksPerRow * 16);
        else
          ldmatrix_x2(b[T::kMmaN - 1], b_tile + b_off_x2[ks]);
      }
#pragma unroll
      for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
        for (int nj = 0; nj < T::kMmaN; ++nj) {
          if constexpr (T::kF32Acc) mma_m16n8k16_f32(acc[mi][nj], a[mi], b[nj]);
          else mma_m16n8k16_f16(acc[mi][nj], a[mi], b[nj]);
        }
    }
  }
};

}  // namespace gemmforge::sm80
