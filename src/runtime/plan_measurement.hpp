// Measuring what serves a shape the dispatch table does not name, when the handle is asked to
// (HandleOptions::measure_new_shapes): the same choice cuBLASLt-autotune makes among cuBLASLt's
// algorithms, widened by gemmforge kernels that won on the nearest tuned shapes. It runs once, when
// the shape's plan is made, on the handle's own stream and scratch operands.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "eval/device.hpp"
#include "eval/gemm_impl.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge {

// A gemmforge kernel must beat cuBLASLt's best by more than this to be chosen: a smaller lead is
// inside the run-to-run noise (the tuner's tie band, design.md section 5).
inline constexpr double kMeasuredTieBand = 0.01;

struct MeasuredChoice {
  std::optional<size_t> kernel;  // index of the kernel chosen, or nullopt: cuBLASLt
  int cublaslt_algo = 0;         // cuBLASLt's fastest (index into its heuristic list, as in tables)
  size_t cublaslt_algos = 0;     // how many algorithms cuBLASLt offered
  double cublaslt_us = 0;        // its median per call
  std::optional<double> kernel_us;  // the fastest kernel's median, if any ran
  // The correctness gate's verdict on the fastest kernel, when it was fast enough to be chosen
  // (design.md section 6: nothing serves a shape it has not passed on); empty otherwise.
  std::string kernel_verdict;
  size_t timed = 0;                 // candidates that ran
  std::string describe() const;
};

// Which candidate serves, from the medians measured (NaN: did not run): the fastest kernel if it
// beats cuBLASLt's fastest by more than kMeasuredTieBand (or no cuBLASLt algorithm ran), else
// cuBLASLt's fastest. `kernel_medians` come first in no particular order; nullopt when nothing
// ran at all.
struct MeasuredPick {
  std::optional<size_t> kernel, cublaslt;  // indices into their own lists
};
MeasuredPick pick_measured(const std::vector<double>& kernel_medians, const std::vector<double>& cublaslt_medians);

// `kernels` are prepared for the problem and take the caller's workspace; each gets its own zeroed
// split-K workspace here. A kernel that would be chosen must first pass the correctness gate on
// this shape. With a `staging` (core/staging.hpp), the kernels are prepared for its pitches and
// each is timed and gated as a staged call: the copies in, the kernel, the copy out. Allocates
// and frees scratch memory (cudaFree waits for the whole device). Throws Error when nothing at
// all could run.
MeasuredChoice measure_choice(DeviceContext&, const Problem&, const std::vector<Sm90Kernel*>& kernels,
                              const Staging& staging = {});

}  // namespace gemmforge
