// Asynchronous global-to-shared copies (cp.async, sm_80 and later): each thread starts 16-byte
// copies that land without passing through registers, groups them, and later waits for all but
// the newest N groups — the stage ring of a multistage main loop.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

// Copies 16 bytes, caching in L2 only (.cg: a tile is read once per CTA, L1 would only evict).
// The first `src_bytes` (0 or 16 here) come from global memory and the rest are zero-filled, so
// a chunk outside the matrix costs no read; `src` must be 16-byte aligned and stay a valid
// address even when nothing is read from it.
__device__ inline void cp_async_16(void* smem_dst, const void* gmem_src, u32 src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(smem_dst)),
               "l"(static_cast<u64>(__cvta_generic_to_global(gmem_src))), "r"(src_bytes)
               : "memory");
}

// Closes the group of copies this thread started since the last commit (an empty group is fine
// and keeps the count of groups in step with the stages).
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most kPending of this thread's groups are still in flight. Other threads'
// copies become visible only after a barrier that follows their own wait.
template <int kPending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(kPending) : "memory");
}

}  // namespace gemmforge::ptx
