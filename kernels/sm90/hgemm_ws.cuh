// Warp-specialized Hopper HGEMM, C[M×N] = A[M×K] · B, A K-major. B is N×K (layout tn, K-major,
// wgmma's native B) or K×N (layout nn, N-major: TMA loads 64-column blocks of it and wgmma reads
// them with its transpose bit, so no transposing copy is ever made).
//
// One producer warpgroup (a single elected thread) streams A and B tiles with TMA into a ring
// of stages (pipeline.cuh); one or two consumer warpgroups run wgmma on them (mainloop.cuh) and
// write C (epilogue.cuh). Consumers are cooperative (they split each tile's rows), ping-pong
// (they take alternate tiles) or k-split (they take alternate k-blocks of each tile and the
// first adds the second's sums, ksplit_exchange.cuh). CTAs are persistent over output tiles, optionally in two-CTA
// clusters that share one operand through TMA multicast, and may share a tile's K range among
// CTAs (split-K or stream-K, tile_scheduler.cuh; reduced in split_k.cuh through a global
// workspace, or through distributed shared memory when the parts are one cluster's CTAs). Every
// constant is in HgemmTraits.
//
// This header is compiled by NVRTC (one instantiation per KernelConfig, see
// src/core/kernel_config.cpp) and by nvcc for tests. The body is a __device__ function so the
// JIT can wrap it in an extern "C" kernel with a fixed name.
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/grid_dependency.cuh"
#include "ptx/named_barrier.cuh"
#include "ptx/setmaxnreg.cuh"
#include "sm90/epilogue.cuh"
#include "sm90/hgemm_traits.cuh"
#include "sm90/ksplit_exchange.cuh"
#include "sm90/mainloop.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/split_k.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/trace.cuh"
#include "sm90/unit_feed.cuh"

namespace gemmforge::sm90 {

template <class T>
__device__ inline void hgemm_body(const ptx::TensorMap& tmap_a, const ptx::TensorMap& tmap_b,
                                  const ptx::TensorMap& tmap_c, ptx::u16* C, int M, int N, int K, int group_m,
                                  int splits, int flags, ptx::u32* workspace) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using namespace ptx;
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const SharedStorage<T> smem(smem_raw);
  if (threadIdx.x == 0) {
    trace::cta(trace::kEntryNs, trace::nanoseconds());
    trace::cta(trace::kEntryClock, trace::clock());
    trace::cta(trace::kSmId, trace::sm_id());
  }
  // The tensor maps are kernel parameters, never written by an earlier kernel: fetching them can
  // overlap the previous kernel's tail (with PDL) instead of delaying the first loads after it.
  if (threadIdx.x == 0) {
    tma_prefetch_descriptor(&tmap_a);
    tma_prefetch_descriptor(&tmap_b);
  }
  if constexpr (dynamic_walk_of<T>())
    if (threadIdx.x == 0) init_feed<T>(smem);  // made visible with the ring's barriers
  init_ring<T>(smem);
  // Sums pushed inside a cluster (split_k.cuh): every CTA's barrier is live before any part pushes
  // into it. The consumers wait for the cluster's arrivals before their walk (long done by its
  // end), the producer warpgroup only before it leaves.
  if constexpr (cluster_push_of<T>())
    if (flags & kFlagClusterReduction) {
      SplitK<T>::expect_pushes(SplitK<T>::push_region(smem.base), int(cluster_cta_rank()), int(cluster_ctas()));
      cluster_arrive_relaxed();
      if (threadIdx.x >= 128) cluster_wait();
    }
  // With PDL this CTA may have started while the previous kernel of the stream still runs: its
  // set-up above overlapped that kernel's tail, and no global memory is touched before this wait.
  // The next kernel may be scheduled at once: it waits for this one's completion in turn.
  const auto wait_for_previous_kernel = [] {
    grid_dependency_wait();
    grid_dependents_launch();
    if (threadIdx.x == 0) trace::cta(trace::kGridWaitClock, trace::clock());
  };
  // The fast walk's divisors (~180 instructions; ~300 when they were double divisions, which after
  // the wait delayed the first loads of every launch by ~0.25 µs: bench/NOTES.md, session 41):
  // its builds make the scheduler, which reads only the launch's parameters, before the wait.
  // Other builds keep the order the shipped tables measured.
  if constexpr (!fast_walk_of<T>()) wait_for_previous_kernel();
  const int k_blocks = (K + T::kBlockK - 1) / T::kBlockK;  // the K tail is zero-filled by TMA
  const SchedulerOf<T> sched(
      M, N, T::kBlockM, T::kBlockN, group_m, k_blocks, splits, (flags & kFlagStreamK) != 0,
      (flags & kFlagClusterReduction) != 0, (flags & kFlagDynamicWalk) != 0);
  if constexpr (fast_walk_of<T>()) wait_for_previous_kernel();
  const u32 rank = T::kClusterSize > 1 ? cluster_cta_rank() : 0u;
  // 0 the producer, 1 and 2 the consumers; broadcast from lane 0 in uniform-warpgroup builds
  // (optional_knobs.cuh). Written inline: a function of its own changed other builds' code.
  const int warpgroup = uniform_warpgroup_of<T>() ? __shfl_sync(0xffffffffu, int(threadIdx.x / 128), 0)
                                                  : int(threadIdx.x / 128);

