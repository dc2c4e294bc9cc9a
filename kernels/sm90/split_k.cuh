// Reducing a tile whose K range several units computed (split-K parts, or stream-K shares),
// inside one launch and deterministically: every element is summed in slot order 0, 1, ...,
// whichever unit finishes first. Every unit first writes its partial sums to its own slot of a
// workspace and arrives on the tile's counter. Then either
//   - sliced: every unit waits until all have arrived, sums one slice of the tile's elements and
//     stores it, so no SM reads more than about one partial tile; every unit of a tile must be
//     resident at once, which a persistent grid guarantees (the host's rule); or
//   - last: the unit that arrives last sums every slot and stores the whole tile; nobody waits, so
//     it suits any launch, at the cost of one SM reading all partial tiles.
// The last to leave resets the counters to zero for the next launch.
//
// Or, with no workspace at all (stage_for_cluster, sum_slice_in_cluster): the parts of a tile are the CTAs of one
// cluster, each with a single unit. Each writes its partial sums into its own (now idle) stage
// ring, one cluster barrier publishes them, and each CTA sums its slice of the tile from every
// CTA's shared memory in rank order and stores it. On-chip round trips replace the global ones.
//
// Workspace (zeroed once when allocated; every launch leaves its counters at zero again):
//   counters: arrivals, then departures, one u32 each per (reduced tile, warpgroup part), padded
//             to 256 bytes;
//   partials: per (reduced tile, part) `slots_per_tile` slots of kSlotPairs 64-bit pairs, in
//             which a warpgroup's thread t keeps its accumulator pairs at t, t + 128, ...
// The host sizes it with the same formula (src/core/kernel_config.cpp).
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/global.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/named_barrier.cuh"
#include "sm90/epilogue.cuh"
#include "sm90/hgemm_traits.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/trace.cuh"
#include "sm90/work_division.cuh"

namespace gemmforge::sm90 {

template <class T>
struct SplitK {
  using AccReg = typename T::AccReg;
  using Acc = AccReg[T::kMmaM][T::Mma::kRegs];
  // Warpgroups that each own a slice of a tile's rows (cooperative) or the whole tile (ping-pong;
  // k-split's first, once it added the second's sums).
  static constexpr int kPartsPerTile = T::kStageReaders;
  static constexpr int kPairs = T::kMmaM * T::Mma::kRegs / 2;  // 64-bit accumulator pairs per thread
  static constexpr int kSlotPairs = kPairs * 128;
  // Loads in flight in a sum: kChunk pairs of kBatch slots at once (small tiles have registers to
  // spare; large ones must stay near their accumulators: with every pair's load in flight at
  // once the compiler spilled them).
  static constexpr int kChunk = kPairs <= 32 && kPairs % 16 == 0 ? 16 : (kPairs % 8 == 0 ? 8 : (kPairs % 4 == 0 ? 4 : 2));
  static constexpr int kBatch = kPairs <= 32 ? 4 : (kPairs <= 64 ? 2 : 1);
  static constexpr int kClusterBatch = 4;  // other CTAs' pairs in flight at once (reduce_in_cluster)
  static constexpr int kSliceChunk = kPairs <= 64 ? 4 : 2, kSliceBatch = kPairs <= 32 ? 8 : (kPairs <= 64 ? 4 : 2);
  // The lean finish (reduce_sliced_lean) is built only into kernels built for split launches
  // through global memory (parts apart, tile_scheduler.cuh). Other builds keep the earlier finish
  // (reduce_sliced), token for token: their code, and so the tuned measurements of every kernel
  // the shipped table serves, stay as they were (`gemmforge db carry` moves a measurement only
  // where the code is unchanged). A whole-grid tune can then give every build the lean one.
  // (Functions, not constexpr variables: NVRTC's -default-device would make each variable a
  // device global in every kernel's cubin, and so change every build's code.)
  static __device__ constexpr bool lean_finish() { return parts_apart_of<T>(); }
  // The lean finish sizes a one-consumer tile's batches to the parts: up to slice_loads() loads per
  // thread in flight, every part's at once where they fit, so one round trip to L2 serves a slice
  // of up to slice_loads() / parts pairs (two of 16 parts took 1.42 us, one 0.87: session 14). Large
  // tiles keep fewer (their accumulators stay live through it), and at most slice_chunk_max() pairs
  // are summed at once (more spilled 64x128). Two-consumer kernels keep the fixed batches above:
  // their consumers' register budget is set by setmaxnreg, and more loads spilled them. So do
  // tiles narrower than 64x64: sized batches took 64x16 and 64x32 from 128 registers to 168, and
  // their in-cluster launches from two CTAs an SM to one.
  static __device__ constexpr int slice_loads() { return kPairs <= 32 ? 32 : (kPairs <= 64 ? 16 : 4); }
  static __device__ constexpr int slice_chunk_max() { return kPairs < 4 ? kPairs : 4; }
  static_assert(T::Mma::kRegs % 2 == 0 && kPairs % kChunk == 0, "accumulators are moved in pairs");

