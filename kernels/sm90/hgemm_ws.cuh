// Warp-specialized Hopper HGEMM, C[M×N] = A[M×K] · B, A K-major. B is N×K (layout tn, K-major,
// wgmma's native B) or K×N (layout nn, N-major: TMA loads 64-column blocks of it and wgmma reads
// them with its transpose bit, so no transposing copy is ever made).
//
// One producer warpgroup (a single elected thread) streams A and B tiles with TMA into a ring
// of stages (pipeline.cuh); one or two consumer warpgroups run wgmma on them (mainloop.cuh) and
// write C (epilogue.cuh). Consumers are cooperative (they split each tile's rows) or ping-pong
// (they take alternate tiles). CTAs are persistent over output tiles, optionally in two-CTA
// clusters that share one operand through TMA multicast. Every constant is in HgemmTraits.
//
// This header is compiled by NVRTC (one instantiation per KernelConfig, see
// src/core/kernel_config.cpp) and by nvcc for tests. The body is a __device__ function so the
// JIT can wrap it in an extern "C" kernel with a fixed name.
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/named_barrier.cuh"
#include "ptx/setmaxnreg.cuh"
#include "sm90/epilogue.cuh"
#include "sm90/hgemm_traits.cuh"
#include "sm90/mainloop.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/tile_scheduler.cuh"

namespace gemmforge::sm90 {

template <class T>
__device__ inline void hgemm_body(const ptx::TensorMap& tmap_a, const ptx::TensorMap& tmap_b,
                                  const ptx::TensorMap& tmap_c, ptx::u16* C, int M, int N, int K, int group_m) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using namespace ptx;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const SharedStorage<T> smem(smem_raw);
  init_ring<T>(smem);

  const TileScheduler<T::kClusterM, T::kClusterN> sched(M, N, T::kBlockM, T::kBlockN, group_m);
  const int k_blocks = (K + T::kBlockK - 1) / T::kBlockK;  // the K tail is zero-filled by TMA
  const u32 rank = T::kClusterSize > 1 ? cluster_cta_rank() : 0u;
  const int warpgroup = threadIdx.x / 128;

  if (warpgroup == 0) {
    // With one consumer the register file has room for everyone (65536 / 256 = 256 each), and
    // setmaxnreg.inc below the entry count would be undefined: rebalance only with two.
    if constexpr (T::kConsumers > 1) setmaxnreg_dec<T::kProducerRegs>();
    if (threadIdx.x == 0) produce<T>(smem, tmap_a, tmap_b, sched, k_blocks, rank);
  } else {
    if constexpr (T::kConsumers > 1) setmaxnreg_inc<T::kConsumerRegs>();
    const int consumer = warpgroup - 1;
    const int wg_row_offset = T::kPingPong ? 0 : consumer * T::kWgRows;
    typename T::AccReg acc[T::kMmaM][T::Mma::kRegs];
    RingPosition pos;
    unsigned epilogue_blocks = 0;  // TMA-store staging buffer parity
    int walked = 0;  // tiles of this CTA's walk so far
    for (int t = sched.first(); t < sched.total(); t += sched.stride(), ++walked) {
      if (T::kPingPong && walked % 2 != consumer) {  // the other warpgroup's tile: skip its stages
        pos.template advance<T::kStages>(k_blocks);
        continue;
      }
      int tm, tn;
      sched.coords(t, rank, tm, tn);
      // Ping-pong main loops take turns: a consumer waits on a stage's full barrier only after the
      // other consumer has waited on every stage of the tile before, so a parity wait can never be
      // satisfied by an older phase of the same barrier. It also keeps one consumer's wgmmas
      // running while the other stores its tile.
      if constexpr (T::kPingPong)
        if (walked > 0) named_barrier_sync(T::kMainloopOrderBarrier + consumer, 256);
      mma_tile<T>(smem, pos, k_blocks, wg_row_offset, acc);
      if constexpr (T::kPingPong)
        if (t + sched.stride() < sched.total()) named_barrier_arrive(T::kMainloopOrderBarrier + (1 - consumer), 256);
      const int row0 = tm * T::kBlockM + wg_row_offset, col0 = tn * T::kBlockN;
      if constexpr (T::kTmaStore) store_tma<T>(acc, smem.epilogue(consumer), tmap_c, consumer, M, N, row0, col0, epilogue_blocks);
      else store_direct<T>(acc, C, M, N, row0, col0);
    }
    if constexpr (T::kTmaStore)
      if (threadIdx.x % 128 == 0) tma_store_wait_all<0>();  // the buffer must outlive its stores
  }
  // A CTA leaves only when its partner no longer multicasts into it or arrives on its barriers.
  if constexpr (T::kClusterSize > 1) cluster_sync();
#else
  // Built for an architecture without wgmma (the sm_80 pass of an AOT build): never launched.
  (void)tmap_a, (void)tmap_b, (void)tmap_c, (void)C, (void)M, (void)N, (void)K, (void)group_m;
#endif
}

}  // namespace gemmforge::sm90
