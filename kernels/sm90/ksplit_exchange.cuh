// K-split's hand-over: the two consumer warpgroups each summed every other k-block of a tile
// (mainloop.cuh); the second gives its sums to the first through shared memory, and the first
// adds them and goes on to the epilogue as the tile's only owner. Thread t of the second
// warpgroup keeps register r at word r·128 + t, so each warp's store and load is 128 contiguous
// bytes (no bank conflicts). Two named barriers order it: full (the second's sums are written)
// and free (the first has read them: the second may write the next tile's).
#pragma once
#include "ptx/global.cuh"
#include "ptx/named_barrier.cuh"
#include "sm90/hgemm_traits.cuh"
#include "sm90/pipeline.cuh"

namespace gemmforge::sm90 {

template <class T>
struct KSplitExchange {
  using AccReg = typename T::AccReg;
  using Acc = AccReg[T::kMmaM][T::Mma::kRegs];
  static constexpr ptx::u32 kBothWarpgroups = 256;
  // Named barrier ids beside HgemmTraits' (1-5): the second consumer's sums written, and read.
  static constexpr ptx::u32 kFullBarrier = 6, kFreeBarrier = 7;

  // The second consumer, after its share of a tile: `first_unit` false waits until the first
  // consumer has read the previous tile's sums.
  static __device__ void give(const SharedStorage<T>& smem, const Acc& acc, bool first_unit) {
    using namespace ptx;
    if (!first_unit) named_barrier_sync(kFreeBarrier, kBothWarpgroups);
    AccReg* mine = smem.exchange() + threadIdx.x % 128;
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
      for (int r = 0; r < T::Mma::kRegs; ++r) mine[(mi * T::Mma::kRegs + r) * 128] = acc[mi][r];
    named_barrier_arrive(kFullBarrier, kBothWarpgroups);
  }

  // The first consumer: adds the second's sums to its own. `more`: the walk has another unit, for
  // which the second consumer will wait until these sums are read.
  static __device__ void take(const SharedStorage<T>& smem, Acc& acc, bool more) {
    using namespace ptx;
    named_barrier_sync(kFullBarrier, kBothWarpgroups);
    const AccReg* theirs = smem.exchange() + threadIdx.x % 128;
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
      for (int r = 0; r < T::Mma::kRegs; ++r) {
        const AccReg v = theirs[(mi * T::Mma::kRegs + r) * 128];
        if constexpr (T::kF32Acc) acc[mi][r] += v;
        else acc[mi][r] = add_f16x2(acc[mi][r], v);
      }
    if (more) named_barrier_arrive(kFreeBarrier, kBothWarpgroups);
  }
};

}  // namespace gemmforge::sm90
