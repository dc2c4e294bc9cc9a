#include "cli/common_options.hpp"

#include <algorithm>
#include <sstream>

#include "cli/gemmforge_sweep.hpp"

namespace gemmforge::cli {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string command_line(int argc, char** argv) {
  std::string c;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (i == 0) a = "gemmforge";
    if (!c.empty()) c += ' ';
    c += a.find_first_of(" \t'\"") == std::string::npos ? a : "'" + a + "'";
  }
  return c;
}

void add_problem_options(CLI::App& app, ProblemOptions& o, const std::string& default_impls) {
  o.impls = default_impls;
  app.add_option("--shapes", o.shapes,
                 "'grid' for the 1000-shape grid (shapes/grid.txt), or a file with one 'M N K' per line");
  app.add_option("--shape", o.shape, "one shape as MxNxK, e.g. 4096x4096x512 (repeatable)");
  app.add_option("--sample", o.sample,
                 "measure a reproducible sample of this many shapes, taken from every class in turn");
  app.add_option("--layout", o.layout, "nn (B is KxN), tn (B is NxK, x·Wᵀ) or both")->capture_default_str();
  app.add_option("--acc", o.acc, "accumulator: f32 or f16 (enforced by the correctness gate)")->capture_default_str();
  app.add_option("--impl", o.impls,
                 "comma list of cublas, cublaslt-heuristic, cublaslt-autotune, torch, gemmforge (a sweep of "
                 "kernel configs), gemmforge-lib (the runtime library with the table in $GEMMFORGE_TABLE), "
                 "gemmforge-lib-measured (the same, measuring shapes the table does not name when their plan is made), "
                 "gemmforge-lib-direct, gemmforge-lib-except-pdl and gemmforge-lib-replay-all (the library with no "
                 "repeated call replayed from a CUDA graph, with all but PDL kernels' calls, and with every one; "
                 "gemmforge-lib replays all but PDL kernels' calls that come back to back)")
      ->capture_default_str();
  app.add_option("--configs", o.configs,
                 "with --impl gemmforge: 'all' Hopper kernel configurations, 'sm80' the mma.sync family's, or a "
                 "JSON file of them (the families may be mixed); each shape keeps the fastest that passes the gate")
      ->capture_default_str();
  app.add_option("--group-m", o.group_m,
                 "with --impl gemmforge: raster group sizes (tile rows; columns for _wn builds) to sweep each "
                 "config with, comma list; "
                 "'auto' sizes a wave of CTAs to a square of C")
      ->capture_default_str();
  app.add_option("--splits", o.splits,
                 "with --impl gemmforge: split-K part counts to sweep each config with, comma list; 'auto' splits "
                 "K only when the output tiles do not fill the GPU; 'sk' is stream-K for the last partial wave "
                 "(both deterministic: partial sums are added in a fixed order; give stream-K "
                 "--shared-tile-sum last: with the sliced sum its CTAs wait for one another in a chain)")
      ->capture_default_str();
  app.add_option("--pdl", o.pdl,
                 "with --impl gemmforge: programmatic dependent launch (a call's set-up overlaps the end of "
                 "the kernel before it in the stream): off, on or both")
      ->capture_default_str();
  app.add_option("--cluster-reduction", o.cluster_reduction,
                 "with --impl gemmforge and a split count > 1: sum a split tile inside a cluster of its parts' CTAs "
                 "through distributed shared memory (non-persistent grid, at most 16 parts: larger counts are run "
                 "through global memory only; no workspace) instead of through global memory: off, on or both")
      ->capture_default_str();
  app.add_option("--shared-tile-sum", o.shared_tile_sum,
                 "with --impl gemmforge, split or stream-K launches summed through global memory: 'sliced' (every "
                 "part sums a slice of the tile once all have stored theirs), 'last' (the part that finishes last "
                 "sums the tile; no part waits) or both")
      ->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the gate's random inputs and of the round order")->capture_default_str();
}

std::vector<int> parse_group_m(const std::string& text) {
  std::vector<int> groups;
  for (const auto& g : split_list(text)) {
    if (g == "auto") {
      groups.push_back(0);
      continue;
    }
    const auto v = parse_integer(g);
    if (!v || *v < 1 || *v > 65536) throw Error("--group-m takes 'auto' or positive integers, not '" + g + "'");
    groups.push_back(int(*v));
  }
  if (groups.empty()) throw Error("--group-m names no group size");
  return groups;
}

