// The conversation between the tuner and its worker process: one JSON object per line.
// The worker speaks first (a hello with the device's environment); then every request gets
// exactly one reply carrying the request's id. Host-only: no CUDA here, so both ends and a
// stand-in worker can be tested on CPU.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kernel_candidate.hpp"
#include "core/shape.hpp"

namespace gemmforge::tune {

// 2: candidates of either family, generic or built for one shape (KernelCandidate::to_json).
inline constexpr int kProtocolVersion = 2;

// Allocate buffers (and the gate's references) for one shape; they serve both layouts and every
// candidate until the next open.
struct OpenShape {
  Shape shape;
  Accum acc = Accum::f32;
  uint64_t seed = 1;  // the gate's inputs and the timing order
};
// Gate one candidate, then a short device-time estimate, then the re-check with fresh inputs.
struct MeasureCandidate {
  Layout layout = Layout::tn;
  KernelCandidate candidate;
  std::string cubin_key;  // the compiled kernel in the kernel cache (the worker does not compile)
};
// The same for a baseline implementation (e.g. cublaslt-autotune, which picks its algorithm here).
struct MeasureBaseline {
  Layout layout = Layout::tn;
  std::string impl = "cublaslt-autotune";
};
// One contestant of the final comparison: a candidate, or a baseline by name.
struct FinalEntry {
  std::optional<KernelCandidate> candidate;
  std::string cubin_key;
  std::string baseline;  // set when candidate is empty
  std::string name() const { return candidate ? candidate->name() : baseline; }
};
// The full protocol (design.md section 5): gate, warm-up by time for heavy shapes, interleaved
// shuffled rounds of CUDA-graph replays, re-check after timing.
struct CompareFinal {
  Layout layout = Layout::tn;
  std::vector<FinalEntry> entries;
  int rounds = 9;
};
struct Quit {};

using Request = std::variant<OpenShape, MeasureCandidate, MeasureBaseline, CompareFinal, Quit>;

std::string encode_request(const Request&, long long id);  // one line, without the newline
struct DecodedRequest {
  long long id = 0;
  Request request;
};
DecodedRequest decode_request(std::string_view line);  // throws Error saying what is wrong

// The interleaved result of one final entry.
struct EntryResult {
  std::string verdict = "pass";  // "pass" or the gate's "fail: ..."
  std::optional<double> median_us, p25_us, p75_us, min_us;
  std::string note;  // the SM clock and power when the rounds ended
  double spread() const;  // relative half-IQR, 0 without timing
};

struct Reply {
  long long id = 0;  // the request's; 0 for the hello
  // ok | fail: the candidate failed (gate, build, launch) and the worker goes on |
  // error: the request could not be served (e.g. out of memory for the shape) |
  // fatal: the worker's CUDA context is lost; it exits after this reply.
  std::string status = "ok";
  std::string why;
  std::optional<double> us;  // measure/baseline: device time per call (the estimate)
  std::string note;          // the baseline's choice, clocks and power, ...
  std::vector<EntryResult> results;  // compare: one per entry, in order
  nlohmann::json environment;        // hello: the device (gpu, arch, sm_count, driver, ...)
  int protocol = kProtocolVersion;   // hello
};

std::string encode_reply(const Reply&);
Reply decode_reply(std::string_view line);  // throws Error saying what is wrong

}  // namespace gemmforge::tune
