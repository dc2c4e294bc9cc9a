#include <array>
#include <gtest/gtest.h>

#include <set>

#include "core/kernel_candidate.hpp"

namespace gemmforge {
namespace {

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

TEST(KernelConfig, TheDefaultIsValid) { EXPECT_TRUE(is_valid(KernelConfig{})) << validity_problems(KernelConfig{})[0]; }

TEST(KernelConfig, RulesRejectWithAReason) {
  KernelConfig c;
  c.block_n = 260;
  EXPECT_TRUE(mentions(validity_problems(c), "wgmma N"));
  c = {};
  c.block_n = 100;  // not a multiple of 8
  EXPECT_TRUE(mentions(validity_problems(c), "steps of 8"));
  c = {};
  c.block_m = 64;  // two cooperative consumers need two 64-row tiles
  EXPECT_TRUE(mentions(validity_problems(c), "whole 64-row"));
  c = {};
  c.block_m = 256;
  c.block_n = 256;
  c.stages = 8;  // 8 × 64 KB of stages
  EXPECT_TRUE(mentions(validity_problems(c), "shared memory"));
  c = {};
  c.block_m = 256;
  c.block_n = 256;
  c.stages = 2;  // 2 × 64 rows × 256 columns of fp32 per consumer thread: 256 registers
  EXPECT_TRUE(mentions(validity_problems(c), "accumulator registers"));
  c.acc = Accum::f16;  // half the registers: fits
  EXPECT_FALSE(mentions(validity_problems(c), "accumulator registers"));
  c = {};
  c.multicast = true;
  EXPECT_TRUE(mentions(validity_problems(c), "multicast needs a cluster"));
  c = {};
  c.multicast = true;
  c.cluster_m = 4;
  c.cluster_n = 2;  // eight CTAs, the portable most
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  c.cluster_n = 4;  // sixteen
  EXPECT_TRUE(mentions(validity_problems(c), "at most 8 in all"));
  c.cluster_m = 3;
  c.cluster_n = 1;
  EXPECT_TRUE(mentions(validity_problems(c), "cluster sides of 1, 2, 4 or 8"));
  c = {};
  c.block_k = 32;
  EXPECT_TRUE(mentions(validity_problems(c), "block_k must be 64"));
  c = {};
  c.stages = 1;
  EXPECT_TRUE(mentions(validity_problems(c), "at least 2 pipeline stages"));
}

TEST(KernelConfig, SharedMemoryIsWhatCapsThePipelineDepth) {
  KernelConfig c;  // a skinny tile: 12 KiB a stage
  c.block_m = 64;
  c.block_n = 32;
  c.consumers = 1;
  c.stages = 18;
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  c.stages = 19;
  EXPECT_TRUE(mentions(validity_problems(c), "shared memory"));
}

TEST(KernelConfig, LayoutNnNeedsWhole64ColumnBlocks) {
  KernelConfig c;
  c.layout = Layout::nn;
  EXPECT_TRUE(is_valid(c));
  c.block_n = 96;
  EXPECT_TRUE(mentions(validity_problems(c), "multiple of 64"));
  c.layout = Layout::tn;
  EXPECT_TRUE(is_valid(c));
}

TEST(KernelConfig, PingPongClustersAndTmaStoreHaveTheirOwnRules) {
  KernelConfig c;
  c.mode = ConsumerMode::pingpong;
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  EXPECT_EQ(c.wg_rows(), 128);                // each consumer owns whole tiles
  EXPECT_EQ(c.accumulator_registers(), 128);  // 2 wgmma M-tiles × 128 columns / 2
  c.consumers = 1;
  EXPECT_TRUE(mentions(validity_problems(c), "ping-pong alternates"));
  c = {};
  c.cluster_m = 2;  // a cluster that multicasts nothing
  EXPECT_TRUE(mentions(validity_problems(c), "shares nothing"));
  c.multicast = true;
  EXPECT_TRUE(is_valid(c));
  c.block_n = 200;  // half of 200 rows is not whole 8-row swizzle atoms
  EXPECT_TRUE(mentions(validity_problems(c), "multicast of B"));
  c.cluster_m = 1;
  c.cluster_n = 2;  // A is the shared operand: its halves are whole atoms
  EXPECT_TRUE(is_valid(c));
  c.block_n = 64;
  c.cluster_m = 8;  // eight CTAs share B: slices of 8 rows, whole atoms
  c.cluster_n = 1;
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  c.block_n = 48;  // 6 rows each: not
  EXPECT_TRUE(mentions(validity_problems(c), "multicast of B"));
  c.layout = Layout::nn;  // N-major B is cut along K (8 k-rows each): fine, but nn needs 64-column blocks
  EXPECT_FALSE(mentions(validity_problems(c), "multicast of B"));
  c = {};
  c.block_m = 256;
  c.block_n = 192;
  c.stages = 3;  // 192 fp32 accumulators: fine with direct stores, spills with the TMA-store staging
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  c.tma_store = true;
  EXPECT_TRUE(mentions(validity_problems(c), "with the TMA-store epilogue"));
  c = {};
  c.tma_store = true;
  EXPECT_TRUE(is_valid(c));
  EXPECT_EQ(c.shared_bytes(), KernelConfig{}.shared_bytes() + 2 * 2 * 64 * 64 * 2);  // 2 consumers × 2 buffers
  EXPECT_EQ(c.epilogue_block_cols(), 64);
  c.block_n = 176;
  EXPECT_EQ(c.epilogue_block_cols(), 16);
  c.block_n = 104;
  EXPECT_TRUE(mentions(validity_problems(c), "TMA-store epilogue"));
  c = {};
  c.mode = ConsumerMode::pingpong;
  c.tma_store = true;  // two staging buffers of 128 rows × 64 columns per consumer
  EXPECT_EQ(c.shared_bytes(), KernelConfig{}.shared_bytes() + 2 * 2 * 128 * 64 * 2);
}

TEST(KernelConfig, TheTmaStoreStagesAWholeTileWhereItFits) {
  KernelConfig c;
  c.block_n = 256;
  c.tma_store = true;
  c.stages = 3;  // 3 × 48 KB of stages leave room for 2 consumers × 4 blocks of 64 rows × 64 columns
  EXPECT_EQ(c.epilogue_buffers(), 4);
  EXPECT_EQ(c.shared_bytes(), c.shared_bytes_beside_epilogue() + 2 * 4 * 64 * 64 * 2);
  c.stages = 4;  // 192 KB of stages: two alternating blocks per consumer
  EXPECT_EQ(c.epilogue_buffers(), 2);
  EXPECT_EQ(c.shared_bytes(), c.shared_bytes_beside_epilogue() + 2 * 2 * 64 * 64 * 2);
  EXPECT_TRUE(is_valid(c));
  c.stages = 3;
  c.block_n = 128;  // two blocks per tile: the two alternating buffers hold the whole tile anyway
  EXPECT_EQ(c.epilogue_buffers(), 2);
  c.block_n = 176;  // eleven 16-column blocks, 2 consumers × 11 × 64 rows × 32 bytes beside 3 stages
  EXPECT_EQ(c.epilogue_buffers(), 11);
  c = {};
  c.mode = ConsumerMode::pingpong;  // each consumer stages a whole 64x256 tile: 4 blocks of 64 rows
  c.block_m = 64;
  c.block_n = 256;
  c.tma_store = true;
  EXPECT_EQ(c.epilogue_buffers(), 4);
  EXPECT_EQ(c.shared_bytes(), c.shared_bytes_beside_epilogue() + 2 * 4 * 64 * 64 * 2);
  EXPECT_TRUE(is_valid(c)) << validity_problems(c)[0];
  c.tma_store = false;
  EXPECT_EQ(c.epilogue_buffers(), 0);
  EXPECT_EQ(c.shared_bytes(), c.shared_bytes_beside_epilogue());
}

TEST(KernelConfig, OneConsumersWarpsStoreTheirOwnSlicesOfTwoAlternatingBuffers) {
  KernelConfig c;  // 64x64, one consumer: each warp stores its 16 rows of a block
  c.block_m = 64;
  c.block_n = 64;
  c.consumers = 1;
  c.stages = 8;
  c.tma_store = true;
  ASSERT_TRUE(is_valid(c)) << validity_problems(c)[0];
  EXPECT_EQ(c.epilogue_buffers(), 2);
  EXPECT_EQ(c.epilogue_store_rows(), 16);
  c.block_n = 256;  // four blocks staged whole: one thread stores the 64-row sub-tile
  c.stages = 4;
  ASSERT_EQ(c.epilogue_buffers(), 4);
  EXPECT_EQ(c.epilogue_store_rows(), 64);
  c.block_m = 128;  // one consumer with 128 rows, two blocks: still per warp, two slices each
  c.block_n = 128;
  ASSERT_TRUE(is_valid(c)) << validity_problems(c)[0];
  EXPECT_EQ(c.epilogue_store_rows(), 16);
  c = {};  // two consumers: each warpgroup's first thread stores its 64 rows
  c.tma_store = true;
  EXPECT_EQ(c.epilogue_buffers(), 2);
  EXPECT_EQ(c.epilogue_store_rows(), c.wg_rows());
}

// K-split: two consumers on alternate k-blocks of a whole 64-row tile. Each holds the tile's
// accumulators; the second hands them over in shared memory beside the ring; only the first
// stores C (so one warpgroup's epilogue buffers, stored per warp); one part per tile in split-K.
TEST(KernelConfig, KSplitConsumersEachHoldTheTileAndHandOverThroughSharedMemory) {
  KernelConfig c;
  c.block_m = 64;
  c.block_n = 32;
  c.stages = 16;
  c.consumers = 2;
  c.mode = ConsumerMode::ksplit;
  ASSERT_TRUE(is_valid(c)) << validity_problems(c)[0];
  EXPECT_EQ(c.name(), "sm90_tn_f32_64x32x64_s16_c2_ksplit_1x1");
  EXPECT_EQ(KernelConfig::from_name(c.name()), c);
  EXPECT_EQ(KernelConfig::from_json(c.to_json()), c);
  EXPECT_EQ(c.wg_rows(), 64);
  EXPECT_EQ(c.accumulator_registers(), 16);  // 64x32 f32 over 128 threads
  EXPECT_EQ(c.exchange_bytes(), 16 * 128 * 4);
  EXPECT_EQ(c.shared_bytes(), 1024 + 16 * (64 + 32) * 64 * 2 + 16 * 128 * 4 + 2 * 16 * 8 + 16);
  EXPECT_EQ(c.threads(), 384);
  EXPECT_EQ(c.tile_parts(), 1);
  KernelConfig coop = c;
  coop.mode = ConsumerMode::cooperative;
  coop.block_m = 128;
  EXPECT_EQ(coop.tile_parts(), 2);
  EXPECT_EQ(coop.exchange_bytes(), 0);
  // Split-K: one part per tile (the first consumer's, after the hand-over), as ping-pong: 128
  // tiles' two counters (256 words), then 128 x 2 slots of 16 f32 per thread.
  EXPECT_EQ(splitk_workspace_bytes(c, 64, 4096, 4096, 2), size_t(256 * 4 + 128 * 2 * 16 * 128 * 4));
  c.tma_store = true;  // one storing warpgroup: two buffers, each warp its own slices
  c.block_n = 64;
  c.stages = 8;
  ASSERT_TRUE(is_valid(c)) << validity_problems(c)[0];
  EXPECT_EQ(c.epilogue_warpgroups(), 1);
  EXPECT_EQ(c.epilogue_buffers(), 2);
  EXPECT_EQ(c.epilogue_store_rows(), 16);
  EXPECT_EQ(c.shared_bytes(), c.shared_bytes_beside_epilogue() + 2 * 64 * 64 * 2);
  c.stages = 7;  // an odd ring would give a stage to both consumers
  EXPECT_TRUE(mentions(validity_problems(c), "even number of stages"));
  c.stages = 2;  // one stage each: a consumer would wait on its own stage, never freed (a GPU test hung so)
  EXPECT_TRUE(mentions(validity_problems(c), "at least 4 stages"));
  c.stages = 8;
  c.consumers = 1;
  EXPECT_TRUE(mentions(validity_problems(c), "ksplit alternates k-blocks between 2 consumers"));
  EXPECT_THROW(KernelConfig::from_name("sm90_tn_f32_64x32x64_s16_c2_ksplt_1x1"), Error);
}

TEST(KernelConfig, SharedMemoryAndRegistersFollowTheTile) {
  KernelConfig c;  // 128x128, 4 stages, 2 consumers, f32
  EXPECT_EQ(c.shared_bytes(), 1024 + 4 * (128 + 128) * 64 * 2 + 2 * 4 * 8 + 16);  // + split-K flags
  EXPECT_EQ(c.accumulator_registers(), 64);  // one 64x128 wgmma tile: 128·64/128 threads
  EXPECT_EQ(c.threads(), 384);
}

TEST(KernelConfig, AutoRasterGroupCoversASquarePerWave) {
  KernelConfig c;  // 128x128: 132 CTAs cover ~11.5 × 11.5 tiles
  EXPECT_EQ(auto_group_m(c, 132, 8192), 11);
  c.block_n = 256;  // twice as wide: twice the rows, 16 × 8.25 tiles of 128x256 ≈ 2048 × 2112
  EXPECT_EQ(auto_group_m(c, 132, 8192), 16);
  c.cluster_m = 2;  // cluster tiles of 256x256, 66 of them
  c.multicast = true;
  EXPECT_EQ(auto_group_m(c, 66, 8192), 8);
  EXPECT_EQ(auto_group_m(c, 66, 1000), 4);  // never more groups rows than tile rows
  EXPECT_EQ(auto_group_m(c, 0, 64), 1);
}

// A build that walks along N groups columns: its automatic group is the columns for which a wave
// covers a square, the default walk's rule on the transposed tile grid.
TEST(KernelConfig, AutoRasterGroupOfTheWalkAlongNCountsColumns) {
  KernelConfig c;
  c.block_n = 256;  // 128x256: 132 CTAs cover ~8 columns × 16.5 rows ≈ 2048 × 2112
  EXPECT_EQ(auto_group(c, 132, 8192, 8192), auto_group_m(c, 132, 8192));  // the default walk: rows
  c.walk_n = true;
  EXPECT_EQ(auto_group(c, 132, 8192, 8192), 8);
  EXPECT_EQ(auto_group(c, 132, 8192, 1000), 4);  // never more group columns than tile columns
  c.cluster_m = 2;  // cluster tiles of 256x256, 66 of them: ~8 × 8
  c.multicast = true;
  EXPECT_EQ(auto_group(c, 66, 8192, 8192), 8);
  EXPECT_EQ(auto_group(c, 0, 64, 64), 1);
}

// A launch's group: the automatic one for 0, a named one as it is, clamped to the grid's lines.
TEST(KernelConfig, ALaunchsRasterGroupIsClampedToTheGridsLines) {
  KernelConfig c;  // 128x128
  EXPECT_EQ(launch_group(c, 0, 132, 8192, 4096), auto_group(c, 132, 8192, 4096));
  EXPECT_EQ(launch_group(c, 3, 132, 8192, 4096), 3);
  EXPECT_EQ(launch_group(c, 1000, 132, 8192, 4096), 64);   // 64 tile rows
  EXPECT_EQ(launch_group(c, 1 << 30, 132, 100, 4096), 1);  // one row
  c.walk_n = true;
  c.cluster_n = 2;  // cluster tiles 128 x 256: 16 columns of 4096
  c.multicast = true;
  EXPECT_EQ(launch_group(c, 1000, 66, 8192, 4096), 16);
  EXPECT_EQ(launch_group(c, 0, 66, 8192, 4096), auto_group(c, 66, 8192, 4096));
}

TEST(KernelConfig, NameRoundTripsOverTheWholeSpace) {
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16})
      for (const auto& c : config_space(l, a)) ASSERT_EQ(KernelConfig::from_name(c.name()), c) << c.name();
  EXPECT_THROW(KernelConfig::from_name("sm90_tn_f32_128x128_s4_c2_coop_1x1"), Error);
  EXPECT_THROW(KernelConfig::from_name("sm90_tn_f32_128x128x64_s4_c2_coop_1x1_fast"), Error);
  EXPECT_THROW(KernelConfig::from_name("cublas"), Error);
}

