// The replay backend on real recorded data: the sweeps of the H200 large-class run committed
// under bench/results/. No GPU involved.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/records.hpp"
#include "search/sweep_replay.hpp"

namespace gemmforge {
namespace {

const std::filesystem::path kRun = std::filesystem::path(GEMMFORGE_SOURCE_DIR) / "bench/results/2026-11-29-h200-kernels-v3-large";

SweepReplay recorded() { return load_sweep_replay({kRun / "large-a/sweep.csv", kRun / "large-b/sweep.csv"}); }

// A sweep.csv of these rows (after the header) in a folder of its own, loaded and cleaned up.
SweepReplay replay_of_rows(const std::string& test, const std::string& rows) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmforge_sweep_replay_" + test);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "sweep.csv", "M,N,K,layout,acc,config,verdict,estimate_us\n" + rows);
  SweepReplay r = load_sweep_replay({dir / "sweep.csv"});
  std::filesystem::remove_all(dir);
  return r;
}

TEST(SweepReplay, LoadsTheRecordedLargeClassRun) {
  const SweepReplay r = recorded();
  ASSERT_EQ(r.parts.count(Layout::tn), 1u);
  ASSERT_EQ(r.parts.count(Layout::nn), 1u);
  EXPECT_EQ(r.parts.at(Layout::tn).shapes.size(), 64u);
  EXPECT_EQ(r.parts.at(Layout::nn).shapes.size(), 64u);
  EXPECT_GT(r.parts.at(Layout::tn).space.size(), 10u);
  for (const auto& [layout, part] : r.parts)
    for (const auto& c : part.space) EXPECT_EQ(c.layout, layout) << c.name();
}

// A sweep that timed both families and builds for one shape: each family's configs are a space
// of their own, builds for one shape are no point of either.
TEST(SweepReplay, EachFamilyIsASpaceAndShapeBuildsAreLeftOut) {
  const std::string hopper = "sm90_tn_f32_128x128x64_s4_c2_coop_1x1", sm80 = "sm80_tn_f32_64x64x32_w2x2_s3_v16";
  const SweepReplay r = replay_of_rows("sm80", "64,64,64,tn,f32," + hopper + ",pass,3.0\n"
                                               "64,64,64,tn,f32," + hopper + "_at64x64x64,pass,2.5\n"
                                               "64,64,64,tn,f32," + sm80 + ",pass,2.0\n"
                                               "64,64,64,tn,f32," + sm80 + "_at64x64x64,pass,1.5\n");
  EXPECT_EQ(r.rows, 2u);
  const auto& part = r.parts.at(Layout::tn);
  ASSERT_EQ(part.space.size(), 1u);
  EXPECT_EQ(part.space[0].name(), hopper);
  ASSERT_EQ(part.sm80_space.size(), 1u);
  EXPECT_EQ(part.sm80_space[0].name(), sm80);
  EXPECT_EQ(r.measure({64, 64, 64}, part.sm80_space[0]), 2.0);  // the generic build's time
  EXPECT_EQ(r.measure({64, 64, 64}, part.space[0]), 3.0);
}

// The tiny class as recorded on the H200 (both families, every config on every shape): the
// strategies search the sm80 space as they search the Hopper one, deterministically, and
// exhaustive over the whole space finds the recorded best.
TEST(SweepReplay, StrategiesSearchTheRecordedSm80Space) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_sweep_replay_tiny";
  std::filesystem::create_directories(dir);
  const auto archive = std::filesystem::path(GEMMFORGE_SOURCE_DIR) / "bench/results/2026-11-29-h200-issue4-classes/tiny.tar.gz";
  ASSERT_EQ(std::system(("tar xzf '" + archive.string() + "' -C '" + dir.string() + "' tiny/sweep.csv").c_str()), 0);
  const SweepReplay r = load_sweep_replay({dir / "tiny/sweep.csv"});
  std::filesystem::remove_all(dir);
  const auto& part = r.parts.at(Layout::tn);
  ASSERT_GE(part.sm80_space.size(), 8u);
  EXPECT_EQ(part.shapes.size(), 64u);
  const Sm80Measure measure = [&](const Shape& s, const Sm80Config& c) { return r.measure(s, c); };
  const int budget = int(part.sm80_space.size());
  auto exhaustive = make_strategy("exhaustive", 1);
  EXPECT_DOUBLE_EQ(score_strategy(*exhaustive, part.shapes, part.sm80_space, measure, budget, budget).quality_at_small_budget,
                   1.0);
  for (const auto& name : strategy_names()) {
    auto a = make_strategy(name, 5), b = make_strategy(name, 5);
    const StrategyScore sa = score_strategy(*a, part.shapes, part.sm80_space, measure, budget, 3);
    const StrategyScore sb = score_strategy(*b, part.shapes, part.sm80_space, measure, budget, 3);
    EXPECT_EQ(sa.shapes, 64) << name;
    EXPECT_EQ(sa.budget_to_95, sb.budget_to_95) << name;
    EXPECT_EQ(sa.quality_at_small_budget, sb.quality_at_small_budget) << name;
    EXPECT_GT(sa.quality_at_small_budget, 0.5) << name;
    EXPECT_LE(sa.quality_at_small_budget, 1.0) << name;
  }
}

