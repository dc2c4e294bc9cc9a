// Warpgroup MMA plumbing: shared-memory matrix descriptors and the fence/commit/wait protocol.
// The instructions themselves are in wgmma_ops.cuh (generated).
#pragma once
#include "ptx/common.cuh"
#include "ptx/wgmma_ops.cuh"

namespace gemmforge::ptx {

// Matrix descriptor for a K-major operand tile stored with the 128-byte swizzle: rows of 64
// fp16 (128 B), 8-row groups 1024 B apart (the stride byte offset); the leading byte offset is
// unused for swizzled K-major layouts. Bits: [0,14) start>>4, [16,30) LBO>>4, [32,46) SBO>>4,
// [62,64) swizzle mode (1 = 128 B).
__device__ inline u64 make_kmajor_sw128_desc(const void* tile) {
  const u64 start = (smem_addr(tile) & 0x3FFFF) >> 4;
  constexpr u64 kLeading = 1, kStride = 1024 >> 4, kSwizzle128 = 1;
  return start | (kLeading << 16) | (kStride << 32) | (kSwizzle128 << 62);
}

// Advances a K-major SW128 descriptor by `k_elems` fp16 along K inside the 128-byte row
// (the hardware applies the swizzle to the advanced address).
__device__ inline u64 advance_desc_k(u64 desc, int k_elems) { return desc + u64((k_elems * 2) >> 4); }

// Matrix descriptor for an MN-major operand stored as blocks of 64 MN-elements (128-byte swizzle
// rows), one row per k: for MN-major swizzled layouts the leading byte offset is the distance
// between consecutive 64-element MN blocks and the stride byte offset the distance between
// 8-row (8-k) groups, 1024 B (PTX ISA, "Leading/Stride Dimension Byte Offset", MN-major rows).
__device__ inline u64 make_mnmajor_sw128_desc(const void* tile, u32 block_bytes) {
  const u64 start = (smem_addr(tile) & 0x3FFFF) >> 4;
  constexpr u64 kStride = 1024 >> 4, kSwizzle128 = 1;
  return start | (u64(block_bytes >> 4) << 16) | (kStride << 32) | (kSwizzle128 << 62);
}

// Advances an MN-major SW128 descriptor by `k_elems` rows of K (each row is 128 bytes).
__device__ inline u64 advance_desc_mn_major_k(u64 desc, int k_elems) { return desc + u64((k_elems * 128) >> 4); }

__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int kPending>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}

// Keeps the compiler from moving accumulator reads/writes across wgmma issue points. Floats are
// fenced as floats: a u32 view would make the compiler copy them, which serialises the wgmmas.
template <int kN>
__device__ inline void fence_registers(float (&r)[kN]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) asm volatile("" : "+f"(r[i])::"memory");
}
template <int kN>
__device__ inline void fence_registers(u32 (&r)[kN]) {
#pragma unroll
  for (int i = 0; i < kN; ++i) asm volatile("" : "+r"(r[i])::"memory");
}

}  // namespace gemmforge::ptx
