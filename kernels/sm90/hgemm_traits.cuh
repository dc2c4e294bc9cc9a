// Every compile-time constant of one kernel instantiation, derived from the knobs of a
// KernelConfig (src/core/kernel_config.hpp), and the invariants that make it valid. The host-side
// rules in src/core/kernel_config.cpp check the same things with reasons; these static_asserts
// are the backstop.
#pragma once
#include "ptx/common.cuh"
#include "ptx/wgmma.cuh"
#include "sm90/feed_reader.cuh"
#include "sm90/feed_size.cuh"
#include "sm90/optional_knobs.cuh"

namespace gemmforge::sm90 {

template <bool kF32>
struct AccRegOf {
  using type = float;
};
template <>
struct AccRegOf<false> {
  using type = ptx::u32;  // two fp16 packed
};

// Each consumer warpgroup holds whole tiles (ping-pong: alternate tiles; k-split: alternate
// k-blocks of one tile), not a slice of every tile's rows.
template <class Knobs>
__host__ __device__ constexpr bool whole_tiles_of() {
  return Knobs::kPingPong || ksplit_of<Knobs>();
}
// Warpgroups that store C, each with its own epilogue buffers: every consumer but k-split's
// second (KernelConfig::epilogue_warpgroups on the host).
template <class Knobs>
__host__ __device__ constexpr int storing_warpgroups_of() {
  return ksplit_of<Knobs>() ? 1 : Knobs::kConsumers;
}
// The second consumer's sums in shared memory: a word per accumulator register of its 128
// threads (the whole tile's, as each k-split consumer holds it); 0 without k-split.
template <class Knobs>
__host__ __device__ constexpr int ksplit_exchange_bytes() {
  return ksplit_of<Knobs>() ? Knobs::kBlockM / 64 * ptx::Wgmma<Knobs::kBlockN, Knobs::kF32Acc, Knobs::kBNMajor ? 1 : 0>::kRegs * 128 * 4
                             : 0;
}

// The dynamic walk's feed (feed_size.cuh); nothing in other builds. A function, not an
// HgemmTraits member: a new member would be emitted into every cubin (NVRTC's -default-device)
// and change every build's code.
template <class Knobs>
__host__ __device__ constexpr int feed_bytes() {
  return dynamic_walk_of<Knobs>() ? feed_shared_bytes() : 0;
}

// Knobs: a struct with static constexpr members kBlockM, kBlockN, kStages, kConsumers, kPingPong,
// kClusterM, kClusterN, kMulticast, kTmaStore, kF32Acc, kBNMajor, kSwapAB, and the optional ones
// (optional_knobs.cuh), declared only when set. With kSwapAB the kernel computes Cᵀ: its A is the
// caller's B and its B the caller's A.
template <class Knobs>
struct HgemmTraits : Knobs {
  using Knobs::kBlockM, Knobs::kBlockN, Knobs::kStages, Knobs::kConsumers, Knobs::kPingPong, Knobs::kClusterM,
      Knobs::kClusterN, Knobs::kMulticast, Knobs::kTmaStore, Knobs::kF32Acc, Knobs::kBNMajor, Knobs::kSwapAB;

  static constexpr int kBlockK = 64;                       // one 128-byte swizzle row of fp16
  static constexpr int kMaxSmemBytes = 232448;             // 227 KB: the most a CTA can have
  static constexpr int kThreads = (kConsumers + 1) * 128;  // producer warpgroup + consumers
  static constexpr int kClusterSize = kClusterM * kClusterN;

  // Cooperative: the consumers split each tile's rows. Ping-pong: each consumer owns whole tiles,
  // alternating, so one warpgroup's epilogue runs while the other's wgmmas do. K-split: each
  // holds the whole tile, from every other stage.
  static constexpr int kWgRows = whole_tiles_of<Knobs>() ? kBlockM : kBlockM / kConsumers;
  static constexpr int kMmaM = kWgRows / 64;  // wgmma M-tiles per consumer warpgroup
  static constexpr int kStageReaders = whole_tiles_of<Knobs>() ? 1 : kConsumers;  // warpgroups that read a stage

