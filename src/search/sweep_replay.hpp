// Recorded sweeps as a replay backend: the sweep.csv files that `gemmforge bench --impl gemmforge`
// writes (every config's gate verdict and first device-time estimate per shape and layout) become
// the measurements the search strategies run against, on CPU, deterministically.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_candidate.hpp"
#include "search/strategy.hpp"

namespace gemmforge {

// One row of a sweep.csv, read and checked by read_sweep_rows.
struct SweepRow {
  Shape shape;
  Layout layout;
  Accum acc;
  std::string name;                   // the candidate as bench named it
  KernelCandidate candidate;          // read back from the name, launch knobs included
  std::optional<double> estimate_us;  // its first device-time estimate; nullopt: it failed the gate
  std::optional<double> finalist_us;  // its finalist median, where it reached the finalists
};

// The rows of a sweep.csv that `gemmforge bench --impl gemmforge --configs` writes, in file order.
// Rows of builds for one shape ("..._atMxNxK") are skipped: the generic build has a row of its
// own. A file without the columns, or a row whose dimensions, layout, accumulator, config name or
// passing time do not read, or whose config is of another layout or accumulator than the row,
// throws Error naming the file (and the row). Files from before the finalist stage call the
// estimate "device_us" and have no finalist column.
void read_sweep_rows(const std::filesystem::path&, const std::function<void(const SweepRow&)>&);

struct SweepReplay {
  // Per layout: the shapes recorded, and the configs recorded for every one of those shapes.
  struct Part {
    std::vector<Shape> shapes;          // in file order
    std::vector<KernelConfig> space;    // Hopper configs, in config_space() order
    std::vector<Sm80Config> sm80_space; // sm80 configs, in sm80_config_space() order
    size_t dropped_configs = 0;         // Hopper configs recorded for some shapes only: left out
    size_t sm80_dropped_configs = 0;    // the same for sm80 configs
  };
  std::map<Layout, Part> parts;
  ReplayMeasure measure;  // failed gate verdicts are recorded as failures (nullopt)
  size_t rows = 0;
};

// Reads one run's sweep.csv files (several files: the parts of one run), Hopper and sm80 rows
// alike. Rows of builds for one shape ("_at...") are skipped: their generic build is the point of
// the space. A Hopper config's launch-knob variants ("..._k4_pdl") count as that config at its
// fastest. A (shape, layout, candidate) recorded twice is an error: two runs of different kernel
// sources must not be mixed.
SweepReplay load_sweep_replay(const std::vector<std::filesystem::path>&);

}  // namespace gemmforge
