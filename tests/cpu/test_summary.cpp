#include <gtest/gtest.h>

#include "core/summary.hpp"

namespace gemmforge {
namespace {

BenchRecord rec(Shape s, const std::string& impl, Layout l, double us, double spread = 0) {
  BenchRecord r;
  r.shape = s;
  r.layout = l;
  r.impl = impl;
  r.mode = "gpu";
  r.l2 = "warm";
  r.median_us = us;
  r.p25_us = us * (1 - spread);
  r.p75_us = us * (1 + spread);
  r.min_us = us * (1 - spread);
  r.samples = 9;
  return r;
}

const Shape kTiny{64, 64, 64}, kLarge{4096, 4096, 4096};

TEST(Summary, SpeedupUsesTheBaselinesBestLayout) {
  std::vector<BenchRecord> rs = {
      rec(kTiny, "cublas", Layout::nn, 10), rec(kTiny, "cublas", Layout::tn, 4),  // best: 4
      rec(kTiny, "gemmforge", Layout::nn, 2), rec(kTiny, "gemmforge", Layout::tn, 8)};
  const auto best = compare(rs, "gemmforge", "best", "cublas", "gpu", "all", 0.01);
  EXPECT_EQ(best.shapes, 1);
  EXPECT_DOUBLE_EQ(best.geomean, 2.0);
  const auto tn = compare(rs, "gemmforge", "tn", "cublas", "gpu", "all", 0.01);
  EXPECT_DOUBLE_EQ(tn.geomean, 0.5);
  EXPECT_EQ(tn.losses, 1);
}

TEST(Summary, MeansWinsTiesAndWorstShape) {
  std::vector<BenchRecord> rs = {rec(kTiny, "cublas", Layout::nn, 4), rec(kTiny, "torch", Layout::nn, 2),
                                 rec(kLarge, "cublas", Layout::nn, 100), rec(kLarge, "torch", Layout::nn, 200),
                                 rec({64, 64, 128}, "cublas", Layout::nn, 5), rec({64, 64, 128}, "torch", Layout::nn, 5.02)};
  const auto c = compare(rs, "torch", "best", "cublas", "gpu", "all", 0.01);
  EXPECT_EQ(c.shapes, 3);
  EXPECT_NEAR(c.geomean, std::cbrt(2.0 * 0.5 * (5 / 5.02)), 1e-12);
  EXPECT_NEAR(c.arithmean, (2.0 + 0.5 + 5 / 5.02) / 3, 1e-12);
  EXPECT_EQ(c.wins, 1);
  EXPECT_EQ(c.ties, 1);
  EXPECT_EQ(c.losses, 1);
  EXPECT_EQ(c.worst_shape, kLarge);
  EXPECT_DOUBLE_EQ(c.worst_speedup, 0.5);
  const auto large_only = compare(rs, "torch", "best", "cublas", "gpu", "large", 0.01);
  EXPECT_EQ(large_only.shapes, 1);
}

TEST(Summary, NoisyRecordsMakeATie) {
  std::vector<BenchRecord> rs = {rec(kTiny, "cublas", Layout::nn, 10, 0.05), rec(kTiny, "torch", Layout::nn, 9.5, 0.05)};
  const auto c = compare(rs, "torch", "best", "cublas", "gpu", "all", 0.01);
  EXPECT_EQ(c.ties, 1);  // 5% faster, inside a 10% combined spread
}

TEST(Summary, FailedRecordsAreExcludedAndListed) {
  auto bad = rec(kLarge, "torch", Layout::nn, 1);
  bad.verdict = "fail: 12 elements out of tolerance";
  bad.median_us.reset();
  std::vector<BenchRecord> rs = {rec(kTiny, "cublas", Layout::nn, 4), rec(kTiny, "torch", Layout::nn, 4),
                                 rec(kLarge, "cublas", Layout::nn, 100), bad};
  EXPECT_EQ(compare(rs, "torch", "best", "cublas", "gpu", "all", 0.01).shapes, 1);
  const auto failed = failed_verdicts(rs);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_NE(failed[0].find("4096x4096x4096"), std::string::npos);
}

TEST(Summary, TablesNameEveryComparison) {
  std::vector<BenchRecord> rs = {rec(kTiny, "cublas", Layout::nn, 4), rec(kTiny, "cublaslt-autotune", Layout::nn, 3),
                                 rec(kTiny, "torch", Layout::nn, 8)};
  SummaryOptions o;
  const auto cs = all_comparisons(rs, o);
  const std::string text = render_summary_text(cs, o);
  EXPECT_NE(text.find("torch (best)"), std::string::npos);
  EXPECT_NE(text.find("cublaslt-autotune"), std::string::npos);
  EXPECT_NE(text.find("tiny"), std::string::npos);
  ResultFile f;
  f.records = rs;
  const std::string md = render_summary_markdown(f, cs, o);
  EXPECT_NE(md.find("| torch (best) | cublas |"), std::string::npos) << md;
  EXPECT_EQ(md.find("stopped early"), std::string::npos) << md;
  f.stopped = "signal 15 (Terminated): 2 of 5 shapes measured";
  EXPECT_NE(render_summary_markdown(f, cs, o).find("**stopped early**: " + f.stopped), std::string::npos);
}

}  // namespace
}  // namespace gemmforge
