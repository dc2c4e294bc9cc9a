// Deliberately wrong GEMM implementations: the correctness gate must reject every one of them,
// and accept the unflawed version of the same naive kernel. The last few do worse than compute
// wrong results: the tuner's worker process must survive them (tests/gpu/test_tune.cpp).
#pragma once
#include <memory>

#include "eval/gemm_impl.hpp"

namespace gemmforge::testing {

enum class Flaw {
  none,              // correct: fp32 accumulation, every element written once
  fp16_accumulate,   // labelled f32, accumulates in fp16
  skip_last_row,     // never writes row M-1
  write_past_end,    // correct result, plus one element written just past C
  cache_by_address,  // computes once per (A, B, C) address triple, then replays the cached C
  leave_thread,      // correct result, but starts a thread that outlives the call
  // For the tuner's worker isolation (they take the process or its CUDA context down):
  illegal_address,   // writes through a wild device pointer (a sticky CUDA error)
  device_trap,       // executes a trap instruction
  hang,              // spins forever on a flag nobody sets
  host_crash,        // dereferences a null host pointer in the call (SIGSEGV)
};

std::unique_ptr<GemmImpl> make_planted(Flaw, DeviceContext&);

}  // namespace gemmforge::testing
