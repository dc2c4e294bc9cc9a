// Writing a consumer warpgroup's accumulators to C as fp16.
//
// wgmma's accumulator layout: in each 64-row tile, warp w owns rows 16w + lane/4 and
// 16w + lane/4 + 8; per 8-column slice j it holds columns 8j + 2·(lane%4) and the next one
// (f32: 4 registers per slice, f16: 2 packed registers).
#pragma once
#include "ptx/named_barrier.cuh"
#include "ptx/stmatrix.cuh"
#include "ptx/tma.cuh"
#include "sm90/ablation.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/trace.cuh"

namespace gemmforge::sm90 {

// The packed fp16 pair at (slice j, half h: rows +0 / +8) of wgmma tile mi.
template <class T>
__device__ inline ptx::u32 packed_pair(const typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs], int mi, int j, int h) {
  if constexpr (T::kF32Acc) return ptx::pack_half2(acc[mi][j * 4 + h * 2], acc[mi][j * 4 + h * 2 + 1]);
  else return acc[mi][j * 2 + h];
}

// One packed fp16 pair, C(row, col) and C(row, col + 1), bounds-checked; any M, N and C alignment
// of 2 bytes. With swap-AB the tile is of Cᵀ (M×N here is the caller's N×M): element (row, col)
// goes to C[col][row], and the 8 lanes that share a column pair write 8 consecutive rows.
template <class T>
__device__ inline void store_packed_pair(ptx::u16* C, int M, int N, int row, int col, ptx::u32 packed) {
  using namespace ptx;
  if (row >= M || col >= N) return;
  if constexpr (T::kSwapAB) {
    C[size_t(col) * M + row] = u16(packed & 0xFFFF);
    if (col + 1 < N) C[size_t(col + 1) * M + row] = u16(packed >> 16);
  } else {
    u16* dst = C + size_t(row) * N + col;
    if (col + 1 < N && (N % 2) == 0) {
      *reinterpret_cast<u32*>(dst) = packed;  // 4-byte aligned: N and col are even
    } else {
      dst[0] = u16(packed & 0xFFFF);
      if (col + 1 < N) dst[1] = u16(packed >> 16);
    }
  }
}

