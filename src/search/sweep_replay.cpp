#include "search/sweep_replay.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "core/records.hpp"

namespace gemmforge {

namespace {

// The columns of sweep.csv that the replay reads (src/cli/cmd_bench.cpp writes them). Files from
// before the finalist stage call the estimate "device_us".
struct Columns {
  size_t m, n, k, layout, acc, config, verdict, estimate, count;
};

Columns find_columns(const std::vector<std::string>& header) {
  auto at = [&](std::initializer_list<const char*> names) -> size_t {
    for (const char* name : names)
      if (auto it = std::find(header.begin(), header.end(), name); it != header.end()) return size_t(it - header.begin());
    throw Error(std::string("no column '") + *names.begin() + "'");
  };
  return {at({"M"}), at({"N"}), at({"K"}), at({"layout"}), at({"acc"}), at({"config"}), at({"verdict"}),
          at({"estimate_us", "device_us"}), header.size()};
}

}  // namespace

SweepReplay load_sweep_replay(const std::vector<std::filesystem::path>& files) {
  SweepReplay r;
  std::map<Layout, std::vector<Shape>> shapes;
  std::map<Layout, std::map<std::string, std::set<std::string>>> seen;  // layout -> config -> shapes
  std::set<std::string> recorded;
  std::optional<Accum> accum;
  for (const auto& path : files) {
    Columns col{};
    read_csv(
        path,
        [&](const std::vector<std::string>& header) {
          try {
            col = find_columns(header);
          } catch (const Error& e) {
            throw Error(std::string("not a sweep.csv of gemmforge bench: ") + e.what());
          }
        },
        [&](const std::vector<std::string>& v) {
          if (v.size() != col.count)
            throw Error(std::to_string(v.size()) + " fields, expected " + std::to_string(col.count));
          auto dim = [](const std::string& t) {
            const auto n = parse_integer(t);
            if (!n || *n < 1) throw Error("'" + t + "' is not a dimension");
            return *n;
          };
          const Shape s{dim(v[col.m]), dim(v[col.n]), dim(v[col.k])};
          const Layout layout = parse_layout(v[col.layout]);
          const std::string& name = v[col.config];
          // A build for one shape (bench --specialize, "..._atMxNxK") is not a point of the config
          // space the strategies search: its generic build's row is there.
          if (name.find("_at") != std::string::npos) return;
          // A Hopper config swept with launch knobs (--splits, --pdl, ...) is one point of the
          // space: its fastest passing variant at the shape (ReplayMeasure::add). sm80 configs
          // have no launch knobs.
          const bool sm80 = name.rfind("sm80_", 0) == 0;
          const std::optional<Sm80Config> s80 = sm80 ? std::optional(Sm80Config::from_name(name)) : std::nullopt;
          const std::optional<KernelConfig> hopper =
              sm80 ? std::nullopt : std::optional(parse_hopper_candidate_name(name).first);
          const Layout config_layout = sm80 ? s80->layout : hopper->layout;
          const Accum config_acc = sm80 ? s80->acc : hopper->acc;
          const std::string point = sm80 ? s80->name() : hopper->name();
          if (config_layout != layout) throw Error("config " + name + " recorded under layout " + v[col.layout]);
          const std::string key = to_string(s) + " " + name;
          if (!recorded.insert(key).second) throw Error(key + " is recorded twice (mixing runs?)");
          // One accumulator per replay: f32 and f16 configs share knob values, not timings.
          const Accum acc = parse_accum(v[col.acc]);
          if (!accum) accum = acc;
          if (acc != *accum) throw Error("mixes f32 and f16 recordings; replay one accumulator at a time");
          if (config_acc != acc) throw Error("config " + name + " recorded under accumulator " + v[col.acc]);
          std::optional<double> us;
          if (v[col.verdict] == "pass") {
            const auto t = parse_real(v[col.estimate]);
            if (!t || !std::isfinite(*t) || *t <= 0)
              throw Error("'" + v[col.estimate] + "' is not a positive time in µs");
            us = t;
          }
          if (sm80) r.measure.add(s, *s80, us);
          else r.measure.add(s, *hopper, us);
          auto& list = shapes[layout];
          if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
          seen[layout][point].insert(to_string(s));
          ++r.rows;
        });
  }
  if (r.rows == 0) throw Error("the sweep files hold no measurements");
  for (auto& [layout, list] : shapes) {
    SweepReplay::Part part;
    part.shapes = list;
    for (const auto& [name, where] : seen[layout]) {
      const bool sm80 = name.rfind("sm80_", 0) == 0;
      if (where.size() != list.size()) ++(sm80 ? part.sm80_dropped_configs : part.dropped_configs);
      else if (sm80) part.sm80_space.push_back(Sm80Config::from_name(name));
      else part.space.push_back(KernelConfig::from_name(name));
    }
    // The order config_space() enumerates in (block_m, block_n, stages, ...): the order the
    // exhaustive strategy walks, so its figures mean "in the space's natural order".
    auto rank = [](const KernelConfig& c) {
      return std::make_tuple(c.block_m, c.block_n, c.stages, c.consumers, int(c.mode), c.cluster_m * 2 + c.cluster_n,
                             c.multicast, c.tma_store);
    };
    std::stable_sort(part.space.begin(), part.space.end(),
                     [&](const KernelConfig& a, const KernelConfig& b) { return rank(a) < rank(b); });
    auto rank80 = [warps = Sm80SpaceAxes{}.warps](const Sm80Config& c) {  // sm80_config_space()'s order
      const auto w = std::find(warps.begin(), warps.end(), std::make_pair(c.warps_m, c.warps_n)) - warps.begin();
      return std::make_tuple(c.block_m, c.block_n, c.block_k, w, !c.vec16, c.stages);
    };
    std::stable_sort(part.sm80_space.begin(), part.sm80_space.end(),
                     [&](const Sm80Config& a, const Sm80Config& b) { return rank80(a) < rank80(b); });
    r.parts[layout] = std::move(part);
  }
  return r;
}

}  // namespace gemmforge