  // Pair c of a thread's accumulators (registers 2p and 2p + 1 of wgmma tile c / (kRegs / 2)).
  static __device__ AccReg& pair_lo(Acc& acc, int c) { return acc[c / (T::Mma::kRegs / 2)][c % (T::Mma::kRegs / 2) * 2]; }
  static __device__ AccReg& pair_hi(Acc& acc, int c) { return acc[c / (T::Mma::kRegs / 2)][c % (T::Mma::kRegs / 2) * 2 + 1]; }

  static __device__ int counter_words(int tile_parts) { return (2 * tile_parts + 63) / 64 * 64; }
  static __device__ ptx::u32* arrivals(ptx::u32* workspace, int tile_part) { return workspace + tile_part; }
  static __device__ ptx::u32* departures(ptx::u32* workspace, int tile_parts, int tile_part) {
    return workspace + tile_parts + tile_part;
  }
  // Slot 0 of (reduced tile, part) `tile_part`, at this thread's first pair.
  static __device__ ptx::u64* slots(ptx::u32* workspace, int tile_parts, int slots_per_tile, int tile_part) {
    return reinterpret_cast<ptx::u64*>(workspace + counter_words(tile_parts)) +
           size_t(tile_part) * slots_per_tile * kSlotPairs + threadIdx.x % 128;
  }

  static __device__ ptx::u64 pack(AccReg lo, AccReg hi) {
    if constexpr (T::kF32Acc) return ptx::u64(__float_as_uint(lo)) | (ptx::u64(__float_as_uint(hi)) << 32);
    else return ptx::u64(lo) | (ptx::u64(hi) << 32);
  }
  static __device__ void set(AccReg& lo, AccReg& hi, ptx::u64 v) {
    if constexpr (T::kF32Acc) lo = __uint_as_float(ptx::u32(v)), hi = __uint_as_float(ptx::u32(v >> 32));
    else lo = ptx::u32(v), hi = ptx::u32(v >> 32);
  }
  static __device__ void add(AccReg& lo, AccReg& hi, ptx::u64 v) {
    if constexpr (T::kF32Acc) lo += __uint_as_float(ptx::u32(v)), hi += __uint_as_float(ptx::u32(v >> 32));
    else lo = ptx::add_f16x2(lo, ptx::u32(v)), hi = ptx::add_f16x2(hi, ptx::u32(v >> 32));
  }

  // This unit's accumulators into its slot; then the warpgroup arrives (thread 0). The barrier
  // orders every thread's stores before thread 0's release at gpu scope (release is cumulative).
  static __device__ ptx::u32 publish(Acc& acc, ptx::u32* arrive, ptx::u64* slots, int slot, ptx::u32 barrier) {
    using namespace ptx;
    u64* mine = slots + size_t(slot) * kSlotPairs;
#pragma unroll
    for (int c = 0; c < kPairs; ++c) store_global_l2(mine + c * 128, pack(pair_lo(acc, c), pair_hi(acc, c)));
    named_barrier_sync(barrier, 128);
    return threadIdx.x % 128 == 0 ? atomic_add_gpu(arrive, 1u) : 0u;
  }

