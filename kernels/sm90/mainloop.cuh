// A consumer warpgroup's main loop over K for one output tile: wgmma on each stage as it fills,
// with one wgmma group left in flight while the next stage's group is issued (so the tensor
// cores never drain between stages); a stage is released once the group that read it retired.
// With k-split each of two warpgroups walks every other stage of the tile.
#pragma once
#include "ptx/wgmma.cuh"
#include "sm90/ablation.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/trace.cuh"

namespace gemmforge::sm90 {

template <class T>
__device__ inline void issue_stage_mmas(const SharedStorage<T>& smem, int s, int a_row0,
                                        typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs]) {
  using namespace ptx;
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi) {
    // This warpgroup's 64-row slice: whole 128-byte rows, so the swizzle phase is unchanged.
    const u64 desc_a = make_kmajor_sw128_desc(smem.a_tile(s) + (a_row0 + mi * 64) * 128);
#pragma unroll
    for (int k = 0; k < T::kBlockK; k += 16) {
      u64 desc_b;
      if constexpr (T::kBNMajor)
        desc_b = advance_desc_mn_major_k(make_mnmajor_sw128_desc(smem.b_tile(s), T::kBColumnBlockBytes), k);
      else
        desc_b = advance_desc_k(make_kmajor_sw128_desc(smem.b_tile(s)), k);
      T::Mma::mma(advance_desc_k(desc_a, k), desc_b, acc[mi], 1u);
    }
  }
}

// Accumulates one tile into `acc` (zeroed here); `pos` walks the ring and is left after the
// tile's last stage. a_row0: the first row of this warpgroup's slice of the A tile.
// K-split (ksplit_of<T>): this warpgroup takes the tile's k-blocks first, first + 2, ... (first:
// 0 or 1, whichever starts on its own stages); the other consumer takes the rest.
// while_busy() runs once the warpgroup's first two stages' wgmmas are issued (its only one's, for
// a one-stage share), before they are waited for: work that needs no accumulator (the previous
// tile's deferred epilogue) overlaps with them. (K-split never defers: its first consumer would
// hold both.)
// stamp_unit: in builds with k-block stamps, the walk index under which this thread stamps each
// k-block (trace.cuh's kblock; -1: none); unused otherwise.
// Always inlined: out of line, the while_busy closure (references to the walk's locals) went to
// local memory, and with it the held pairs.
// The stride-1 walk is written so that it compiles to the code it had before k-split existed
// (db carry keeps the tuned tables only for kernels whose code is unchanged).
template <class T, class WhileBusy>
__device__ __forceinline__ void mma_tile(const SharedStorage<T>& smem, RingPosition& pos, int k_blocks, int a_row0,
                                typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs], WhileBusy&& while_busy,
                                int stamp_unit = -1, int first = 0) {
  using namespace ptx;
  using Reg = typename T::AccReg;
  constexpr int kStride = ksplit_of<T>() ? 2 : 1;  // this warpgroup's k-blocks are this far apart
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
    for (int r = 0; r < T::Mma::kRegs; ++r) acc[mi][r] = Reg(0);
  [[maybe_unused]] const RingPosition tile_start = pos;
  if constexpr (kStride > 1) pos.template advance<T::kStages>(first);
  int previous = -1;
  for (int kb = first; kb < k_blocks; kb += kStride) {
    mbarrier_wait(smem.full(pos.stage), pos.phase);
    if constexpr (trace::kblocks_enabled())
      if (stamp_unit >= 0) trace::kblock(stamp_unit, kb, trace::kKbFull, trace::clock());
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi) fence_registers(acc[mi]);
    wgmma_fence();
    if (!ablation::left_out(ablation::kMma)) issue_stage_mmas<T>(smem, pos.stage, a_row0, acc);
    wgmma_commit();
    if (kb == (k_blocks > 1 ? 1 : 0)) while_busy();
    wgmma_wait<1>();  // the previous stage's group has retired: its stage can be refilled
    if constexpr (trace::kblocks_enabled())
      if (stamp_unit >= 0) trace::kblock(stamp_unit, kb - kStride, trace::kKbRetired, trace::clock());
    if (previous >= 0) release_stage<T>(smem, previous);
    previous = pos.stage;
    pos.template advance<T::kStages>(kStride);
  }
  wgmma_wait<0>();
  if constexpr (trace::kblocks_enabled())
    if (stamp_unit >= 0) trace::kblock(stamp_unit, k_blocks - 1, trace::kKbRetired, trace::clock());
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi) fence_registers(acc[mi]);
  if (previous >= 0) release_stage<T>(smem, previous);
  if constexpr (kStride > 1) {  // both consumers leave the tile after its last stage
    pos = tile_start;
    pos.template advance<T::kStages>(k_blocks);
  }
}

template <class T>
__device__ inline void mma_tile(const SharedStorage<T>& smem, RingPosition& pos, int k_blocks, int a_row0,
                                typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs]) {
  mma_tile<T>(smem, pos, k_blocks, a_row0, acc, [] {});
}

}  // namespace gemmforge::sm90
