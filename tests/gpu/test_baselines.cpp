// The vendor baselines must pass the gate on grid and odd shapes in both layouts and both
// accumulators, and every timing mode must produce samples for them (no thresholds on values:
// a benchmark is not a test).
#include <gtest/gtest.h>

#include "eval/bench.hpp"
#include "gpu_test_env.hpp"

namespace gemmforge::testing {
namespace {

BenchOptions options(std::vector<Shape> shapes, Accum acc, std::vector<Mode> modes) {
  BenchOptions o;
  o.shapes = std::move(shapes);
  o.acc = acc;
  o.impls = {"cublas", "cublaslt-heuristic", "cublaslt-autotune"};
  o.modes = std::move(modes);
  o.timing.rounds = 3;
  o.timing.server_calls = 3;
  o.timing.first_heavy_warmup_s = o.timing.heavy_warmup_s = 0.01;
  return o;
}

TEST(Baselines, PassTheGateOnGridAndOddShapes) {
  GF_REQUIRE_GPU(ctx);
  const std::vector<Shape> shapes = {{64, 64, 64},   {1, 1, 1},      {7, 77, 1000},  {1000, 4095, 77},
                                     {4095, 1, 12289}, {77, 12289, 7}, {512, 4096, 16384}, {2048, 2048, 2048}};
  for (Accum acc : {Accum::f32, Accum::f16}) {
    const auto records = run_verify(*ctx, options(shapes, acc, {}), 5);
    EXPECT_EQ(records.size(), shapes.size() * 3 * 2);
    for (const auto& r : records)
      EXPECT_EQ(r.verdict, "pass") << r.impl << " " << to_string(r.layout) << " " << to_string(r.shape) << " acc "
                                   << to_string(acc);
  }
}

TEST(Baselines, EveryModeProducesSamples) {
  GF_REQUIRE_GPU(ctx);
  for (bool cold : {false, true}) {
    auto o = options({{256, 512, 1024}}, Accum::f32, {Mode::gpu, Mode::offline, Mode::server});
    o.timing.cold_l2 = cold;
    const auto records = run_bench(*ctx, o);
    ASSERT_EQ(records.size(), 3u * 2 * 3);
    for (const auto& r : records) {
      ASSERT_TRUE(r.passed()) << r.verdict;
      EXPECT_GT(*r.median_us, 0);
      EXPECT_LE(*r.min_us, *r.median_us);
      EXPECT_EQ(r.samples, r.mode == "server" ? 3 : 3);
      EXPECT_EQ(r.l2, cold ? "cold" : "warm");
      if (r.mode == "server") {
        EXPECT_TRUE(r.event_median_us.has_value());
      }
      if (cold && r.mode != "server") {
        EXPECT_GT(r.calls_per_sample, 1);  // walks every operand set
      }
      // cuBLASLt-autotune compares its algorithms by device time (CUDA graphs), when it has several.
      if (r.impl == "cublaslt-autotune" && r.note.find("timed in interleaved rounds") != std::string::npos) {
        EXPECT_NE(r.note.find("(device time)"), std::string::npos) << r.note;
      }
    }
  }
}

// A stop asked for between shapes (a time limit, SIGTERM) ends the run there: the shapes before it
// keep every record, no later shape is started.
TEST(Baselines, AStopBetweenShapesKeepsWhatWasMeasured) {
  GF_REQUIRE_GPU(ctx);
  auto o = options({{64, 64, 64}, {128, 256, 512}, {256, 256, 256}}, Accum::f32, {Mode::gpu});
  int asked = 0;
  o.stop_requested = [&asked] { return ++asked > 2; };  // the third shape is not started
  const auto records = run_bench(*ctx, o);
  EXPECT_EQ(asked, 3);
  ASSERT_EQ(records.size(), 2u * 3 * 2);  // two shapes × three impls × two layouts
  for (const auto& r : records) {
    EXPECT_TRUE(r.passed()) << r.verdict;
    EXPECT_NE(r.shape, (Shape{256, 256, 256}));
  }
}

}  // namespace
}  // namespace gemmforge::testing
