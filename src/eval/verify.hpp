// The correctness gate (design.md section 6, items 1–7). Every candidate passes it before it is
// timed, and again with fresh inputs after its timing loop. One gate serves one shape: the fp32
// reference of each trial is computed once and shared by every candidate and both layouts,
// because B is filled from its logical (k, n) index and so holds the same matrix in nn and tn.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "eval/buffers.hpp"
#include "eval/device.hpp"
#include "eval/gemm_impl.hpp"

namespace gemmforge {

struct GateOptions {
  uint64_t seed = 1;           // trial seeds derive from it and the shape; change it for new draws
  int random_trials = 2;       // item 1: at least two
  int spot_checks = 16;        // elements per random trial checked against fp64 on the CPU
  // Every check() draws the same trial inputs, and every recheck_after_timing() the same fresh
  // ones, so each random trial's fp32 reference (and fp64 spot values) is computed once and
  // kept: one M×N float buffer per random trial. For gating candidates one at a time on one
  // shape (the tuner's worker), where a reference per candidate would cost more than the
  // candidate. Item 6 still holds: the re-check's inputs differ from the check's.
  bool fixed_inputs = false;
};

// A prepared implementation for one layout of the gate's shape.
struct Candidate {
  GemmImpl* impl = nullptr;
  Layout layout = Layout::nn;
};

struct Verdict {
  std::vector<std::string> failures;  // empty = pass
  bool passed() const { return failures.empty(); }
  std::string text() const;           // "pass" or "fail: <first failure> (+n more)"
};

// Tolerances for a random-normal trial; they grow with √K (fp32 accumulation) or K (fp16).
struct Tolerance {
  float rel, abs;
  double frobenius;  // max ‖C − ref‖ / ‖ref‖
};
Tolerance random_trial_tolerance(Accum, int64_t K);

class CorrectnessGate {
 public:
  CorrectnessGate(DeviceContext&, ShapeBuffers&, Accum, GateOptions);
  // Items 1–5 and 7. One verdict per candidate, in order.
  std::vector<Verdict> check(const std::vector<Candidate>&);
  // Item 6: the same buffers, new random inputs, after the candidates have been timed.
  std::vector<Verdict> recheck_after_timing(const std::vector<Candidate>&);

 private:
  enum class Trial { normal, binary, ones, cancel };
  void run_trial(Trial, uint64_t seed, const std::vector<Candidate>&, std::vector<Verdict>&);
  void check_one(Trial, const Candidate&, const float* ref, float expected, Verdict&,
                 const std::vector<std::pair<int64_t, int64_t>>& spots,
                 const std::vector<double>& spot_values);
  std::vector<std::pair<int64_t, int64_t>> pick_spots(uint64_t seed) const;
  std::vector<double> fp64_values(const std::vector<std::pair<int64_t, int64_t>>&, const float* ref) const;
  // A random trial's reference: computed now into ref_, or (fixed_inputs) kept per (trial, seed).
  struct Reference {
    DeviceBuffer values;
    std::vector<std::pair<int64_t, int64_t>> spots;
    std::vector<double> spot_values;
  };
  const Reference& reference(Trial, uint64_t seed);

  DeviceContext& ctx_;
  ShapeBuffers& buf_;
  Accum acc_;
  GateOptions opt_;
  Reference ref_;                           // without fixed_inputs: the current trial's
  std::map<std::pair<int, uint64_t>, Reference> kept_refs_;  // with fixed_inputs: by (trial, seed)
  int rounds_ = 0;
};

}  // namespace gemmforge