// Straight from registers to global memory.
template <class T>
__device__ inline void store_direct(const typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs], ptx::u16* C, int M,
                                    int N, int row0, int col0) {
  const int warp = (threadIdx.x % 128) / 32, lane = ptx::lane_id();
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
    for (int j = 0; j < T::kBlockN / 8; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        store_packed_pair<T>(C, M, N, row0 + mi * 64 + warp * 16 + lane / 4 + h * 8, col0 + j * 8 + (lane % 4) * 2,
                             packed_pair<T>(acc, mi, j, h));
}

// Accumulator pair c of the thread in `warp` and `lane` of a warpgroup (registers 2p and 2p + 1
// of wgmma tile mi, c = mi·kRegs/2 + p) straight to C; for reductions that finish a tile a slice
// at a time (split_k.cuh).
template <class T>
__device__ inline void store_accumulator_pair_at(int warp, int lane, int c, typename T::AccReg lo,
                                                 typename T::AccReg hi, ptx::u16* C, int M, int N, int row0, int col0) {
  const int mi = c / (T::Mma::kRegs / 2), p = c % (T::Mma::kRegs / 2);
  const int row = row0 + mi * 64 + warp * 16 + lane / 4;
  if constexpr (T::kF32Acc) {
    // Registers 4j + 2h + {0, 1}: pair p = 2j + h is one row's two adjacent columns.
    const int j = p / 2, h = p % 2;
    store_packed_pair<T>(C, M, N, row + h * 8, col0 + j * 8 + (lane % 4) * 2, ptx::pack_half2(lo, hi));
  } else {
    // Registers 2j + h, each a packed column pair: pair p is slice j's rows +0 and +8.
    store_packed_pair<T>(C, M, N, row, col0 + p * 8 + (lane % 4) * 2, lo);
    store_packed_pair<T>(C, M, N, row + 8, col0 + p * 8 + (lane % 4) * 2, hi);
  }
}

// This thread's pair c.
template <class T>
__device__ inline void store_accumulator_pair(int c, typename T::AccReg lo, typename T::AccReg hi, ptx::u16* C,
                                              int M, int N, int row0, int col0) {
  store_accumulator_pair_at<T>((threadIdx.x % 128) / 32, ptx::lane_id(), c, lo, hi, C, M, N, row0, col0);
}

// Pair c of another thread of the warpgroup (`thread`, 0-127): for sums a CTA finishes for pairs
// other threads held (split_k.cuh, sums pushed inside a cluster).
template <class T>
__device__ inline void store_accumulator_pair_of(int thread, int c, typename T::AccReg lo, typename T::AccReg hi,
                                                 ptx::u16* C, int M, int N, int row0, int col0) {
  store_accumulator_pair_at<T>(thread / 32, thread % 32, c, lo, hi, C, M, N, row0, col0);
}

// Cooperative TMA-store tiles defer part of their epilogue: the fp16 pairs of their last column
// blocks are held in registers and staged and stored while the next tile's first wgmmas run
// (mainloop.cuh's while_busy). Without it the tensor cores idle through every epilogue (0.7-1.5 µs
// per tile, `gemmforge trace`, bench/NOTES.md session 13). Half the blocks, in tiles of three or
// more blocks whose accumulators and held pairs come to at most 160 registers: holding all blocks
// spilled 128x256; half spilled 256x160 (192 registers), 128x128 (two blocks: its walk's state
// went to local memory) and f16 accumulators (rare: the tuner searches f32). Ping-pong hides its epilogues behind the
// other consumer already; one-consumer tiles keep their short per-warp epilogue. Functions, not
// HgemmTraits members: every constexpr member is data in every cubin, and configs that do not
// defer keep the code and data they had.
template <class T>
__device__ constexpr int half_blocks_regs() {  // per 64-row wgmma tile: two pairs per 8-column slice
  return (T::kEpiBlocks / 2) * T::kEpiCols / 4;
}
template <class T>
__device__ constexpr bool epilogue_deferred() {
  return T::kTmaStore && T::kF32Acc && T::kStageReaders == 2 && T::kEpiBlocks >= 3 &&
         T::kMmaM * (T::Mma::kRegs + half_blocks_regs<T>()) <= 160;
}
template <class T>
__device__ constexpr int held_first_block() {  // the first column block held
  return epilogue_deferred<T>() ? T::kEpiBlocks - T::kEpiBlocks / 2 : T::kEpiBlocks;
}
template <class T>
__device__ constexpr int held_regs() {
  return epilogue_deferred<T>() ? half_blocks_regs<T>() : 1;
}

// A consumer's fp16 pairs, as stage_block reads them: (wgmma tile mi, 8-column slice j, half h).
template <class T>
struct AccumulatorPairs {
  const typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs];
  __device__ ptx::u32 operator()(int mi, int j, int h) const { return packed_pair<T>(acc, mi, j, h); }
};
template <class T>
struct HeldPairs {
  const ptx::u32 (&held)[T::kMmaM][held_regs<T>()];
  __device__ ptx::u32 operator()(int mi, int j, int h) const {
    return held[mi][(j - held_first_block<T>() * (T::kEpiCols / 8)) * 2 + h];
  }
};

// The pairs of the tile's held blocks into registers that outlive the accumulators.
template <class T>
__device__ inline void hold_pairs(const typename T::AccReg (&acc)[T::kMmaM][T::Mma::kRegs],
                                  ptx::u32 (&held)[T::kMmaM][held_regs<T>()]) {
  static_assert(T::kMmaM * (T::Mma::kRegs + held_regs<T>()) <= 192,
                "held pairs and accumulators together must fit the consumer register budget");
  constexpr int kFirstSlice = held_first_block<T>() * (T::kEpiCols / 8);
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi)
#pragma unroll
    for (int j = kFirstSlice; j < T::kBlockN / 8; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) held[mi][(j - kFirstSlice) * 2 + h] = packed_pair<T>(acc, mi, j, h);
}

