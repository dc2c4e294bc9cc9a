// Global-memory operations for CTAs that hand data to each other inside one launch (split-K):
// L2-only loads and stores, so a partial sum another SM wrote is never read from a stale L1
// line; gpu-scope counters; and fp16x2 addition for partial sums kept in fp16.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

__device__ inline void store_global_l2(u64* p, u64 v) {
  asm volatile("st.global.cg.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ inline u64 load_global_l2(const u64* p) {
  u64 v;
  asm volatile("ld.global.cg.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// Adds v to *p at gpu scope and returns the old value; acquires what earlier arrivers released.
__device__ inline u32 atomic_add_gpu(u32* p, u32 v) {
  u32 old;
  asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

// Adds v to *p at gpu scope, releasing this thread's earlier writes (and, after a barrier, its
// CTA's), and waits for no reply: an arrival nobody needs the old value of.
__device__ inline void release_add_gpu(u32* p, u32 v) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Adds v to *p at gpu scope and returns the old value; orders nothing else.
__device__ inline u32 relaxed_add_gpu(u32* p, u32 v) {
  u32 old;
  asm volatile("atom.add.relaxed.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ inline u32 load_acquire_gpu(const u32* p) {
  u32 v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ inline void nanosleep(u32 ns) { asm volatile("nanosleep.u32 %0;" ::"r"(ns)); }

__device__ inline u32 add_f16x2(u32 a, u32 b) {
  u32 d;
  asm("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

}  // namespace gemmforge::ptx
