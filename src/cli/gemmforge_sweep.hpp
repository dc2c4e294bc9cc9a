// `--impl gemmforge --configs all|FILE`: which kernel configurations to sweep, compiled up front
// in a pool (cached on disk), and the candidate factory the evaluator calls for each problem.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "core/kernel_config.hpp"
#include "core/sm80_config.hpp"
#include "eval/bench.hpp"

namespace gemmforge::cli {

// "all": the valid space for each layout and accumulator asked for; otherwise a JSON file with
// an array of configs (KernelConfig::to_json). Invalid configs in a file are an error; sm80-family
// entries are skipped (read_sm80_configs reads them).
std::vector<KernelConfig> read_configs(const std::string& arg, const std::vector<Layout>&, Accum);

// The launch knobs each Hopper config is swept with (every combination that can run).
struct LaunchSweep {
  std::vector<int> group_m = {0};   // raster groups (0 = auto_group_m)
  // Split-K part counts (0 = auto_splits, -1 = stream-K); counts that come to the same parts for
  // a shape are timed once.
  std::vector<int> splits = {1};
  std::vector<bool> pdl = {false};  // with and/or without programmatic dependent launch
  // Split tiles summed through a global workspace and/or inside a cluster (split counts > 1 only).
  std::vector<bool> cluster_reduction = {false};
  // Tiles shared through the global workspace summed in slices by all their parts (true) and/or
  // by the part that finishes last (false); launches that share no tile run once.
  std::vector<bool> sliced_reduction = {true};
};

// The launches a config is swept with on one shape: `parts` are its effective split counts there
// (kStreamK for stream-K), crossed with the sweep's raster groups, PDL, in-cluster sums and
// shared-tile sums; a launch that shares no tile through the workspace runs with one sum only, and
// an in-cluster sum is kept only where the config can take it.
std::vector<LaunchKnobs> swept_launches(const KernelConfig&, const std::set<int>& parts, const LaunchSweep&);

// Compiles every config (progress line on stderr), reports the ones that fail, and installs
// o.gemmforge_candidates. Returns a JSON summary for the run's settings.
nlohmann::json setup_gemmforge_sweep(BenchOptions& o, DeviceContext&, const std::vector<KernelConfig>&,
                                     const LaunchSweep& = {});

// The sm80 family (mma.sync + cp.async). A config file may mix families: entries with
// "family": "sm80" or a name starting "sm80_" (an object's "name" or a bare string) are
// Sm80Configs, which read_configs skips and this reads (invalid ones are an error). "sm80"
// names the family's whole space for each layout asked for; "all" (the Hopper space) none of it.
std::vector<Sm80Config> read_sm80_configs(const std::string& arg, const std::vector<Layout>&, Accum);

// Compiles the sm80 configs for this GPU's architecture (cached) and appends their kernels to
// o.gemmforge_candidates, after any already installed. Returns a JSON summary.
nlohmann::json add_sm80_sweep(BenchOptions& o, DeviceContext&, const std::vector<Sm80Config>&);

// --specialize: installs o.specialize_finalists. Each finalist of either family is rebuilt with
// the problem's M, N and K as constants (JIT shape specialization, design.md section 4); one
// problem's builds compile in parallel (cached on disk). A build that fails to compile or spills
// is left out with a message on stderr, and the sweep goes on with the others.
void enable_shape_specialization(BenchOptions& o, DeviceContext&);

}  // namespace gemmforge::cli
