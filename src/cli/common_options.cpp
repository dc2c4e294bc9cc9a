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
                 "comma list of cublas, cublaslt-heuristic, cublaslt-autotune, torch, gemmforge")
      ->capture_default_str();
  app.add_option("--configs", o.configs,
                 "with --impl gemmforge: 'all' kernel configurations, or a JSON file of them; each shape keeps "
                 "the fastest that passes the gate")
      ->capture_default_str();
  app.add_option("--group-m", o.group_m,
                 "with --impl gemmforge: raster group sizes (tile rows) to sweep each config with, comma list; "
                 "'auto' sizes a wave of CTAs to a square of C")
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

nlohmann::json prepare_gemmforge(const ProblemOptions& p, BenchOptions& o, DeviceContext& ctx) {
  if (std::find(o.impls.begin(), o.impls.end(), "gemmforge") == o.impls.end()) return nullptr;
  std::vector<KernelConfig> configs;
  std::vector<int> groups;
  try {
    configs = read_configs(p.configs, o.layouts, o.acc);
    groups = parse_group_m(p.group_m);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  return setup_gemmforge_sweep(o, ctx, configs, groups);
}

BenchOptions resolve_problem_options(const ProblemOptions& o, bool& wants_torch) {
  BenchOptions b;
  b.shapes = resolve_shapes(o.shapes, o.shape);
  if (o.sample) b.shapes = stratified_sample(b.shapes, o.sample, o.seed);
  if (o.layout == "both") b.layouts = {Layout::nn, Layout::tn};
  else b.layouts = {parse_layout(o.layout)};
  b.acc = parse_accum(o.acc);
  parse_group_m(o.group_m);  // checked here, before any GPU work; used by prepare_gemmforge
  wants_torch = false;
  for (const auto& name : split_list(o.impls)) {
    if (!is_known_impl(name))
      throw Error("unknown implementation '" + name +
                  "': choose from cublas, cublaslt-heuristic, cublaslt-autotune, torch, gemmforge");
    if (name == "torch") wants_torch = true;
    else b.impls.push_back(name);
  }
  if (b.impls.empty() && !wants_torch) throw Error("--impl names no implementation");
  b.gate.seed = o.seed;
  b.timing.seed = o.seed;
  return b;
}

}  // namespace gemmforge::cli