TEST(KernelConfig, JsonRoundTrip) {
  KernelConfig c;
  c.block_n = 208;
  c.stages = 5;
  c.acc = Accum::f16;
  EXPECT_EQ(KernelConfig::from_json(c.to_json()), c);
  EXPECT_THROW(KernelConfig::from_json(nlohmann::json{{"layout", "tn"}}), Error);
}

// How many distinct values each knob takes in a list of configs.
struct KnobCounts {
  size_t block_m, block_n, stages, consumers, accs, layouts;
};
KnobCounts count_knobs(const std::vector<KernelConfig>& configs) {
  std::set<int> bm, bn, st, cons;
  std::set<Accum> accs;
  std::set<Layout> layouts;
  for (const auto& c : configs) {
    bm.insert(c.block_m);
    bn.insert(c.block_n);
    st.insert(c.stages);
    cons.insert(c.consumers);
    accs.insert(c.acc);
    layouts.insert(c.layout);
  }
  return {bm.size(), bn.size(), st.size(), cons.size(), accs.size(), layouts.size()};
}

TEST(ConfigSpace, HoldsOnlyValidConfigsAndEveryKnobValue) {
  const auto space = config_space(Layout::tn, Accum::f32);
  ASSERT_GT(space.size(), 200u);
  for (const auto& c : space) EXPECT_TRUE(is_valid(c)) << c.name();
  const auto n = count_knobs(space);
  EXPECT_EQ(n.block_m, 4u);
  EXPECT_EQ(n.block_n, 16u);
  EXPECT_EQ(n.stages, 7u);
  EXPECT_EQ(n.consumers, 2u);
  std::set<std::string> names;
  for (const auto& c : space) EXPECT_TRUE(names.insert(c.name()).second) << "duplicate " << c.name();
  for (const auto& c : config_space(Layout::nn, Accum::f32)) EXPECT_EQ(c.block_n % 64, 0) << c.name();
}

