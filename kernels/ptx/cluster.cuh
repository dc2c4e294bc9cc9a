// Thread-block clusters (sm_90): a CTA's rank, the cluster-wide barrier, and arrivals on another
// CTA's mbarrier through the distributed shared-memory window.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline u32 cluster_cta_rank() {
  u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// Every thread of every CTA in the cluster arrives, then waits for all. Not .aligned: the
// producer warp reaches it with lanes that took different paths.
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// Arrive on the mbarrier at the same shared-memory offset as `bar`, in the CTA of rank `cta`.
// Release at CTA scope (the default) is enough to free a stage: what must be ordered before the
// arrival is the completion of our wgmma reads of it (wgmma.wait_group), not any write another
// CTA could observe. A cluster-scope release here costs a fence per stage.
__device__ inline void mbarrier_arrive_cluster(u64* bar, u32 cta) {
  u32 remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr(bar)), "r"(cta));
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

}  // namespace gemmforge::ptx
