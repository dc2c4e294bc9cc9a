// The tuner's decisions on synthetic measurements: when split-K is tried, when a win is a tie,
// which finalist wins, what a class rule names, and the per-class summary.
#include <gtest/gtest.h>

#include "tune/decisions.hpp"

namespace gemmforge::tune {
namespace {

KernelConfig tile(int bm, int bn) {
  KernelConfig c;
  c.block_m = bm;
  c.block_n = bn;
  return c;
}

EntryResult timed(double median, double half_spread = 0.005) {
  EntryResult e;
  e.median_us = median;
  e.p25_us = median * (1 - half_spread);
  e.p75_us = median * (1 + half_spread);
  e.min_us = e.p25_us;
  return e;
}

EntryResult rejected(const std::string& why) {
  EntryResult e;
  e.verdict = why;
  return e;
}

const Shape kShape{1024, 1024, 8192};

TEST(TuneDecisions, Sm80ConfigsShareTheBudgetOnTinyShapesOnly) {
  EXPECT_EQ(sm80_measurements({256, 512, 128}, 16, true), 8);    // tiny: half
  EXPECT_EQ(sm80_measurements({64, 64, 64}, 7, true), 4);        // rounded up
  EXPECT_EQ(sm80_measurements({4096, 4096, 4096}, 16, true), 0); // large: the Hopper family's
  EXPECT_EQ(sm80_measurements({1024, 1024, 8192}, 16, true), 0);
  EXPECT_EQ(sm80_measurements({4096, 4096, 4095}, 16, false), 16);  // no Hopper config serves it
  EXPECT_EQ(sm80_measurements({64, 64, 64}, 0, true), 0);
}

TEST(TuneDecisions, SplitKOnlyWhereTheTilesCannotFillTheSms) {
  EXPECT_EQ(split_count(tile(128, 128), {4096, 4096, 4096}, 132, kMaxSplits), 1);  // 1024 tiles
  // 64 tiles: 2 parts fill 128 of 132 SMs in one wave; 3 (192 units) would need a second for 60.
  EXPECT_EQ(split_count(tile(128, 128), {1024, 1024, 8192}, 132, kMaxSplits), 2);
  EXPECT_EQ(split_count(tile(64, 256), {1024, 256, 8192}, 132, kMaxSplits), 8);    // 16 tiles: 128 units, not 144
  EXPECT_EQ(split_count(tile(128, 128), {1536, 1024, 8192}, 132, kMaxSplits), 1);  // 96 tiles: 2 parts = 2 waves
  EXPECT_GT(split_count(tile(128, 128), {128, 128, 16384}, 132, kMaxSplits), 1);   // one tile, long K
  EXPECT_EQ(split_count(tile(128, 128), {128, 128, 16384}, 132, 4), 4);            // the user's cap
  EXPECT_EQ(split_count(tile(128, 128), {128, 128, 64}, 132, kMaxSplits), 1);      // one K block: nothing to split
  EXPECT_EQ(launch_variants(tile(128, 128), {4096, 4096, 4096}, 132, kMaxSplits).size(), 1u);
  const auto v = launch_variants(tile(128, 128), {1024, 1024, 8192}, 132, kMaxSplits);
  ASSERT_EQ(v.size(), 3u);  // unsplit; split, summed through global memory; and inside a cluster
  EXPECT_EQ(v[0].knobs.splits, 1);
  EXPECT_EQ(v[1].knobs.splits, 2);
  EXPECT_FALSE(v[1].knobs.cluster_reduction);
  EXPECT_EQ(v[2].knobs.splits, 2);
  EXPECT_TRUE(v[2].knobs.cluster_reduction);
  EXPECT_EQ(launch_problem(v[2].config, v[2].knobs), "");
  EXPECT_NE(v[0].name(), v[1].name());
  EXPECT_NE(v[1].name(), v[2].name());
  // A config that cannot reduce in a cluster (a two-CTA multicast cluster of its own) gets only
  // the global-memory split.
  KernelConfig pair = tile(128, 128);
  pair.cluster_m = 2;
  pair.multicast = true;
  EXPECT_EQ(launch_variants(pair, {1024, 1024, 8192}, 132, kMaxSplits).size(), 2u);
  EXPECT_EQ(launch_variants(tile(128, 128), {1024, 1024, 8192}, 132, 1).size(), 1u);  // --max-splits 1
}

TEST(TuneDecisions, AClearWinServesTheCandidate) {
  const Decision d = decide(kShape, Layout::tn, Accum::f32, {{"fast", timed(90)}, {"slow", timed(95)}}, timed(100), 0.01, 16);
  EXPECT_EQ(d.outcome, "win");
  EXPECT_EQ(d.served, "fast");
  EXPECT_EQ(d.best, "fast");
  EXPECT_EQ(d.runner_up, "slow");
  EXPECT_NEAR(d.speedup, 100.0 / 90, 1e-12);
  EXPECT_NEAR(d.tie_band, 0.01, 1e-12);
  EXPECT_EQ(d.budget, 16);
}

TEST(TuneDecisions, AWinInsideTheNoiseIsATieAndTheTableNamesCublasLt) {
  // 2% faster, but each side spreads 1.5%: inside max(1%, 3%).
  const Decision d = decide(kShape, Layout::tn, Accum::f32, {{"a", timed(98, 0.015)}}, timed(100, 0.015), 0.01, 16);
  EXPECT_EQ(d.outcome, "tie");
  EXPECT_EQ(d.served, "cublaslt");
  EXPECT_EQ(d.best, "a");
  EXPECT_NEAR(d.tie_band, 0.03, 1e-9);
  // The floor: 0.5% faster with no spread is still a tie.
  EXPECT_EQ(decide(kShape, Layout::tn, Accum::f32, {{"a", timed(99.5, 0)}}, timed(100, 0), 0.01, 16).outcome, "tie");
  // Just outside the band is a win.
  EXPECT_EQ(decide(kShape, Layout::tn, Accum::f32, {{"a", timed(97, 0)}}, timed(100, 0), 0.01, 16).outcome, "win");
}

TEST(TuneDecisions, ALossServesCublasLt) {
  const Decision d = decide(kShape, Layout::nn, Accum::f32, {{"a", timed(120)}}, timed(100), 0.01, 8);
  EXPECT_EQ(d.outcome, "loss");
  EXPECT_EQ(d.served, "cublaslt");
  EXPECT_LT(d.speedup, 1);
}

TEST(TuneDecisions, TheInterleavedRoundsPickTheFinalistNotTheEstimates) {
  // The runner-up by estimate was faster in the final rounds: it wins.
  const Decision d =
      decide(kShape, Layout::tn, Accum::f32, {{"estimate-best", timed(95)}, {"estimate-second", timed(88)}}, timed(100),
             0.01, 16);
  EXPECT_EQ(d.served, "estimate-second");
  EXPECT_EQ(d.runner_up, "estimate-best");
}

TEST(TuneDecisions, FailedFinalistsAndBaselinesNeverWin) {
  const Decision a = decide(kShape, Layout::tn, Accum::f32, {{"wrong", rejected("fail: after timing, 12 elements")}},
                            timed(100), 0.01, 16);
  EXPECT_EQ(a.outcome, "no-candidate");
  EXPECT_EQ(a.served, "cublaslt");
  const Decision b = decide(kShape, Layout::tn, Accum::f32, {{"wrong", rejected("fail")}, {"ok", timed(50)}},
                            timed(100), 0.01, 16);
  EXPECT_EQ(b.served, "ok");
  EXPECT_TRUE(b.runner_up.empty());
  const Decision c = decide(kShape, Layout::tn, Accum::f32, {{"ok", timed(50)}}, rejected("fail: worker died"), 0.01, 16);
  EXPECT_EQ(c.outcome, "no-baseline");
  EXPECT_EQ(c.served, "cublaslt");
  EXPECT_EQ(c.speedup, 0);
}

Decision won(Shape s, const std::string& served, double speedup) {
  Decision d;
  d.shape = s;
  d.outcome = "win";
  d.served = served;
  d.best = served;
  d.speedup = speedup;
  return d;
}

TEST(TuneDecisions, RuleContendersAreTheMostFrequentWinners) {
  Decision tie = won({1, 1, 1}, "cublaslt", 1.0);
  tie.outcome = "tie";
  const std::vector<Decision> ds = {won({1, 1, 1}, "a", 1.05), won({2, 2, 2}, "b", 1.30), won({3, 3, 3}, "a", 1.02),
                                    won({4, 4, 4}, "c", 1.10), tie};
  EXPECT_EQ(rule_contenders(ds, 3), (std::vector<std::string>{"a", "b", "c"}));  // 2 wins; then 1 win, by speedup
  EXPECT_EQ(rule_contenders(ds, 1), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(rule_contenders({tie}, 3).empty());
}

TEST(TuneDecisions, ARuleNamesTheBestGeometricMeanThatBeatsCublasLt) {
  const RuleChoice c = choose_rule({{"a", 3, {1.10, 1.10, 0.95}, ""}, {"b", 3, {1.20, 1.05, 1.04}, ""}}, 0.01);
  ASSERT_TRUE(c.candidate.has_value());
  EXPECT_EQ(*c.candidate, "b");
  EXPECT_GT(c.geomean, 1.01);
}

TEST(TuneDecisions, ARuleNamesCublasLtWhenNothingBeatsIt) {
  EXPECT_FALSE(choose_rule({{"a", 2, {1.01, 0.99}, ""}}, 0.01).candidate);  // geomean inside the noise
  EXPECT_FALSE(choose_rule({}, 0.01).candidate);
  // The fastest contender failed the gate on a shape it serves: never a rule.
  const RuleChoice bad = choose_rule({{"fast", 2, {2.0}, "fails on 64x64x64 tn: fail: NaN"}}, 0.01);
  EXPECT_FALSE(bad.candidate);
  EXPECT_NE(bad.why.find("fails on"), std::string::npos);
  // Evidence on too few of the shapes it serves does not count.
  EXPECT_FALSE(choose_rule({{"lucky", 5, {1.5, 1.5}, ""}}, 0.01).candidate);
  EXPECT_TRUE(choose_rule({{"enough", 5, {1.5, 1.5, 1.5}, ""}}, 0.01).candidate);
}

TEST(TuneDecisions, SummaryCountsPerClassAndLayout) {
  Decision tie = won({64, 64, 64}, "cublaslt", 1.005);
  tie.outcome = "tie";
  Decision undecided;
  undecided.shape = {64, 64, 128};
  undecided.outcome = "no-candidate";
  undecided.served = "cublaslt";
  const auto rows = summarize_decisions({won({64, 64, 256}, "a", 1.21), tie, undecided, won({8192, 8192, 8192}, "b", 1.0)});
  const ClassSummary* tiny = nullptr;
  const ClassSummary* all = nullptr;
  for (const auto& r : rows) {
    if (r.shape_class == "tiny") tiny = &r;
    if (r.shape_class == "all") all = &r;
  }
  ASSERT_TRUE(tiny && all);
  EXPECT_EQ(tiny->problems, 3);
  EXPECT_EQ(tiny->wins, 1);
  EXPECT_EQ(tiny->ties, 1);
  EXPECT_EQ(tiny->undecided, 1);
  EXPECT_NEAR(tiny->geomean_best, std::sqrt(1.21 * 1.005), 1e-9);
  EXPECT_NEAR(tiny->geomean_served, std::sqrt(1.21 * 1.0), 1e-9);  // the tie serves cuBLASLt
  EXPECT_EQ(all->problems, 4);
  EXPECT_EQ(rows.back().shape_class, "all");
  EXPECT_NE(render_summary(rows).find("tiny"), std::string::npos);
  EXPECT_EQ(summary_json(rows).size(), rows.size());
  const std::string csv = decisions_csv({tie});
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "M,N,K,layout,acc,class,outcome,served,best,best_us,runner_up,runner_up_us,baseline_us,speedup,tie_band,budget");
  EXPECT_NE(csv.find("64,64,64,tn,f32,tiny,tie,cublaslt"), std::string::npos);
}

}  // namespace
}  // namespace gemmforge::tune
