// The dynamic walk (KernelConfig::dynamic_walk; launches with kFlagDynamicWalk): a cluster takes
// its next tile when it is ready for one, from a counter in global memory, instead of every
// `clusters`-th tile of the static walk (tile_scheduler.cuh).
//
// Why: L2's request coalescer serves two SMs' requests for the same sectors once when they meet
// there. In the static walk a cluster's tiles are fixed, and the clusters of neighbouring tiles
// (which share an A or B box) drift apart within a few tiles, so their requests no longer meet:
// our 128x176 ping-pong 2x1 build got 1.2-2.2 M sectors merged on 8192x8192x1024, cuBLAS's
// kernel of the same tile, whose clusters take tiles from an atomic counter, 10.9 M
// (bench/NOTES.md, sessions 45-46). Tiles taken from a counter start in walk order, so the ones
// that start together are neighbours and read their shared boxes at the same time.
//
// How: one thread of the cluster's first CTA (warp 1 of the producer warpgroup) is the feed. It
// publishes unit indices into a ring of feed_slots() slots in every CTA of the cluster: the first
// is the cluster's index; each next one it takes with an atomic add on the counter (plus the
// number of clusters) when the CTA's producer starts the unit before it, so the atomic's latency
// hides behind that unit's loads and a cluster holds at most one tile ahead of its producer. (A
// feed that took its next tile as soon as a slot was free ran up to four tiles ahead: where 66
// clusters shared 256 tiles it dealt them all at the start, and a cooperative 128x256 build was
// 20% slower than its static twin there: bench/NOTES.md, session 46.) Every reader (the producer
// thread and each consumer warp of every CTA; FeedReader, feed_reader.cuh, in the tile
// scheduler's cursor) takes each index in order and frees its slot on the first CTA's empty
// barrier. An index past the last unit ends the walk; each cluster takes exactly one, so a launch
// takes `units` indices in all, and the thread that gets the last one (units - 1) sets the counter
// back to zero for the next launch on the stream. The workspace is zeroed when made
// (src/runtime/sm90_kernel.cpp), like split-K's counters.
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/global.cuh"
#include "ptx/mbarrier.cuh"
#include "sm90/feed_reader.cuh"
#include "sm90/pipeline.cuh"

namespace gemmforge::sm90 {

// The threads that take each published index in one CTA: the producer and every consumer warp.
template <class T>
__device__ constexpr int feed_readers() {
  return 1 + 4 * T::kConsumers;
}

// Thread 0, with the stage ring's barriers (before their fence and cluster barrier).
template <class T>
__device__ inline void init_feed(const SharedStorage<T>& smem) {
  for (int s = 0; s < feed_slots(); ++s) {
    ptx::mbarrier_init(smem.feed_full(s), 1);  // the feed's arrival (with the slot's 8 bytes from another CTA)
    ptx::mbarrier_init(smem.feed_empty(s), feed_readers<T>() * T::kClusterSize);  // used in rank 0 only
  }
  ptx::mbarrier_init(smem.feed_started(), 1);  // the rank-0 producer, as it takes each index
}

// The feed: one thread of the cluster's rank-0 CTA, for the whole launch.
template <class T>
__device__ inline void feed_units(const SharedStorage<T>& smem, ptx::u32* counter, int units) {
  using namespace ptx;
  const int clusters = int(gridDim.x) / T::kClusterSize;
  int u = int(blockIdx.x) / T::kClusterSize;
  for (int i = 0;; ++i) {
    if (i > 0) {  // the next tile, taken when the producer starts the one before it
      mbarrier_wait(smem.feed_started(), u32(i - 1) & 1u);
      const u32 taken = relaxed_add_gpu(counter, 1u);
      if (taken == u32(units - 1)) atomicExch(counter, 0u);  // the launch's last take: reset for the next
      u = int(taken) + clusters;
    }
    const int s = i % feed_slots();
    const u32 lap = u32(i / feed_slots()) & 1u;
    mbarrier_wait(smem.feed_empty(s), lap ^ 1u);  // a fresh barrier counts as freed
    for (u32 cta = 0; cta < u32(T::kClusterSize); ++cta) {
      if (cta == 0) {  // this CTA: a store its own barrier's arrival releases
        *reinterpret_cast<volatile u64*>(smem.feed_slot(s)) = u64(u);
        mbarrier_arrive(smem.feed_full(s));
      } else {
        const u32 bar = map_shared_to_rank(smem_addr(smem.feed_full(s)), cta);
        mbarrier_arrive_expect_tx_cluster(bar, 8);
        store_async_cluster(map_shared_to_rank(smem_addr(smem.feed_slot(s)), cta), u64(u), bar);
      }
    }
    if (u >= units) {
      // The CTA stays until every reader freed the last index and the (up to) three before it:
      // the arrivals release at CTA scope only, so the last one landing would not order the
      // earlier ones on other slots, and no arrival may reach this CTA after it left.
      for (int j = i; j >= 0 && j > i - feed_slots(); --j)
        mbarrier_wait(smem.feed_empty(j % feed_slots()), u32(j / feed_slots()) & 1u);
      return;
    }
  }
}

}  // namespace gemmforge::sm90