std::vector<int> parse_splits(const std::string& text) {
  std::vector<int> out;
  for (const auto& g : split_list(text)) {
    if (g == "auto" || g == "sk") {
      out.push_back(g == "auto" ? kAutoSplits : kStreamK);
      continue;
    }
    const auto v = parse_integer(g);
    if (!v || *v < 1 || *v > kMaxSplits)
      throw Error("--splits takes 'auto', 'sk' (stream-K) or integers 1.." + std::to_string(kMaxSplits) + ", not '" + g + "'");
    out.push_back(int(*v));
  }
  if (out.empty()) throw Error("--splits names no split count");
  return out;
}

std::vector<bool> parse_shared_tile_sum(const std::string& text) {
  if (text == "sliced") return {true};
  if (text == "last") return {false};
  if (text == "both") return {true, false};
  throw Error("--shared-tile-sum takes sliced, last or both, not '" + text + "'");
}

std::vector<bool> parse_off_on_both(const std::string& text, const std::string& option) {
  if (text == "off") return {false};
  if (text == "on") return {true};
  if (text == "both") return {false, true};
  throw Error(option + " takes off, on or both, not '" + text + "'");
}

nlohmann::json prepare_gemmforge(const ProblemOptions& p, BenchOptions& o, DeviceContext& ctx) {
  if (std::find(o.impls.begin(), o.impls.end(), "gemmforge") == o.impls.end()) return nullptr;
  std::vector<KernelConfig> configs;
  std::vector<Sm80Config> sm80;
  LaunchSweep sweep;
  try {
    configs = read_configs(p.configs, o.layouts, o.acc);
    sm80 = read_sm80_configs(p.configs, o.layouts, o.acc);
    if (configs.empty() && sm80.empty()) throw Error("--configs " + p.configs + " names no configuration");
    sweep.group_m = parse_group_m(p.group_m);
    sweep.splits = parse_splits(p.splits);
    sweep.pdl = parse_off_on_both(p.pdl, "--pdl");
    sweep.cluster_reduction = parse_off_on_both(p.cluster_reduction, "--cluster-reduction");
    sweep.sliced_reduction = parse_shared_tile_sum(p.shared_tile_sum);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  // A file may hold sm80 configs only: then there is no Hopper sweep to set up.
  nlohmann::json summary = configs.empty() ? nlohmann::json::object() : setup_gemmforge_sweep(o, ctx, configs, sweep);
  if (!sm80.empty()) summary["sm80"] = add_sm80_sweep(o, ctx, sm80);
  if (p.specialize) enable_shape_specialization(o, ctx);
  summary["specialize"] = p.specialize;
  return summary;
}

BenchOptions resolve_problem_options(const ProblemOptions& o, bool& wants_torch) {
  BenchOptions b;
  b.shapes = resolve_shapes(o.shapes, o.shape);
  if (o.sample) b.shapes = stratified_sample(b.shapes, o.sample, o.seed);
  if (o.layout == "both") b.layouts = {Layout::nn, Layout::tn};
  else b.layouts = {parse_layout(o.layout)};
  b.acc = parse_accum(o.acc);
  parse_group_m(o.group_m);  // checked here, before any GPU work; used by prepare_gemmforge
  const auto counts = parse_splits(o.splits);
  parse_off_on_both(o.pdl, "--pdl");
  parse_shared_tile_sum(o.shared_tile_sum);
  const auto in_cluster = parse_off_on_both(o.cluster_reduction, "--cluster-reduction");
  if (in_cluster.back() && std::none_of(counts.begin(), counts.end(), [](int k) { return k == kAutoSplits || k > 1; }))
    throw Error("--cluster-reduction " + o.cluster_reduction + " sums split tiles: give --splits a count above 1 or 'auto'");
  wants_torch = false;
  for (const auto& name : split_list(o.impls)) {
    if (!is_known_impl(name))
      throw Error("unknown implementation '" + name +
                  "': choose from cublas, cublaslt-heuristic, cublaslt-autotune, torch, gemmforge, gemmforge-lib, "
                  "gemmforge-lib-measured, gemmforge-lib-direct, gemmforge-lib-except-pdl, gemmforge-lib-replay-all");
    if (name == "torch") wants_torch = true;
    else b.impls.push_back(name);
  }
  if (b.impls.empty() && !wants_torch) throw Error("--impl names no implementation");
  b.gate.seed = o.seed;
  b.timing.seed = o.seed;
  return b;
}

}  // namespace gemmforge::cli
