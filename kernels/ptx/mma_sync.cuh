// Warp-wide tensor-core MMA (mma.sync, sm_80 and later): D = A·B + D on one m16n8k16 tile with
// fp16 A and B, accumulating in f32 or in f16. Every lane of the warp must call it.
//
// Fragments, with g = lane / 4 and t = lane % 4 (PTX ISA, "Matrix fragments for mma.m16n8k16"):
//   A (16×16, row-major), 4 registers of two fp16 each: a0 = row g, columns 2t and 2t+1;
//     a1 = row g+8, same columns; a2 = row g, columns 2t+8 and 2t+9; a3 = row g+8, those columns.
//   B (16×8, "col": K-major per column), 2 registers: b0 = column g, k 2t and 2t+1; b1 = k 2t+8, 2t+9.
//   D (16×8): f32: d0, d1 = row g, columns 2t, 2t+1; d2, d3 = row g+8. f16: d0 = row g, d1 = row g+8,
//     each a packed pair of columns 2t (low half) and 2t+1.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void mma_m16n8k16_f32(float (&d)[4], const u32 (&a)[4], const u32 (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The sum is rounded to fp16 after every instruction: this is the f16 accumulator, not a
// conversion of an f32 result.
__device__ inline void mma_m16n8k16_f16(u32 (&d)[2], const u32 (&a)[4], const u32 (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};"
      : "+r"(d[0]), "+r"(d[1])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace gemmforge::ptx
