// Search strategies against a deterministic replay of a synthetic but structured cost model
// (tile waste, pipeline depth, consumers), on the real tn config space. No GPU involved.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "search/strategy.hpp"

namespace gemmforge {
namespace {

// A cost model with the structure real kernels have: wasted tile area, too few or too many
// stages, one consumer for tall tiles, plus 3% deterministic noise per (shape, config).
double synthetic_us(const Shape& s, const KernelConfig& c) {
  const double tiles_m = std::ceil(double(s.M) / c.block_m), tiles_n = std::ceil(double(s.N) / c.block_n);
  const double waste = tiles_m * c.block_m * tiles_n * c.block_n / (double(s.M) * double(s.N));
  const double stage_penalty = 1.0 + 0.04 * std::abs(c.stages - 4);
  const double consumer_penalty = (c.block_m >= 128 && c.consumers == 1) ? 1.15 : 1.0;
  const double small_tile_penalty = 1.0 + 8.0 / c.block_n + 8.0 / c.block_m;
  const uint64_t h = std::hash<std::string>{}(to_string(s) + c.name());
  const double noise = 1.0 + 0.03 * (double(h % 1000) / 1000.0 - 0.5);
  return s.flops() / 600e6 * waste * stage_penalty * consumer_penalty * small_tile_penalty * noise;
}

std::vector<Shape> shapes(int first, int count) {
  const int64_t sizes[] = {512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192};
  std::vector<Shape> out;
  for (int i = first; i < first + count; ++i)
    out.push_back({sizes[i % 9], sizes[(i * 4 + 1) % 9], sizes[(i * 7 + 3) % 9]});
  return out;
}

ReplayMeasure replay(const std::vector<Shape>& ss, const std::vector<KernelConfig>& space) {
  ReplayMeasure r;
  for (const auto& s : ss)
    for (const auto& c : space) r.add(s, c, synthetic_us(s, c));
  return r;
}

TEST(Search, ReplayLooksUpWhatWasRecordedOnly) {
  const auto space = config_space(Layout::tn, Accum::f32);
  ReplayMeasure r;
  r.add({64, 64, 64}, space[0], 3.5);
  r.add({64, 64, 64}, space[1], std::nullopt);  // failed the gate
  EXPECT_EQ(r({64, 64, 64}, space[0]).value(), 3.5);
  EXPECT_FALSE(r({64, 64, 64}, space[1]).has_value());
  EXPECT_FALSE(r({64, 64, 128}, space[0]).has_value());
}

TEST(Search, EveryStrategyRespectsTheBudgetNeverRepeatsAndIsDeterministic) {
  const auto space = config_space(Layout::tn, Accum::f32);
  const auto ss = shapes(0, 2);
  const ReplayMeasure r = replay(ss, space);
  for (const auto& name : strategy_names()) {
    std::set<std::string> seen;
    Measure counting = [&](const Shape& s, const KernelConfig& c) {
      EXPECT_TRUE(seen.insert(to_string(s) + c.name()).second) << name << " measured " << c.name() << " twice";
      return r(s, c);
    };
    auto a = make_strategy(name, 7), b = make_strategy(name, 7);
    const auto ta = a->search(ss[0], space, counting, 40);
    seen.clear();
    const auto tb = b->search(ss[0], space, counting, 40);
    EXPECT_EQ(ta.measurements(), 40) << name;
    EXPECT_EQ(ta.best_after, tb.best_after) << name << " is not deterministic for a seed";
    ASSERT_TRUE(ta.best.has_value());
    for (size_t i = 1; i < ta.best_after.size(); ++i) EXPECT_LE(ta.best_after[i], ta.best_after[i - 1]);
  }
}

TEST(Search, ExhaustiveFindsTheTrueBest) {
  const auto space = config_space(Layout::tn, Accum::f32);
  const Shape s{3072, 1536, 4096};
  const ReplayMeasure r = replay({s}, space);
  double best = 1e300;
  for (const auto& c : space) best = std::min(best, synthetic_us(s, c));
  const auto t = make_strategy("exhaustive", 1)->search(s, space, r, int(space.size()));
  EXPECT_DOUBLE_EQ(t.best_us, best);
}

TEST(Search, ThePolicyLearnsAcrossShapesAndBeatsRandomOnUnseenShapes) {
  const auto space = config_space(Layout::tn, Accum::f32);
  const auto train = shapes(0, 24), held_out = shapes(40, 12);
  std::vector<Shape> all = train;
  all.insert(all.end(), held_out.begin(), held_out.end());
  const ReplayMeasure r = replay(all, space);
  auto rl = make_strategy("rl", 3);
  for (const auto& s : train) rl->search(s, space, r, 48);  // later shapes start smarter
  auto random = make_strategy("random", 3);
  const auto rl_score = score_strategy(*rl, held_out, space, r, 64, 16);
  const auto random_score = score_strategy(*random, held_out, space, r, 64, 16);
  EXPECT_GT(rl_score.quality_at_small_budget, random_score.quality_at_small_budget)
      << "rl " << rl_score.quality_at_small_budget << " vs random " << random_score.quality_at_small_budget;
}

// The same for the sm80 family, while the policy also searches Hopper configs in between (each
// family has weights of its own: a tile of 16 means one thing in one family only).
double synthetic_sm80_us(const Shape& s, const Sm80Config& c) {
  const double tiles = std::ceil(double(s.M) / c.block_m) * std::ceil(double(s.N) / c.block_n);
  const double waste = tiles * c.block_m * c.block_n / (double(s.M) * double(s.N));
  const double occupancy = std::min(1.0, tiles * c.threads() / (132.0 * 128));  // small grids leave SMs idle
  const double stage_penalty = 1.0 + 0.05 * std::abs(c.stages - 3) + (c.vec16 ? 0.0 : 0.3);
  const uint64_t h = std::hash<std::string>{}(to_string(s) + c.name());
  const double noise = 1.0 + 0.03 * (double(h % 1000) / 1000.0 - 0.5);
  return 2.0 + s.flops() / 50e6 * waste * stage_penalty / occupancy * noise;
}

TEST(Search, ThePolicyLearnsSm80WhileAlsoSearchingHopperAndBeatsRandomOnUnseenShapes) {
  const auto hopper = config_space(Layout::tn, Accum::f32);
  const auto sm80 = sm80_config_space(Layout::tn, Accum::f32);
  const auto train = shapes(0, 24), held_out = shapes(40, 12);
  std::vector<Shape> all = train;
  all.insert(all.end(), held_out.begin(), held_out.end());
  ReplayMeasure r = replay(all, hopper);
  for (const auto& s : all)
    for (const auto& c : sm80) r.add(s, c, synthetic_sm80_us(s, c));
  auto rl = make_strategy("rl", 3);
  for (const auto& s : train) {  // the families alternate, as the tuner's problems have both
    rl->search(s, sm80, r, 24);
    rl->search(s, hopper, r, 24);
  }
  auto random = make_strategy("random", 3);
  const auto rl_score = score_strategy(*rl, held_out, sm80, r, 48, 8);
  const auto random_score = score_strategy(*random, held_out, sm80, r, 48, 8);
  EXPECT_GT(rl_score.quality_at_small_budget, random_score.quality_at_small_budget)
      << "rl " << rl_score.quality_at_small_budget << " vs random " << random_score.quality_at_small_budget;
  const auto t = make_strategy("rl", 3)->search(held_out[0], sm80, r, 10);
  ASSERT_TRUE(t.best.has_value());  // the trace names an sm80 config
  EXPECT_EQ(t.best->layout, Layout::tn);
}

// Online, a policy that has settled must still come back to configs it stopped proposing: after
// many shapes where one config wins by far, a config it has not measured in a long time becomes
// the fastest, and the policy must find it. (With no uniform share of picks it never does: the
// other configs' probabilities have fallen to nothing by then.)
TEST(Search, ThePolicyKeepsExploringAfterItHasSettled) {
  const auto full = config_space(Layout::tn, Accum::f32);
  const std::vector<KernelConfig> space(full.begin(), full.begin() + 40);
  const KernelConfig settled = space.front(), later_best = space.back();
  bool later_best_wins = false;
  const Measure measure = [&](const Shape&, const KernelConfig& c) -> std::optional<double> {
    if (c == settled) return 1.0;
    if (c == later_best && later_best_wins) return 0.5;
    return 3.0;
  };
  auto rl = make_strategy("rl", 5);
  const auto shape_of = [](int i) { return Shape{512 + 64 * (i % 16), 1024 + 128 * (i % 8), 2048}; };
  for (int i = 0; i < 300; ++i) rl->search(shape_of(i), space, measure, 3);
  later_best_wins = true;
  int first_found = -1;
  for (int i = 0; i < 400 && first_found < 0; ++i) {
    const auto t = rl->search(shape_of(i), space, measure, 3);
    if (t.best && *t.best == later_best) first_found = i;
  }
  EXPECT_GE(first_found, 0) << "the policy never measured the config that became the fastest";
}

TEST(Search, UnknownStrategyIsAClearError) { EXPECT_THROW(make_strategy("annealing", 1), Error); }

}  // namespace
}  // namespace gemmforge