  // The last unit to leave resets both counters (every unit has seen all arrivals by then).
  static __device__ void depart(ptx::u32* arrive, ptx::u32* departed, int parts) {
    if (threadIdx.x % 128 == 0 && ptx::atomic_add_gpu(departed, 1u) == ptx::u32(parts - 1)) {
      *arrive = 0u;
      *departed = 0u;
    }
  }

  // Sums pairs [begin, end) of this thread over the `parts` slots at `all`, in slot order, and
  // stores them; kPairsAtOnce pairs of kPartsAtOnce parts are loaded at once.
  template <int kPairsAtOnce, int kPartsAtOnce>
  static __device__ void sum_and_store(const ptx::u64* all, int begin, int end, int parts, ptx::u16* C, int M, int N,
                                       int row0, int col0) {
    using namespace ptx;
    for (int c0 = begin; c0 < end; c0 += kPairsAtOnce) {
      AccReg lo[kPairsAtOnce], hi[kPairsAtOnce];
      for (int s0 = 0; s0 < parts; s0 += kPartsAtOnce) {
        u64 v[kPartsAtOnce][kPairsAtOnce];
#pragma unroll
        for (int b = 0; b < kPartsAtOnce; ++b)
#pragma unroll
          for (int i = 0; i < kPairsAtOnce; ++i)
            v[b][i] = s0 + b < parts && c0 + i < end ? load_global_l2(all + size_t(s0 + b) * kSlotPairs + (c0 + i) * 128) : 0ull;
#pragma unroll
        for (int b = 0; b < kPartsAtOnce; ++b)
#pragma unroll
          for (int i = 0; i < kPairsAtOnce; ++i) {
            if (s0 + b == 0) set(lo[i], hi[i], v[b][i]);
            else if (s0 + b < parts) add(lo[i], hi[i], v[b][i]);
          }
      }
#pragma unroll
      for (int i = 0; i < kPairsAtOnce; ++i)
        if (c0 + i < end) store_accumulator_pair<T>(c0 + i, lo[i], hi[i], C, M, N, row0, col0);
    }
  }
  // The batch sized to the parts: every part at once, up to slice_loads() loads.
  template <int kParts>
  static __device__ constexpr int slice_batch() { return kParts < slice_loads() ? kParts : slice_loads(); }
  template <int kParts>
  static __device__ constexpr int slice_chunk() {
    return slice_loads() / slice_batch<kParts>() < slice_chunk_max() ? slice_loads() / slice_batch<kParts>()
                                                                       : slice_chunk_max();
  }
  static __device__ void sum_and_store_slice(const ptx::u64* all, int begin, int end, int parts, ptx::u16* C, int M,
                                             int N, int row0, int col0) {
    if constexpr (T::kConsumers > 1 || kPairs < 16)
      sum_and_store<kSliceChunk, kSliceBatch>(all, begin, end, parts, C, M, N, row0, col0);
    else if (parts <= 4) sum_and_store<slice_chunk<4>(), slice_batch<4>()>(all, begin, end, parts, C, M, N, row0, col0);
    else if (parts <= 8) sum_and_store<slice_chunk<8>(), slice_batch<8>()>(all, begin, end, parts, C, M, N, row0, col0);
    else if (parts <= 16) sum_and_store<slice_chunk<16>(), slice_batch<16>()>(all, begin, end, parts, C, M, N, row0, col0);
    else sum_and_store<slice_chunk<32>(), slice_batch<32>()>(all, begin, end, parts, C, M, N, row0, col0);
  }

