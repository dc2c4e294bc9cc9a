// The reading side of the dynamic walk's feed (unit_feed.cuh): a role's place in the ring of unit
// indices its cluster's feed publishes. It lives in the tile scheduler's cursor of builds with the
// dynamic walk (tile_scheduler.cuh), so the walk's code in other builds is what it was.
#pragma once
#include "ptx/cluster.cuh"
#include "ptx/mbarrier.cuh"
#include "sm90/feed_size.cuh"

namespace gemmforge::sm90 {

struct FeedReader {
  bool on = false;          // this launch takes its units from the feed
  bool whole_warp = false;  // a consumer: every lane takes each index, lane 0 frees its slot
  ptx::u64 *slots = nullptr, *full = nullptr, *empty = nullptr;  // this CTA's slot 0 and its barriers
  ptx::u64* started = nullptr;  // the rank-0 producer's: arrived on as it takes each index (unit_feed.cuh)
  int taken = 0;            // indices taken so far
  mutable int peeked = -1;  // the next index, once read ahead (peek)

  __device__ void start(ptx::u64* slot0, ptx::u64* full0, ptx::u64* empty0, bool launch_uses_it, bool consumer,
                        ptx::u64* started_barrier) {
    slots = slot0, full = full0, empty = empty0, on = launch_uses_it, whole_warp = consumer, started = started_barrier;
  }

  // The next index, waiting until it is published; it stays in its slot until take(). A wait at
  // CTA scope, as for the stages TMA multicasts into: another CTA's bytes (st.async) are counted on
  // this barrier. (Acquiring at cluster scope invalidated L1 at every unit: CCTL.IVALL.)
  __device__ int peek() const {
    if (peeked < 0) {
      const int s = taken % feed_slots();
      ptx::mbarrier_wait(full + s, ptx::u32(taken / feed_slots()) & 1u);
      peeked = int(*reinterpret_cast<volatile ptx::u64*>(slots + s));
    }
    return peeked;
  }

  // The next index, and its slot freed on the cluster's rank-0 CTA (whose feed refills it), after
  // every lane of a consumer warp has read it. The arrival releases at CTA scope only (a
  // cluster-scope release compiles to a GPU-wide fence, MEMBAR.ALL.GPU, at every unit; builds
  // with those fences were 7-15% slower than the static ones, 2-10% without: bench/NOTES.md,
  // session 46); the read is done before it because the arrival waits on its value (u >= 0
  // always holds), and the slot is rewritten only after the feed saw every arrival and took its
  // next tile from global memory.
  __device__ int take() {
    const int u = peek();
    const int s = taken % feed_slots();
    if (whole_warp) __syncwarp();
    if ((!whole_warp || ptx::lane_id() == 0) && u >= 0) ptx::mbarrier_arrive_cluster(empty + s, 0);
    if (started) ptx::mbarrier_arrive(started);  // the feed may take the tile after this one now
    ++taken, peeked = -1;
    return u;
  }
};

}  // namespace gemmforge::sm90
