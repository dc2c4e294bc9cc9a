// Diagnostic builds only: one part of the kernel left out, to measure what it costs the rest: parts
// of a consumer's TMA-store epilogue (in ping-pong, what each costs the other consumer's main loop
// beside it), or one side of the main loop (the wgmma, or the loads), so what remains shows whether
// the ring is paced by its loads or by its math. Compiled
// in only with -DGEMMFORGE_ABLATE=<part> (`gemmforge trace --ablate`); such a build writes a wrong
// C, is never gated, tuned or served, and its cache key differs from every real build's. Without
// the define every query below is false and the code is what it was. The enumeration is shared
// with the host (src/runtime/trace_launch.cpp), which names the parts and passes the define.
#pragma once

namespace gemmforge::sm90::ablation {

enum Part : int {
  kNone = 0,
  kWholeEpilogue = 1,  // no staging, no barrier, no store: the consumer goes straight to its next unit
  kStoreIssue = 2,     // staged and fenced as usual, but no TMA store is issued (the commits stay)
  kStaging = 3,        // no fp16 conversion, no stmatrix, no proxy fence; the stores send stale buffers
  kProxyFence = 4,     // everything but the generic-to-async proxy fence after staging
  kMma = 5,            // the consumers wait for each stage and release it, issuing no wgmma
  kLoads = 6,          // the producer issues no TMA load: it arrives on each full barrier itself
};

#if defined(__CUDACC__)
// A function, not a constexpr variable (which -default-device would emit into every cubin).
__device__ constexpr bool left_out(Part p) {
#ifdef GEMMFORGE_ABLATE
  return GEMMFORGE_ABLATE == int(p);
#else
  (void)p;
  return false;
#endif
}
#endif

}  // namespace gemmforge::sm90::ablation