  // Shared-memory stage: A tile (K-major, BM rows of 128 B) then B tile (tn: BN rows of 128 B;
  // nn: BN/64 blocks of 64 columns × 64 k-rows, each row 128 B).
  static constexpr int kATileBytes = kBlockM * kBlockK * 2;
  static constexpr int kBTileBytes = kBlockN * kBlockK * 2;
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kBColumnBlock = 64;
  static constexpr int kBColumnBlockBytes = kBlockK * kBColumnBlock * 2;

  // Multicast: the CTAs of a cluster row (same tile row, kClusterN of them) share A, those of a
  // cluster column (kClusterM) share B. Each CTA loads its slice of a shared tile (split along the
  // tile's outer dimension) and sends it to every CTA that shares the tile. A CTA's rank is
  // rank_m + kClusterM · rank_n (tile_scheduler.cuh).
  static constexpr bool kMulticastA = kMulticast && kClusterN > 1;
  static constexpr bool kMulticastB = kMulticast && kClusterM > 1;
  static constexpr int kABoxRows = kMulticastA ? kBlockM / kClusterN : kBlockM;
  static constexpr int kBBoxRows = kBNMajor ? (kMulticastB ? kBlockK / kClusterM : kBlockK)  // k-rows per column block
                                            : (kMulticastB ? kBlockN / kClusterM : kBlockN);
  // Arrivals that free a stage: every consumer warp that read it, in every CTA it was sent to.
  // With multicast those are the CTAs that write into this CTA's stages (and whose stages it
  // writes into): its cluster row and column, itself counted once; all of a two-CTA cluster.
  // (No member of its own: NVRTC's -default-device would emit one into every cubin.)
  static constexpr int kEmptyArrivals = kStageReaders * 4 * (kMulticast ? kClusterM + kClusterN - 1 : 1);

  // TMA-store epilogue: each consumer stages its rows of C in shared memory in column blocks of
  // kEpiCols (the widest swizzle that divides BN, so the register-to-smem writes are free of bank
  // conflicts). A sub-tile of more than two blocks is staged whole where shared memory allows (a
  // buffer per block), and one thread stores it: two named barriers per tile, and all of the
  // tile's stores drain while the next tile's wgmmas run (+3.1-7.5% on 128x256 at K = 64-256,
  // bench/NOTES.md, session 8). Otherwise two buffers alternate, block by block (with two blocks
  // or fewer they hold the whole tile anyway; there the one-wait path measured 0.9% slower).
  // With one consumer each warp stages and stores its own 16-row slices (kEpiPerWarp), with no
  // named barrier: +4-5% on 64x64 and 64x128 tiles; with two consumers the same measured 3.5-4.5%
  // slower on 128x256 and 256x128, level in ping-pong (bench/NOTES.md, session 9).
  static constexpr int kEpiCols = kBlockN % 64 == 0 ? 64 : (kBlockN % 32 == 0 ? 32 : 16);
  static constexpr int kEpiRowBytes = kEpiCols * 2;  // = the swizzle span: 128, 64 or 32 bytes
  static constexpr int kEpiBufferBytes = kWgRows * kEpiRowBytes;
  static constexpr int kEpiBlocks = kBlockN / kEpiCols;

  static constexpr int kStagesBytes = kStages * kStageBytes;
  static constexpr int kBarrierBytes = 2 * kStages * 8;
  static constexpr int kSplitFlagBytes = 16;  // a word per consumer (split_k.cuh), 16 for alignment
  // (K-split: with the second consumer's hand-over words after the epilogue buffers, and only the
  // first consumer's epilogue buffers.)
  static constexpr int kSmemBytesBesideEpilogue =
      1024 /* alignment slack */ + kStagesBytes + ksplit_exchange_bytes<Knobs>() + kBarrierBytes + kSplitFlagBytes +
      feed_bytes<Knobs>();
  static constexpr bool kEpiWholeTile =
      kEpiBlocks > 2 &&
      kSmemBytesBesideEpilogue + storing_warpgroups_of<Knobs>() * kEpiBlocks * kEpiBufferBytes <= kMaxSmemBytes;
  static constexpr int kEpiBuffers = kEpiWholeTile ? kEpiBlocks : 2;
  static constexpr bool kEpiPerWarp = kTmaStore && !kEpiWholeTile && storing_warpgroups_of<Knobs>() == 1;
  static constexpr int kEpiStoreRows = kEpiPerWarp ? 16 : kWgRows;  // the rows of one TMA store
  static constexpr int kEpiBytesPerWg = kEpiBuffers * kEpiBufferBytes;
  static constexpr int kEpiBytes = kTmaStore ? storing_warpgroups_of<Knobs>() * kEpiBytesPerWg : 0;
  static constexpr int kSmemBytes = kSmemBytesBesideEpilogue + kEpiBytes;

