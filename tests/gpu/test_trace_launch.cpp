// `gemmforge trace` on the GPU: a traced build passes the gate, and its read-back stamps account
// for every CTA of the launch and every unit of the walk, in time order, and a sliced split-K
// launch stamps each phase of its reduction.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpu_test_env.hpp"
#include "runtime/trace_launch.hpp"

namespace gemmforge {
namespace {

TEST(TraceLaunch, StampsCoverEveryCtaAndUnitInOrder) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  // A persistent cooperative tile that defers half its epilogue, and a split one-consumer tile.
  KernelConfig coop;
  coop.block_m = 128;
  coop.block_n = 256;
  coop.stages = 4;
  coop.consumers = 2;
  coop.tma_store = true;
  KernelConfig split;
  split.block_m = split.block_n = 64;
  split.stages = 8;
  split.consumers = 1;
  split.parts_apart = true;  // built for split launches: the lean finish, whose phases are stamped
  LaunchKnobs four_parts;
  four_parts.splits = 4;
  struct Case {
    KernelConfig config;
    LaunchKnobs knobs;
    Shape shape;
    int ctas, units;  // what the launch must show
  };
  const int sms = ctx->info().sm_count;
  const int tiles = (4096 / 128) * (4096 / 256);  // 512: several per CTA
  for (const Case& c : {Case{coop, LaunchKnobs{}, {4096, 4096, 512}, sms, tiles},
                        Case{split, four_parts, {256, 256, 4096}, 64, 64}}) {
    const TracedLaunch t = trace_launch(*ctx, c.config, c.knobs, c.shape, cache, 3);
    const std::string what = c.config.name() + " on " + to_string(c.shape);
    EXPECT_EQ(t.summary.ctas, c.ctas) << what;
    EXPECT_EQ(int(t.summary.units.size()), c.units) << what;
    EXPECT_GT(t.summary.clock_mhz, 500) << what;
    EXPECT_LT(t.summary.clock_mhz, 3000) << what;
    EXPECT_GT(t.event_us, 0) << what;
    for (const auto& u : t.summary.units) {
      EXPECT_GE(u.wait_us, 0) << what;
      EXPECT_GT(u.main_us, 0) << what;
      EXPECT_GE(u.finish_us, 0) << what;
      EXPECT_GT(u.k_blocks, 0) << what;
    }
    const bool sliced = c.knobs.splits > 1;  // one unit a CTA, each reduced in slices
    for (const auto& cta : t.summary.per_cta) {
      EXPECT_GE(cta.setup_us, 0) << what;
      EXPECT_GE(cta.end_us, cta.entry_us) << what;
      // One a launch, summed over the two launches after the buffer is zeroed (trace_launch).
      EXPECT_EQ(cta.reductions, sliced ? 2 : 0) << what;
      if (sliced) {  // every phase stamped, and the parts' wait and the slice take time
        EXPECT_GT(cta.red_publish_us, 0) << what;
        EXPECT_GE(cta.red_arrive_us, 0) << what;
        EXPECT_GT(cta.red_wait_us, 0) << what;
        EXPECT_GT(cta.red_slice_us, 0) << what;
        EXPECT_GE(cta.red_depart_us, 0) << what;
      }
    }
  }
}

// The diagnostic builds: a ping-pong tile traced without its epilogue (gated first as a complete
// build, then run) spends next to nothing between a unit's last wgmma and its end, where the
// complete build stages and stores its tile; with k-block stamps every k-block of the stamped
// units (4-7 of each walk) has its stage-full, retired and loaded stamps, in order.
TEST(TraceLaunch, AblatedAndKBlockStampedBuildsRun) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  KernelConfig pp;
  pp.block_m = 128;
  pp.block_n = 176;
  pp.stages = 4;
  pp.consumers = 2;
  pp.mode = ConsumerMode::pingpong;
  pp.tma_store = true;
  const Shape shape{4096, 4096, 1024};  // 16 k-blocks a unit, several units a CTA
  auto median_finish = [](const TraceSummary& s) {
    std::vector<double> v;
    for (const auto& u : s.units) v.push_back(u.finish_us);
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const TracedLaunch complete = trace_launch(*ctx, pp, LaunchKnobs{}, shape, cache, 3);
  const TracedLaunch without = trace_launch(*ctx, pp, LaunchKnobs{}, shape, cache, 3, {Ablation::kWholeEpilogue, false});
  EXPECT_EQ(without.summary.units.size(), complete.summary.units.size());
  EXPECT_LT(median_finish(without.summary), median_finish(complete.summary));
  EXPECT_TRUE(complete.summary.kblocks.empty());  // no k-block stamps unless asked for
  const TracedLaunch stamped = trace_launch(*ctx, pp, LaunchKnobs{}, shape, cache, 3, {Ablation::kNone, true});
  ASSERT_FALSE(stamped.summary.kblocks.empty());
  for (const auto& k : stamped.summary.kblocks) {
    ASSERT_NE(k.full, TraceKBlock::missing) << "CTA " << k.cta << " unit " << k.walked << " k-block " << k.kb;
    ASSERT_NE(k.retired, TraceKBlock::missing);
    ASSERT_NE(k.loaded, TraceKBlock::missing);
    EXPECT_GT(k.retired, k.full);  // a group retires after its stage was in hand
    EXPECT_GT(k.full, k.loaded);   // and a stage fills after its loads were issued
  }
}

// The main loop's halves alone: in a multicast cluster (remote releases, slices sent to the
// partner) and with K split in two (partial sums reduced), a build without wgmma and one without
// TMA loads each run to the end and stamp every unit the complete build does.
TEST(TraceLaunch, MainLoopHalvesRunAlone) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  KernelConfig mc;
  mc.block_m = 64;
  mc.block_n = 64;
  mc.stages = 8;
  mc.consumers = 1;
  mc.cluster_n = 2;
  mc.multicast = true;
  LaunchKnobs split;
  split.splits = 2;
  const Shape shape{256, 4096, 2048};
  for (const LaunchKnobs& knobs : {LaunchKnobs{}, split}) {
    const TracedLaunch complete = trace_launch(*ctx, mc, knobs, shape, cache, 2);
    for (Ablation part : {Ablation::kMma, Ablation::kLoads}) {
      const TracedLaunch half = trace_launch(*ctx, mc, knobs, shape, cache, 2, {part, false});
      EXPECT_EQ(half.summary.units.size(), complete.summary.units.size()) << int(part) << " splits " << knobs.splits;
      EXPECT_EQ(half.summary.ctas, complete.summary.ctas);
    }
  }
}

}  // namespace
}  // namespace gemmforge
