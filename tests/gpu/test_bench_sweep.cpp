// The gemmforge sweep inside `bench` (src/eval/bench.cpp pick_gemmforge) with shape-specialized
// builds: stand-in candidates made of the planted naive kernel, so the test is about the sweep's
// bookkeeping, not about kernels. A build that fails the gate is dropped without costing the
// sweep its winner; a build that passes is timed in the finalists' round; every candidate's
// verdict reaches the sweep record.
#include <gtest/gtest.h>

#include <map>

#include "eval/bench.hpp"
#include "gpu_test_env.hpp"
#include "planted_kernels.hpp"

namespace gemmforge::testing {
namespace {

// A planted kernel under a name of its own, as a sweep candidate has one.
class Named final : public GemmImpl {
 public:
  Named(std::unique_ptr<GemmImpl> inner, std::string note) : inner_(std::move(inner)), note_(std::move(note)) {}
  std::string name() const override { return "gemmforge"; }
  std::string note() const override { return note_; }
  void prepare(const Problem& p, const std::vector<Operands>& sets) override { inner_->prepare(p, sets); }
  void run(const Operands& o) override { inner_->run(o); }

 private:
  std::unique_ptr<GemmImpl> inner_;
  std::string note_;
};

struct SweepRow {
  bool passed = false;
  double estimate_us = -1, finalist_us = -1;
};

TEST(BenchSweep, SpecializedBuildsAreGatedTimedAndRecorded) {
  GF_REQUIRE_GPU(ctx);
  BenchOptions o;
  o.shapes = {Shape{96, 80, 72}};
  o.layouts = {Layout::tn};
  o.impls = {"gemmforge"};
  o.modes = {Mode::gpu};
  o.timing.rounds = 3;
  o.timing.min_sample_us = 50;
  DeviceContext* device = ctx;
  auto make = [device](Flaw flaw, const std::string& note, const Problem& p, const std::vector<Operands>& sets) {
    auto impl = std::make_unique<Named>(make_planted(flaw, *device), note);
    impl->prepare(p, sets);
    return impl;
  };
  o.gemmforge_candidates = [&](const Problem& p, const std::vector<Operands>& sets) {
    std::vector<std::unique_ptr<GemmImpl>> out;
    out.push_back(make(Flaw::none, "generic-a", p, sets));
    out.push_back(make(Flaw::none, "generic-b", p, sets));
    out.push_back(make(Flaw::skip_last_row, "generic-wrong", p, sets));
    return out;
  };
  std::vector<std::string> asked_for;
  o.specialize_finalists = [&](const Problem& p, const std::vector<const GemmImpl*>& finalists,
                               const std::vector<Operands>& sets) {
    for (const GemmImpl* f : finalists) asked_for.push_back(f->note());
    std::vector<std::unique_ptr<GemmImpl>> out;
    out.push_back(make(Flaw::skip_last_row, "built-wrong", p, sets));  // its constants broke it
    out.push_back(make(Flaw::none, "built-right", p, sets));
    return out;
  };
  std::map<std::string, SweepRow> rows;
  o.on_sweep_candidate = [&](const Problem&, const GemmImpl& impl, const Verdict& v, double est, double final_us) {
    EXPECT_FALSE(rows.count(impl.note())) << impl.note() << " recorded twice";
    rows[impl.note()] = {v.passed(), est, final_us};
  };
  const auto records = run_bench(*ctx, o);

  // Only the finalists (the candidates that passed the gate) are offered for specialization.
  std::sort(asked_for.begin(), asked_for.end());
  EXPECT_EQ(asked_for, (std::vector<std::string>{"generic-a", "generic-b"}));
  ASSERT_EQ(rows.size(), 5u);
  for (const char* bad : {"generic-wrong", "built-wrong"}) {
    EXPECT_FALSE(rows[bad].passed) << bad;
    EXPECT_LT(rows[bad].estimate_us, 0) << bad << " was timed after failing the gate";
  }
  for (const char* good : {"generic-a", "generic-b", "built-right"}) {
    EXPECT_TRUE(rows[good].passed) << good;
    EXPECT_GT(rows[good].estimate_us, 0) << good;
    EXPECT_GT(rows[good].finalist_us, 0) << good << " was not timed in the finalists' round";
  }
  ASSERT_EQ(records.size(), 1u);
  const BenchRecord& r = records.front();
  EXPECT_EQ(r.verdict, "pass") << r.verdict;
  EXPECT_NE(r.note.find("3 of 5 configs passed the gate"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("fastest of 3 finalists (1 of them shape-specialized)"), std::string::npos) << r.note;
}

}  // namespace
}  // namespace gemmforge::testing
