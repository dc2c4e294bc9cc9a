// The shared-memory stage ring between the TMA producer and the wgmma consumers: where each
// stage lives, the full/empty mbarriers that hand it over, and the producer's load loop.
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "sm90/ablation.cuh"
#include "sm90/hgemm_traits.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/trace.cuh"

namespace gemmforge::sm90 {

// Position in the ring: which stage, and the parity of the phase that stage is in.
struct RingPosition {
  int stage = 0;
  ptx::u32 phase = 0;

  template <int kStages>
  __device__ void advance(int steps = 1) {
    const int next = stage + steps;
    phase ^= ptx::u32(next / kStages) & 1u;
    stage = next % kStages;
  }
};

template <class T>
struct SharedStorage {
  unsigned char* base;  // 1024-byte aligned

  // Aligned by pointer arithmetic on `raw`, never through an integer: the compiler then still
  // knows every pointer below is in shared memory and emits 32-bit shared stores and loads. A
  // round trip through u64 made it emit generic 64-bit ones, with an address add pair each.
  __device__ explicit SharedStorage(unsigned char* raw) : base(raw + ((1024u - (ptx::smem_addr(raw) & 1023u)) & 1023u)) {}
  __device__ unsigned char* a_tile(int s) const { return base + s * T::kStageBytes; }
  __device__ unsigned char* b_tile(int s) const { return base + s * T::kStageBytes + T::kATileBytes; }
  __device__ unsigned char* epilogue(int consumer) const {
    return base + T::kStagesBytes + consumer * T::kEpiBytesPerWg;
  }
  // K-split: where the second consumer hands its partial sums to the first (ksplit_exchange.cuh).
  __device__ typename T::AccReg* exchange() const {
    return reinterpret_cast<typename T::AccReg*>(base + T::kStagesBytes + T::kEpiBytes);
  }
  __device__ ptx::u64* full(int s) const {
    return reinterpret_cast<ptx::u64*>(base + T::kStagesBytes + T::kEpiBytes + ksplit_exchange_bytes<T>()) + s;
  }
  __device__ ptx::u64* empty(int s) const { return full(T::kStages) + s; }
  // One word per consumer: whether its split-K part arrived last (kernels/sm90/split_k.cuh).
  __device__ ptx::u32* split_flag(int consumer) const {
    return reinterpret_cast<ptx::u32*>(empty(T::kStages)) + consumer;
  }
  // The dynamic walk's feed (unit_feed.cuh), after the split flags: slot s's unit index and its
  // full and empty barriers, and the barrier the producer arrives on as it starts each unit.
  __device__ ptx::u64* feed_slot(int s) const {
    return reinterpret_cast<ptx::u64*>(reinterpret_cast<unsigned char*>(empty(T::kStages)) + T::kSplitFlagBytes) + s;
  }
  __device__ ptx::u64* feed_full(int s) const { return feed_slot(feed_slots()) + s; }
  __device__ ptx::u64* feed_empty(int s) const { return feed_full(feed_slots()) + s; }
  __device__ ptx::u64* feed_started() const { return feed_empty(feed_slots()); }
  // Two words per consumer: the first row and column of the part of a tile it staged for a
  // reduction inside a cluster. The same bytes as the split flags, which such a launch never uses.
  __device__ ptx::u32* staged_origin(int consumer) const {
    return reinterpret_cast<ptx::u32*>(empty(T::kStages)) + 2 * consumer;
  }
};

// A role's place in the dynamic walk's feed (feed_reader.cuh), in builds with it: the slots of
// this CTA, whether the launch uses it, and whether the caller is a consumer (all of its lanes
// take each index; lane 0 frees the slot) or the producer thread, which in the cluster's rank-0
// CTA also tells the feed when it starts a unit.
template <class T>
__device__ inline void start_feed_reader(FeedReader& feed, const SharedStorage<T>& smem, bool launch_uses_it,
                                         bool whole_warp, bool tells_feed = false) {
  feed.start(smem.feed_slot(0), smem.feed_full(0), smem.feed_empty(0), launch_uses_it, whole_warp,
             tells_feed ? smem.feed_started() : nullptr);
}

// Thread 0 initialises the barriers; with clusters every CTA's barriers must be live before any
// peer multicasts into them, hence a cluster-wide sync instead of a CTA one.
template <class T>
__device__ inline void init_ring(const SharedStorage<T>& smem) {
  using namespace ptx;
  if (threadIdx.x == 0) {
    for (int s = 0; s < T::kStages; ++s) {
      mbarrier_init(smem.full(s), 1);  // the local producer's arrive_expect_tx
      mbarrier_init(smem.empty(s), T::kEmptyArrivals);
    }
    fence_barrier_init();
  }
  if constexpr (T::kClusterSize > 1 && lean_cluster_sync_of<T>()) {
    // The fence above releases the initialisation to the cluster: the arrival needs no release of
    // its own, which would wait for every earlier memory operation of every thread.
    cluster_arrive_relaxed();
    cluster_wait();
  } else if constexpr (T::kClusterSize > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }
}

// Multicast masks: the CTAs that share this CTA's A tile (its cluster row: the same rank_m) and
// its B tile (its cluster column: the same rank_n).
template <class T>
__device__ inline ptx::u16 multicast_mask_a(ptx::u32 rank) {
  const ptx::u32 rank_m = cluster_rank_m<T::kClusterM, T::kClusterN>(rank);
  ptx::u32 mask = 0;
#pragma unroll
  for (int j = 0; j < T::kClusterN; ++j) mask |= 1u << (rank_m + ptx::u32(T::kClusterM * j));
  return ptx::u16(mask);
}
template <class T>
__device__ inline ptx::u16 multicast_mask_b(ptx::u32 rank) {
  const ptx::u32 rank_n = cluster_rank_n<T::kClusterM, T::kClusterN>(rank);
  return ptx::u16(((1u << T::kClusterM) - 1u) << (ptx::u32(T::kClusterM) * rank_n));
}

// Frees a stage: one arrival per consumer warp, on this CTA's barrier and, when the stage was
// filled by multicast, on those of the CTAs that write into it (its cluster row for A, its
// column for B), whose producers wait for it before refilling their slices.
template <class T>
__device__ inline void release_stage(const SharedStorage<T>& smem, int stage) {
  using namespace ptx;
  if (lane_id() != 0) return;
  if constexpr (T::kMulticast && T::kClusterSize == 2) {
#pragma unroll
    for (u32 cta = 0; cta < u32(T::kClusterSize); ++cta) mbarrier_arrive_cluster(smem.empty(stage), cta);
  } else if constexpr (T::kMulticast) {
    const u32 rank = cluster_cta_rank();
    const u32 rank_m = cluster_rank_m<T::kClusterM, T::kClusterN>(rank);
    const u32 rank_n = cluster_rank_n<T::kClusterM, T::kClusterN>(rank);
#pragma unroll
    for (int j = 0; j < T::kClusterN; ++j) mbarrier_arrive_cluster(smem.empty(stage), rank_m + u32(T::kClusterM * j));
#pragma unroll
    for (int i = 0; i < T::kClusterM; ++i)
      if (u32(i) != rank_m) mbarrier_arrive_cluster(smem.empty(stage), u32(i) + u32(T::kClusterM) * rank_n);
  } else {
    mbarrier_arrive(smem.empty(stage));
  }
}

// The producer: one thread streams every (unit, k-block) of this CTA's walk into the ring.
template <class T>
__device__ inline void produce(const SharedStorage<T>& smem, const ptx::TensorMap& tmap_a, const ptx::TensorMap& tmap_b,
                               const SchedulerOf<T>& sched, ptx::u32 rank) {
  using namespace ptx;
  // Two-CTA clusters share one operand with both CTAs; larger ones each operand along a side.
  const u16 mask_a = T::kClusterSize == 2 ? u16(0b11) : multicast_mask_a<T>(rank);
  const u16 mask_b = T::kClusterSize == 2 ? u16(0b11) : multicast_mask_b<T>(rank);
  const int slice_a = int(cluster_rank_n<T::kClusterM, T::kClusterN>(rank));  // this CTA's slice of A
  const int slice_b = int(cluster_rank_m<T::kClusterM, T::kClusterN>(rank));  // and of B
  RingPosition pos;
  u64 wait_clocks = 0, last_issue = 0;  // for trace.cuh's stamps only: always 0 in other builds
  bool issued = false;
  int walked = 0;  // the walk's units so far, for trace.cuh's k-block stamps only
  auto cursor = sched.start();
  if constexpr (dynamic_walk_of<T>()) start_feed_reader(cursor.feed, smem, sched.fed, false, rank == 0);
  for (WorkUnit w; sched.next(cursor, rank, w); ++walked) {
    const int tm = w.tile_m, tn = w.tile_n;
    for (int kb = w.kb_begin; kb < w.kb_begin + w.kb_count; ++kb) {
      const int s = pos.stage;
      const u64 wait_start = trace::clock();
      mbarrier_wait(smem.empty(s), pos.phase ^ 1);  // a fresh barrier counts as released
      wait_clocks += trace::clock() - wait_start;
      if (ablation::left_out(ablation::kLoads)) {  // diagnostic build: the stage "fills" at once
        mbarrier_arrive(smem.full(s));
        pos.template advance<T::kStages>();
        continue;
      }
      // Full stage bytes land in every CTA: its own slices and those the CTAs sharing its tiles send.
      mbarrier_arrive_expect_tx(smem.full(s), T::kStageBytes);
      const int k0 = kb * T::kBlockK;
      if constexpr (T::kMulticastA) {
        const int half = slice_a * T::kABoxRows;
        tma_load_2d_multicast(smem.a_tile(s) + half * 128, &tmap_a, smem.full(s), k0, tm * T::kBlockM + half, mask_a);
      } else {
        tma_load_2d(smem.a_tile(s), &tmap_a, smem.full(s), k0, tm * T::kBlockM);
      }
      if constexpr (T::kBNMajor) {
        const int half = T::kMulticastB ? slice_b * T::kBBoxRows : 0;  // k-rows
#pragma unroll
        for (int j = 0; j < T::kBlockN / T::kBColumnBlock; ++j) {
          unsigned char* dst = smem.b_tile(s) + j * T::kBColumnBlockBytes + half * 128;
          const int n0 = tn * T::kBlockN + j * T::kBColumnBlock;
          if constexpr (T::kMulticastB) tma_load_2d_multicast(dst, &tmap_b, smem.full(s), n0, k0 + half, mask_b);
          else tma_load_2d(dst, &tmap_b, smem.full(s), n0, k0);
        }
      } else {
        if constexpr (T::kMulticastB) {
          const int half = slice_b * T::kBBoxRows;
          tma_load_2d_multicast(smem.b_tile(s) + half * 128, &tmap_b, smem.full(s), k0, tn * T::kBlockN + half, mask_b);
        } else {
          tma_load_2d(smem.b_tile(s), &tmap_b, smem.full(s), k0, tn * T::kBlockN);
        }
      }
      if constexpr (trace::enabled()) {
        last_issue = trace::clock();
        trace::kblock(walked, kb - w.kb_begin, trace::kKbLoaded, last_issue);
        if (!issued) trace::cta(trace::kProducerFirstClock, last_issue);
        issued = true;
      }
      pos.template advance<T::kStages>();
    }
  }
  // Lean cluster sync: the CTA leaves without an end-of-kernel cluster barrier, so it waits here
  // until every stage was freed once more, remote arrivals of the partners it multicast to
  // included: after that no partner arrives on its barriers, and every box it sent has landed.
  if constexpr (T::kClusterSize > 1 && lean_cluster_sync_of<T>())
    for (int i = 0; i < T::kStages; ++i) {
      mbarrier_wait(smem.empty(pos.stage), pos.phase ^ 1);
      pos.template advance<T::kStages>();
    }
  trace::cta(trace::kProducerLastClock, last_issue);
  trace::cta(trace::kProducerWaitClocks, wait_clocks);
}

}  // namespace gemmforge::sm90
