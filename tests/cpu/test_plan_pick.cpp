// How a measured plan picks what serves a new shape (runtime/plan_measurement.hpp), from the
// medians alone: the fastest kernel only outside the tie band, candidates that did not run
// ignored, and a kernel when cuBLASLt offered nothing that ran.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/plan_measurement.hpp"

namespace gemmforge {
namespace {

constexpr double kDidNotRun = std::numeric_limits<double>::quiet_NaN();

TEST(PlanPick, AKernelServesOnlyWhenItBeatsCublasLtOutsideTheTieBand) {
  const std::vector<double> lt = {12.0, 10.0, kDidNotRun};
  const auto clear = pick_measured({11.0, 9.8, 9.0}, lt);  // 9.0 < 10 × 0.99
  ASSERT_TRUE(clear.kernel && clear.cublaslt);
  EXPECT_EQ(*clear.kernel, 2u);
  EXPECT_EQ(*clear.cublaslt, 1u);
  const auto tie = pick_measured({9.95}, lt);  // faster, but inside 1%
  EXPECT_FALSE(tie.kernel);
  EXPECT_EQ(*tie.cublaslt, 1u);
}

TEST(PlanPick, CandidatesThatDidNotRunAreNeverPicked) {
  const auto p = pick_measured({kDidNotRun, 20.0}, {kDidNotRun, 5.0});
  EXPECT_FALSE(p.kernel);
  EXPECT_EQ(*p.cublaslt, 1u);
  EXPECT_FALSE(pick_measured({kDidNotRun}, {}).kernel);
  EXPECT_FALSE(pick_measured({}, {kDidNotRun}).cublaslt);
}

TEST(PlanPick, WithoutARunningCublasLtAlgorithmTheFastestKernelServes) {
  const auto p = pick_measured({30.0, 25.0}, {kDidNotRun, kDidNotRun});
  ASSERT_TRUE(p.kernel);
  EXPECT_EQ(*p.kernel, 1u);
  EXPECT_FALSE(p.cublaslt);
  EXPECT_EQ(kMeasuredTieBand, 0.01);
}

}  // namespace
}  // namespace gemmforge