TEST(ConfigSpace, CoveringSampleIsReproducibleAndCoversEveryValue) {
  std::vector<KernelConfig> space;
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16}) {
      const auto part = config_space(l, a);
      space.insert(space.end(), part.begin(), part.end());
    }
  const auto a = covering_sample(space, 100, 3), b = covering_sample(space, 100, 3);
  ASSERT_EQ(a.size(), 100u);
  EXPECT_EQ(a, b);
  const auto n = count_knobs(a);
  EXPECT_EQ(n.block_m, 4u);
  EXPECT_EQ(n.block_n, 16u);
  EXPECT_EQ(n.stages, 7u);
  EXPECT_EQ(n.consumers, 2u);
  EXPECT_EQ(n.accs, 2u);
  EXPECT_EQ(n.layouts, 2u);
}

// A config with one optional knob set (`key` in its JSON) is valid, is named `name`, and reads back
// the same from that name, from its JSON, and from a candidate name with `launch`'s suffix.
void expect_optional_knob_reads_back(const KernelConfig& c, const std::string& name, const std::string& key,
                                     const LaunchKnobs& launch) {
  EXPECT_TRUE(is_valid(c)) << name;
  EXPECT_EQ(c.name(), name);
  EXPECT_EQ(KernelConfig::from_name(c.name()), c);
  EXPECT_EQ(KernelConfig::from_json(c.to_json()), c);
  EXPECT_TRUE(c.to_json().at(key).get<bool>()) << name;
  const auto [config, knobs] = parse_hopper_candidate_name(c.name() + launch.suffix());
  EXPECT_EQ(config, c);
  EXPECT_EQ(knobs.splits, launch.splits);
  EXPECT_EQ(knobs.cluster_reduction, launch.cluster_reduction);
}