  // Named barrier ids: each consumer's epilogue (2), the ping-pong hand-over of the main loop
  // from one consumer to the other (2), and the stage readers' last wgmma before a reduction
  // inside a cluster reuses the ring (split_k.cuh).
  static constexpr unsigned kEpilogueBarrier = 1, kMainloopOrderBarrier = 3, kRingRetiredBarrier = 5;

  // Registers per thread after rebalancing (two consumers only): 128 × 40 + 256 × 232 ≤ 65536.
  static constexpr int kProducerRegs = 40;
  static constexpr int kConsumerRegs = 232;
  using Mma = ptx::Wgmma<kBlockN, kF32Acc, kBNMajor ? 1 : 0>;
  using AccReg = typename AccRegOf<kF32Acc>::type;

  static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumer warpgroups");
  static_assert(!kPingPong || kConsumers == 2, "ping-pong alternates two consumer warpgroups");
  static_assert(!ksplit_of<Knobs>() || (kConsumers == 2 && !kPingPong),
                "k-split alternates k-blocks between two consumer warpgroups");
  static_assert(!ksplit_of<Knobs>() || (kStages % 2 == 0 && kStages >= 4),
                "k-split gives each consumer every other stage, and a consumer frees one only after waiting for its "
                "next: an even ring of 4 or more");
  static_assert(kWgRows % 64 == 0 && kWgRows >= 64, "each consumer warpgroup takes whole 64-row wgmma tiles");
  static_assert(kBlockN % 8 == 0 && kBlockN >= 8 && kBlockN <= 256, "wgmma N is 8..256 in steps of 8");
  static_assert(kBlockM <= 256 && kBlockN <= 256, "a TMA box side is at most 256 elements");
  static_assert(kStages >= 2, "a pipeline needs at least two stages");
  static_assert(!kBNMajor || kBlockN % kBColumnBlock == 0, "N-major B tiles are whole 64-column blocks");
  static_assert((kClusterM == 1 || kClusterM == 2 || kClusterM == 4 || kClusterM == 8) &&
                    (kClusterN == 1 || kClusterN == 2 || kClusterN == 4 || kClusterN == 8) && kClusterSize <= 8,
                "cluster sides of 1, 2, 4 or 8 CTAs, at most 8 in all (the portable cluster size)");
  static_assert(!kMulticast || kClusterSize > 1, "multicast needs a cluster of more than one CTA");
  static_assert(kMulticast || kClusterSize == 1, "a cluster without multicast shares nothing");
  static_assert(kABoxRows % 8 == 0 && (kBNMajor || kBBoxRows % 8 == 0),
                "a CTA's slice of a shared K-major tile must be whole 8-row swizzle atoms");
  static_assert(!kBNMajor || kBBoxRows >= 8, "a CTA's slice of an N-major B tile must be whole 8-k-row swizzle atoms");
  static_assert(!kTmaStore || kBlockN % 16 == 0, "TMA-store column blocks are 16, 32 or 64 wide");
  static_assert(!kSwapAB || (!kBNMajor && !kTmaStore), "swap-AB: both operands K-major, C stored transposed directly");
  static_assert(kStageBytes % 1024 == 0 && kEpiBufferBytes % 1024 == 0, "swizzled tiles start on 1024-byte boundaries");
  static_assert(kSmemBytes <= kMaxSmemBytes, "227 KB of shared memory per CTA at most");
  static_assert(kMmaM * Mma::kRegs <= 192, "accumulators must fit the consumer register budget");
};

}  // namespace gemmforge::sm90
