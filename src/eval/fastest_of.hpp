// Which of several ways to compute the same problem is fastest on this GPU, now: each candidate
// gets two warm-up calls and one timed call (a candidate that throws is dropped, never chosen),
// then seven rounds visit the survivors in rotating order, each timing a batch of about 200 µs,
// so drift and warm-up hit every candidate alike; the lowest median per call wins. A batch is a
// CUDA graph of the candidate's calls, so it is device time that decides (what gpu mode
// measures); where some candidate cannot be captured (e.g. on the legacy default stream), every
// candidate is timed as calls launched from the host instead.
// Used where a choice is made by measuring: cuBLASLt-autotune's setup and the runtime library's
// plans for shapes its table does not name.
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include <cuda_runtime_api.h>

#include "eval/buffers.hpp"

namespace gemmforge {

// Enqueues one call of a candidate on the stream (throws Error if it cannot launch).
using Launch = std::function<void(const Operands&, cudaStream_t)>;

struct Fastest {
  size_t index = 0;                   // into the candidates
  double median_us = 0;               // its median per call
  std::vector<double> medians_us;     // per candidate; NaN where it did not run
  size_t timed = 0;                   // candidates that ran
  bool by_device_time = false;        // graphs replayed (else calls launched from the host)
};

// nullopt when no candidate ran. Operand sets are used in turn (one set: L2 warm).
std::optional<Fastest> fastest_of(const std::vector<Launch>& candidates, const std::vector<Operands>& sets,
                                  cudaStream_t stream);

}  // namespace gemmforge