// Parts apart: a flag of the config's name and JSON (absent from the JSON when off, as configs
// before it were written), and only for split launches summed through global memory.
TEST(KernelConfig, PartsApartIsForSplitLaunchesSummedThroughGlobalMemory) {
  KernelConfig c;
  c.block_n = 64;
  EXPECT_FALSE(c.to_json().contains("parts_apart"));
  c.parts_apart = true;
  LaunchKnobs split;
  split.splits = 8;
  expect_optional_knob_reads_back(c, "sm90_tn_f32_128x64x64_s4_c2_coop_1x1_pa", "parts_apart", split);
  EXPECT_EQ(launch_problem(c, split), "");
  EXPECT_NE(launch_problem(c, LaunchKnobs{}), "");             // unsplit: the same launch as without
  EXPECT_NE(launch_problem(c, cluster_reduced(split)), "");   // a cluster's parts must be neighbours
  KernelConfig together = c;
  together.parts_apart = false;
  EXPECT_EQ(launch_problem(together, LaunchKnobs{}), "");
}

// Pushed in-cluster sums: a flag of the name and JSON (absent when off), for one cooperative
// consumer without a cluster of its own, launched only with its parts summed inside a cluster;
// its shared memory grows by a slot per pair of the tile (and the barrier, and the slack of an
// uneven cut), which the kernel asserts against this count at compile time (KernelCompile).
TEST(KernelConfig, ClusterPushIsForOneConsumerLaunchedWithItsPartsInACluster) {
  KernelConfig c;
  c.block_m = 64;
  c.block_n = 32;
  c.consumers = 1;
  EXPECT_FALSE(c.to_json().contains("cluster_push"));
  const int plain_bytes = c.shared_bytes();
  c.cluster_push = true;
  LaunchKnobs split;
  split.splits = 8;
  expect_optional_knob_reads_back(c, "sm90_tn_f32_64x32x64_s4_c1_coop_1x1_push", "cluster_push", cluster_reduced(split));
  // 64x32 f32: 16 accumulators a thread, 8 pairs; 8 x 128 slots of 8 bytes, 16 more, and 16.
  EXPECT_EQ(cluster_push_bytes(c), 16 + (8 * 128 + 16) * 8);
  EXPECT_EQ(c.shared_bytes(), plain_bytes + cluster_push_bytes(c));
  EXPECT_EQ(launch_problem(c, cluster_reduced(split)), "");
  EXPECT_NE(launch_problem(c, split), "");          // summed through global memory: the pulled build's launch
  EXPECT_NE(launch_problem(c, LaunchKnobs{}), "");  // unsplit: likewise
  KernelConfig two = c;
  two.block_m = 128;
  two.consumers = 2;
  EXPECT_FALSE(is_valid(two));
  KernelConfig pingpong = two;
  pingpong.mode = ConsumerMode::pingpong;
  EXPECT_FALSE(is_valid(pingpong));
}

