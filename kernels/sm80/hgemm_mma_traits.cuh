// Every compile-time constant of one sm80-family instantiation (mma.sync + cp.async), derived
// from the knobs of an Sm80Config (src/core/sm80_config.hpp), and the invariants that make it
// valid. The host rules in src/core/sm80_config.cpp say the same things with reasons; these
// static_asserts are the backstop.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::sm80 {

// A tile of fp16 in shared memory, stored as rows of 16-byte chunks (8 elements) with the chunk
// index XOR-swizzled per row, so the 8 row addresses of one ldmatrix (8 consecutive rows, the
// same logical chunk) fall in 8 different 16-byte bank groups, and the cp.async writes of 8
// consecutive chunks fill one 128-byte line. Rows shorter than 128 bytes share a line: the
// swizzle then changes every kRowsPerLine rows and only spans the chunks a row has.
template <int kRows_, int kChunksPerRow_>
struct SwizzledTile {
  static constexpr int kRows = kRows_, kChunksPerRow = kChunksPerRow_;
  static constexpr int kBytes = kRows * kChunksPerRow * 16;
  static constexpr int kRowsPerLine = kChunksPerRow >= 8 ? 1 : 8 / kChunksPerRow;
  static constexpr int kSwizzleSpan = kChunksPerRow >= 8 ? 8 : kChunksPerRow;

  // The XOR mask of a row; it repeats every 8 lines, so rows 16 apart (mma tiles) share it.
  __device__ static constexpr int row_mask(int row) { return (row / kRowsPerLine) % kSwizzleSpan; }
  __device__ static constexpr int offset(int row, int chunk) {
    return (row * kChunksPerRow + (chunk ^ row_mask(row))) * 16;
  }
  static_assert((kChunksPerRow & (kChunksPerRow - 1)) == 0, "rows are a power-of-two number of 16-byte chunks");
  static_assert(kRows * kChunksPerRow % 8 == 0, "the tile is whole 128-byte lines, so the next one starts on a line");
};

// std::conditional without <type_traits> (NVRTC compiles these headers with no include path).
template <bool kFirst, class A, class B>
struct Select {
  using type = A;
};
template <class A, class B>
struct Select<false, A, B> {
  using type = B;
};

// Knobs: a struct with static constexpr members kBlockM, kBlockN, kBlockK, kWarpsM, kWarpsN,
// kStages, kVec16, kF32Acc, kBNMajor (the JIT writes one per config).
template <class Knobs>
struct HgemmMmaTraits : Knobs {
  using Knobs::kBlockM, Knobs::kBlockN, Knobs::kBlockK, Knobs::kWarpsM, Knobs::kWarpsN, Knobs::kStages,
      Knobs::kVec16, Knobs::kF32Acc, Knobs::kBNMajor;

  static constexpr int kWarps = kWarpsM * kWarpsN;
  static constexpr int kThreads = kWarps * 32;

  // The mma.sync shape, and how each warp's part of the CTA tile divides into it.
  static constexpr int kMmaTileM = 16, kMmaTileN = 8, kMmaTileK = 16;
  static constexpr int kWarpTileM = kBlockM / kWarpsM, kWarpTileN = kBlockN / kWarpsN;
  static constexpr int kMmaM = kWarpTileM / kMmaTileM;  // mma tiles per warp along M
  static constexpr int kMmaN = kWarpTileN / kMmaTileN;  // ... along N
  static constexpr int kKSteps = kBlockK / kMmaTileK;   // mma k-steps per stage
  static constexpr int kAccRegs = kF32Acc ? 4 : 2;      // accumulator registers per mma tile

  // A global load moves one 16-byte chunk: 8 fp16 elements, in one cp.async (vec16) or eight
  // guarded 2-byte loads (the scalar path, for any K, N and alignment).
  static constexpr int kChunkElems = 8;

  // Shared-memory tiles of one stage. A: BM rows of BK (K-major). B in tn: BN rows of BK
  // (K-major); in nn: BK rows of BN (N-major), read with ldmatrix.trans.
  using ATile = SwizzledTile<kBlockM, kBlockK / kChunkElems>;
  using BTile = typename Select<kBNMajor, SwizzledTile<kBlockK, kBlockN / kChunkElems>,
                                SwizzledTile<kBlockN, kBlockK / kChunkElems>>::type;
  static constexpr int kAChunks = kBlockM * kBlockK / kChunkElems;  // per stage
  static constexpr int kBChunks = kBlockN * kBlockK / kChunkElems;
  static constexpr int kAChunksPerThread = (kAChunks + kThreads - 1) / kThreads;
  static constexpr int kBChunksPerThread = (kBChunks + kThreads - 1) / kThreads;
  static constexpr int kStageBytes = ATile::kBytes + BTile::kBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;

  // Consecutive CTAs walk a band of kGroupM tile rows column by column, so the A rows and B
  // columns a wave reads are shared through L2.
  static constexpr int kGroupM = 8;

  static_assert(kWarps >= 1 && kWarps <= 8, "1 to 8 warps per CTA");
  static_assert(kBlockM % kWarpsM == 0 && kBlockN % kWarpsN == 0, "warps split the CTA tile evenly");
  static_assert(kWarpTileM % kMmaTileM == 0 && kWarpTileM > 0, "a warp tile is whole 16-row mma tiles");
  static_assert(kWarpTileN % kMmaTileN == 0 && kWarpTileN > 0, "a warp tile is whole 8-column mma tiles");
  static_assert(kBlockK % 32 == 0, "block_k is whole 64-byte chunk rows and whole mma k-steps");
  static_assert(kBlockN % kChunkElems == 0, "B rows in nn are whole 16-byte chunks");
  static_assert(kStages >= 2, "a ring needs one stage to fill while another is read");
  static_assert(kVec16 || kStages == 2,
                "the scalar path stages one k-block through registers; more stages add nothing");
  static_assert(kSmemBytes <= 166912, "at most 163 KB of shared memory per CTA (A100; H100 allows 227 KB)");
};

}  // namespace gemmforge::sm80
