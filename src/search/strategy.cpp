#include "search/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "core/stats.hpp"

namespace gemmforge {

Knobs knobs_of(const KernelConfig& c) {
  return {c.block_m, c.block_n, c.stages, c.consumers, int(c.mode), c.cluster_m, c.cluster_n, c.multicast, c.tma_store,
          c.swap_ab};
}

Knobs knobs_of(const Sm80Config& c) {
  return {c.block_m, c.block_n, c.block_k, c.warps_m, c.warps_n, c.stages, c.vec16};
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The space, indexed by knob values, with each knob's domain.
struct IndexedSpace {
  const std::vector<Knobs>& points;
  std::map<Knobs, size_t> index;
  std::vector<std::vector<int>> domains;  // sorted distinct values per knob

  explicit IndexedSpace(const std::vector<Knobs>& space) : points(space) {
    std::vector<std::set<int>> d;
    for (size_t i = 0; i < space.size(); ++i) {
      const Knobs& k = space[i];
      index.emplace(k, i);
      if (d.empty()) d.resize(k.size());
      for (size_t j = 0; j < k.size(); ++j) d[j].insert(k[j]);
    }
    for (auto& s : d) domains.emplace_back(s.begin(), s.end());
  }
  std::optional<size_t> find(const Knobs& k) const {
    auto it = index.find(k);
    return it == index.end() ? std::nullopt : std::optional<size_t>(it->second);
  }
};

// Bookkeeping shared by every strategy: no config is measured twice, the budget is respected,
// and the trace records the best time after each measurement.
class Session {
 public:
  Session(size_t space_size, const IndexMeasure& m, int budget)
      : size_(space_size), measure_(m), budget_(std::min<int>(budget, int(space_size))) {}
  bool done() const { return int(measured_.size()) >= budget_; }
  bool measured(size_t i) const { return measured_.count(i) != 0; }
  std::optional<double> measure(size_t i) {
    measured_.insert(i);
    const auto t = measure_(i);
    if (t && (!trace_.best || *t < trace_.best_us)) {
      trace_.best = i;
      trace_.best_us = *t;
    }
    trace_.best_after.push_back(trace_.best ? trace_.best_us : kInf);
    return t;
  }
  std::optional<size_t> random_unmeasured(std::mt19937_64& rng) const {
    if (measured_.size() >= size_) return std::nullopt;
    std::uniform_int_distribution<size_t> pick(0, size_ - 1);
    for (int tries = 0; tries < 64; ++tries)
      if (size_t i = pick(rng); !measured(i)) return i;
    for (size_t i = 0; i < size_; ++i)
      if (!measured(i)) return i;
    return std::nullopt;
  }
  IndexTrace finish() { return std::move(trace_); }

 private:
  size_t size_;
  const IndexMeasure& measure_;
  int budget_;
  std::set<size_t> measured_;
  IndexTrace trace_;
};

class Exhaustive final : public Strategy {
 public:
  std::string name() const override { return "exhaustive"; }
  IndexTrace search_points(const Shape&, const KnobSpace& space, const IndexMeasure& m, int budget) override {
    Session run(space.points.size(), m, budget);
    for (size_t i = 0; i < space.points.size() && !run.done(); ++i) run.measure(i);
    return run.finish();
  }
};

class RandomSearch final : public Strategy {
 public:
  explicit RandomSearch(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  IndexTrace search_points(const Shape&, const KnobSpace& space, const IndexMeasure& m, int budget) override {
    Session run(space.points.size(), m, budget);
    std::vector<size_t> order(space.points.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    for (size_t i = 0; i < order.size() && !run.done(); ++i) run.measure(order[i]);
    return run.finish();
  }

 private:
  std::mt19937_64 rng_;
};

// Steady-state evolution: a population of the best measured configs; each step picks the
// better of two random members and changes one knob to another value of its domain.
class Evolution final : public Strategy {
 public:
  explicit Evolution(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "evolution"; }
  IndexTrace search_points(const Shape&, const KnobSpace& space, const IndexMeasure& m, int budget) override {
    const IndexedSpace idx(space.points);
    Session run(space.points.size(), m, budget);
    std::vector<std::pair<double, size_t>> population;  // (time, config index)
    constexpr size_t kPopulation = 8;
    auto add = [&](size_t i) {
      if (auto t = run.measure(i)) {
        population.push_back({*t, i});
        std::sort(population.begin(), population.end());
        if (population.size() > kPopulation) population.pop_back();
      }
    };
    while (!run.done() && population.size() < kPopulation) {
      auto i = run.random_unmeasured(rng_);
      if (!i) break;
      add(*i);
    }
    while (!run.done()) {
      std::optional<size_t> child;
      if (!population.empty()) {
        std::uniform_int_distribution<size_t> member(0, population.size() - 1);
        const size_t a = member(rng_), b = member(rng_);
        const Knobs parent = space.points[population[std::min(a, b)].second];  // sorted: lower index is faster
        for (int tries = 0; tries < 32 && !child; ++tries) {
          Knobs k = parent;
          std::uniform_int_distribution<size_t> knob(0, k.size() - 1);
          const size_t j = knob(rng_);
          const auto& dom = idx.domains[j];
          if (dom.size() < 2) continue;
          std::uniform_int_distribution<size_t> value(0, dom.size() - 1);
          k[j] = dom[value(rng_)];
          if (auto i = idx.find(k); i && !run.measured(*i)) child = i;
        }
      }
      if (!child) child = run.random_unmeasured(rng_);
      if (!child) break;
      add(*child);
    }
    return run.finish();
  }

 private:
  std::mt19937_64 rng_;
};

// Contextual policy gradient. For each knob, a softmax over its values with logits linear in
// the shape's features (log-sizes). A config is sampled knob by knob, each knob restricted to the
// values that still lead to an unmeasured config of the space given the knobs already chosen
// (so every sample is valid and new, and the policy is never bypassed, however many knob
// combinations the rules forbid). After each measurement, REINFORCE on the restricted
// distributions with a per-shape running baseline: advantage = log(baseline time / measured
// time). The weights persist across shapes, so what made large shapes fast on this GPU is where
// the next large shape starts. A share of the picks (kExplore) is drawn uniformly from the
// unmeasured configs instead, and learnt from like the policy's own: online, the policy can
// otherwise settle where it never proposes a region again, however well that region would do on
// later shapes (a whole-grid tune in session 8 never measured the configs that had won most mid
// tn shapes the session before).
class PolicyGradient final : public Strategy {
 public:
  explicit PolicyGradient(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "rl"; }

  IndexTrace search_points(const Shape& s, const KnobSpace& space, const IndexMeasure& m, int budget) override {
    if (space.points.empty()) return {};  // nothing to learn from (and no domains to size weights by)
    const IndexedSpace idx(space.points);
    // Each family's knobs mean different things: its own weights, kept across its problems.
    auto& family_weights = weights_[space.family];
    if (family_weights.size() != idx.domains.size()) family_weights.assign(idx.domains.size(), {});
    const std::vector<double> phi = features(s);
    std::vector<std::vector<size_t>> value_index(space.points.size());  // per config: its value's index per knob
    for (size_t i = 0; i < space.points.size(); ++i) {
      const Knobs& k = space.points[i];
      for (size_t j = 0; j < k.size(); ++j)
        value_index[i].push_back(
            size_t(std::lower_bound(idx.domains[j].begin(), idx.domains[j].end(), k[j]) - idx.domains[j].begin()));
    }
    Session run(space.points.size(), m, budget);
    double baseline_log = 0;
    int seen = 0;
    std::vector<size_t> open;  // unmeasured configs
    for (size_t i = 0; i < space.points.size(); ++i) open.push_back(i);
    while (!run.done() && !open.empty()) {
      std::vector<size_t> candidates = open;
      std::vector<std::vector<double>> used(idx.domains.size());  // the restricted distributions
      std::vector<size_t> choice(idx.domains.size());
      std::optional<size_t> explored;
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < kExplore)
        explored = open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng_)];
      for (size_t j = 0; j < idx.domains.size(); ++j) {
        std::vector<bool> allowed(idx.domains[j].size(), false);
        for (size_t i : candidates) allowed[value_index[i][j]] = true;
        std::vector<double> p = softmax(family_weights[j], idx.domains[j], phi, allowed);
        choice[j] = explored ? value_index[*explored][j] : sample(p);
        used[j] = std::move(p);
        std::erase_if(candidates, [&](size_t i) { return value_index[i][j] != choice[j]; });
      }
      const size_t pick = candidates.front();  // knob values identify a config
      std::erase(open, pick);
      const auto t = run.measure(pick);
      double advantage;
      if (t) {
        const double log_t = std::log(*t);
        advantage = seen ? baseline_log - log_t : 0.0;
        baseline_log = seen ? 0.8 * baseline_log + 0.2 * log_t : log_t;
        ++seen;
      } else {
        advantage = -1.0;  // failed the gate or the compile: steer away
      }
      update(family_weights, idx, choice, used, phi, std::clamp(advantage, -2.0, 2.0));
    }
    return run.finish();
  }

 private:
  static std::vector<double> features(const Shape& s) {
    auto lg = [](int64_t v) { return std::log2(double(v)) / 14.0; };  // 16384 → 1
    return {1.0, lg(s.M), lg(s.N), lg(s.K), lg(s.M) * lg(s.N)};
  }
  // Per knob: each value's weights over the features (zero until first updated). Kept by value,
  // not by its position in a domain, so a space with other values for a knob never inherits wrong
  // weights.
  using KnobWeights = std::map<int, std::vector<double>>;
  static std::vector<double>& weights(KnobWeights& knob, int value) {
    auto& w = knob[value];
    if (w.empty()) w.assign(features({1, 1, 1}).size(), 0.0);
    return w;
  }
  // The policy's distribution over a knob's domain, restricted to the allowed values: the logits
  // of the others are -inf, so the normalisation never sees them (no underflow to 0/0).
  static std::vector<double> softmax(KnobWeights& knob, const std::vector<int>& domain, const std::vector<double>& phi,
                                     const std::vector<bool>& allowed) {
    std::vector<double> z(domain.size(), -kInf);
    double mx = -kInf;
    for (size_t v = 0; v < domain.size(); ++v) {
      if (!allowed[v]) continue;
      const auto& w = weights(knob, domain[v]);
      z[v] = 0;
      for (size_t f = 0; f < phi.size(); ++f) z[v] += w[f] * phi[f];
      mx = std::max(mx, z[v]);
    }
    double sum = 0;
    for (double& x : z) sum += (x = std::isfinite(x) ? std::exp(x - mx) : 0.0);
    for (double& x : z) x /= sum;  // sum ≥ 1: the largest allowed term is exp(0)
    return z;
  }
  size_t sample(const std::vector<double>& p) {
    std::discrete_distribution<size_t> d(p.begin(), p.end());
    return d(rng_);
  }
  // Gradient of log p(choice) for each knob's restricted softmax: onehot − p on the allowed values.
  static void update(std::vector<KnobWeights>& family_weights, const IndexedSpace& idx, const std::vector<size_t>& choice,
                     const std::vector<std::vector<double>>& used, const std::vector<double>& phi, double advantage) {
    constexpr double kLearningRate = 0.5;
    for (size_t j = 0; j < choice.size(); ++j) {
      const auto& p = used[j];
      for (size_t v = 0; v < p.size(); ++v) {
        const double grad = (v == choice[j] ? 1.0 : 0.0) - p[v];
        if (grad == 0.0) continue;
        auto& w = weights(family_weights[j], idx.domains[j][v]);
        for (size_t f = 0; f < phi.size(); ++f) w[f] += kLearningRate * advantage * grad * phi[f];
      }
    }
  }

  static constexpr double kExplore = 0.15;  // about one pick in a budget of six
  std::mt19937_64 rng_;
  std::map<std::string, std::vector<KnobWeights>> weights_;  // [family][knob][value] -> per-feature weight
};

}  // namespace

