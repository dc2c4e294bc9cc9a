// Moving one operand's tile of a k-block from global to shared memory, in 16-byte chunks spread
// over the CTA's threads: consecutive threads take consecutive chunks along a row, so a warp
// reads whole contiguous row segments.
//
// Two paths, fixed per instantiation (kVec16):
//  - vec16: one cp.async per chunk, zero-filled outside the matrix. Needs every chunk to be all in
//    or all out (K % 8 == 0; in nn also N % 8 == 0) and 16-byte aligned rows and base pointers;
//    the host refuses shapes and pointers that break this (src/runtime/sm80_kernel.cpp).
//  - scalar: eight guarded 2-byte loads per chunk into registers (fetch), written to shared
//    memory as one 16-byte store later (deposit), so the loads of the next k-block are in flight
//    while this one's mmas run. Any shape, any 2-byte aligned pointer.
#pragma once
#include "ptx/common.cuh"
#include "ptx/cp_async.cuh"
#include "sm80/hgemm_mma_traits.cuh"

namespace gemmforge::sm80 {

struct alignas(16) Chunk {
  ptx::u32 w[4];
};

// One operand in global memory is row-major with `ld` elements per row. Its tile's rows are the
// "outer" index and the contiguous direction the "inner" one. K is the inner index of A and of B
// in tn, and the outer index (the row) of B in nn: kOuterIsK says which moves with the k-block.
template <class T, class Tile, bool kOuterIsK>
struct OperandLoader {
  static constexpr int kChunks = Tile::kRows * Tile::kChunksPerRow;
  static constexpr int kPerThread = (kChunks + T::kThreads - 1) / T::kThreads;
  static constexpr bool kEveryThreadFull = kChunks % T::kThreads == 0;
  // Chunk j of a thread is chunk threadIdx.x + j·threads: the same column, kRowStep rows further.
  static constexpr int kRowStep = T::kThreads / Tile::kChunksPerRow;
  static_assert(T::kThreads % Tile::kChunksPerRow == 0, "a thread keeps its chunk column across its chunks");

  struct Staged {
    Chunk c[kPerThread];
  };

  const ptx::u16* base;
  int ld, outer_limit, inner_limit;
  int outer0, inner0;  // global coordinates of this thread's first chunk at k-block 0
  int row0, col;       // its tile row and chunk column

  __device__ OperandLoader(const ptx::u16* base_, int ld_, int outer_limit_, int inner_limit_, int tile_outer,
                           int tile_inner)
      : base(base_), ld(ld_), outer_limit(outer_limit_), inner_limit(inner_limit_) {
    row0 = int(threadIdx.x) / Tile::kChunksPerRow;
    col = int(threadIdx.x) % Tile::kChunksPerRow;
    outer0 = tile_outer + row0;
    inner0 = tile_inner + col * T::kChunkElems;
  }

  // Whether this thread has a j-th chunk (tiles smaller than one chunk per thread leave some idle).
  __device__ bool has(int j) const { return kEveryThreadFull || row0 + j * kRowStep < Tile::kRows; }

  __device__ void coords(int j, int kb, int& outer, int& inner) const {
    outer = outer0 + j * kRowStep + (kOuterIsK ? kb * T::kBlockK : 0);
    inner = inner0 + (kOuterIsK ? 0 : kb * T::kBlockK);
  }

  // vec16: start the copies of k-block kb into `tile` (this stage's part for this operand).
  __device__ void issue_async(unsigned char* tile, int kb) const {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      if (!has(j)) continue;
      int outer, inner;
      coords(j, kb, outer, inner);
      const bool in = outer < outer_limit && inner < inner_limit;
      // Outside the matrix nothing is read, but the address must still be a valid one.
      const ptx::u16* src = in ? base + size_t(outer) * size_t(ld) + inner : base;
      ptx::cp_async_16(tile + Tile::offset(row0 + j * kRowStep, col), src, in ? 16u : 0u);
    }
  }

  // scalar: load k-block kb into registers, zeros outside the matrix.
  __device__ void fetch(Staged& s, int kb) const {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      if (!has(j)) continue;
      int outer, inner;
      coords(j, kb, outer, inner);
      const bool row_in = outer < outer_limit;
      const ptx::u16* src = base + (row_in ? size_t(outer) * size_t(ld) + inner : 0);
      ptx::u16 e[T::kChunkElems];
#pragma unroll
      for (int i = 0; i < T::kChunkElems; ++i) e[i] = (row_in && inner + i < inner_limit) ? src[i] : ptx::u16(0);
#pragma unroll
      for (int w = 0; w < 4; ++w) s.c[j].w[w] = ptx::u32(e[2 * w]) | (ptx::u32(e[2 * w + 1]) << 16);
    }
  }

  __device__ void deposit(unsigned char* tile, const Staged& s) const {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j)
      if (has(j)) *reinterpret_cast<Chunk*>(tile + Tile::offset(row0 + j * kRowStep, col)) = s.c[j];
  }
};

// Both operands of one stage.
template <class T>
struct StageLoader {
  using ALoader = OperandLoader<T, typename T::ATile, false>;
  using BLoader = OperandLoader<T, typename T::BTile, T::kBNMajor>;
  struct Staged {
    typename ALoader::Staged a;
    typename BLoader::Staged b;
  };

  ALoader a;
  BLoader b;

  // A is M×K (ld K); B is N×K (tn, ld K) or K×N (nn, ld N). m0, n0: the CTA tile's corner.
  __device__ StageLoader(const ptx::u16* A, const ptx::u16* B, int M, int N, int K, int m0, int n0)
      : a(A, K, M, K, m0, 0),
        b(B, T::kBNMajor ? N : K, T::kBNMajor ? K : N, T::kBNMajor ? N : K, T::kBNMajor ? 0 : n0,
          T::kBNMajor ? n0 : 0) {}

  __device__ static unsigned char* a_tile(unsigned char* smem, int stage) { return smem + stage * T::kStageBytes; }
  __device__ static unsigned char* b_tile(unsigned char* smem, int stage) {
    return smem + stage * T::kStageBytes + T::ATile::kBytes;
  }

  __device__ void issue_async(unsigned char* smem, int stage, int kb) const {
    a.issue_async(a_tile(smem, stage), kb);
    b.issue_async(b_tile(smem, stage), kb);
  }
  __device__ void fetch(Staged& s, int kb) const {
    a.fetch(s.a, kb);
    b.fetch(s.b, kb);
  }
  __device__ void deposit(unsigned char* smem, int stage, const Staged& s) const {
    a.deposit(a_tile(smem, stage), s.a);
    b.deposit(b_tile(smem, stage), s.b);
  }
};

}  // namespace gemmforge::sm80
