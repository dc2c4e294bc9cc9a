// Search strategies over kernel configurations for one shape at a time, under a budget of
// measurements. The measurement is a callback, so the same strategies run against the GPU (the
// evaluator) or against recorded measurements (the replay backend) — deterministically there.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_config.hpp"
#include "core/shape.hpp"

namespace gemmforge {

// Time per call in µs of `config` on `shape`; nullopt when the candidate failed (compile, gate).
using Measure = std::function<std::optional<double>(const Shape&, const KernelConfig&)>;

struct SearchTrace {
  std::optional<KernelConfig> best;
  double best_us = 0;
  std::vector<double> best_after;  // best time after each measurement (inf until one succeeds)
  int measurements() const { return int(best_after.size()); }
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  // Spends at most `budget` measurements on configs from `space` (all valid, none repeated).
  virtual SearchTrace search(const Shape&, const std::vector<KernelConfig>& space, const Measure&, int budget) = 0;
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
  void add(const Shape&, const KernelConfig&, std::optional<double> us);
  std::optional<double> operator()(const Shape&, const KernelConfig&) const;
  size_t size() const { return table_.size(); }

 private:
  std::map<std::string, std::optional<double>> table_;
  static std::string key(const Shape&, const KernelConfig&);
};

// How a strategy compares with the exhaustive best at equal budgets (issue: strategy table).
struct StrategyScore {
  std::string strategy;
  double budget_to_95 = 0, budget_to_99 = 0;  // mean measurements until within 5% / 1% of the best
  double quality_at_small_budget = 0;         // mean best/found time ratio after `small_budget`
  int shapes = 0;
};
StrategyScore score_strategy(Strategy&, const std::vector<Shape>&, const std::vector<KernelConfig>& space,
                             const Measure&, int budget, int small_budget);

}  // namespace gemmforge
