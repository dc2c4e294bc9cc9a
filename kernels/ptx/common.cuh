// Basic types and address helpers shared by the PTX wrappers. No CUDA headers: these files are
// compiled by NVRTC at run time as well as by nvcc, and must not depend on an include path.
#pragma once

namespace gemmforge::ptx {

using u16 = unsigned short;
using u32 = unsigned int;
using u64 = unsigned long long;

// Shared-memory address of a generic pointer into shared memory (what PTX's .shared operands take).
__device__ inline u32 smem_addr(const void* p) {
  return static_cast<u32>(__cvta_generic_to_shared(p));
}

// A CUtensorMap as the kernel sees it: 128 opaque bytes, 64-byte aligned, passed by value as a
// __grid_constant__ parameter. Layout-compatible with cuda.h's CUtensorMap.
struct alignas(64) TensorMap {
  u64 opaque[16];
};

__device__ inline u32 lane_id() { return threadIdx.x % 32; }

// Two floats to a packed f16x2 (round to nearest even), low half first.
__device__ inline u32 pack_half2(float lo, float hi) {
  u32 r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}

}  // namespace gemmforge::ptx
