// Measured times set against the floor (core/floors.hpp), for `gemmforge report --floors`.
// Per shape and timing mode: how close the baseline (cuBLASLt-autotune) and gemmforge come to
// the floor, and the headroom = baseline time / floor, the largest speedup over the baseline
// that any kernel could have on that shape. Per shape class and mode: geometric means of
// those, which say whether a target (e.g. small-K ≥ 1.3× in gpu mode) is within what the
// hardware allows.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/floors.hpp"
#include "core/records.hpp"

namespace gemmforge {

struct FloorRow {
  Shape shape;
  std::string mode;
  bool l2_warm = false;  // measured with the same buffers every call (bench --l2 warm)
  // Measured at steady state: some implementation's call took over the bench's heavy_call_us, so
  // the bench warmed the card into its power cap first (the floor's compute rate is then wgmma's
  // alone there, where measured).
  bool steady_state = false;
  Floor floor;
  std::optional<double> baseline_us;  // the baseline's median at its best layout
  std::optional<double> impl_us;      // gemmforge's median at its best layout

  std::optional<double> headroom() const;                 // baseline_us / floor
  std::optional<double> baseline_floor_fraction() const;  // floor / baseline_us: 1 = at the floor
  std::optional<double> impl_floor_fraction() const;      // floor / impl_us
  std::optional<double> speedup() const;                  // baseline_us / impl_us
  // A time below the floor: a measurement or a ceiling is wrong (the floor is a lower bound).
  bool below_floor() const;
};

// One shape class (or "all") in one mode. Geometric means over the rows that have the times
// each needs; the counts say how many that was.
struct FloorClassSummary {
  std::string shape_class;
  std::string mode;
  int shapes = 0;
  int bound_launch = 0, bound_memory = 0, bound_compute = 0;
  int with_baseline = 0;  // rows with a baseline time: headroom, baseline_floor_fraction
  int with_impl = 0;      // rows with an impl time: impl_floor_fraction
  int with_both = 0;      // rows with both: speedup
  int below_floor = 0;    // rows where either time is below the floor
  std::optional<double> headroom, baseline_floor_fraction, impl_floor_fraction, speedup;
};

// The implementation set against the baseline: `requested` when it is not "auto"; otherwise
// "gemmforge" (best kernel per shape) if present, else "gemmforge-lib"; "" when neither is.
std::string pick_floor_impl(const std::vector<BenchRecord>&, const std::string& requested);

// One row per (shape, mode) present in the records, modes gpu, offline, server (in that order),
// shapes in ascending FLOPs. Records of other modes (verify) are ignored. `heavy_call_us`: the
// bench's setting of that name (results.json settings; 200 by default).
std::vector<FloorRow> floor_rows(const std::vector<BenchRecord>&, const Ceilings&, const std::string& baseline,
                                 const std::string& impl, double heavy_call_us);
// Per mode: "all", then each class that has rows, in kAllClasses order.
std::vector<FloorClassSummary> floor_class_summaries(const std::vector<FloorRow>&);

struct FloorReportLabels {
  std::string ceilings_source;  // the ceilings file, named in the heading
  std::string baseline, impl;
};
// The ceilings used and the class table; with `per_shape`, every row as well.
std::string render_floor_markdown(const Ceilings&, const std::vector<FloorRow>&, const std::vector<FloorClassSummary>&,
                                  const FloorReportLabels&, bool per_shape);
std::string floor_csv(const std::vector<FloorRow>&, const FloorReportLabels&);

}  // namespace gemmforge
