// stmatrix (sm_90): the inverse of ldmatrix. A warp stores 8×8 tiles of 16-bit elements to shared
// memory from the mma/wgmma accumulator fragment: lane l holds, of each tile, row l / 4, elements
// 2(l % 4) and 2(l % 4) + 1, as one register; lane i supplies the address of row i % 8 of tile
// i / 8. One instruction writes four tiles (512 bytes), where 4-byte stores need four per lane.
// Addresses are shared-state-space addresses (smem_addr), 16-byte aligned.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void stmatrix_x4(u32 addr, u32 r0, u32 r1, u32 r2, u32 r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0), "r"(r1),
               "r"(r2), "r"(r3)
               : "memory");
}

__device__ inline void stmatrix_x2(u32 addr, u32 r0, u32 r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r0), "r"(r1) : "memory");
}

}  // namespace gemmforge::ptx
