// The ceilings that the floor reads where they are new (what a warm L2 keeps, wgmma alone): each
// is measured, in its unit, within what the hardware can be (no threshold on speed: a benchmark
// is not a test; a value above the tensor cores' peak or a footprint outside the sweep is a bug).
#include <gtest/gtest.h>

#include "eval/ceilings.hpp"
#include "gpu_test_env.hpp"

namespace gemmforge::testing {
namespace {

CeilingOptions quick() {
  CeilingOptions o;
  o.rounds = 3;
  o.gemm_rounds = 3;
  o.gemm_warmup_s = 0.05;
  o.gemm_sample_us = 2000;
  return o;
}

TEST(Ceilings, AWarmL2KeepsAFootprintInsideTheSweep) {
  GF_REQUIRE_GPU(ctx);
  const CeilingMeasurement m = measure_l2_residency(*ctx, quick());
  EXPECT_STREQ(m.field.key, "l2_resident");
  EXPECT_STREQ(m.field.unit, "MiB");
  const double l2_mib = double(ctx->info().l2_bytes) / (1 << 20);
  EXPECT_GE(m.value, 8);
  EXPECT_LE(m.value, 1.5 * l2_mib);
  ASSERT_TRUE(m.detail.contains("curve"));
  EXPECT_GE(m.detail["curve"].size(), 2u);
  for (const auto& point : m.detail["curve"]) EXPECT_GT(point["gbps"].get<double>(), 0) << point.dump();
}

TEST(Ceilings, WgmmaAloneRunsAtOrBelowThePeak) {
  GF_REQUIRE_GPU(ctx);
  const auto alone = measure_fp16_tensor_alone(*ctx, quick());
  if (ctx->info().cc_major != 9) {
    EXPECT_FALSE(alone.has_value()) << "wgmma is sm_90 only";
    GTEST_SKIP() << "no wgmma on compute capability " << ctx->info().cc_major;
  }
  ASSERT_TRUE(alone.has_value());
  const CeilingMeasurement peak = fp16_tensor_peak(*ctx);
  EXPECT_GT(alone->value, 0);
  EXPECT_LE(alone->value, peak.value * 1.001) << "faster than SMs x FLOPs per clock x the highest clock";
  EXPECT_GT(alone->detail["k_blocks_per_launch"].get<int>(), 0);
}

}  // namespace
}  // namespace gemmforge::testing
