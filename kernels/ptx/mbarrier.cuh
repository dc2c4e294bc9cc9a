// mbarrier: the shared-memory barriers the TMA producer and the wgmma consumers hand stages over with.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void mbarrier_init(u64* bar, u32 arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(arrivals));
}

// Makes the initialised barriers visible to the async proxy (TMA) before first use.
__device__ inline void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// Arrive and announce that `bytes` will land through TMA in this phase.
__device__ inline void mbarrier_arrive_expect_tx(u64* bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ inline void mbarrier_arrive(u64* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}

// Spins until the phase with this parity has completed.
__device__ inline void mbarrier_wait(u64* bar, u32 parity) {
  asm volatile(
      "{\n.reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

// The same wait, acquiring at cluster scope: what other CTAs stored into this CTA's shared memory
// with store_async_cluster (whose byte counts completed the phase) is visible after it.
__device__ inline void mbarrier_wait_cluster(u64* bar, u32 parity) {
  asm volatile(
      "{\n.reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

}  // namespace gemmforge::ptx