  // A reduction's phases in SM clocks, summed per CTA (trace.cuh; the first consumer's first
  // thread; nothing in untraced builds).
  static __device__ void stamp_reduction(ptx::u64 publish, ptx::u64 arrive, ptx::u64 wait, ptx::u64 slice,
                                         ptx::u64 depart) {
    if (threadIdx.x == 128) {
      trace::cta_add(trace::kRedPublishClocks, publish);
      trace::cta_add(trace::kRedArriveClocks, arrive);
      trace::cta_add(trace::kRedWaitClocks, wait);
      trace::cta_add(trace::kRedSliceClocks, slice);
      trace::cta_add(trace::kRedDepartClocks, depart);
      trace::cta_add(trace::kRedCalls, 1);
    }
  }

  // The lean finish of a sliced sum (lean_finish() builds): the same steps, waiting less. Nobody
  // needs the old count of an arrival, so it is a reduction that waits for no reply (its release
  // still waits for the partial sums to reach L2); a one-consumer tile loads every part's slice at
  // once; and the departure releases nothing (no one reads C in this launch), so it does not wait
  // for the stores of C. The departure still follows the acquiring poll, so the last to leave
  // resets counters everyone has seen full. Its phases are stamped in traced builds.
  static __device__ void reduce_sliced_lean(Acc& acc, ptx::u32* workspace, int tile_parts, int slots_per_tile,
                                            int tile_part, int slot, int parts, ptx::u32 barrier, ptx::u16* C, int M,
                                            int N, int row0, int col0) {
    using namespace ptx;
    u32* arrive = arrivals(workspace, tile_part);
    u32* departed = departures(workspace, tile_parts, tile_part);
    const u64* all = slots(workspace, tile_parts, slots_per_tile, tile_part);
    const u64 t0 = trace::clock();  // trace.cuh's stamps (0 in untraced builds)
    u64* mine = slots(workspace, tile_parts, slots_per_tile, tile_part) + size_t(slot) * kSlotPairs;
#pragma unroll
    for (int c = 0; c < kPairs; ++c) store_global_l2(mine + c * 128, pack(pair_lo(acc, c), pair_hi(acc, c)));
    named_barrier_sync(barrier, 128);  // every thread's stores before thread 0's release (cumulative)
    const u64 t1 = trace::clock();
    if (threadIdx.x % 128 == 0) release_add_gpu(arrive, 1u);
    const u64 t2 = trace::clock();
    if (threadIdx.x % 128 == 0)
      while (load_acquire_gpu(arrive) < u32(parts)) nanosleep(32);
    named_barrier_sync(barrier, 128);
    const u64 t3 = trace::clock();
    sum_and_store_slice(all, slot * kPairs / parts, (slot + 1) * kPairs / parts, parts, C, M, N, row0, col0);
    const u64 t4 = trace::clock();
    if (threadIdx.x % 128 == 0 && relaxed_add_gpu(departed, 1u) == u32(parts - 1)) {
      *arrive = 0u;
      *departed = 0u;
    }
    stamp_reduction(t1 - t0, t2 - t1, t3 - t2, t4 - t3, trace::clock() - t4);
  }

