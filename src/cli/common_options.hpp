// Options shared by bench and verify: which shapes, layouts, accumulator and implementations.
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "eval/bench.hpp"

namespace gemmforge::cli {

struct ProblemOptions {
  std::string shapes;                  // "grid" or a file
  std::vector<std::string> shape;      // --shape MxNxK, repeatable
  size_t sample = 0;                   // 0 = all shapes
  std::string layout = "both";
  std::string acc = "f32";
  std::string impls;
  std::string configs = "all";         // kernel configurations for --impl gemmforge
  std::string group_m = "auto";        // raster groups each config is swept with
  std::string splits = "1";            // split-K part counts each config is swept with
  std::string pdl = "off";             // programmatic dependent launch: off, on or both
  std::string cluster_reduction = "off";  // split tiles summed inside a cluster: off, on or both
  std::string shared_tile_sum = "sliced";  // split and stream-K tiles summed: sliced, last or both
  bool specialize = false;             // bench only: also time shape-specialized builds of the finalists
  uint64_t seed = 1;
};

void add_problem_options(CLI::App&, ProblemOptions&, const std::string& default_impls);

// Turns the parsed options into BenchOptions; throws gemmforge::Error with a message a user can
// act on (unknown impl, bad shape, unreadable file, ...). Also returns whether torch was asked for.
BenchOptions resolve_problem_options(const ProblemOptions&, bool& wants_torch);

// Reads --configs and compiles the kernels when --impl names gemmforge (after the GPU is known);
// returns what goes into the run's settings, or null.
// --group-m: 'auto' is 0; throws Error on anything but 'auto' and positive integers.
std::vector<int> parse_group_m(const std::string&);
// --splits: 'auto' is kAutoSplits (auto_splits per shape), 'sk' kStreamK; throws Error on anything
// else but 1..kMaxSplits.
inline constexpr int kAutoSplits = 0, kStreamK = -1;
std::vector<int> parse_splits(const std::string&);
// --pdl and --cluster-reduction: off, on or both; the values each config is swept with. `option`
// names the flag in the error.
std::vector<bool> parse_off_on_both(const std::string& text, const std::string& option);
// --shared-tile-sum: sliced → {true}, last → {false}, both → {true, false} (LaunchKnobs::sliced_reduction).
std::vector<bool> parse_shared_tile_sum(const std::string& text);
nlohmann::json prepare_gemmforge(const ProblemOptions&, BenchOptions&, DeviceContext&);

std::vector<std::string> split_list(const std::string& comma_separated);
std::string command_line(int argc, char** argv);

}  // namespace gemmforge::cli
