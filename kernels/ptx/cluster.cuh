// Thread-block clusters (sm_90): a CTA's rank, the cluster-wide barrier, and access to another
// CTA's shared memory through the distributed shared-memory window (arrivals on its mbarriers,
// loads from it).
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline u32 cluster_cta_rank() {
  u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ inline u32 cluster_ctas() {
  u32 n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  return n;
}

// Every thread of every CTA in the cluster arrives, then waits for all. Not .aligned: the
// producer warp reaches it with lanes that took different paths.
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// The two halves of a cluster barrier with no memory ordering: for waits that only keep CTAs
// alive (a relaxed arrival does not wait for this thread's earlier stores to complete).
__device__ inline void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"); }
__device__ inline void cluster_wait() { asm volatile("barrier.cluster.wait;" ::: "memory"); }

// The address in the cluster window of the shared-memory word at `local` (this CTA's address) in
// the CTA of rank `cta`: every CTA of a launch lays out its shared memory alike.
__device__ inline u32 map_shared_to_rank(u32 local, u32 cta) {
  u32 remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(cta));
  return remote;
}

// Arrive on the mbarrier at the same shared-memory offset as `bar`, in the CTA of rank `cta`.
// Release at CTA scope (the default) is enough to free a stage: what must be ordered before the
// arrival is the completion of our wgmma reads of it (wgmma.wait_group), not any write another
// CTA could observe. A cluster-scope release here costs a fence per stage.
__device__ inline void mbarrier_arrive_cluster(u64* bar, u32 cta) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(map_shared_to_rank(smem_addr(bar), cta)) : "memory");
}

// Arrive on the mbarrier at window address `cluster_bar` (map_shared_to_rank) and announce
// `bytes` that a store_async_cluster into that CTA completes in this phase. Release at CTA scope
// (the default): the bytes are ordered by their own completion on the barrier, and a cluster-scope
// release compiles to a GPU-wide fence (MEMBAR.ALL.GPU).
__device__ inline void mbarrier_arrive_expect_tx_cluster(u32 cluster_bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cluster.b64 _, [%0], %1;" ::"r"(cluster_bar), "r"(bytes) : "memory");
}

// A load from the cluster window (an address from map_shared_to_rank). What the owner wrote is
// visible after a cluster barrier that both passed (release by the writer, acquire here).
__device__ inline u64 load_shared_cluster(u32 cluster_addr) {
  u64 v;
  asm volatile("ld.shared::cluster.b64 %0, [%1];" : "=l"(v) : "r"(cluster_addr) : "memory");
  return v;
}

// An 8-byte store into another CTA's shared memory (`cluster_addr`, a window address) that counts
// its bytes on that CTA's mbarrier (`cluster_bar`, also a window address). The receiver learns of
// it by waiting on its own barrier, so sender and receiver never meet at a cluster barrier; the
// value leaves from registers, so nothing of the sender's must outlive it. Split-K's pushed sums
// wait at cluster scope (mbarrier_wait_cluster); the dynamic walk's feed readers
// (sm90/feed_reader.cuh) wait at CTA scope, as the stage ring does for multicast loads, whose
// bytes also complete on the barrier: a cluster-scope acquire there costs an L1 invalidation per
// wait (CCTL.IVALL; bench/NOTES.md, session 46).
__device__ inline void store_async_cluster(u32 cluster_addr, u64 v, u32 cluster_bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];" ::"r"(cluster_addr), "l"(v),
               "r"(cluster_bar)
               : "memory");
}

}  // namespace gemmforge::ptx
