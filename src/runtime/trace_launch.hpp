// One launch of a Hopper kernel with its phase stamps read back (kernels/sm90/trace.cuh): what
// `gemmforge trace` runs per shape and kernel. The traced build passes the full correctness gate
// before it is timed.
#pragma once
#include <string>

#include "core/kernel_config.hpp"
#include "core/trace_summary.hpp"
#include "eval/device.hpp"
#include "jit/kernel_cache.hpp"
#include "sm90/ablation.cuh"

namespace gemmforge {

// Parts of the epilogue a diagnostic build leaves out: the kernel's own enumeration.
using Ablation = sm90::ablation::Part;
// By the names `gemmforge trace --ablate` takes: none, epilogue, store-issue, staging, proxy-fence.
// Throws Error for any other name.
Ablation parse_ablation(const std::string& name);
std::string to_string(Ablation);

// What a traced build has beside the phase stamps.
struct TraceOptions {
  Ablation ablation = Ablation::kNone;  // a part of the epilogue left out (-DGEMMFORGE_ABLATE)
  bool kblock_stamps = false;          // each k-block of four units stamped (-DGEMMFORGE_TRACE_KBLOCKS)
  int smem_pad = 0;                    // bytes of unused shared memory added to the traced launch
};

// The config's JIT request with the stamps compiled in (-DGEMMFORGE_TRACE: its own cache key).
jit::CompileRequest traced_request(const KernelConfig&, const TraceOptions& options = {});

struct TracedLaunch {
  double event_us = 0;   // the traced launch, between CUDA events
  std::string launch;    // grid, clusters, splits (Sm90Kernel::launch_detail)
  TraceSummary summary;
};

// Builds (cached), gates, runs `warmup` times, zeroes the stamps, runs twice more and reads the
// second launch's stamps. Throws Error when the config cannot serve the shape, the build fails,
// has no stamp buffer, or fails the gate. An ablated build computes a wrong C by design: it is
// not gated (the same config's complete traced build is, first, so a kernel that cannot run is
// still caught).
TracedLaunch trace_launch(DeviceContext&, const KernelConfig&, const LaunchKnobs&, const Shape&, jit::KernelCache&,
                          int warmup, const TraceOptions& options = {});

}  // namespace gemmforge