// Lean cluster sync: a flag of the name and JSON (absent when off), for multicast clusters only
// (without multicast the kernel would be the same under a second name). The default space builds
// every multicast config with it and no other; the configs the shipped tables name, without it,
// still read, validate and name themselves as before.
TEST(KernelConfig, LeanClusterSyncIsForMulticastClustersAndTheSpaceBuildsThemSo) {
  auto c = KernelConfig::from_name("sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc");
  EXPECT_FALSE(c.to_json().contains("lean_cluster_sync"));
  c.lean_cluster_sync = true;
  LaunchKnobs split;
  split.splits = 2;
  expect_optional_knob_reads_back(c, "sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_lean", "lean_cluster_sync", split);
  KernelConfig alone = c;
  alone.cluster_n = 1;
  alone.multicast = false;
  EXPECT_FALSE(is_valid(alone));
  int multicast = 0;
  for (Layout l : {Layout::tn, Layout::nn})
    for (const auto& k : config_space(l, Accum::f32)) {
      EXPECT_EQ(k.lean_cluster_sync, k.multicast) << k.name();
      multicast += k.multicast;
    }
  EXPECT_GT(multicast, 0);
}

// The fast walk: a flag of the name and JSON (absent when off) that any config may take, and the
// default space builds every config with it; the configs the shipped tables name, without it,
// still read, validate and name themselves as before.
TEST(KernelConfig, FastWalkIsAFlagOfAnyConfigAndTheSpaceBuildsEveryConfigSo) {
  const auto plain = KernelConfig::from_name("sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore");
  EXPECT_FALSE(plain.to_json().contains("fast_walk"));
  for (const auto& [name, fast] : std::vector<std::pair<std::string, std::string>>{
           {"sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore", "sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore_fw"},
           {"sm90_nn_f16_128x128x64_s4_c2_pingpong_1x1", "sm90_nn_f16_128x128x64_s4_c2_pingpong_1x1_fw"},
           {"sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_lean", "sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_fw_lean"},
           {"sm90_tn_f32_64x64x64_s4_c1_coop_1x1_pa", "sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_pa"}}) {
    auto c = KernelConfig::from_name(name);
    c.fast_walk = true;
    LaunchKnobs split;
    split.splits = 3;
    expect_optional_knob_reads_back(c, fast, "fast_walk", split);
  }
  EXPECT_THROW(KernelConfig::from_name("sm90_tn_f32_128x256x64_s4_c2_coop_1x1_fw_tmastore"), Error);  // out of order
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16}) {
      const auto space = config_space(l, a);
      ASSERT_FALSE(space.empty());
      for (const auto& k : space) EXPECT_TRUE(k.fast_walk) << k.name();
    }
}

// The uniform warpgroup index: a flag of the name and JSON (absent when off) that any config may
// take; not in the default space (some of its builds spill).
TEST(KernelConfig, UniformWarpgroupIsAFlagOfAnyConfigOutsideTheSpace) {
  for (const auto& [name, uniform] : std::vector<std::pair<std::string, std::string>>{
           {"sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_lean",
            "sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_lean"},
           {"sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore", "sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore_uw"},
           {"sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_pa", "sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_uw_pa"}}) {
    auto c = KernelConfig::from_name(name);
    EXPECT_FALSE(c.to_json().contains("uniform_warpgroup"));
    c.uniform_warpgroup = true;
    LaunchKnobs split;
    split.splits = 3;
    expect_optional_knob_reads_back(c, uniform, "uniform_warpgroup", split);
  }
  for (Layout l : {Layout::tn, Layout::nn})
    for (const auto& k : config_space(l, Accum::f32)) EXPECT_FALSE(k.uniform_warpgroup) << k.name();
}

// The dynamic walk: a flag of the name and JSON (absent when off) that any config may take, with
// its feed's 104 bytes of shared memory (4 slots with a full and an empty barrier each, and the
// producer's unit-started barrier), which the kernel asserts against this count at compile time
// (KernelCompile); not in the default space.
TEST(KernelConfig, DynamicWalkIsAFlagOfAnyConfigOutsideTheSpace) {
  for (const auto& [name, dynamic] : std::vector<std::pair<std::string, std::string>>{
           {"sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_lean",
            "sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_dw_lean"},
           {"sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore", "sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore_dw"},
           {"sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_pa", "sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_dw_pa"}}) {
    auto c = KernelConfig::from_name(name);
    EXPECT_FALSE(c.to_json().contains("dynamic_walk"));
    const int plain_bytes = c.shared_bytes();
    c.dynamic_walk = true;
    EXPECT_EQ(c.shared_bytes(), plain_bytes + 104) << name;
    LaunchKnobs split;
    split.splits = 3;
    expect_optional_knob_reads_back(c, dynamic, "dynamic_walk", split);
  }
  for (Layout l : {Layout::tn, Layout::nn})
    for (const auto& k : config_space(l, Accum::f32)) EXPECT_FALSE(k.dynamic_walk) << k.name();
}

