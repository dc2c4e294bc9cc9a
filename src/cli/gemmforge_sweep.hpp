// `--impl gemmforge --configs all|FILE`: which kernel configurations to sweep, compiled up front
// in a pool (cached on disk), and the candidate factory the evaluator calls for each problem.
#pragma once
#include <string>
#include <vector>

#include "core/kernel_config.hpp"
#include "eval/bench.hpp"

namespace gemmforge::cli {

// "all": the valid space for each layout and accumulator asked for; otherwise a JSON file with
// an array of configs (KernelConfig::to_json). Invalid configs in a file are an error.
std::vector<KernelConfig> read_configs(const std::string& arg, const std::vector<Layout>&, Accum);

// Compiles every config (progress line on stderr), reports the ones that fail, and installs
// o.gemmforge_candidates. Returns a JSON summary for the run's settings.
// group_m: the raster groups each config is swept with (0 = auto_group_m).
nlohmann::json setup_gemmforge_sweep(BenchOptions& o, DeviceContext&, const std::vector<KernelConfig>&,
                                     const std::vector<int>& group_m = {0});

}  // namespace gemmforge::cli