const std::vector<std::string>& strategy_names() {
  static const std::vector<std::string> names = {"exhaustive", "random", "evolution", "rl"};
  return names;
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, uint64_t seed) {
  if (name == "exhaustive") return std::make_unique<Exhaustive>();
  if (name == "random") return std::make_unique<RandomSearch>(seed);
  if (name == "evolution") return std::make_unique<Evolution>(seed);
  if (name == "rl") return std::make_unique<PolicyGradient>(seed);
  throw Error("unknown strategy '" + name + "': choose from exhaustive, random, evolution, rl");
}

void ReplayMeasure::add_named(const Shape& s, const std::string& name, std::optional<double> us) {
  auto [it, first] = table_.try_emplace(to_string(s) + "/" + name, us);
  if (!first && us && (!it->second || *us < *it->second)) it->second = us;
}

std::optional<double> ReplayMeasure::find_named(const Shape& s, const std::string& name) const {
  auto it = table_.find(to_string(s) + "/" + name);
  return it == table_.end() ? std::nullopt : it->second;
}

StrategyScore score_searches(const std::string& strategy, const std::vector<ShapeSearch>& runs, int budget,
                             int small_budget) {
  StrategyScore score;
  score.strategy = strategy;
  std::vector<double> to95, to99, quality;
  for (const auto& r : runs) {
    auto reach = [&](double within) {
      for (size_t i = 0; i < r.best_after.size(); ++i)
        if (r.best_after[i] <= r.best_us * within) return double(i + 1);
      return double(budget);  // not reached inside the budget: counted as the whole budget
    };
    to95.push_back(reach(1.0 / 0.95));
    to99.push_back(reach(1.0 / 0.99));
    const int k = std::min<int>(small_budget, int(r.best_after.size()));
    quality.push_back(k > 0 && std::isfinite(r.best_after[size_t(k - 1)]) ? r.best_us / r.best_after[size_t(k - 1)]
                                                                          : 0.0);
  }
  score.shapes = int(quality.size());
  score.budget_to_95 = arithmetic_mean(to95);
  score.budget_to_99 = arithmetic_mean(to99);
  score.quality_at_small_budget = arithmetic_mean(quality);
  return score;
}

}  // namespace gemmforge
