// Phase stamps for `gemmforge trace`: where a CTA's time goes (start-up, the wait for a unit's
// first stage, the main loop, the epilogue or reduction, the drain). They are compiled in only
// with -DGEMMFORGE_TRACE, which no tuned or served build gets: elsewhere every stamp is an empty
// inline function and the compiled code is what it was without them. A traced build defines the
// buffer gemmforge_trace (trace_layout.cuh says what goes where), which the host reads after a
// launch.
#pragma once
#include "ptx/common.cuh"
#include "sm90/trace_layout.cuh"

namespace gemmforge::sm90::trace {

// A function, not a constexpr variable (which -default-device would emit into every cubin).
__device__ constexpr bool enabled() {
#ifdef GEMMFORGE_TRACE
  return true;
#else
  return false;
#endif
}

// Per-k-block stamps (kblock below) only with -DGEMMFORGE_TRACE_KBLOCKS as well (`gemmforge trace
// --kblock-stamps`): a clock read and a store per k-block slow a main loop by ~10% (bench/NOTES.md,
// session 31), so the other phases are read without them.
__device__ constexpr bool kblocks_enabled() {
#if defined(GEMMFORGE_TRACE) && defined(GEMMFORGE_TRACE_KBLOCKS)
  return true;
#else
  return false;
#endif
}

__device__ inline ptx::u64 clock() {
  ptx::u64 t = 0;
  if constexpr (enabled()) asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ inline ptx::u64 nanoseconds() {
  ptx::u64 t = 0;
  if constexpr (enabled()) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

}  // namespace gemmforge::sm90::trace

#ifdef GEMMFORGE_TRACE
extern "C" {
__device__ unsigned long long gemmforge_trace[gemmforge::sm90::trace::kCtas * gemmforge::sm90::trace::kSlotsPerCta];
}
#endif

namespace gemmforge::sm90::trace {

__device__ inline void cta(int slot, ptx::u64 value) {
#ifdef GEMMFORGE_TRACE
  if (blockIdx.x < unsigned(kCtas)) gemmforge_trace[blockIdx.x * kSlotsPerCta + slot] = value;
#else
  (void)slot, (void)value;
#endif
}

// Adds to a CTA slot (one thread per CTA stamps it).
__device__ inline void cta_add(int slot, ptx::u64 value) {
#ifdef GEMMFORGE_TRACE
  if (blockIdx.x < unsigned(kCtas)) gemmforge_trace[blockIdx.x * kSlotsPerCta + slot] += value;
#else
  (void)slot, (void)value;
#endif
}

// Clocks a region of one thread's code takes, summed into `total` (0 in untraced builds).
struct Stopwatch {
  ptx::u64& total;
  ptx::u64 started;
  __device__ explicit Stopwatch(ptx::u64& t) : total(t), started(clock()) {}
  __device__ ~Stopwatch() { total += clock() - started; }
};

__device__ inline void unit(int walked, int slot, ptx::u64 value) {
#ifdef GEMMFORGE_TRACE
  if (blockIdx.x < unsigned(kCtas) && walked < kUnits)
    gemmforge_trace[blockIdx.x * kSlotsPerCta + kCtaSlots + walked * kUnitSlots + slot] = value;
#else
  (void)walked, (void)slot, (void)value;
#endif
}

// A k-block's stamp (trace_layout.cuh's KBlockSlot) for units kKbFirstUnit.. of the walk.
__device__ inline void kblock(int walked, int kb, int slot, ptx::u64 value) {
#if defined(GEMMFORGE_TRACE) && defined(GEMMFORGE_TRACE_KBLOCKS)
  const int u = walked - kKbFirstUnit;
  if (blockIdx.x < unsigned(kCtas) && u >= 0 && u < kKbUnits && kb >= 0 && kb < kKbMax)
    gemmforge_trace[blockIdx.x * kSlotsPerCta + kKbBase + (u * kKbMax + kb) * kKbSlots + slot] = value;
#else
  (void)walked, (void)kb, (void)slot, (void)value;
#endif
}

__device__ inline ptx::u32 sm_id() {
  ptx::u32 id = 0;
  if constexpr (enabled()) asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

}  // namespace gemmforge::sm90::trace
