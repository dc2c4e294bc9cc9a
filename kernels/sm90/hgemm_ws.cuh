// Warp-specialized Hopper HGEMM, C[M×N] = A[M×K] · B, A K-major. B is N×K (layout tn, K-major,
// wgmma's native B) or K×N (layout nn, N-major: TMA loads 64-column blocks of it and wgmma reads
// them with its transpose bit, so no transposing copy is ever made).
//
// One producer warpgroup (a single elected thread) streams A and B tiles with TMA into a ring
// of kStages shared-memory stages; kConsumers warpgroups split the BM rows of each tile
// (cooperative) and run wgmma on them, releasing each stage through an mbarrier as soon as
// their wgmmas have read it. CTAs are persistent over output tiles (TileScheduler), so the
// producer is already loading tile i+1 while the consumers store tile i.
//
// This header is compiled by NVRTC (one instantiation per KernelConfig, see
// src/core/kernel_config.cpp) and by nvcc for tests. The body is a __device__ function so the
// JIT can wrap it in an extern "C" kernel with a fixed name.
#pragma once
#include "ptx/common.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/setmaxnreg.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/tile_scheduler.cuh"

namespace gemmforge::sm90 {

template <bool kF32>
struct AccRegOf {
  using type = float;
};
template <>
struct AccRegOf<false> {
  using type = ptx::u32;
};

// Every compile-time constant of one instantiation, and the invariants that make it valid.
// The host-side rules in src/core/kernel_config.cpp check the same things with reasons.
template <int kBlockM_, int kBlockN_, int kStages_, int kConsumers_, bool kF32Acc_, bool kBNMajor_>
struct HgemmTraits {
  static constexpr int kBlockM = kBlockM_, kBlockN = kBlockN_, kStages = kStages_, kConsumers = kConsumers_;
  static constexpr bool kF32Acc = kF32Acc_;
  static constexpr bool kBNMajor = kBNMajor_;             // layout nn
  static constexpr int kBlockK = 64;                       // one 128-byte swizzle row of fp16
  static constexpr int kThreads = (kConsumers + 1) * 128;  // producer warpgroup + consumers
  static constexpr int kWgRows = kBlockM / kConsumers;     // rows of C per consumer warpgroup
  static constexpr int kMmaM = kWgRows / 64;               // wgmma M-tiles per consumer warpgroup
  static constexpr int kATileBytes = kBlockM * kBlockK * 2;
  static constexpr int kBTileBytes = kBlockN * kBlockK * 2;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kBarrierBytes = 2 * kStages * 8;
  static constexpr int kSmemBytes = 1024 /* alignment slack */ + kStages * kStageBytes + kBarrierBytes;
  // Registers per thread after rebalancing: the producer keeps 40, consumers share the rest.
  static constexpr int kProducerRegs = 40;
  static constexpr int kConsumerRegs = 232;  // (384 threads: 128 × 40 + 256 × 232 ≤ 65536)
  using Mma = ptx::Wgmma<kBlockN, kF32Acc, kBNMajor ? 1 : 0>;
  // N-major B arrives as blocks of 64 columns (one 128-byte swizzle row each), kBlockK rows tall.
  static constexpr int kBColumnBlock = 64;
  static constexpr int kBColumnBlockBytes = kBlockK * kBColumnBlock * 2;
  using AccReg = typename AccRegOf<kF32Acc>::type;  // float, or two fp16 packed in a u32

  static_assert(kBlockM % (64 * kConsumers) == 0, "each consumer warpgroup takes whole 64-row wgmma tiles");
  static_assert(kBlockN % 8 == 0 && kBlockN >= 8 && kBlockN <= 256, "wgmma N is 8..256 in steps of 8");
  static_assert(kBlockM <= 256 && kBlockN <= 256, "a TMA box side is at most 256 elements");
  static_assert(kStages >= 2, "a pipeline needs at least two stages");
  static_assert(!kBNMajor || kBlockN % kBColumnBlock == 0, "N-major B tiles are whole 64-column blocks");
  static_assert(kSmemBytes <= 232448, "227 KB of shared memory per CTA at most");
  static_assert(kMmaM * Mma::kRegs <= 192, "accumulators must fit the consumer register budget");
};

template <class T>
__device__ inline void hgemm_body(const ptx::TensorMap& tmap_a, const ptx::TensorMap& tmap_b, ptx::u16* C, int M,
                                     int N, int K, int group_m) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using namespace ptx;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // The 128-byte swizzle repeats every 1024 bytes: tiles must start on such a boundary.
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<u64>(smem_raw) + 1023) & ~u64(1023));
  u64* full = reinterpret_cast<u64*>(smem + T::kStages * T::kStageBytes);
  u64* empty = full + T::kStages;
  auto a_tile = [&](int s) { return smem + s * T::kStageBytes; };
  auto b_tile = [&](int s) { return smem + s * T::kStageBytes + T::kATileBytes; };

  if (threadIdx.x == 0) {
    for (int s = 0; s < T::kStages; ++s) {
      mbarrier_init(&full[s], 1);                    // the producer's arrive_expect_tx
      mbarrier_init(&empty[s], T::kConsumers * 4);   // one arrival per consumer warp
    }
    fence_barrier_init();
  }
  __syncthreads();

  const TileScheduler sched(M, N, T::kBlockM, T::kBlockN, group_m);
  const int k_blocks = (K + T::kBlockK - 1) / T::kBlockK;  // the K tail is zero-filled by TMA
  const int warpgroup = threadIdx.x / 128;

  if (warpgroup == 0) {  // producer
    // With one consumer the register file has room for everyone (65536 / 256 = 256 each), and
    // setmaxnreg.inc below the entry count would be undefined: rebalance only with two.
    if constexpr (T::kConsumers > 1) setmaxnreg_dec<T::kProducerRegs>();
    if (threadIdx.x == 0) {
      tma_prefetch_descriptor(&tmap_a);
      tma_prefetch_descriptor(&tmap_b);
      int stage = 0;
      u32 phase = 0;
      for (int t = blockIdx.x; t < sched.total(); t += gridDim.x) {
        int tm, tn;
        sched.coords(t, tm, tn);
        for (int kb = 0; kb < k_blocks; ++kb) {
          mbarrier_wait(&empty[stage], phase ^ 1);  // a fresh barrier counts as released
          mbarrier_arrive_expect_tx(&full[stage], T::kStageBytes);
          tma_load_2d(a_tile(stage), &tmap_a, &full[stage], kb * T::kBlockK, tm * T::kBlockM);
          if constexpr (T::kBNMajor) {
#pragma unroll
            for (int j = 0; j < T::kBlockN / T::kBColumnBlock; ++j)
              tma_load_2d(b_tile(stage) + j * T::kBColumnBlockBytes, &tmap_b, &full[stage],
                          tn * T::kBlockN + j * T::kBColumnBlock, kb * T::kBlockK);
          } else {
            tma_load_2d(b_tile(stage), &tmap_b, &full[stage], kb * T::kBlockK, tn * T::kBlockN);
          }
          if (++stage == T::kStages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
    // Returning with loads in flight is safe for a one-CTA cluster (the CTA lives until its
    // consumers finish); with clusters, wait for the last kStages empty barriers first.
    return;
  }

  // consumers
  if constexpr (T::kConsumers > 1) setmaxnreg_inc<T::kConsumerRegs>();
  using Reg = typename T::AccReg;
  const int consumer = warpgroup - 1;
  const int warp_in_wg = (threadIdx.x % 128) / 32, lane = lane_id();
  Reg acc[T::kMmaM][T::Mma::kRegs];
  int stage = 0;
  u32 phase = 0;
  for (int t = blockIdx.x; t < sched.total(); t += gridDim.x) {
    int tm, tn;
    sched.coords(t, tm, tn);
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
      for (int r = 0; r < T::Mma::kRegs; ++r) acc[mi][r] = Reg(0);

    for (int kb = 0; kb < k_blocks; ++kb) {
      mbarrier_wait(&full[stage], phase);
#pragma unroll
      for (int mi = 0; mi < T::kMmaM; ++mi) fence_registers(acc[mi]);
      wgmma_fence();
#pragma unroll
      for (int mi = 0; mi < T::kMmaM; ++mi) {
        // This warpgroup's 64-row slice: whole 128-byte rows, so the swizzle phase is unchanged.
        const u64 desc_a = make_kmajor_sw128_desc(a_tile(stage) + (consumer * T::kWgRows + mi * 64) * 128);
#pragma unroll
        for (int k = 0; k < T::kBlockK; k += 16) {
          u64 desc_b;
          if constexpr (T::kBNMajor)
            desc_b = advance_desc_mn_major_k(make_mnmajor_sw128_desc(b_tile(stage), T::kBColumnBlockBytes), k);
          else
            desc_b = advance_desc_k(make_kmajor_sw128_desc(b_tile(stage)), k);
          T::Mma::mma(advance_desc_k(desc_a, k), desc_b, acc[mi], 1u);
        }
      }
      wgmma_commit();
      // Correctness first: wait for this stage's wgmmas before releasing it. Keeping one group
      // in flight (wait<1>, release the previous stage) is the next step once this is verified.
      wgmma_wait<0>();
#pragma unroll
      for (int mi = 0; mi < T::kMmaM; ++mi) fence_registers(acc[mi]);
      if (lane == 0) mbarrier_arrive(&empty[stage]);
      if (++stage == T::kStages) {
        stage = 0;
        phase ^= 1;
      }
    }

    // Epilogue straight from registers. wgmma's accumulator layout: in each 64-row tile, warp w
    // owns rows 16w + lane/4 and 16w + lane/4 + 8; per 8-column slice j it holds columns
    // 8j + 2·(lane%4) and the next one (f32: 4 registers per slice, f16: 2 packed registers).
#pragma unroll
    for (int mi = 0; mi < T::kMmaM; ++mi) {
      const int row0 = tm * T::kBlockM + consumer * T::kWgRows + mi * 64 + warp_in_wg * 16 + lane / 4;
#pragma unroll
      for (int j = 0; j < T::kBlockN / 8; ++j) {
        const int col = tn * T::kBlockN + j * 8 + (lane % 4) * 2;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int row = row0 + half * 8;
          u32 packed;
          if constexpr (T::kF32Acc) packed = pack_half2(acc[mi][j * 4 + half * 2], acc[mi][j * 4 + half * 2 + 1]);
          else packed = acc[mi][j * 2 + half];
          if (row >= M || col >= N) continue;
          u16* dst = C + size_t(row) * N + col;
          if (col + 1 < N && (N % 2) == 0) {
            *reinterpret_cast<u32*>(dst) = packed;  // 4-byte aligned: N and col are even
          } else {
            dst[0] = u16(packed & 0xFFFF);
            if (col + 1 < N) dst[1] = u16(packed >> 16);
          }
        }
      }
    }
  }
#else
  // Built for an architecture without wgmma (the sm_80 pass of an AOT build): never launched.
  (void)tmap_a, (void)tmap_b, (void)C, (void)M, (void)N, (void)K, (void)group_m;
#endif
}

}  // namespace gemmforge::sm90
