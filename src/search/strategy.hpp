// Search strategies over kernel configurations for one shape at a time, under a budget of
// measurements. The measurement is a callback, so the same strategies run against the GPU (the
// evaluator) or against recorded measurements (the replay backend) — deterministically there.
// A strategy sees a family's configs as vectors of knob values (knobs_of), so one strategy object
// searches the Hopper family and the sm80 family alike; the rl policy keeps its weights per family.
#pragma once
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/kernel_config.hpp"
#include "core/shape.hpp"
#include "core/sm80_config.hpp"

namespace gemmforge {

// The values of a config's searchable knobs; layout and accumulator are fixed by the problem.
using Knobs = std::vector<int>;
Knobs knobs_of(const KernelConfig&);  // tile M, N, stages, consumers, mode, cluster M, N, multicast, TMA store, swap-AB
Knobs knobs_of(const Sm80Config&);    // tile M, N, K, warps M, N, stages, 16-byte loads
inline const char* family_of(const KernelConfig&) { return "hopper"; }
inline const char* family_of(const Sm80Config&) { return "sm80"; }

// Time per call in µs of a config on a shape; nullopt when the candidate failed (compile, gate).
template <class Config>
using MeasureOf = std::function<std::optional<double>(const Shape&, const Config&)>;
using Measure = MeasureOf<KernelConfig>;
using Sm80Measure = MeasureOf<Sm80Config>;

template <class Config>
struct SearchTraceOf {
  std::optional<Config> best;
  double best_us = 0;
  std::vector<double> best_after;  // best time after each measurement (inf until one succeeds)
  int measurements() const { return int(best_after.size()); }
};
using SearchTrace = SearchTraceOf<KernelConfig>;

// A family's space as the strategies work on it: distinct knob vectors, measured by index.
struct KnobSpace {
  std::string family;
  std::vector<Knobs> points;
};
struct IndexTrace {
  std::optional<size_t> best;
  double best_us = 0;
  std::vector<double> best_after;
};
using IndexMeasure = std::function<std::optional<double>(size_t)>;

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // Spends at most `budget` measurements on configs from `space` (all valid, none repeated).
  template <class Config>
  SearchTraceOf<Config> search(const Shape& s, const std::vector<Config>& space,
                               const std::type_identity_t<MeasureOf<Config>>& m, int budget) {
    KnobSpace ks{family_of(Config{}), {}};
    for (const auto& c : space) ks.points.push_back(knobs_of(c));
    const IndexTrace t = search_points(s, ks, [&](size_t i) { return m(s, space[i]); }, budget);
    SearchTraceOf<Config> out;
    if (t.best) out.best = space[*t.best];
    out.best_us = t.best_us;
    out.best_after = t.best_after;
    return out;
  }

 protected:
  virtual IndexTrace search_points(const Shape&, const KnobSpace&, const IndexMeasure&, int budget) = 0;
};

// exhaustive: the space in order. random: a seeded permutation. evolution: tournament selection
// and one-knob mutations. rl: a policy over knob values conditioned on shape features, trained
// by REINFORCE on measured rewards and shared across shapes (later shapes start smarter).
std::unique_ptr<Strategy> make_strategy(const std::string& name, uint64_t seed);
const std::vector<std::string>& strategy_names();

// The replay backend: measurements recorded on a GPU, looked up by (shape, config name).
class ReplayMeasure {
 public:
  // Records one launch of the config at the shape; a config launched several ways (launch-knob
  // variants) keeps its fastest passing time, as the tuner keeps a config's best variant.
  template <class Config>
  void add(const Shape& s, const Config& c, std::optional<double> us) {
    add_named(s, c.name(), us);
  }
  template <class Config>
  std::optional<double> operator()(const Shape& s, const Config& c) const {
    return find_named(s, c.name());
  }
  size_t size() const { return table_.size(); }

 private:
  void add_named(const Shape&, const std::string& name, std::optional<double> us);
  std::optional<double> find_named(const Shape&, const std::string& name) const;
  std::map<std::string, std::optional<double>> table_;
};

// How a strategy compares with the exhaustive best at equal budgets (issue: strategy table).
struct StrategyScore {
  std::string strategy;
  double budget_to_95 = 0, budget_to_99 = 0;  // mean measurements until within 5% / 1% of the best
  double quality_at_small_budget = 0;         // mean best/found time ratio after `small_budget`
  int shapes = 0;
};
// One shape's part of a score: the best recorded time (inf if none passed) and the search's trace.
struct ShapeSearch {
  double best_us;
  std::vector<double> best_after;
};
StrategyScore score_searches(const std::string& strategy, const std::vector<ShapeSearch>&, int budget,
                             int small_budget);
template <class Config>
StrategyScore score_strategy(Strategy& strategy, const std::vector<Shape>& shapes, const std::vector<Config>& space,
                             const std::type_identity_t<MeasureOf<Config>>& measure, int budget, int small_budget) {
  std::vector<ShapeSearch> runs;
  for (const auto& s : shapes) {
    ShapeSearch r{std::numeric_limits<double>::infinity(), {}};
    for (const auto& c : space)
      if (auto t = measure(s, c); t && *t < r.best_us) r.best_us = *t;
    if (r.best_us == std::numeric_limits<double>::infinity()) continue;  // nothing to find
    r.best_after = strategy.search(s, space, measure, budget).best_after;
    runs.push_back(std::move(r));
  }
  return score_searches(strategy.name(), runs, budget, small_budget);
}

}  // namespace gemmforge
