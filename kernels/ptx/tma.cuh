// Bulk tensor copies (TMA) between global memory and shared memory, described by tensor maps
// that the host encodes. Out-of-bounds boxes are zero-filled on load and clipped on store.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void tma_prefetch_descriptor(const TensorMap* map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(map)) : "memory");
}

// Loads the box at (inner, outer) into dst; completion is signalled on `bar` as transaction bytes.
__device__ inline void tma_load_2d(void* dst, const TensorMap* map, u64* bar, int inner, int outer) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::
          "r"(smem_addr(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_addr(bar)), "r"(inner), "r"(outer)
      : "memory");
}

// Same, delivered to every CTA of the cluster named in `cta_mask` (same smem offsets in each).
__device__ inline void tma_load_2d_multicast(void* dst, const TensorMap* map, u64* bar, int inner, int outer,
                                             u16 cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_addr(dst)),
      "l"(reinterpret_cast<u64>(map)), "r"(smem_addr(bar)), "r"(inner), "r"(outer), "h"(cta_mask)
      : "memory");
}

__device__ inline void tma_store_2d(const TensorMap* map, const void* src, int inner, int outer) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                   reinterpret_cast<u64>(map)),
               "r"(smem_addr(src)), "r"(inner), "r"(outer)
               : "memory");
}
__device__ inline void tma_store_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Waits until at most kPending store groups still read shared memory (the buffer may be reused).
template <int kPending>
__device__ inline void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}
// Waits until at most kPending store groups are still in flight at all.
template <int kPending>
__device__ inline void tma_store_wait_all() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(kPending) : "memory");
}

// Ordinary shared-memory stores must be fenced before the async proxy (TMA store, wgmma) reads them.
__device__ inline void fence_proxy_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

}  // namespace gemmforge::ptx