  // Sliced: publishes, waits for the tile's other units, then sums and stores its slice — pairs
  // [slot·kPairs/parts, (slot+1)·kPairs/parts) of every thread (each thread's pairs map to its own
  // places in the tile, the same in every unit). Persistent launches only.
  static __device__ void reduce_sliced(Acc& acc, ptx::u32* workspace, int tile_parts, int slots_per_tile,
                                       int tile_part, int slot, int parts, ptx::u32 barrier, ptx::u16* C, int M, int N,
                                       int row0, int col0) {
    using namespace ptx;
    if constexpr (lean_finish()) {
      reduce_sliced_lean(acc, workspace, tile_parts, slots_per_tile, tile_part, slot, parts, barrier, C, M, N, row0, col0);
      return;
    }
    u32* arrive = arrivals(workspace, tile_part);
    const u64* all = slots(workspace, tile_parts, slots_per_tile, tile_part);
    publish(acc, arrive, slots(workspace, tile_parts, slots_per_tile, tile_part), slot, barrier);
    if (threadIdx.x % 128 == 0)
      while (load_acquire_gpu(arrive) < u32(parts)) nanosleep(32);
    named_barrier_sync(barrier, 128);
    const int begin = slot * kPairs / parts, end = (slot + 1) * kPairs / parts;
    for (int c0 = begin; c0 < end; c0 += kSliceChunk) {
      AccReg lo[kSliceChunk], hi[kSliceChunk];
      for (int s0 = 0; s0 < parts; s0 += kSliceBatch) {
        u64 v[kSliceBatch][kSliceChunk];
#pragma unroll
        for (int b = 0; b < kSliceBatch; ++b)
#pragma unroll
          for (int i = 0; i < kSliceChunk; ++i)
            v[b][i] = s0 + b < parts && c0 + i < end ? load_global_l2(all + size_t(s0 + b) * kSlotPairs + (c0 + i) * 128) : 0ull;
#pragma unroll
        for (int b = 0; b < kSliceBatch; ++b)
#pragma unroll
          for (int i = 0; i < kSliceChunk; ++i) {
            if (s0 + b == 0) set(lo[i], hi[i], v[b][i]);
            else if (s0 + b < parts) add(lo[i], hi[i], v[b][i]);
          }
      }
#pragma unroll
      for (int i = 0; i < kSliceChunk; ++i)
        if (c0 + i < end) store_accumulator_pair<T>(c0 + i, lo[i], hi[i], C, M, N, row0, col0);
    }
    depart(arrive, departures(workspace, tile_parts, tile_part), parts);
  }

  // Last: publishes; returns true (with `acc` holding the whole tile's sums) in the warpgroup
  // that arrived last, which then stores the tile; false elsewhere. flag: one shared word of
  // this warpgroup.
  static __device__ bool reduce_last(Acc& acc, ptx::u32* workspace, int tile_parts, int slots_per_tile, int tile_part,
                                     int slot, int parts, ptx::u32* flag, ptx::u32 barrier) {
    using namespace ptx;
    u32* arrive = arrivals(workspace, tile_part);
    u64* all = slots(workspace, tile_parts, slots_per_tile, tile_part);
    const u32 before = publish(acc, arrive, all, slot, barrier);
    if (threadIdx.x % 128 == 0) {
      const bool last = before == u32(parts - 1);
      if (last) *arrive = 0u;  // nobody else touches it again in this launch
      *flag = last ? 1u : 0u;
    }
    named_barrier_sync(barrier, 128);
    if (*flag == 0u) return false;
#pragma unroll
    for (int c0 = 0; c0 < kPairs; c0 += kChunk) {
#pragma unroll
      for (int c = c0; c < c0 + kChunk; ++c) set(pair_lo(acc, c), pair_hi(acc, c), load_global_l2(all + c * 128));
      for (int s0 = 1; s0 < parts; s0 += kBatch) {
        u64 v[kBatch][kChunk];
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
#pragma unroll
          for (int c = 0; c < kChunk; ++c)
            v[b][c] = s0 + b < parts ? load_global_l2(all + size_t(s0 + b) * kSlotPairs + (c0 + c) * 128) : 0ull;
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
          if (s0 + b < parts)
#pragma unroll
            for (int c = 0; c < kChunk; ++c) add(pair_lo(acc, c0 + c), pair_hi(acc, c0 + c), v[b][c]);
      }
    }
    return true;
  }

