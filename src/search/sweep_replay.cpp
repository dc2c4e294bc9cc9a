#include "search/sweep_replay.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "core/records.hpp"

namespace gemmforge {

namespace {

// The columns of sweep.csv that are read (src/cli/cmd_bench.cpp writes them).
struct Columns {
  size_t m, n, k, layout, acc, config, verdict, estimate, count;
  std::optional<size_t> finalist;
};

Columns find_columns(const std::vector<std::string>& header) {
  auto find = [&](const char* name) -> std::optional<size_t> {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt : std::optional(size_t(it - header.begin()));
  };
  auto at = [&](std::initializer_list<const char*> names) -> size_t {
    for (const char* name : names)
      if (const auto i = find(name)) return *i;
    throw Error(std::string("not a sweep.csv of gemmforge bench: no column '") + *names.begin() + "'");
  };
  return {at({"M"}),       at({"N"}),       at({"K"}),
          at({"layout"}),  at({"acc"}),     at({"config"}),
          at({"verdict"}), at({"estimate_us", "device_us"}), header.size(),
          find("finalist_median_us")};
}

// A candidate as bench names it (KernelCandidate::name), without a build for one shape.
KernelCandidate candidate_named(const std::string& name) {
  if (name.rfind("sm80_", 0) == 0) return sm80_candidate(Sm80Config::from_name(name));
  KernelCandidate c;
  std::tie(c.config, c.knobs) = parse_hopper_candidate_name(name);
  return c;
}

}  // namespace

void read_sweep_rows(const std::filesystem::path& path, const std::function<void(const SweepRow&)>& row) {
  Columns col{};
  read_csv(
      path, [&](const std::vector<std::string>& header) { col = find_columns(header); },
      [&](const std::vector<std::string>& v) {
        if (v.size() != col.count) throw Error(std::to_string(v.size()) + " fields, expected " + std::to_string(col.count));
        // A build for one shape (bench --specialize, "..._atMxNxK"): its generic build has a row.
        if (v[col.config].find("_at") != std::string::npos) return;
        auto dim = [](const std::string& t) {
          const auto n = parse_integer(t);
          if (!n || *n < 1) throw Error("'" + t + "' is not a dimension");
          return *n;
        };
        auto time = [](const std::string& t) {
          const auto us = parse_real(t);
          if (!us || !std::isfinite(*us) || *us <= 0) throw Error("'" + t + "' is not a positive time in µs");
          return *us;
        };
        SweepRow r{{dim(v[col.m]), dim(v[col.n]), dim(v[col.k])},
                   parse_layout(v[col.layout]),
                   parse_accum(v[col.acc]),
                   v[col.config],
                   candidate_named(v[col.config]),
                   std::nullopt,
                   std::nullopt};
        if (r.candidate.layout() != r.layout)
          throw Error("config " + r.name + " is for another layout than its row's (" + v[col.layout] + ")");
        if (r.candidate.acc() != r.acc)
          throw Error("config " + r.name + " is for another accumulator than its row's (" + v[col.acc] + ")");
        if (v[col.verdict] == "pass") {
          r.estimate_us = time(v[col.estimate]);
          if (col.finalist && !v[*col.finalist].empty()) r.finalist_us = time(v[*col.finalist]);
        }
        row(r);
      });
}

SweepReplay load_sweep_replay(const std::vector<std::filesystem::path>& files) {
  SweepReplay r;
  std::map<Layout, std::vector<Shape>> shapes;
  std::map<Layout, std::map<std::string, std::set<std::string>>> seen;  // layout -> config -> shapes
  std::set<std::string> recorded;
  std::optional<Accum> accum;
  for (const auto& path : files) {
    read_sweep_rows(path, [&](const SweepRow& row) {
      const std::string key = to_string(row.shape) + " " + row.name;
      if (!recorded.insert(key).second) throw Error(key + " is recorded twice (mixing runs?)");
      // One accumulator per replay: f32 and f16 configs share knob values, not timings.
      if (!accum) accum = row.acc;
      if (row.acc != *accum) throw Error("mixes f32 and f16 recordings; replay one accumulator at a time");
      // A Hopper config swept with launch knobs (--splits, --pdl, ...) is one point of the space:
      // its fastest passing variant at the shape (ReplayMeasure::add). sm80 configs have no
      // launch knobs.
      const Sm80Config* s80 = row.candidate.sm80_config();
      if (s80) r.measure.add(row.shape, *s80, row.estimate_us);
      else r.measure.add(row.shape, row.candidate.config, row.estimate_us);
      auto& list = shapes[row.layout];
      if (std::find(list.begin(), list.end(), row.shape) == list.end()) list.push_back(row.shape);
      seen[row.layout][row.candidate.config_name()].insert(to_string(row.shape));
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
      return std::make_tuple(c.block_m, c.block_n, c.stages, c.consumers, int(c.mode), c.cluster_m * 16 + c.cluster_n,
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
