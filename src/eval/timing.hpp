// The three timing modes of design.md section 5, with candidates of one shape interleaved in
// shuffled rounds so that clock and thermal drift hit all of them alike.
//   gpu     — a CUDA graph of n back-to-back calls, replayed; device time per call.
//   offline — n back-to-back calls through the public API, events around the batch, then a
//             wait on the whole device; includes host launch cost where the host is the limit.
//   server  — one call after a random idle gap; host wall clock (call → whole device idle) and
//             an event pair around it.
#pragma once
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "eval/buffers.hpp"
#include "eval/device.hpp"
#include "eval/gemm_impl.hpp"

namespace gemmforge {

enum class Mode { gpu, offline, server };
std::string to_string(Mode);
Mode parse_mode(std::string_view);

struct TimingOptions {
  int rounds = 9;                 // samples per candidate in gpu and offline modes
  double min_sample_us = 200;     // a sample lasts at least this long (more calls per sample)
  int server_calls = 30;          // samples per candidate in server mode
  double server_gap_us = 200;     // mean of the exponential idle gap before each server call
  bool cold_l2 = false;           // rotate operand sets (gpu/offline) or flush L2 (server)
  // Steady state: shapes whose call takes longer than heavy_call_us heat the card into its
  // power cap; they are warmed up by time, longer the first time (design.md section 5).
  double heavy_call_us = 200, first_heavy_warmup_s = 1.5, heavy_warmup_s = 0.4, light_warmup_s = 0.005;
  uint64_t seed = 1;
};

struct Timed {
  SampleStats wall;                  // per-call times (server: host wall clock)
  std::optional<SampleStats> event;  // server only: device-event time per call
  int calls_per_sample = 0;
};

class ShapeTimer {
 public:
  ShapeTimer(DeviceContext&, const ShapeBuffers&, const TimingOptions&, const L2Flusher*);
  // Per-call time through the API (three back-to-back calls after two warm-up calls, host
  // launch cost included) and on the device alone (a graph of ten calls) — the latter sizes
  // gpu-mode samples, so small shapes get as many calls per sample as their device time needs.
  struct Estimate {
    double api_us = 0, device_us = 0;
  };
  Estimate estimate(GemmImpl&);
  void warm_up(const std::vector<GemmImpl*>&, double seconds);
  std::vector<Timed> measure(const std::vector<GemmImpl*>&, const std::vector<Estimate>&, Mode);

 private:
  int calls_per_sample(double est_us) const;
  cudaGraphExec_t capture(GemmImpl&, int calls);
  void call(GemmImpl&);  // next operand set in rotation

  DeviceContext& ctx_;
  const ShapeBuffers& buf_;
  TimingOptions opt_;
  const L2Flusher* flusher_;
  size_t next_set_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace gemmforge