  // In-cluster, first half: this warpgroup part's partial sums into its slot in the CTA's stage
  // ring, idle after the CTA's only unit (the host checks the ring holds every part's slot:
  // cluster_reduction_bytes in kernel_config.cpp), and the part's first row and column into
  // `origin`. A cluster barrier publishes them (hgemm_ws.cuh).
  static __device__ ptx::u64* cluster_slot(unsigned char* ring, int wg_part) {
    return reinterpret_cast<ptx::u64*>(ring) + size_t(wg_part) * kSlotPairs + threadIdx.x % 128;
  }
  static __device__ void stage_for_cluster(Acc& acc, unsigned char* ring, int wg_part, ptx::u32* origin, int row0,
                                           int col0) {
    using namespace ptx;
    if (threadIdx.x % 128 == 0) origin[0] = u32(row0), origin[1] = u32(col0);
    // The ring is overwritten only after every warpgroup that reads it retired its last wgmma.
    named_barrier_sync(T::kRingRetiredBarrier, 128 * T::kStageReaders);
    fence_proxy_async_shared();  // the async proxy's last reads of the ring before these writes
    u64* mine = cluster_slot(ring, wg_part);
#pragma unroll
    for (int c = 0; c < kPairs; ++c) mine[c * 128] = pack(pair_lo(acc, c), pair_hi(acc, c));
  }

  // Second half, after that barrier: this CTA, rank `rank` of the `parts` CTAs of its cluster
  // (all on one tile), sums pairs [rank·kPairs/parts, (rank+1)·kPairs/parts) of every thread from
  // each CTA's slot in rank order, and stores them.
  static __device__ void sum_slice_in_cluster(unsigned char* ring, int wg_part, int rank, int parts, ptx::u16* C,
                                              int M, int N, int row0, int col0) {
    using namespace ptx;
    const u32 first = smem_addr(cluster_slot(ring, wg_part));
    const int begin = rank * kPairs / parts, end = (rank + 1) * kPairs / parts;
    for (int c = begin; c < end; ++c) {
      const u32 pair = first + u32(c) * 128 * 8;
      AccReg lo, hi;
      for (int q0 = 0; q0 < parts; q0 += kClusterBatch) {
        u64 v[kClusterBatch];
#pragma unroll
        for (int b = 0; b < kClusterBatch; ++b)
          if (q0 + b < parts) v[b] = load_shared_cluster(map_shared_to_rank(pair, u32(q0 + b)));
#pragma unroll
        for (int b = 0; b < kClusterBatch; ++b) {
          if (q0 + b == 0) set(lo, hi, v[b]);
          else if (q0 + b < parts) add(lo, hi, v[b]);
        }
      }
      store_accumulator_pair<T>(c, lo, hi, C, M, N, row0, col0);
    }
  }

  // In-cluster, pushed (builds with kClusterPush; one consumer warpgroup). The pulled sum above
  // takes ~2 us after the walk however little each CTA reads (bench/NOTES.md, session 14): a
  // cluster barrier, round trips through the window, and a last barrier so no CTA leaves while
  // others read it. Here each CTA stores every pair where it is summed, as soon as its walk ends,
  // with st.async into the owner's shared memory, counted on the owner's mbarrier; an owner waits
  // only for its own bytes, sums them from its own shared memory and leaves. Nothing is read
  // remotely, so no CTA waits for another to finish.
  //
  // A tile's pairs are units u = c·128 + t (pair c of thread t); rank r owns units
  // [push_begin(r), push_begin(r + 1)), cut evenly over the parts whatever the tile (the pulled sum
  // cuts by pair index, which left 12 of 16 CTAs idle on 64x16 tiles). Part q's value of unit u
  // lands at buffer[q · push_stride + u - push_begin(owner)], and the owner sums the parts in rank
  // order, as the pulled sum does: C is bit-identical.
  //
  // Shared memory beyond everything else (the host adds push_bytes(): cluster_push_bytes in
  // kernel_config.cpp): the owner's mbarrier, 8 bytes of padding, then the buffer. It is never the
  // stage ring, which the owner may still be using when the first parts arrive.
  static __device__ constexpr int push_units() { return kPairs * 128; }
  static __device__ constexpr int push_bytes() { return 16 + (push_units() + kMaxClusterSplits) * 8; }
  static __device__ int push_begin(int rank, int parts) { return rank * push_units() / parts; }
  static __device__ int push_owner(int unit, int parts) { return ((unit + 1) * parts - 1) / push_units(); }
  static __device__ int push_stride(int parts) { return (push_units() + parts - 1) / parts; }
  static __device__ unsigned char* push_region(unsigned char* base) { return base + T::kSmemBytes - 1024; }
  static __device__ ptx::u64* push_barrier(unsigned char* region) { return reinterpret_cast<ptx::u64*>(region); }
  static __device__ ptx::u64* push_buffer(unsigned char* region) { return reinterpret_cast<ptx::u64*>(region + 16); }

