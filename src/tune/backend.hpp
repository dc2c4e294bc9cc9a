// What the tuner needs from a GPU, as an interface: the worker process implements it
// (worker_backend), and the CPU tests put a synthetic device behind it, so the tuner's loop,
// resume and decisions are tested without a GPU.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tune/worker_protocol.hpp"

namespace gemmforge::tune {

// One measurement: the gate's verdict and, when it passed, the device time per call.
struct Outcome {
  std::string verdict = "pass";  // "pass" or "fail: <why>"
  std::optional<double> us;
  std::string note;
  bool passed() const { return verdict == "pass" && us.has_value(); }
};

// The device could not set up a shape (out of memory, or the worker died doing it). Not a
// candidate's fault, so not recorded as one: the tuner skips the shape.
class ShapeSetupError : public Error {
 public:
  using Error::Error;
};

class MeasureBackend {
 public:
  virtual ~MeasureBackend() = default;
  // The device and its software (gpu, arch, sm_count, driver, cuda, clocks); starts it.
  virtual nlohmann::json environment() = 0;
  // Buffers for one shape, used by both layouts. Throws ShapeSetupError when the shape cannot
  // be set up (e.g. it does not fit in memory); the tuner then skips the shape. Any call may
  // throw ShapeSetupError when a fresh worker cannot set the shape up again.
  virtual void open(const Shape&, Accum, uint64_t seed) = 0;
  // Gate + quick estimate of one candidate. A candidate that crashes, hangs or fails comes back
  // as a failed Outcome saying why; it never throws for the candidate's faults.
  virtual Outcome measure(Layout, const KernelCandidate&, const std::string& cubin_key) = 0;
  virtual Outcome baseline(Layout, const std::string& impl) = 0;
  // The full interleaved protocol over the entries; one result per entry, failed ones with a
  // verdict that says why (all of them, if the worker died).
  virtual std::vector<EntryResult> compare(Layout, const std::vector<FinalEntry>&, int rounds) = 0;
};

}  // namespace gemmforge::tune