// The walk along N: a flag of the name and JSON (absent when off) that any config may take, with
// the launches its plain twin takes (every walk visits each tile once), costing no shared memory;
// not in the default space.
TEST(KernelConfig, WalkAlongNIsAFlagOfAnyConfigOutsideTheSpace) {
  for (const auto& [name, walked] : std::vector<std::pair<std::string, std::string>>{
           {"sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_dw_lean",
            "sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_dw_wn_lean"},
           {"sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore", "sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore_wn"},
           {"sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_pa", "sm90_tn_f32_64x64x64_s4_c1_coop_1x1_fw_wn_pa"}}) {
    const auto plain = KernelConfig::from_name(name);
    EXPECT_FALSE(plain.to_json().contains("walk_n"));
    auto c = plain;
    c.walk_n = true;
    EXPECT_EQ(c.shared_bytes(), plain.shared_bytes()) << name;
    LaunchKnobs split;
    split.splits = 3;
    expect_optional_knob_reads_back(c, walked, "walk_n", split);
    for (const auto& launch : {LaunchKnobs{}, split})  // the launches its plain twin takes
      EXPECT_EQ(launch_problem(c, launch), launch_problem(plain, launch)) << walked << launch.suffix();
  }
  for (Layout l : {Layout::tn, Layout::nn})
    for (const auto& k : config_space(l, Accum::f32)) EXPECT_FALSE(k.walk_n) << k.name();
}

// Which launches take their tiles with the dynamic walk: unsplit persistent ones of builds with it
// (a K too short to split counts as unsplit); split, stream-K and non-persistent launches walk
// statically, and builds without the knob always do.
TEST(KernelConfig, OnlyUnsplitPersistentLaunchesOfADynamicBuildWalkDynamically) {
  auto c = KernelConfig::from_name("sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_dw_lean");
  LaunchKnobs whole, split, streamk, once;
  split.splits = 3;
  streamk.stream_k = true;
  once.persistent = false;
  EXPECT_TRUE(walks_dynamically(c, whole, 1));
  EXPECT_TRUE(walks_dynamically(c, split, 1));  // K of one block: one part
  EXPECT_FALSE(walks_dynamically(c, split, 3));
  EXPECT_FALSE(walks_dynamically(c, streamk, 1));
  EXPECT_FALSE(walks_dynamically(c, once, 1));
  c.dynamic_walk = false;
  EXPECT_FALSE(walks_dynamically(c, whole, 1));
}

TEST(KernelConfig, SwapAbIsForKMajorOperandsAndDirectStores) {
  KernelConfig c;
  c.block_n = 64;
  c.swap_ab = true;
  EXPECT_TRUE(is_valid(c));
  EXPECT_EQ(KernelConfig::from_name(c.name()), c);
  EXPECT_EQ(KernelConfig::from_json(c.to_json()), c);
  KernelConfig nn = c;
  nn.layout = Layout::nn;
  EXPECT_FALSE(is_valid(nn));
  KernelConfig store = c;
  store.tma_store = true;
  EXPECT_FALSE(is_valid(store));
  KernelConfig wide = c;
  wide.block_n = 256;
  EXPECT_FALSE(is_valid(wide));
  // The kernel's rows are C's columns: split-K sizes its workspace by the swapped tiles.
  KernelConfig plain = c;
  plain.swap_ab = false;
  EXPECT_EQ(splitk_workspace_bytes(c, 64, 4096, 8192, 4), splitk_workspace_bytes(plain, 4096, 64, 8192, 4));
  EXPECT_EQ(auto_splits(c, 64, 4096, 8192, 132), auto_splits(plain, 4096, 64, 8192, 132));
}

TEST(LaunchKnobs, NameAndJsonRoundTrip) {
  LaunchKnobs k;
  EXPECT_EQ(k.suffix(), "");
  k.group_m = 8;
  k.splits = 4;
  EXPECT_EQ(KernelCandidate(KernelConfig{}, k).name(), KernelConfig{}.name() + "_g8_k4");
  EXPECT_EQ(LaunchKnobs::from_json(k.to_json()), k);
  EXPECT_EQ(LaunchKnobs::from_json(nlohmann::json::object()), LaunchKnobs{});
  EXPECT_THROW(LaunchKnobs::from_json({{"splits", 0}}), Error);
  EXPECT_THROW(LaunchKnobs::from_json({{"splits", kMaxSplits + 1}}), Error);
  EXPECT_THROW(LaunchKnobs::from_json({{"group_m", -1}}), Error);
  EXPECT_THROW(LaunchKnobs::from_json({{"splits", "four"}}), Error);
}

TEST(LaunchKnobs, SuffixesAndCandidateNamesReadBack) {
  LaunchKnobs split;
  split.splits = 8;
  split.group_m = 4;
  split.pdl = true;
  LaunchKnobs last = split;
  last.sliced_reduction = false;
  LaunchKnobs stream;
  stream.stream_k = true;
  for (const LaunchKnobs& k : {LaunchKnobs{}, split, last, stream, cluster_reduced(split)})
    EXPECT_EQ(LaunchKnobs::from_suffix(k.suffix()), k) << k.suffix();
  EXPECT_THROW(LaunchKnobs::from_suffix("_k4_fast"), Error);   // unknown part
  EXPECT_THROW(LaunchKnobs::from_suffix("k4"), Error);         // no leading '_'
  EXPECT_THROW(LaunchKnobs::from_suffix("_pdl_k4"), Error);    // not in suffix() order
  EXPECT_THROW(LaunchKnobs::from_suffix("_k4_sk"), Error);     // split-K and stream-K together
  EXPECT_THROW(LaunchKnobs::from_suffix("_kx"), Error);
  KernelConfig swap;
  swap.block_m = 128;
  swap.block_n = 64;
  swap.swap_ab = true;
  for (const KernelConfig& c : {KernelConfig{}, swap})
    for (const LaunchKnobs& k : {LaunchKnobs{}, split, cluster_reduced(split)}) {
      const auto [config, knobs] = parse_hopper_candidate_name(KernelCandidate(c, k).name());
      EXPECT_EQ(config, c);
      EXPECT_EQ(knobs, k);
    }
  EXPECT_THROW(parse_hopper_candidate_name("sm90_tn_f32_128x128x64_s4_c2_coop_1x1_turbo"), Error);
  EXPECT_THROW(parse_hopper_candidate_name("sm80_tn_f32_64x64x32_w2x2_s3_v16"), Error);
}