TEST(SweepReplay, StrategiesOnRecordedDataAreDeterministicAndExhaustiveFindsTheBest) {
  const SweepReplay r = recorded();
  const auto& part = r.parts.at(Layout::tn);
  const Measure measure = [&](const Shape& s, const KernelConfig& c) { return r.measure(s, c); };
  const int budget = int(part.space.size());
  auto exhaustive = make_strategy("exhaustive", 1);
  const StrategyScore ex = score_strategy(*exhaustive, part.shapes, part.space, measure, budget, budget);
  EXPECT_DOUBLE_EQ(ex.quality_at_small_budget, 1.0);  // the whole space: the recorded best
  EXPECT_LE(ex.budget_to_99, budget);
  for (const auto& name : strategy_names()) {
    auto a = make_strategy(name, 7), b = make_strategy(name, 7);
    const StrategyScore sa = score_strategy(*a, part.shapes, part.space, measure, budget, 8);
    const StrategyScore sb = score_strategy(*b, part.shapes, part.space, measure, budget, 8);
    EXPECT_EQ(sa.budget_to_95, sb.budget_to_95) << name;
    EXPECT_EQ(sa.quality_at_small_budget, sb.quality_at_small_budget) << name;
    EXPECT_GT(sa.quality_at_small_budget, 0.5) << name;
    EXPECT_LE(sa.quality_at_small_budget, 1.0) << name;
  }
}

// A sweep with launch knobs (split-K counts, with and without PDL): each config is one point of
// the space, at its fastest passing variant.
TEST(SweepReplay, AConfigSweptWithLaunchKnobsIsItsFastestVariant) {
  const std::string c = "sm90_tn_f32_64x64x64_s8_c1_coop_1x1";
  const SweepReplay r = replay_of_rows("knobs", "64,64,4096,tn,f32," + c + "_k4,pass,7.5\n"
                                                "64,64,4096,tn,f32," + c + "_k16_pdl,pass,5.2\n"
                                                "64,64,4096,tn,f32," + c + "_k16_np_pdl_dsm,fail,\n"
                                                "64,64,8192,tn,f32," + c + "_k8,fail,\n");
  EXPECT_EQ(r.rows, 4u);
  ASSERT_EQ(r.parts.at(Layout::tn).space.size(), 1u);
  const KernelConfig config = r.parts.at(Layout::tn).space[0];
  EXPECT_EQ(config.name(), c);
  EXPECT_EQ(r.measure({64, 64, 4096}, config), 5.2);          // a failed variant does not hide a pass
  EXPECT_FALSE(r.measure({64, 64, 8192}, config).has_value());  // no variant passed
  // The committed split-K run (every config with splits 4..32, with and without PDL) replays.
  const auto v3 = std::filesystem::path(GEMMFORGE_SOURCE_DIR) / "bench/results/2026-11-29-h200-split-k-v3/tall-k/sweep.csv";
  const SweepReplay tall = load_sweep_replay({v3});
  EXPECT_EQ(tall.parts.at(Layout::tn).shapes.size(), 64u);
  EXPECT_GT(tall.parts.at(Layout::tn).space.size(), 3u);
}

TEST(SweepReplay, RefusesMixedRunsAndForeignFiles) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_sweep_replay_test";
  std::filesystem::create_directories(dir);
  // The same run twice: every (shape, config) recorded twice.
  EXPECT_THROW(load_sweep_replay({kRun / "large-a/sweep.csv", kRun / "large-a/sweep.csv"}), Error);
  write_file_atomically(dir / "other.csv", "a,b\n1,2\n");
  EXPECT_THROW(load_sweep_replay({dir / "other.csv"}), Error);
  write_file_atomically(dir / "badname.csv",
                        "M,N,K,layout,acc,config,verdict,estimate_us\n64,64,64,tn,f32,sm90_tn_f32_fast,pass,1.0\n");
  EXPECT_THROW(load_sweep_replay({dir / "badname.csv"}), Error);
  const std::string header = "M,N,K,layout,acc,config,verdict,estimate_us\n";
  const std::string config = "sm90_tn_f32_128x128x64_s4_c2_coop_1x1";
  for (const char* bad_time : {"nan", "0", "-3", "12abc", ""}) {
    write_file_atomically(dir / "badtime.csv", header + "64,64,64,tn,f32," + config + ",pass," + bad_time + "\n");
    EXPECT_THROW(load_sweep_replay({dir / "badtime.csv"}), Error) << bad_time;
  }
  write_file_atomically(dir / "mixed.csv", header + "64,64,64,tn,f32," + config + ",pass,1.5\n" +
                                               "64,64,64,tn,f16,sm90_tn_f16_128x128x64_s4_c2_coop_1x1,pass,1.5\n");
  EXPECT_THROW(load_sweep_replay({dir / "mixed.csv"}), Error);
  write_file_atomically(dir / "good.csv", header + "64,64,64,tn,f32," + config + ",pass,1.5\n");
  EXPECT_EQ(load_sweep_replay({dir / "good.csv"}).rows, 1u);
  EXPECT_THROW(load_sweep_replay({dir / "missing.csv"}), Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge
