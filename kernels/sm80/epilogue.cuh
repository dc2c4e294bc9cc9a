// Writing a warp's accumulators to C as fp16, straight from registers, bounds-checked.
//
// mma.sync's D fragment: in each 16×8 mma tile, lane l holds row l / 4 and row l / 4 + 8, columns
// 2(l % 4) and the next (f32: 4 registers; f16: 2 packed). A quad of lanes writes 16 contiguous
// bytes of a row.
#pragma once
#include "ptx/common.cuh"
#include "sm80/warp_mma.cuh"

namespace gemmforge::sm80 {

// row0, col0: the warp tile's first element in C. Pairs go out as one 4-byte store when every
// pair is 4-byte aligned (N even and C 4-byte aligned), else element by element.
template <class T>
__device__ inline void store_accumulators(const typename WarpMma<T>::Accumulators& acc, ptx::u16* C, int M, int N,
                                          int row0, int col0) {
  using namespace ptx;
  const int lane = int(lane_id());
  const bool paired = N % 2 == 0 && (reinterpret_cast<u64>(C) & 3u) == 0;
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi) {
#pragma unroll
    for (int nj = 0; nj < T::kMmaN; ++nj) {
      const int col = col0 + nj * T::kMmaTileN + (lane % 4) * 2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + mi * T::kMmaTileM + lane / 4 + h * 8;
        u32 packed;
        if constexpr (T::kF32Acc) packed = pack_half2(acc[mi][nj][2 * h], acc[mi][nj][2 * h + 1]);
        else packed = acc[mi][nj][h];
        if (row >= M || col >= N) continue;
        u16* dst = C + size_t(row) * size_t(N) + col;
        if (paired) {
          *reinterpret_cast<u32*>(dst) = packed;  // col is even and N even, so col + 1 < N too
        } else {
          dst[0] = u16(packed & 0xFFFFu);
          if (col + 1 < N) dst[1] = u16(packed >> 16);
        }
      }
    }
  }
}

}  // namespace gemmforge::sm80