// Column block b of a consumer's accumulators into a staging buffer (`lane_buffer`: the buffer's
// shared address plus this lane's row, `row_bytes` in store_tma). The fragment of two 8-column
// slices (rows +0 and +8 of each) is four 8×8 stmatrix tiles: one stmatrix.x4 writes what four
// 4-byte stores per lane did. The buffer is swizzled like the TMA map (16-byte chunk c of byte row
// r goes to chunk c ^ ((r·kEpiRowBytes / 128) & mask)), so the eight 16-byte rows of a tile land in
// eight distinct bank groups. The rows one lane addresses differ only by whole 64-row wgmma tiles
// (64 · kEpiRowBytes, a multiple of 1024 bytes), which leaves the swizzle phase unchanged, so the
// phase is computed once per lane.
template <class T, class Pairs>
__device__ inline void stage_block(const Pairs& pair, int b, ptx::u32 lane_buffer, ptx::u32 swizzle_phase, int tile_q) {
  using namespace ptx;
  if constexpr (ablation::left_out(ablation::kStaging)) return;  // a diagnostic build (ablation.cuh)
  constexpr int kSlicesPerBlock = T::kEpiCols / 8;
  static_assert(kSlicesPerBlock % 2 == 0, "stmatrix.x4 writes two 8-column slices");
  static_assert((64 * T::kEpiRowBytes) % 1024 == 0, "a 64-row step keeps the swizzle phase");
#pragma unroll
  for (int mi = 0; mi < T::kMmaM; ++mi) {
#pragma unroll
    for (int js = 0; js < kSlicesPerBlock; js += 2) {
      const int j = b * kSlicesPerBlock + js;
      const u32 chunk = (u32(js + tile_q / 2) ^ swizzle_phase) * 16;
      stmatrix_x4(lane_buffer + u32(mi * 64 * T::kEpiRowBytes) + chunk, pair(mi, j, 0), pair(mi, j, 1), pair(mi, j + 1, 0),
                  pair(mi, j + 1, 1));
    }
  }
}

// The generic-proxy writes of staging, ordered before the TMA stores that read them.
__device__ inline void fence_staged() {
  if constexpr (!ablation::left_out(ablation::kStaging) && !ablation::left_out(ablation::kProxyFence))
    ptx::fence_proxy_async_shared();
}

// One staged box of C to global memory (not in a diagnostic build without stores, ablation.cuh).
__device__ inline void store_staged(const ptx::TensorMap* tmap_c, const void* box, int col, int row) {
  if constexpr (!ablation::left_out(ablation::kStoreIssue)) ptx::tma_store_2d(tmap_c, box, col, row);
}

