// ldmatrix (sm_75 and later): a warp loads 8×8 tiles of 16-bit elements from shared memory
// straight into mma fragments. Each tile is 8 rows of 16 bytes; lane i supplies the address of
// row i % 8 of tile i / 8 (x2: lanes 0-15; the other lanes' addresses are ignored but must be
// valid). Lane l receives, of each tile, row l / 4, elements 2(l % 4) and 2(l % 4) + 1, as one
// register; with .trans it receives column l / 4, rows 2(l % 4) and 2(l % 4) + 1 instead, which
// turns a row-major K×N tile into the K-major B fragment of mma.sync.
// Addresses are shared-state-space addresses (smem_addr), 16-byte aligned.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void ldmatrix_x4(u32 (&r)[4], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ inline void ldmatrix_x2(u32 (&r)[2], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
}

__device__ inline void ldmatrix_x4_trans(u32 (&r)[4], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ inline void ldmatrix_x2_trans(u32 (&r)[2], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
}

}  // namespace gemmforge::ptx