  if (warpgroup == 0) {
    // With one consumer the register file has room for everyone (65536 / 256 = 256 each), and
    // setmaxnreg.inc below the entry count would be undefined: rebalance only with two.
    if constexpr (T::kConsumers > 1) setmaxnreg_dec<T::kProducerRegs>();
    if (threadIdx.x == 0) produce<T>(smem, tmap_a, tmap_b, sched, rank);
    if constexpr (dynamic_walk_of<T>())
      if (sched.fed && threadIdx.x == 32 && rank == 0) feed_units<T>(smem, workspace, sched.index_units);
  } else {
    if constexpr (T::kConsumers > 1) setmaxnreg_inc<T::kConsumerRegs>();
    const int consumer = warpgroup - 1;
    const int wg_row_offset = whole_tiles_of<T>() ? 0 : consumer * T::kWgRows;
    typename T::AccReg acc[T::kMmaM][T::Mma::kRegs];
    RingPosition pos;
    unsigned epilogue_blocks = 0;  // TMA-store staging buffer parity
    int walked = 0;  // units of this CTA's walk so far
    // A deferred epilogue (epilogue.cuh, epilogue_deferred): the last tile's fp16 pairs and origin, stored while
    // the next unit's first wgmmas run, or after the walk.
    u32 held[T::kMmaM][held_regs<T>()];
    int held_row0 = 0, held_col0 = 0;
    bool holding = false;
    auto store_held = [&] {
      if constexpr (epilogue_deferred<T>())
        if (holding) {
          store_tma<T, held_first_block<T>()>(HeldPairs<T>{held}, smem.epilogue(consumer), tmap_c, consumer, M, N,
                                           held_row0, held_col0, epilogue_blocks);
          holding = false;
        }
    };
    auto cursor = sched.start();
    if constexpr (dynamic_walk_of<T>()) start_feed_reader(cursor.feed, smem, sched.fed, true);
    // The thread that stamps the units this warpgroup takes (trace.cuh; nothing in other builds).
    const bool stamps = threadIdx.x % 128 == 0 && (T::kPingPong || consumer == 0);
    auto stamp_done = [&] {
      if (stamps && (!T::kPingPong || walked % 2 == consumer)) trace::unit(walked, trace::kUnitDone, trace::clock());
    };
    for (WorkUnit w; sched.next(cursor, rank, w); stamp_done(), ++walked) {
      if (T::kPingPong && walked % 2 != consumer) {  // the other warpgroup's unit: skip its stages
        pos.template advance<T::kStages>(w.kb_count);
        continue;
      }
      // Ping-pong main loops take turns: a consumer waits on a stage's full barrier only after the
      // other consumer has waited on every stage of the unit before, so a parity wait can never be
      // satisfied by an older phase of the same barrier. It also keeps one consumer's wgmmas
      // running while the other stores its tile.
      if constexpr (T::kPingPong)
        if (walked > 0) named_barrier_sync(T::kMainloopOrderBarrier + consumer, 256);
      // K-split: each consumer walks its own stages (the ring is even), so its share of the tile
      // starts at the first k-block on a stage of its parity.
      static_assert(!ksplit_of<T>() || !epilogue_deferred<T>(), "k-split's first consumer stores alone, never deferred");
      const int first = ksplit_of<T>() ? int(pos.stage % 2 != consumer) : 0;
      if constexpr (trace::enabled())
        if (stamps) {
          trace::unit(walked, trace::kUnitShape, u64(w.kb_count) | u64(w.parts) << 32);
          trace::unit(walked, trace::kUnitStart, trace::clock());
          // The main loop's first wait, done early: on this warpgroup's own first stage (k-split:
          // the other's may already be a lap further on, with the parity waited for again).
          RingPosition own = pos;
          if (ksplit_of<T>()) own.template advance<T::kStages>(first);
          if (first < w.kb_count) mbarrier_wait(smem.full(own.stage), own.phase);
          trace::unit(walked, trace::kUnitFirstData, trace::clock());
        }
      mma_tile<T>(smem, pos, w.kb_count, wg_row_offset, acc, store_held, stamps ? walked : -1, first);
      if constexpr (ksplit_of<T>()) {
        if (consumer == 1) {
          KSplitExchange<T>::give(smem, acc, walked == 0);
          continue;  // the first consumer owns the tile from here
        }
        KSplitExchange<T>::take(smem, acc, sched.more(cursor));
      }
      if (stamps) trace::unit(walked, trace::kUnitMainDone, trace::clock());
      if constexpr (T::kPingPong)
        if (sched.more(cursor)) named_barrier_arrive(T::kMainloopOrderBarrier + (1 - consumer), 256);
      const int row0 = w.tile_m * T::kBlockM + wg_row_offset, col0 = w.tile_n * T::kBlockN;
      if (w.parts > 1) {  // split-K or stream-K: the tile's units reduce it (split_k.cuh)
        using Split = SplitK<T>;
        const int tile_part = w.reduce_tile * Split::kPartsPerTile + (whole_tiles_of<T>() ? 0 : consumer);
        const int tile_parts = sched.reduce_tiles() * Split::kPartsPerTile;
        const u32 barrier = T::kEpilogueBarrier + u32(consumer);
        if (flags & kFlagClusterReduction) {  // summed after the walk, below; pushed builds finish here
          if constexpr (cluster_push_of<T>())
            Split::push_and_sum(acc, Split::push_region(smem.base), C, M, N, row0, col0);
          else
            Split::stage_for_cluster(acc, smem.a_tile(0), whole_tiles_of<T>() ? 0 : consumer, smem.staged_origin(consumer),
                                     row0, col0);
          continue;
        }
        if (flags & kFlagSlicedReduction) {
          Split::reduce_sliced(acc, workspace, tile_parts, sched.slots_per_tile(), tile_part, w.slot, w.parts, barrier,
                               C, M, N, row0, col0);
          continue;
        }
        if (!Split::reduce_last(acc, workspace, tile_parts, sched.slots_per_tile(), tile_part, w.slot, w.parts,
                                smem.split_flag(consumer), barrier))
          continue;
      }
      if constexpr (ablation::left_out(ablation::kWholeEpilogue)) {
        continue;  // a diagnostic build (ablation.cuh): C is never written
      } else if constexpr (epilogue_deferred<T>()) {
        hold_pairs<T>(acc, held);
        store_tma<T, 0, held_first_block<T>()>(AccumulatorPairs<T>{acc}, smem.epilogue(consumer), tmap_c, consumer, M, N,
                                            row0, col0, epilogue_blocks);
        held_row0 = row0, held_col0 = col0, holding = true;
      } else if constexpr (T::kTmaStore) {
        store_tma<T>(AccumulatorPairs<T>{acc}, smem.epilogue(consumer), tmap_c, consumer, M, N, row0, col0,
                     epilogue_blocks);
      } else {
        store_direct<T>(acc, C, M, N, row0, col0);
      }
    }
    store_held();  // the walk's last tile
    if constexpr (T::kTmaStore)
      if (T::kEpiPerWarp ? lane_id() == 0 : threadIdx.x % 128 == 0)
        tma_store_wait_all<0>();  // the buffers must outlive the stores each issuing thread committed
    if (stamps && consumer == 0) {
      trace::cta(trace::kConsumerEndClock, trace::clock());
      trace::cta(trace::kConsumerEndNs, trace::nanoseconds());
      trace::cta(trace::kUnitsWalked, u64(walked));
    }
  }
  // A CTA leaves only when its partner no longer multicasts into it or arrives on its barriers,
  // and, reducing in a cluster, when no other CTA still reads its partial sums.
  if (cluster_push_of<T>() && (flags & kFlagClusterReduction)) {
    if (threadIdx.x < 128) cluster_wait();  // the producer warpgroup's half of the barrier before the walk
  } else if (flags & kFlagClusterReduction) {
    // Split-K reduced inside a cluster of `splits` CTAs, one unit each (split_k.cuh): once every
    // CTA staged its partial sums, the consumers that took the unit (all of them cooperative, the
    // first ping-pong) sum their slice of the tile: the part is the CTA's rank (the host launches
    // clusters of `splits` consecutive CTAs), the tile's origin is where the walk staged it.
    // Nothing is kept in registers from the walk: values live through it spilled on large tiles.
    cluster_sync();  // releases the staged partial sums, acquires every other CTA's
    const int consumer = warpgroup - 1;
    if (warpgroup > 0 && consumer < T::kStageReaders) {
      const u32* origin = smem.staged_origin(consumer);
      SplitK<T>::sum_slice_in_cluster(smem.a_tile(0), whole_tiles_of<T>() ? 0 : consumer, int(cluster_cta_rank()),
                                      int(cluster_ctas()), C, M, N, int(origin[0]), int(origin[1]));
    }
    // No CTA leaves while another still reads its shared memory. Nothing needs ordering here (the
    // reads above returned: their sums were stored), so the arrival does not wait for this CTA's
    // stores of C to drain, as a release would.
    cluster_arrive_relaxed();
    cluster_wait();
  } else if constexpr (T::kClusterSize > 1 && !lean_cluster_sync_of<T>()) {
    cluster_sync();
  }  // lean: the producer's last waits (pipeline.cuh) saw every partner's arrival land
  if (threadIdx.x == 128) trace::cta(trace::kExitClock, trace::clock());
#else
  // Built for an architecture without wgmma (the sm_80 pass of an AOT build): never launched.
  (void)tmap_a, (void)tmap_b, (void)tmap_c, (void)C, (void)M, (void)N, (void)K, (void)group_m, (void)splits,
      (void)flags, (void)workspace;
#endif
}

}  // namespace gemmforge::sm90
