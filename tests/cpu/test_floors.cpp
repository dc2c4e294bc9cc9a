// The floor arithmetic behind `gemmforge report --floors`: floors checked against hand
// computations, which term bounds which kind of shape, headroom and class geometric means on a
// small synthetic record set, and ceilings files that must be refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/floor_report.hpp"

namespace gemmforge {
namespace {

// Round numbers, so the hand computations below stay readable.
Ceilings test_ceilings() {
  Ceilings c;
  c.launch_gpu_us = 0.5;
  c.launch_offline_us = 3.0;
  c.launch_server_us = 10.0;
  c.hbm_read_gbps = 4000;   // 4e3 bytes per ns = 4e6 bytes per µs
  c.hbm_write_gbps = 3200;  // 3.2e6 bytes per µs
  c.fp16_tflops = 600;       // sustained: recorded, not used by the floor
  c.fp16_peak_tflops = 640;  // 640e6 flops per µs
  c.l2_read_gbps = 16000;    // 1.6e7 bytes per µs
  c.l2_bytes = 4 << 20;      // 4 MiB: small, so that the hand-computed shapes take both paths
  return c;
}

nlohmann::json measurement(double value, const char* unit) {
  return {{"value", value}, {"unit", unit}, {"method", "test"}, {"samples", 3}};
}

nlohmann::json ceilings_json() {
  return {{"schema", "gemmforge.ceilings/1"},
          {"measurements",
           {{"launch_gpu", measurement(0.5, "us")},
            {"launch_offline", measurement(3.0, "us")},
            {"launch_server", measurement(10.0, "us")},
            {"hbm_read", measurement(4000, "GB/s")},
            {"hbm_write", measurement(3200, "GB/s")},
            {"hbm_copy", measurement(3900, "GB/s")},
            {"l2_read", measurement(16000, "GB/s")},
            {"fp16_tensor", measurement(600, "TFLOP/s")},
            {"fp16_tensor_peak", measurement(640, "TFLOP/s")}}},
          {"environment", {{"l2_bytes", 4 << 20}}}};
}

std::string refusal(const nlohmann::json& j) {
  try {
    ceilings_from_json(j);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

const Shape kTiny{64, 64, 64}, kLarge4k{4096, 4096, 4096}, kLarge8k{8192, 8192, 8192};
const Shape kSmallK64{8192, 8192, 64}, kSmallK256{4096, 4096, 256}, kMid{512, 512, 2048};

TEST(Floors, LargeShapeMatchesAHandComputation) {
  const Floor f = floor_of(kLarge4k, "gpu", test_ceilings(), false);
  // Read 2·(MK + KN) = 2·(2·4096²) = 67108864 bytes at 4e6 bytes/µs; write 2·4096² = 33554432 at 3.2e6.
  EXPECT_NEAR(f.memory_us, 67108864.0 / 4e6 + 33554432.0 / 3.2e6, 1e-9);
  EXPECT_NEAR(f.memory_us, 16.777216 + 10.48576, 1e-9);
  // 2·4096³ = 137438953472 flops at 640e6 per µs.
  EXPECT_NEAR(f.compute_us, 214.7483648, 1e-9);
  EXPECT_DOUBLE_EQ(f.launch_us, 0.5);
  EXPECT_NEAR(f.total_us, 0.5 + 214.7483648, 1e-9);
  EXPECT_EQ(f.bound, FloorBound::compute);
  EXPECT_NEAR(floor_of(kLarge4k, "server", test_ceilings(), false).total_us, 10.0 + 214.7483648, 1e-9);
}

TEST(Floors, EachKindOfShapeHasItsBound) {
  const Ceilings c = test_ceilings();
  const Floor tiny = floor_of(kTiny, "gpu", c, false);
  EXPECT_EQ(tiny.bound, FloorBound::launch);
  EXPECT_NEAR(tiny.total_us, 0.5 + 16384.0 / 4e6 + 8192.0 / 3.2e6, 1e-12);  // memory beats 524288 flops

  // Small K: writing C (128 MiB) dwarfs reading A and B (2 MiB) and the 8.6 GFLOP.
  const Floor small_k = floor_of(kSmallK64, "gpu", c, false);
  EXPECT_EQ(small_k.bound, FloorBound::memory);
  EXPECT_NEAR(small_k.memory_us, 2097152.0 / 4e6 + 134217728.0 / 3.2e6, 1e-9);
  EXPECT_NEAR(small_k.compute_us, 8589934592.0 / 640e6, 1e-9);
  EXPECT_NEAR(small_k.total_us, 0.5 + 42.467328, 1e-9);

  // K = 256 at 4096²: 11.5 µs of memory, 13.4 µs of compute.
  EXPECT_EQ(floor_of(kSmallK256, "gpu", c, false).bound, FloorBound::compute);
  EXPECT_EQ(floor_of(kLarge8k, "gpu", c, false).bound, FloorBound::compute);
}

TEST(Floors, OfflineOverlapsHostLaunchesWithDeviceWork) {
  const Ceilings c = test_ceilings();
  // Tiny: the host's 3 µs per launch is the whole floor.
  const Floor tiny = floor_of(kTiny, "offline", c, false);
  EXPECT_DOUBLE_EQ(tiny.total_us, 3.0);
  EXPECT_EQ(tiny.bound, FloorBound::launch);
  // 512x512x2048: 1.68 µs of compute + 0.5 µs device launch < 3 µs host: launch-bound offline,
  // compute-bound in gpu mode.
  const Floor mid = floor_of(kMid, "offline", c, false);
  EXPECT_DOUBLE_EQ(mid.total_us, 3.0);
  EXPECT_EQ(mid.bound, FloorBound::launch);
  EXPECT_EQ(floor_of(kMid, "gpu", c, false).bound, FloorBound::compute);
  // Large: the host's launch hides behind the device work; not added to it.
  const Floor large = floor_of(kLarge4k, "offline", c, false);
  EXPECT_NEAR(large.total_us, 0.5 + 214.7483648, 1e-9);
  EXPECT_EQ(large.bound, FloorBound::compute);
  EXPECT_THROW(floor_of(kTiny, "verify", c, false), Error);
}

TEST(Floors, WarmL2ServesWhatFitsInIt) {
  const Ceilings c = test_ceilings();  // 4 MiB of L2
  // 64³: everything fits; A and B come from L2 and C goes into it.
  const Floor tiny = floor_of(kTiny, "gpu", c, true);
  EXPECT_NEAR(tiny.memory_us, 16384.0 / 1.6e7 + 8192.0 / 1.6e7, 1e-12);
  // 8192²×64: A and B (2 MiB) come from L2, and the other 2 MiB of L2 take part of C; the rest
  // of C (126 MiB) goes to HBM, which is the slower stream.
  const Floor small_k = floor_of(kSmallK64, "gpu", c, true);
  EXPECT_NEAR(small_k.memory_us, (134217728.0 - 2097152.0) / 3.2e6, 1e-9);
  // 4096³: 4 of A and B's 64 MiB from L2, the other 60 MiB and all of C (32 MiB) from HBM.
  EXPECT_NEAR(floor_of(kLarge4k, "gpu", c, true).memory_us, (67108864.0 - 4194304.0) / 4e6 + 33554432.0 / 3.2e6, 1e-9);
  // Warm never raises a floor.
  for (const Shape& s : {kTiny, kSmallK64, kSmallK256, kMid, kLarge8k})
    EXPECT_LE(floor_of(s, "gpu", c, true).total_us, floor_of(s, "gpu", c, false).total_us) << to_string(s);
}

TEST(Floors, AWarmL2KeepsOnlyWhatWasMeasuredResident) {
  Ceilings c = test_ceilings();  // 4 MiB of L2
  c.l2_resident_bytes = 2 << 20;  // of which a warm L2 keeps 2 MiB
  EXPECT_DOUBLE_EQ(c.l2_kept_bytes(), 2 << 20);
  // 8192²×64: A and B (2 MiB) fill what L2 keeps, so all of C (128 MiB) goes to HBM.
  EXPECT_NEAR(floor_of(kSmallK64, "gpu", c, true).memory_us, 134217728.0 / 3.2e6, 1e-9);
  // 4096³: 2 of A and B's 64 MiB from L2.
  EXPECT_NEAR(floor_of(kLarge4k, "gpu", c, true).memory_us, (67108864.0 - 2097152.0) / 4e6 + 33554432.0 / 3.2e6, 1e-9);
  // Never more than the L2 itself; and with nothing measured, the L2's size.
  c.l2_resident_bytes = 8 << 20;
  EXPECT_DOUBLE_EQ(c.l2_kept_bytes(), 4 << 20);
  c.l2_resident_bytes = 0;
  EXPECT_DOUBLE_EQ(c.l2_kept_bytes(), 4 << 20);
}

TEST(Floors, WhatAWarmL2KeepsOfCIsWrittenAtL2sWriteRate) {
  Ceilings c = test_ceilings();  // L2 reads 1.6e7 bytes per µs, 4 MiB of L2
  const Shape s{1024, 1024, 64};  // A and B 256 KiB, C 2 MiB: all of it kept
  const double read = 262144.0, write = 2097152.0;
  // Not measured: writes at the read rate, sharing it with the reads.
  EXPECT_NEAR(floor_of(s, "gpu", c, true).memory_us, (read + write) / 1.6e7, 1e-12);
  c.l2_write_gbps = 8000;  // slower than reads: the writes alone bound the L2 time
  EXPECT_NEAR(floor_of(s, "gpu", c, true).memory_us, write / 8e6, 1e-12);
  c.l2_write_gbps = 32000;  // faster: both at the faster rate, or the reads alone, whichever is longer
  EXPECT_NEAR(floor_of(s, "gpu", c, true).memory_us, std::max(read / 1.6e7, (read + write) / 3.2e7), 1e-12);
  c.l2_write_gbps = 1000;  // below HBM's write rate (a bad file): L2 is never slower than HBM
  EXPECT_NEAR(floor_of(s, "gpu", c, true).memory_us, write / 3.2e6, 1e-12);
  EXPECT_DOUBLE_EQ(floor_of(s, "gpu", c, false).memory_us, read / 4e6 + write / 3.2e6);  // cold: HBM only
}

TEST(Floors, CallsAtSteadyStateComputeAtTheRateWgmmaAloneSustains) {
  Ceilings c = test_ceilings();  // peak 640 TFLOP/s
  const double flops = 2.0 * 8192 * 8192 * 8192;
  EXPECT_NEAR(floor_of(kLarge8k, "gpu", c, false, true).compute_us, flops / 640e6, 1e-9);  // not measured: the peak
  c.fp16_alone_tflops = 500;
  EXPECT_NEAR(floor_of(kLarge8k, "gpu", c, false, true).compute_us, flops / 500e6, 1e-9);
  EXPECT_NEAR(floor_of(kLarge8k, "gpu", c, false, false).compute_us, flops / 640e6, 1e-9);  // not at steady state
  EXPECT_GT(floor_of(kLarge8k, "gpu", c, false, true).total_us, floor_of(kLarge8k, "gpu", c, false, false).total_us);
  c.fp16_alone_tflops = 700;  // above the peak (a bad file): the peak still bounds it
  EXPECT_NEAR(floor_of(kLarge8k, "gpu", c, false, true).compute_us, flops / 640e6, 1e-9);
}

BenchRecord rec(Shape s, const std::string& impl, Layout l, const std::string& mode, double us) {
  BenchRecord r;
  r.shape = s;
  r.layout = l;
  r.impl = impl;
  r.mode = mode;
  r.l2 = "cold";
  r.median_us = us;
  r.p25_us = us;
  r.p75_us = us;
  r.samples = 9;
  return r;
}

BenchRecord warm(BenchRecord r) {
  r.l2 = "warm";
  return r;
}

std::vector<BenchRecord> synthetic_records() {
  auto failed = rec(kSmallK256, "gemmforge", Layout::tn, "gpu", 1.0);
  failed.verdict = "fail: planted";
  failed.median_us.reset();
  return {rec(kSmallK64, "cublaslt-autotune", Layout::nn, "gpu", 60), rec(kSmallK64, "cublaslt-autotune", Layout::tn, "gpu", 55),
          rec(kSmallK64, "gemmforge", Layout::nn, "gpu", 50), rec(kSmallK64, "gemmforge", Layout::tn, "gpu", 58),
          rec(kSmallK256, "cublaslt-autotune", Layout::nn, "gpu", 20), rec(kSmallK256, "gemmforge", Layout::nn, "gpu", 25),
          failed,
          warm(rec(kTiny, "cublaslt-autotune", Layout::nn, "gpu", 0.4)),  // below the 0.5 µs launch floor
          rec(kSmallK64, "cublaslt-autotune", Layout::nn, "offline", 70),
          rec(kTiny, "torch", Layout::nn, "verify", 1)};
}

TEST(FloorReport, CallsOverTheHeavyThresholdAreAtSteadyState) {
  Ceilings c = test_ceilings();
  c.fp16_alone_tflops = 320;
  const std::vector<BenchRecord> records = {rec(kLarge8k, "cublaslt-autotune", Layout::nn, "gpu", 2000),
                                            rec(kLarge8k, "gemmforge", Layout::nn, "gpu", 1900),
                                            rec(kSmallK256, "cublaslt-autotune", Layout::nn, "gpu", 150),
                                            rec(kSmallK256, "gemmforge", Layout::nn, "gpu", 210)};
  const auto rows = floor_rows(records, c, "cublaslt-autotune", "gemmforge", 200);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_TRUE(rows[0].steady_state);  // one implementation over 200 µs is enough: the bench warmed the card
  EXPECT_TRUE(rows[1].steady_state);
  EXPECT_NEAR(rows[1].floor.compute_us, 2.0 * 8192 * 8192 * 8192 / 320e6, 1e-9);
  const auto light = floor_rows(records, c, "cublaslt-autotune", "gemmforge", 5000);
  EXPECT_FALSE(light[0].steady_state);
  EXPECT_NEAR(light[1].floor.compute_us, 2.0 * 8192 * 8192 * 8192 / 640e6, 1e-9);
}

TEST(FloorReport, RowsTakeEachSidesBestLayout) {
  const Ceilings c = test_ceilings();
  const auto rows = floor_rows(synthetic_records(), c, "cublaslt-autotune", "gemmforge", 200);
  ASSERT_EQ(rows.size(), 4u);  // gpu: tiny, small-K 256, small-K 64 (ascending FLOPs); offline: small-K 64
  EXPECT_EQ(rows[0].shape, kTiny);
  EXPECT_EQ(rows[1].shape, kSmallK256);
  EXPECT_EQ(rows[2].shape, kSmallK64);
  EXPECT_EQ(rows[3].mode, "offline");
  const FloorRow& a = rows[2];
  const double floor_a = 0.5 + 42.467328;
  EXPECT_NEAR(a.floor.total_us, floor_a, 1e-9);
  EXPECT_DOUBLE_EQ(*a.baseline_us, 55);
  EXPECT_DOUBLE_EQ(*a.impl_us, 50);
  EXPECT_NEAR(*a.headroom(), 55 / floor_a, 1e-12);
  EXPECT_NEAR(*a.baseline_floor_fraction(), floor_a / 55, 1e-12);
  EXPECT_NEAR(*a.impl_floor_fraction(), floor_a / 50, 1e-12);
  EXPECT_NEAR(*a.speedup(), 1.1, 1e-12);
  EXPECT_FALSE(a.below_floor());
  EXPECT_FALSE(a.l2_warm);
  EXPECT_TRUE(rows[0].below_floor());
  EXPECT_TRUE(rows[0].l2_warm);  // and its floor reads from L2
  EXPECT_NEAR(rows[0].floor.memory_us, (16384.0 + 8192.0) / 1.6e7, 1e-12);
  EXPECT_FALSE(rows[3].impl_us.has_value());
  EXPECT_FALSE(rows[3].speedup().has_value());
}

TEST(FloorReport, ClassGeomeansOfHeadroomSpeedupAndFloorFractions) {
  const auto rows = floor_rows(synthetic_records(), test_ceilings(), "cublaslt-autotune", "gemmforge", 200);
  const auto classes = floor_class_summaries(rows);
  const FloorClassSummary* small_k = nullptr;
  const FloorClassSummary* all_gpu = nullptr;
  for (const auto& s : classes) {
    if (s.mode == "gpu" && s.shape_class == "small-K") small_k = &s;
    if (s.mode == "gpu" && s.shape_class == "all") all_gpu = &s;
  }
  ASSERT_NE(small_k, nullptr);
  ASSERT_NE(all_gpu, nullptr);
  const double floor_a = 0.5 + 42.467328;        // 8192x8192x64, memory-bound
  const double floor_b = 0.5 + 8589934592.0 / 640e6;  // 4096x4096x256, compute-bound
  EXPECT_EQ(small_k->shapes, 2);
  EXPECT_EQ(small_k->bound_memory, 1);
  EXPECT_EQ(small_k->bound_compute, 1);
  EXPECT_EQ(small_k->with_both, 2);
  EXPECT_NEAR(*small_k->headroom, std::sqrt((55 / floor_a) * (20 / floor_b)), 1e-12);
  EXPECT_NEAR(*small_k->speedup, std::sqrt((55.0 / 50) * (20.0 / 25)), 1e-12);
  EXPECT_NEAR(*small_k->impl_floor_fraction, std::sqrt((floor_a / 50) * (floor_b / 25)), 1e-12);
  EXPECT_NEAR(*small_k->baseline_floor_fraction, 1 / *small_k->headroom, 1e-12);
  EXPECT_EQ(small_k->below_floor, 0);
  EXPECT_EQ(all_gpu->shapes, 3);
  EXPECT_EQ(all_gpu->bound_launch, 1);
  EXPECT_EQ(all_gpu->below_floor, 1);
  EXPECT_EQ(all_gpu->with_baseline, 3);
  EXPECT_EQ(all_gpu->with_both, 2);
  // Offline holds only a baseline: headroom, and no speedup.
  for (const auto& s : classes)
    if (s.mode == "offline") {
      EXPECT_TRUE(s.headroom.has_value());
      EXPECT_FALSE(s.speedup.has_value());
    }
}

TEST(FloorReport, PicksTheGemmforgeImplementation) {
  auto rs = synthetic_records();
  EXPECT_EQ(pick_floor_impl(rs, "auto"), "gemmforge");
  EXPECT_EQ(pick_floor_impl(rs, "gemmforge-lib"), "gemmforge-lib");
  rs.push_back(rec(kTiny, "gemmforge-lib", Layout::nn, "gpu", 3));
  EXPECT_EQ(pick_floor_impl(rs, "auto"), "gemmforge");
  std::erase_if(rs, [](const BenchRecord& r) { return r.impl == "gemmforge"; });
  EXPECT_EQ(pick_floor_impl(rs, "auto"), "gemmforge-lib");
  EXPECT_EQ(pick_floor_impl({rec(kTiny, "cublas", Layout::nn, "gpu", 3)}, "auto"), "");
}

TEST(FloorReport, TablesNameTheBoundOfEveryShape) {
  const Ceilings c = test_ceilings();
  const auto rows = floor_rows(synthetic_records(), c, "cublaslt-autotune", "gemmforge", 200);
  const FloorReportLabels labels{"ceilings.json", "cublaslt-autotune", "gemmforge"};
  const std::string csv = floor_csv(rows, labels);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 4);
  EXPECT_NE(csv.find("8192,8192,64,small-K,gpu,0,memory,"), std::string::npos);
  EXPECT_NE(csv.find("4096,4096,256,small-K,gpu,0,compute,"), std::string::npos);
  EXPECT_NE(csv.find("64,64,64,tiny,gpu,0,launch,"), std::string::npos);
  const auto classes = floor_class_summaries(rows);
  const std::string short_md = render_floor_markdown(c, rows, classes, labels, false);
  const std::string long_md = render_floor_markdown(c, rows, classes, labels, true);
  EXPECT_NE(short_md.find("| gpu | small-K | 2 | 0/1/1 |"), std::string::npos);
  EXPECT_EQ(short_md.find("8192x8192x64"), std::string::npos);
  EXPECT_NE(long_md.find("| gpu | 8192x8192x64 | small-K | no | memory |"), std::string::npos);
}

TEST(Ceilings, AWellFormedFileIsRead) {
  const Ceilings c = ceilings_from_json(ceilings_json());
  EXPECT_DOUBLE_EQ(c.launch_us("gpu"), 0.5);
  EXPECT_DOUBLE_EQ(c.launch_us("offline"), 3.0);
  EXPECT_DOUBLE_EQ(c.launch_us("server"), 10.0);
  EXPECT_DOUBLE_EQ(c.hbm_read_gbps, 4000);
  EXPECT_DOUBLE_EQ(c.hbm_write_gbps, 3200);
  EXPECT_DOUBLE_EQ(c.l2_read_gbps, 16000);
  EXPECT_DOUBLE_EQ(c.l2_bytes, 4 << 20);
  EXPECT_DOUBLE_EQ(c.fp16_tflops, 600);
  EXPECT_DOUBLE_EQ(c.fp16_peak_tflops, 640);
}

TEST(Ceilings, MissingOrNonPositiveFieldsAreRefusedByName) {
  auto j = ceilings_json();
  j["measurements"].erase("fp16_tensor_peak");
  EXPECT_NE(refusal(j).find("measurements.fp16_tensor_peak is missing"), std::string::npos) << refusal(j);
  j = ceilings_json();
  j["environment"].erase("l2_bytes");
  EXPECT_NE(refusal(j).find("environment.l2_bytes is missing"), std::string::npos) << refusal(j);

  j = ceilings_json();
  j["measurements"].erase("hbm_write");
  EXPECT_NE(refusal(j).find("measurements.hbm_write is missing"), std::string::npos) << refusal(j);

  j = ceilings_json();
  j["measurements"]["fp16_tensor"]["value"] = 0;
  EXPECT_NE(refusal(j).find("measurements.fp16_tensor.value must be a positive number"), std::string::npos) << refusal(j);
  j["measurements"]["fp16_tensor"]["value"] = -3.5;
  EXPECT_NE(refusal(j).find("must be a positive number"), std::string::npos) << refusal(j);
  j["measurements"]["fp16_tensor"]["value"] = "fast";
  EXPECT_NE(refusal(j).find("fp16_tensor.value is missing or not a number"), std::string::npos) << refusal(j);

  j = ceilings_json();
  j["measurements"]["launch_server"].erase("value");
  EXPECT_NE(refusal(j).find("launch_server.value is missing"), std::string::npos) << refusal(j);

  j = ceilings_json();
  j["measurements"]["hbm_read"]["unit"] = "MB/s";
  EXPECT_NE(refusal(j).find("hbm_read.unit must be 'GB/s'"), std::string::npos) << refusal(j);

  j = ceilings_json();
  j["schema"] = "gemmforge.bench/1";
  EXPECT_NE(refusal(j).find("not a gemmforge ceilings file"), std::string::npos) << refusal(j);
  j = ceilings_json();
  j.erase("measurements");
  EXPECT_NE(refusal(j).find("no measurements"), std::string::npos) << refusal(j);
}

TEST(Ceilings, WhatAWarmL2KeepsAndWgmmaAloneAreReadWhenPresent) {
  auto j = ceilings_json();
  EXPECT_DOUBLE_EQ(ceilings_from_json(j).l2_resident_bytes, 0);  // older files: neither
  EXPECT_DOUBLE_EQ(ceilings_from_json(j).fp16_alone_tflops, 0);
  j["measurements"]["l2_resident"] = measurement(3, "MiB");
  j["measurements"]["fp16_tensor_alone"] = measurement(610, "TFLOP/s");
  const Ceilings c = ceilings_from_json(j);
  EXPECT_DOUBLE_EQ(c.l2_resident_bytes, 3 << 20);
  EXPECT_DOUBLE_EQ(c.fp16_alone_tflops, 610);
  j["measurements"]["l2_resident"] = measurement(3, "GB/s");
  EXPECT_NE(refusal(j).find("l2_resident.unit must be 'MiB'"), std::string::npos) << refusal(j);
  j["measurements"]["l2_resident"] = measurement(-1, "MiB");
  EXPECT_NE(refusal(j).find("l2_resident.value must be a positive number"), std::string::npos) << refusal(j);
}

TEST(Ceilings, L2sWriteRateIsReadWhenPresent) {
  auto j = ceilings_json();
  EXPECT_DOUBLE_EQ(ceilings_from_json(j).l2_write_gbps, 0);  // older files: the read rate stands in
  j["measurements"]["l2_write"] = measurement(9000, "GB/s");
  EXPECT_DOUBLE_EQ(ceilings_from_json(j).l2_write_gbps, 9000);
  j["measurements"]["l2_write"] = measurement(9000, "MiB");
  EXPECT_NE(refusal(j).find("l2_write.unit must be 'GB/s'"), std::string::npos) << refusal(j);
}

TEST(Ceilings, FileErrorsNameTheFile) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_floors_test";
  std::filesystem::create_directories(dir);
  try {
    read_ceilings_file(dir / "absent.json");
    FAIL() << "a missing file was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read ceilings file"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "broken.json") << "{\"schema\": ";
  try {
    read_ceilings_file(dir / "broken.json");
    FAIL() << "broken JSON was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json' is not valid JSON"), std::string::npos) << e.what();
  }
  auto zero = ceilings_json();
  zero["measurements"]["launch_gpu"]["value"] = 0.0;
  std::ofstream(dir / "zero.json") << zero.dump();
  try {
    read_ceilings_file(dir / "zero.json");
    FAIL() << "a zero launch ceiling was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("zero.json': measurements.launch_gpu.value"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge
