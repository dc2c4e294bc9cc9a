// Runs the evaluator over a list of shapes: prepare every candidate, pass it through the
// correctness gate, time it in each mode, re-check it, and record everything.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/records.hpp"
#include "eval/timing.hpp"
#include "eval/verify.hpp"

namespace gemmforge {

struct BenchOptions {
  std::vector<Shape> shapes;
  std::vector<Layout> layouts = {Layout::nn, Layout::tn};
  Accum acc = Accum::f32;
  std::vector<std::string> impls;  // C++ implementations only (torch runs in its own process)
  std::vector<Mode> modes = {Mode::gpu, Mode::offline};
  TimingOptions timing;
  GateOptions gate;
  // For impl "gemmforge": every kernel configuration that can serve a problem, prepared. The
  // bench gates them all, picks the fastest correct one by device time, and times that one
  // against the baselines (its record's note names the config). Set by the CLI, which links
  // the JIT; the evaluator itself does not know about kernel families.
  std::function<std::vector<std::unique_ptr<GemmImpl>>(const Problem&, const std::vector<Operands>&)>
      gemmforge_candidates;
  // How many of the quickest configs (by a first estimate) are timed again in interleaved rounds.
  size_t sweep_finalists = 4;
  // For impl "gemmforge", optional: builds of these finalists with the problem's M, N and K
  // compiled in (JIT shape specialization), prepared. Each is gated like any candidate and timed
  // in the same interleaved rounds as the finalists; it is kept only if it measures fastest.
  std::function<std::vector<std::unique_ptr<GemmImpl>>(const Problem&, const std::vector<const GemmImpl*>& finalists,
                                                       const std::vector<Operands>&)>
      specialize_finalists;
  // Called once per swept configuration with its gate verdict, its first device-time estimate in
  // µs, and its interleaved median if it was a finalist (negative otherwise): the raw material of
  // the tuner's replay database.
  std::function<void(const Problem&, const GemmImpl&, const Verdict&, double estimate_us, double finalist_us)>
      on_sweep_candidate;
  // Asked before each shape: true ends the run there (a time limit, a signal). The shapes already
  // measured keep their records; none is cut off halfway.
  std::function<bool()> stop_requested;
};

// Measures every (shape, impl, layout, mode). A candidate that cannot be prepared or fails the
// gate gets records with its verdict and no timing; the run goes on.
std::vector<BenchRecord> run_bench(DeviceContext&, const BenchOptions&);

// The gate alone (design.md section 6): check, `calls_between` calls as a timing loop would
// make, then the fresh-input re-check. One record per (shape, impl, layout), mode "verify".
std::vector<BenchRecord> run_verify(DeviceContext&, const BenchOptions&, int calls_between);

nlohmann::json settings_json(const BenchOptions&);

}  // namespace gemmforge