// Through shared memory and TMA, in column blocks of kEpiCols.
// - Whole tile (kEpiWholeTile, a buffer per block): the warpgroup waits once until the previous
//   tile's stores have read their buffers (they had the whole main loop to drain), stages every
//   block, and its first thread stores them; the stores drain while the next tile's wgmmas run.
//   Two named barriers per tile.
// - Two alternating buffers otherwise (a tile of at most two blocks, or one that does not fit):
//   the next block is staged while the previous block's store drains; a buffer is rewritten only
//   once the stores issued from it two blocks earlier have read it. `blocks_done` counts this
//   warpgroup's blocks across tiles (buffer parity).
//   - kEpiPerWarp: each warp on its own: it stages its 16-row slices of a block and its lane 0
//     stores them (a box of kEpiStoreRows = 16 rows, set on the host), so no warp waits for the
//     others. Bulk groups belong to the thread that commits them, so lane 0's wait covers exactly
//     its warp's stores. No named barrier.
//   - else the warpgroup's first thread stores the block: two named barriers per block.
// `pair` gives the fp16 pairs: AccumulatorPairs, or HeldPairs for a deferred epilogue. Column
// blocks kFirst..kLast-1 (a deferred epilogue stores a tile in two calls).
template <class T, int kFirst = 0, int kLast = T::kEpiBlocks, class Pairs>
__device__ inline void store_tma(const Pairs& pair, unsigned char* buffers, const ptx::TensorMap& tmap_c, int consumer,
                                 int M, int N, int row0, int col0, unsigned& blocks_done) {
  using namespace ptx;
  const int thread = threadIdx.x % 128, warp = thread / 32, lane = lane_id();
  const u32 barrier_id = T::kEpilogueBarrier + u32(consumer);
  constexpr u32 kSwizzleMask = T::kEpiRowBytes / 16 - 1;
  // This lane addresses row (lane % 8) of stmatrix tile q = lane / 8: tiles 0 and 1 are rows +0
  // and +8 of the first slice, tiles 2 and 3 the same of the second.
  const int tile_q = lane / 8;
  const u32 row_bytes = u32((warp * 16 + (tile_q % 2) * 8 + lane % 8) * T::kEpiRowBytes);
  const u32 swizzle_phase = (row_bytes >> 7) & kSwizzleMask;
  const bool in_range = row0 < M && col0 < N;
  u64 wait_clocks = 0, barrier_clocks = 0, stage_clocks = 0, issue_clocks = 0;  // trace.cuh's stamps only
  if constexpr (T::kEpiWholeTile) {
    {
      trace::Stopwatch t(wait_clocks);
      if (thread == 0) tma_store_wait_read<0>();  // the previous tile's stores
    }
    {
      trace::Stopwatch t(barrier_clocks);
      named_barrier_sync(barrier_id, 128);
    }
    {
      trace::Stopwatch t(stage_clocks);
#pragma unroll
      for (int b = kFirst; b < kLast; ++b)
        stage_block<T>(pair, b, smem_addr(buffers + b * T::kEpiBufferBytes) + row_bytes, swizzle_phase, tile_q);
      fence_staged();
    }
    {
      trace::Stopwatch t(barrier_clocks);
      named_barrier_sync(barrier_id, 128);
    }
    if (thread == 0) {
      trace::Stopwatch t(issue_clocks);
      if (in_range) {
#pragma unroll
        for (int b = kFirst; b < kLast; ++b)
          store_staged(&tmap_c, buffers + b * T::kEpiBufferBytes, col0 + b * T::kEpiCols, row0);
      }
      tma_store_commit();
    }
  } else if constexpr (T::kEpiPerWarp) {
    static_assert((16 * T::kEpiRowBytes) % 512 == 0, "a warp's 16-row slice starts on a swizzle atom");
#pragma unroll
    for (int b = kFirst; b < kLast; ++b, ++blocks_done) {
      unsigned char* buffer = buffers + (blocks_done % 2) * T::kEpiBufferBytes;
      if (lane == 0) tma_store_wait_read<1>();  // this warp's stores from this buffer, two blocks ago
      __syncwarp();
      stage_block<T>(pair, b, smem_addr(buffer) + row_bytes, swizzle_phase, tile_q);
      fence_staged();  // each lane's own writes
      __syncwarp();
      if (lane == 0) {
#pragma unroll
        for (int mi = 0; mi < T::kMmaM; ++mi) {
          const int slice_row = mi * 64 + warp * 16;
          if (row0 + slice_row < M && col0 < N)
            store_staged(&tmap_c, buffer + slice_row * T::kEpiRowBytes, col0 + b * T::kEpiCols, row0 + slice_row);
        }
        tma_store_commit();  // a group per block even when empty, so the parity count stays exact
      }
    }
  } else {
#pragma unroll
    for (int b = kFirst; b < kLast; ++b, ++blocks_done) {
      unsigned char* buffer = buffers + (blocks_done % 2) * T::kEpiBufferBytes;
      {
        trace::Stopwatch t(wait_clocks);
        if (thread == 0) tma_store_wait_read<1>();  // the store from this buffer, two blocks ago
      }
      {
        trace::Stopwatch t(barrier_clocks);
        named_barrier_sync(barrier_id, 128);
      }
      {
        trace::Stopwatch t(stage_clocks);
        stage_block<T>(pair, b, smem_addr(buffer) + row_bytes, swizzle_phase, tile_q);
        fence_staged();
      }
      {
        trace::Stopwatch t(barrier_clocks);
        named_barrier_sync(barrier_id, 128);
      }
      if (thread == 0) {
        trace::Stopwatch t(issue_clocks);
        if (in_range) store_staged(&tmap_c, buffer, col0 + b * T::kEpiCols, row0);
        tma_store_commit();  // a group per block even when empty, so the parity count stays exact
      }
    }
  }
  if (threadIdx.x == 128) {
    trace::cta_add(trace::kEpiStoreWaitClocks, wait_clocks);
    trace::cta_add(trace::kEpiBarrierClocks, barrier_clocks);
    trace::cta_add(trace::kEpiStageClocks, stage_clocks);
    trace::cta_add(trace::kEpiIssueClocks, issue_clocks);
    trace::cta_add(trace::kEpiCalls, 1);
  }
}

}  // namespace gemmforge::sm90