TEST(LaunchKnobs, AReductionInsideAClusterHasItsOwnRules) {
  KernelConfig c;  // 128x128, 4 stages, two cooperative consumers
  LaunchKnobs split;
  split.splits = 24;
  split.pdl = true;
  const LaunchKnobs k = cluster_reduced(split);
  EXPECT_TRUE(k.cluster_reduction);
  EXPECT_FALSE(k.persistent);  // one unit per CTA
  EXPECT_EQ(k.splits, kMaxClusterSplits);  // a cluster's largest size
  EXPECT_TRUE(k.pdl);
  EXPECT_EQ(launch_problem(c, k), "");
  EXPECT_NE(KernelCandidate(c, k).name().find("_k16_np_pdl_dsm"), std::string::npos) << KernelCandidate(c, k).name();
  EXPECT_EQ(LaunchKnobs::from_json(k.to_json()), k);
  // Each rule, with its reason.
  LaunchKnobs persistent = k;
  persistent.persistent = true;
  EXPECT_NE(launch_problem(c, persistent).find("non-persistent"), std::string::npos);
  LaunchKnobs unsplit = k;
  unsplit.splits = 1;
  EXPECT_NE(launch_problem(c, unsplit).find("needs split-K"), std::string::npos);
  LaunchKnobs too_many = k;
  too_many.splits = kMaxClusterSplits + 1;
  EXPECT_NE(launch_problem(c, too_many).find("at most 16"), std::string::npos);
  EXPECT_THROW(LaunchKnobs::from_json(too_many.to_json()), Error);
  KernelConfig pair = c;
  pair.cluster_m = 2;
  pair.multicast = true;
  EXPECT_NE(launch_problem(pair, k).find("must be 1x1"), std::string::npos);
  // The partial sums are written over the stage ring: 128x256 f32 in 2 stages holds
  // 2 x 384 x 128 bytes = 96 KiB, less than the tile's 128 KiB of f32 sums.
  KernelConfig shallow = c;
  shallow.block_n = 256;
  shallow.stages = 2;
  EXPECT_EQ(cluster_reduction_bytes(shallow), 128 * 256 * 4);
  EXPECT_NE(launch_problem(shallow, k).find("over the stage ring"), std::string::npos);
  shallow.stages = 3;
  EXPECT_EQ(launch_problem(shallow, k), "");
  KernelConfig pp = c;
  pp.mode = ConsumerMode::pingpong;  // one warpgroup owns the tile: one slot of 128x128 sums
  EXPECT_EQ(cluster_reduction_bytes(pp), 128 * 128 * 4);
  // Another shape: the parts are recomputed and stay within a cluster; a shape the tiles fill
  // runs unsplit, with no cluster to reduce in.
  const LaunchKnobs tall = knobs_for_shape(c, k, 128, 128, 65536, 132);
  EXPECT_TRUE(tall.cluster_reduction);
  EXPECT_EQ(tall.splits, kMaxClusterSplits);
  EXPECT_EQ(launch_problem(c, tall), "");
  const LaunchKnobs full = knobs_for_shape(c, k, 8192, 8192, 4096, 132);
  EXPECT_FALSE(full.cluster_reduction);
  EXPECT_TRUE(full.persistent);  // as the tuner launches an unsplit config
  EXPECT_EQ(full.splits, 1);
  EXPECT_EQ(launch_problem(c, full), "");
}

// A class rule built for one kind of launch (parts apart, pushed in-cluster sums) serves a shape
// whose recomputed knobs are another kind with the same config built without that knob, rather
// than a kernel the launcher refuses (and cuBLASLt in its place).
TEST(LaunchKnobs, ARulesConfigDropsTheKnobsItsLaunchOnAnotherShapeCannotUse) {
  KernelConfig pushed;
  pushed.block_m = 64;
  pushed.block_n = 32;
  pushed.consumers = 1;
  pushed.cluster_push = true;
  LaunchKnobs split;
  split.splits = 8;
  const LaunchKnobs in_cluster = cluster_reduced(split);
  EXPECT_EQ(config_for_launch(pushed, in_cluster), pushed);
  for (const auto& [M, N, K] : std::vector<std::array<int64_t, 3>>{{64, 64, 16384}, {8192, 8192, 4096}}) {
    const LaunchKnobs k = knobs_for_shape(pushed, in_cluster, M, N, K, 132);
    const KernelConfig served = config_for_launch(pushed, k);
    EXPECT_EQ(served.cluster_push, k.cluster_reduction) << M << "x" << N << "x" << K;
    EXPECT_EQ(launch_problem(served, k), "") << served.name() << KernelCandidate{served, k}.name();
  }
  KernelConfig apart = pushed;
  apart.cluster_push = false;
  apart.parts_apart = true;
  split.persistent = true;
  EXPECT_EQ(config_for_launch(apart, split), apart);
  for (const auto& [M, N, K] : std::vector<std::array<int64_t, 3>>{{256, 256, 16384}, {8192, 8192, 4096}}) {
    const LaunchKnobs k = knobs_for_shape(apart, split, M, N, K, 132);
    const KernelConfig served = config_for_launch(apart, k);
    EXPECT_EQ(served.parts_apart, k.splits > 1) << M << "x" << N << "x" << K;
    EXPECT_EQ(launch_problem(served, k), "") << KernelCandidate{served, k}.name();
  }
}

