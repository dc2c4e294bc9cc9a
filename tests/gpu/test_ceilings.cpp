// The ceilings that are new (what a warm L2 keeps, wgmma alone, L2's write rate, TMA's delivery): each
// is measured, in its unit, within what the hardware can be (no threshold on speed: a benchmark
// is not a test; a value above the tensor cores' peak or a footprint outside the sweep is a bug).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

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

TEST(Ceilings, L2sWriteRateIsMeasuredBesideItsReadRate) {
  GF_REQUIRE_GPU(ctx);
  CeilingOptions o = quick();
  o.hbm_buffer_bytes = 4 * size_t(ctx->info().l2_bytes);  // the least the HBM passes accept
  const auto ms = measure_memory_bandwidth(*ctx, o);
  const auto find = [&](const char* key) -> const CeilingMeasurement* {
    for (const auto& m : ms)
      if (std::string(m.field.key) == key) return &m;
    return nullptr;
  };
  const CeilingMeasurement* write = find("l2_write");
  ASSERT_NE(write, nullptr);
  ASSERT_NE(find("l2_read"), nullptr);
  EXPECT_STREQ(write->field.unit, "GB/s");
  EXPECT_GT(write->value, 0);
  EXPECT_GT(write->detail["passes"].get<int>(), 1);
  EXPECT_EQ(write->detail["buffer_bytes"], find("l2_read")->detail["buffer_bytes"]);  // the same slice
  // The read rate is L2's own (loads that skip L1); the L1 paths over the same slice beside it.
  const CeilingMeasurement* read = find("l2_read");
  EXPECT_EQ(read->detail["loads"], "ld.global.cg");
  EXPECT_GT(read->detail["through_l1_gbps"].get<double>(), 0);
  EXPECT_GT(read->detail["through_l1_rotated_gbps"].get<double>(), 0);
}

TEST(Ceilings, TmaDeliversNoFasterThanSharedMemoryTakes) {
  GF_REQUIRE_GPU(ctx);
  const auto tma = measure_tma_read(*ctx, quick());
  if (ctx->info().cc_major != 9) {
    EXPECT_FALSE(tma.has_value()) << "the TMA kernel is built for sm_90 only";
    GTEST_SKIP() << "no TMA kernel for compute capability " << ctx->info().cc_major;
  }
  ASSERT_TRUE(tma.has_value());
  EXPECT_STREQ(tma->field.key, "tma_read");
  // Shared memory takes at most 128 bytes per clock per SM, at the highest clock.
  const double max_ghz = fp16_tensor_peak(*ctx).detail["max_sm_clock_mhz"].get<double>() / 1e3;
  double fastest = 0;
  std::set<int> multicast;  // the cluster sizes of the multicast variants
  ASSERT_GE(tma->detail["variants"].size(), 4u);
  for (const auto& v : tma->detail["variants"]) {
    EXPECT_GT(v["gbps"].get<double>(), 0) << v.dump();
    EXPECT_LE(v["per_sm_gbps"].get<double>(), 128 * max_ghz * 1.01) << v.dump();
    EXPECT_LE(v["in_flight"].get<int>() * v["box_bytes"].get<int>(), 200 << 10) << v.dump();
    if (v["path"] == "tma") fastest = std::max(fastest, v["gbps"].get<double>());
    if (v["path"] == "tma multicast") {
      multicast.insert(v["cluster"].get<int>());
      EXPECT_EQ(v["ctas"].get<int>() % v["cluster"].get<int>(), 0) << v.dump();
      EXPECT_DOUBLE_EQ(v["l2_lines_gbps"].get<double>(), v["gbps"].get<double>() / v["cluster"].get<int>());
    }
  }
  EXPECT_EQ(multicast, (std::set<int>{2, 4})) << "multicast variants in clusters of 2 and of 4";
  EXPECT_DOUBLE_EQ(tma->value, fastest);  // one CTA's own loads: multicast is beside the value
}

TEST(Ceilings, TmaStoresLeaveNoFasterThanSharedMemoryGives) {
  GF_REQUIRE_GPU(ctx);
  const auto tma = measure_tma_write(*ctx, quick());
  if (ctx->info().cc_major != 9) {
    EXPECT_FALSE(tma.has_value()) << "the TMA kernel is built for sm_90 only";
    GTEST_SKIP() << "no TMA kernel for compute capability " << ctx->info().cc_major;
  }
  ASSERT_TRUE(tma.has_value());
  EXPECT_STREQ(tma->field.key, "tma_write");
  // The stores read shared memory at most 128 bytes per clock per SM, at the highest clock.
  const double max_ghz = fp16_tensor_peak(*ctx).detail["max_sm_clock_mhz"].get<double>() / 1e3;
  double fastest_beyond_l2 = 0;
  int beyond_l2 = 0, in_l2 = 0;
  for (const auto& v : tma->detail["variants"]) {
    EXPECT_GT(v["gbps"].get<double>(), 0) << v.dump();
    EXPECT_LE(v["per_sm_gbps"].get<double>(), 128 * max_ghz * 1.01) << v.dump();
    EXPECT_EQ(v["bytes_in_flight"].get<int>(), v["in_flight"].get<int>() * v["group_bytes"].get<int>()) << v.dump();
    if (v["destination"] == "beyond_l2") {
      ++beyond_l2;
      fastest_beyond_l2 = std::max(fastest_beyond_l2, v["gbps"].get<double>());
    } else {
      ++in_l2;
    }
  }
  EXPECT_GE(beyond_l2, 5);
  EXPECT_GE(in_l2, 2);
  EXPECT_DOUBLE_EQ(tma->value, fastest_beyond_l2);  // the value is the tensor beyond L2's, never L2's
}

}  // namespace
}  // namespace gemmforge::testing
