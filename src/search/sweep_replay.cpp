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
          // The strategies search Hopper knobs: sm80-family rows (bench --configs with sm80 configs)
          // are not points of their space either.
          if (name.rfind("sm80_", 0) == 0) return;
          // A config swept with launch knobs (--splits, --pdl, ...) is one point of the space:
          // its fastest passing variant at the shape (ReplayMeasure::add).
          const KernelConfig c = parse_hopper_candidate_name(name).first;
          if (c.layout != layout) throw Error("config " + name + " recorded under layout " + v[col.layout]);
          const std::string key = to_string(s) + " " + name;
          if (!recorded.insert(key).second) throw Error(key + " is recorded twice (mixing runs?)");
          // One accumulator per replay: f32 and f16 configs share knob values, not timings.
          const Accum acc = parse_accum(v[col.acc]);
          if (!accum) accum = acc;
          if (acc != *accum) throw Error("mixes f32 and f16 recordings; replay one accumulator at a time");
          if (c.acc != acc) throw Error("config " + name + " recorded under accumulator " + v[col.acc]);
          std::optional<double> us;
          if (v[col.verdict] == "pass") {
            const auto t = parse_real(v[col.estimate]);
            if (!t || !std::isfinite(*t) || *t <= 0)
              throw Error("'" + v[col.estimate] + "' is not a positive time in µs");
            us = t;
          }
          r.measure.add(s, c, us);
          auto& list = shapes[layout];
          if (std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
          seen[layout][c.name()].insert(to_string(s));
          ++r.rows;
        });
  }
  if (r.rows == 0) throw Error("the sweep files hold no measurements");
  for (auto& [layout, list] : shapes) {
    SweepReplay::Part part;
    part.shapes = list;
    for (const auto& [name, where] : seen[layout]) {
      if (where.size() == list.size()) part.space.push_back(KernelConfig::from_name(name));
      else ++part.dropped_configs;
    }
    // The order config_space() enumerates in (block_m, block_n, stages, ...): the order the
    // exhaustive strategy walks, so its figures mean "in the space's natural order".
    auto rank = [](const KernelConfig& c) {
      return std::make_tuple(c.block_m, c.block_n, c.stages, c.consumers, int(c.mode), c.cluster_m * 2 + c.cluster_n,
                             c.multicast, c.tma_store);
    };
    std::stable_sort(part.space.begin(), part.space.end(),
                     [&](const KernelConfig& a, const KernelConfig& b) { return rank(a) < rank(b); });
    r.parts[layout] = std::move(part);
  }
  return r;
}

}  // namespace gemmforge