TEST(Residency, MeasuredClustersOrAnEstimateFromTheSms) {
  const Residency estimated(132);
  EXPECT_FALSE(estimated.clusters_measured());
  EXPECT_EQ(estimated.clusters_of(1), 132);
  EXPECT_EQ(estimated.clusters_of(2), 66);
  EXPECT_EQ(estimated.clusters_of(8), 16);
  EXPECT_THROW(estimated.clusters_of(3), Error);
  Residency h200(132);
  h200.clusters = {66, 30, 15};  // what the occupancy calculator says: clusters stay inside one GPC
  EXPECT_EQ(h200.clusters_of(4), 30);
  EXPECT_EQ(h200.clusters_of(8), 15);
  const Residency back = Residency::from_json(h200.to_json());
  EXPECT_EQ(back.sm_count, 132);
  EXPECT_EQ(back.clusters, h200.clusters);
  EXPECT_FALSE(estimated.to_json().contains("resident_clusters"));  // an estimate is not written as a measurement
  EXPECT_EQ(Residency::from_json(estimated.to_json()).clusters_of(8), 16);
  // More clusters than the SMs hold, a negative count, a malformed object: refused, not used.
  EXPECT_THROW(Residency::from_json({{"sm_count", 132}, {"resident_clusters", {{"2", 66}, {"4", 30}, {"8", 17}}}}), Error);
  EXPECT_THROW(Residency::from_json({{"sm_count", -1}}), Error);
  EXPECT_THROW(Residency::from_json({{"sm_count", "many"}}), Error);
}

TEST(SplitK, AutoSplitsCountClusterTilesAgainstResidentClusters) {
  KernelConfig c;
  c.block_m = 64;
  c.block_n = 128;
  c.consumers = 1;
  Residency h200(132);
  h200.clusters = {66, 30, 15};
  // 256x256 in 64x128 tiles: 8 tiles, 16 parts fill 128 of 132 SMs in one wave.
  EXPECT_EQ(auto_splits(c, 256, 256, 16384, h200), 16);
  // In 4x2 clusters the same output is one cluster tile, and 15 clusters of 8 fit: 15 parts,
  // where counting SMs (132 / 8 = 16) would ask for a part that cannot be resident.
  KernelConfig c42 = c;
  c42.cluster_m = 4;
  c42.cluster_n = 2;
  c42.multicast = true;
  ASSERT_TRUE(is_valid(c42)) << validity_problems(c42)[0];
  EXPECT_EQ(cluster_tiles(c42, 256, 256), 1);
  EXPECT_EQ(auto_splits(c42, 256, 256, 16384, h200), 15);
  EXPECT_EQ(auto_splits(c42, 256, 256, 16384, Residency(132)), 16);
  // Edge tiles pad to whole clusters: 300x300 is 2x2 cluster tiles of 256x256.
  EXPECT_EQ(cluster_tiles(c42, 300, 300), 4);
  EXPECT_EQ(auto_splits(c42, 300, 300, 16384, h200), 3);
  // The tiles fill the resident clusters: no split.
  EXPECT_EQ(auto_splits(c42, 4096, 4096, 16384, h200), 1);
}

TEST(SplitK, PartsAreClampedAndTheWorkspaceCountsEverySlot) {
  KernelConfig c;  // 128x128, two cooperative consumers: two row parts per tile
  EXPECT_EQ(effective_splits(c, 16384, 8), 8);
  EXPECT_EQ(effective_splits(c, 100, 8), 2);  // two K blocks of 64
  EXPECT_EQ(effective_splits(c, 8, 8), 1);
  EXPECT_EQ(splitk_workspace_bytes(c, 4096, 4096, 16384, 1), 0u);
  EXPECT_EQ(splitk_workspace_bytes(c, 64, 64, 64, 4), 0u);  // one K block: nothing to split
  // 3x2 tiles x 2 parts = 12 counters (padded to 64 words), then 12 x 4 slots of 64 f32 pairs
  // per thread... 64 accumulators x 128 threads x 4 bytes each.
  EXPECT_EQ(splitk_workspace_bytes(c, 300, 200, 16384, 4), size_t(64 * 4 + 12 * 4 * 64 * 128 * 4));
  KernelConfig pp = c;
  pp.mode = ConsumerMode::pingpong;  // one warpgroup owns the whole tile: 128 accumulators
  EXPECT_EQ(splitk_workspace_bytes(pp, 300, 200, 16384, 4), size_t(64 * 4 + 6 * 4 * 128 * 128 * 4));
  KernelConfig cl = c;
  cl.cluster_m = 2;
  cl.multicast = true;  // tiles padded to whole clusters: 4x2 tiles
  EXPECT_EQ(splitk_workspace_bytes(cl, 300, 200, 16384, 4), size_t(64 * 4 + 16 * 4 * 64 * 128 * 4));
}

TEST(JitSource, NamesTheInstantiation) {
  KernelConfig c;
  c.block_n = 192;
  const std::string src = jit_source(c);
  EXPECT_NE(src.find("kBlockM = 128, kBlockN = 192, kStages = 4, kConsumers = 2;"), std::string::npos) << src;
  EXPECT_NE(src.find("kPingPong = false"), std::string::npos) << src;
  EXPECT_NE(src.find("kTmaStore = false, kF32Acc = true, kBNMajor = false"), std::string::npos) << src;
  // The host's shared-memory figure is checked against the kernel's at compile time.
  EXPECT_NE(src.find("Traits::kSmemBytes == " + std::to_string(c.shared_bytes())), std::string::npos) << src;
  EXPECT_NE(src.find(std::string("extern \"C\" __global__")), std::string::npos);
  EXPECT_NE(src.find(kJitKernelName), std::string::npos);
}

}  // namespace
}  // namespace gemmforge
