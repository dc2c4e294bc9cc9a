// Named barriers (bar.sync / bar.arrive): synchronisation among a subset of a CTA's warps, e.g.
// one warpgroup, or a hand-over from one warpgroup to another. Ids 1..15 (0 is __syncthreads).
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

// Waits until `threads` threads (a multiple of 32, counting both sides) reached barrier `id`.
__device__ inline void named_barrier_sync(u32 id, u32 threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Counts this warp towards barrier `id` without waiting: the signalling side of a hand-over.
__device__ inline void named_barrier_arrive(u32 id, u32 threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace gemmforge::ptx