  // Thread 0, before the cluster barrier that precedes every push: the barrier, expecting this
  // rank's units from every part (its own included).
  static __device__ void expect_pushes(unsigned char* region, int rank, int parts) {
    using namespace ptx;
    if (threadIdx.x != 0) return;
    mbarrier_init(push_barrier(region), 1);
    fence_barrier_init();  // visible to the other CTAs' complete_tx, through the cluster barrier
    const int units = push_begin(rank + 1, parts) - push_begin(rank, parts);
    mbarrier_arrive_expect_tx(push_barrier(region), u32(parts * units * 8));
  }

  // Every consumer thread: its pairs to their owners.
  static __device__ void push_to_owners(Acc& acc, unsigned char* region, int rank, int parts) {
    using namespace ptx;
    const u32 buffer = smem_addr(push_buffer(region)), bar = smem_addr(push_barrier(region));
    const int stride = push_stride(parts), t = threadIdx.x % 128;
#pragma unroll
    for (int c = 0; c < kPairs; ++c) {
      const int unit = c * 128 + t, owner = push_owner(unit, parts);
      const u32 at = buffer + u32(rank * stride + unit - push_begin(owner, parts)) * 8u;
      store_async_cluster(map_shared_to_rank(at, u32(owner)), pack(pair_lo(acc, c), pair_hi(acc, c)),
                          map_shared_to_rank(bar, u32(owner)));
    }
  }

  // Every consumer thread, once every part's units arrived: this rank's sums, stored to C.
  static __device__ void sum_pushed(unsigned char* region, int rank, int parts, ptx::u16* C, int M, int N, int row0,
                                    int col0) {
    using namespace ptx;
    const u64* buffer = push_buffer(region);
    const int stride = push_stride(parts), begin = push_begin(rank, parts), end = push_begin(rank + 1, parts);
    for (int j = threadIdx.x % 128; j < end - begin; j += 128) {
      // Every part's value loaded at once (a loop over the run-time part count issued them one
      // after another: 0.46 us for 16 parts of 32 units, H100 trace, session 28), added in rank order.
      u64 v[kMaxClusterSplits];
#pragma unroll
      for (int q = 0; q < kMaxClusterSplits; ++q) v[q] = q < parts ? buffer[q * stride + j] : 0ull;
      AccReg lo, hi;
      set(lo, hi, v[0]);
#pragma unroll
      for (int q = 1; q < kMaxClusterSplits; ++q)
        if (q < parts) add(lo, hi, v[q]);
      const int unit = begin + j;
      store_accumulator_pair_of<T>(unit % 128, unit / 128, lo, hi, C, M, N, row0, col0);
    }
  }

  // The whole finish of a CTA's one unit; its stamps are the push, the wait and the sum.
  static __device__ void push_and_sum(Acc& acc, unsigned char* region, ptx::u16* C, int M, int N, int row0,
                                      int col0) {
    using namespace ptx;
    const u64 t0 = trace::clock();
    const int rank = int(cluster_cta_rank()), parts = int(cluster_ctas());
    push_to_owners(acc, region, rank, parts);
    const u64 t1 = trace::clock();
    mbarrier_wait_cluster(push_barrier(region), 0);
    const u64 t2 = trace::clock();
    sum_pushed(region, rank, parts, C, M, N, row0, col0);
    stamp_reduction(t1 - t0, 0, t2 - t1, trace::clock() - t2, 0);
  }
};

}  // namespace gemmforge::sm90
