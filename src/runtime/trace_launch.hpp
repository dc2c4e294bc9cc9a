// One launch of a Hopper kernel with its phase stamps read back (kernels/sm90/trace.cuh): what
// `gemmforge trace` runs per shape and kernel. The traced build passes the full correctness gate
// before it is timed.
#pragma once
#include <string>

#include "core/kernel_config.hpp"
#include "core/trace_summary.hpp"
#include "eval/device.hpp"
#include "jit/kernel_cache.hpp"

namespace gemmforge {

// The config's JIT request with the stamps compiled in (-DGEMMFORGE_TRACE: its own cache key).
jit::CompileRequest traced_request(const KernelConfig&);

struct TracedLaunch {
  double event_us = 0;   // the traced launch, between CUDA events
  std::string launch;    // grid, clusters, splits (Sm90Kernel::launch_detail)
  TraceSummary summary;
};

// Builds (cached), gates, runs `warmup` times, zeroes the stamps, runs twice more and reads the
// second launch's stamps. Throws Error when the config cannot serve the shape, the build fails,
// has no stamp buffer, or fails the gate.
TracedLaunch trace_launch(DeviceContext&, const KernelConfig&, const LaunchKnobs&, const Shape&, jit::KernelCache&,
                          int warmup);

}  // namespace gemmforge
