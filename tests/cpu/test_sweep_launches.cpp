// Which launches `gemmforge bench --impl gemmforge` sweeps a config with (cli::swept_launches):
// the shared-tile sum doubles only the launches that share tiles through the workspace.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/common_options.hpp"
#include "cli/gemmforge_sweep.hpp"

namespace gemmforge::cli {
namespace {

KernelConfig tile_128x128() {
  KernelConfig c;
  c.block_m = c.block_n = 128;
  c.stages = 4;
  return c;
}

int count(const std::vector<LaunchKnobs>& v, auto pred) { return int(std::count_if(v.begin(), v.end(), pred)); }

TEST(SweptLaunches, BothSumsOnlyForLaunchesThatShareTiles) {
  LaunchSweep sweep;
  sweep.sliced_reduction = parse_shared_tile_sum("both");
  const auto launches = swept_launches(tile_128x128(), {1, 4, kStreamK}, sweep);
  ASSERT_EQ(launches.size(), 5u);  // whole once; split 4 and stream-K with each sum
  EXPECT_EQ(count(launches, [](const LaunchKnobs& k) { return k.splits == 1 && !k.stream_k; }), 1);
  EXPECT_TRUE(std::find_if(launches.begin(), launches.end(), [](const LaunchKnobs& k) {
                return k.splits == 1 && !k.stream_k && k.sliced_reduction;
              }) != launches.end());
  for (bool sliced : {true, false}) {
    EXPECT_EQ(count(launches, [&](const LaunchKnobs& k) { return k.splits == 4 && k.sliced_reduction == sliced; }), 1);
    EXPECT_EQ(count(launches, [&](const LaunchKnobs& k) { return k.stream_k && k.sliced_reduction == sliced; }), 1);
  }
}

TEST(SweptLaunches, DefaultSweepKeepsTheSlicedSumOnly) {
  const auto launches = swept_launches(tile_128x128(), {1, 4, kStreamK}, LaunchSweep{});
  ASSERT_EQ(launches.size(), 3u);
  for (const auto& k : launches) EXPECT_TRUE(k.sliced_reduction);
}

TEST(SweptLaunches, InClusterSumsTakeNoSharedTileSum) {
  KernelConfig c = tile_128x128();
  c.block_m = c.block_n = 64;
  c.consumers = 1;
  LaunchSweep sweep;
  sweep.cluster_reduction = {false, true};
  sweep.sliced_reduction = {true, false};
  const auto launches = swept_launches(c, {8}, sweep);
  // Through the workspace with each sum, and once summed inside a cluster of 8.
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(count(launches, [](const LaunchKnobs& k) { return k.cluster_reduction; }), 1);
}

TEST(SharedTileSumOption, NamesItsValues) {
  EXPECT_EQ(parse_shared_tile_sum("sliced"), std::vector<bool>{true});
  EXPECT_EQ(parse_shared_tile_sum("last"), std::vector<bool>{false});
  EXPECT_EQ(parse_shared_tile_sum("both"), (std::vector<bool>{true, false}));
  EXPECT_THROW(parse_shared_tile_sum("first"), Error);
}

}  // namespace
}  // namespace gemmforge::cli
