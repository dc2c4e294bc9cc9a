// Latency-first HGEMM for sm_80 and later (runs on Hopper as an sm_90a cubin too):
// C[M×N] = A[M×K] · B with mma.sync m16n8k16 and a multistage cp.async ring. A and C row-major;
// B is N×K (layout tn) or K×N (layout nn, read with ldmatrix.trans: no transposing copy).
//
// One CTA per output tile (no persistence: this path serves tiny problems, where launch and
// prologue dominate, and shapes the TMA kernels refuse). Warps tile the CTA tile; each k-block
// goes through a ring of kStages shared-memory stages (global_loader.cuh), each warp runs its
// mmas on the stage (warp_mma.cuh), and C is written from registers (epilogue.cuh). Any M, N,
// K >= 1: tiles past an edge are zero-filled on load and clipped on store. Every constant is in
// HgemmMmaTraits.
//
// This header is compiled by NVRTC (one instantiation per Sm80Config, see
// src/core/sm80_config.cpp). The body is a __device__ function so the JIT can wrap it in an
// extern "C" kernel with a fixed name.
#pragma once
#include "ptx/cp_async.cuh"
#include "sm80/epilogue.cuh"
#include "sm80/global_loader.cuh"
#include "sm80/hgemm_mma_traits.cuh"
#include "sm80/warp_mma.cuh"

namespace gemmforge::sm80 {

// The tile of blockIdx.x: bands of kGroupM tile rows, walked column by column.
template <class T>
__device__ inline void tile_coords(int M, int N, int& tm, int& tn) {
  const int tiles_m = (M + T::kBlockM - 1) / T::kBlockM, tiles_n = (N + T::kBlockN - 1) / T::kBlockN;
  const int t = int(blockIdx.x);
  const int band = t / (T::kGroupM * tiles_n), in_band = t % (T::kGroupM * tiles_n);
  const int first = band * T::kGroupM;
  const int rows = tiles_m - first < T::kGroupM ? tiles_m - first : T::kGroupM;
  tm = first + in_band % rows;
  tn = in_band / rows;
}

template <class T>
__device__ inline void hgemm_body(const ptx::u16* __restrict__ A, const ptx::u16* __restrict__ B,
                                  ptx::u16* __restrict__ C, int M, int N, int K) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
  using namespace ptx;
  extern __shared__ __align__(128) unsigned char smem[];

  int tm, tn;
  tile_coords<T>(M, N, tm, tn);
  const int m0 = tm * T::kBlockM, n0 = tn * T::kBlockN;
  const int k_blocks = (K + T::kBlockK - 1) / T::kBlockK;

  const int warp = int(threadIdx.x) / 32;
  const int warp_m0 = (warp / T::kWarpsN) * T::kWarpTileM, warp_n0 = (warp % T::kWarpsN) * T::kWarpTileN;
  const StageLoader<T> loader(A, B, M, N, K, m0, n0);
  const WarpMma<T> mma(warp_m0, warp_n0);
  typename WarpMma<T>::Accumulators acc;
  WarpMma<T>::zero(acc);
  const u32 smem_base = smem_addr(smem);

  // Prologue: the first kStages - 1 k-blocks in flight (one commit group each, empty past K, so
  // that "all but the newest kStages - 2 groups" always means "up to the block needed next").
#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if constexpr (T::kVec16) {
      if (s < k_blocks) loader.issue_async(smem, s, s);
      cp_async_commit();
    } else {
      typename StageLoader<T>::Staged staged;
      if (s < k_blocks) {
        loader.fetch(staged, s);
        loader.deposit(smem, s, staged);
      }
    }
  }

  // Stage indices advance with a wrap rather than kb % kStages: no division per k-block.
  int stage = 0, next_stage = T::kStages - 1;
  for (int kb = 0; kb < k_blocks; ++kb) {
    if constexpr (T::kVec16) cp_async_wait<T::kStages - 2>();
    // Block kb's stage is complete for every thread, and every warp is done reading the stage
    // that is refilled next (it held block kb - 1).
    __syncthreads();
    const int next = kb + T::kStages - 1;
    const u32 a_tile = smem_base + u32(stage * T::kStageBytes), b_tile = a_tile + u32(T::ATile::kBytes);
    if constexpr (T::kVec16) {
      if (next < k_blocks) loader.issue_async(smem, next_stage, next);
      cp_async_commit();
      mma.stage(a_tile, b_tile, acc);
    } else {
      // Loads first, mmas while they are in flight, then the stores that need them.
      typename StageLoader<T>::Staged staged;
      if (next < k_blocks) loader.fetch(staged, next);
      mma.stage(a_tile, b_tile, acc);
      if (next < k_blocks) loader.deposit(smem, next_stage, staged);
    }
    stage = stage + 1 == T::kStages ? 0 : stage + 1;
    next_stage = next_stage + 1 == T::kStages ? 0 : next_stage + 1;
  }
  if constexpr (T::kVec16) cp_async_wait<0>();  // no copy may still target shared memory at exit

  store_accumulators<T>(acc, C, M, N, m0 + warp_m0, n0 + warp_n0);
#else
  // Built for an architecture without mma.sync m16n8k16 / cp.async: never launched.
  (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
#endif
}

}  // namespace gemmforge::sm80
