// Deliberately wrong GEMM implementations: the correctness gate must reject every one of them,
// and accept the unflawed version of the same naive kernel.
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
};

std::unique_ptr<GemmImpl> make_planted(Flaw, DeviceContext&);

}  // namespace gemmforge::testing
