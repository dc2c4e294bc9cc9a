// The gate is only as good as what it rejects: each planted flaw must fail with the reason that
// names it, on several shapes and both layouts, and the same kernel without the flaw must pass.
#include <gtest/gtest.h>

#include "eval/verify.hpp"
#include "gpu_test_env.hpp"
#include "planted_kernels.hpp"

namespace gemmforge::testing {
namespace {

Verdict gate_verdict(DeviceContext& ctx, Flaw flaw, Shape s, Layout l, bool recheck_after_calls = false) {
  ShapeBuffers buf(s, false, ctx.info().l2_bytes, ctx.stream());
  auto impl = make_planted(flaw, ctx);
  impl->prepare(Problem{s, l, Accum::f32}, {buf.guarded()});
  CorrectnessGate gate(ctx, buf, Accum::f32, GateOptions{});
  std::vector<Candidate> cands = {{impl.get(), l}};
  Verdict v = gate.check(cands)[0];
  if (recheck_after_calls && v.passed()) {
    for (int i = 0; i < 5; ++i) impl->run(buf.guarded());
    v = gate.recheck_after_timing(cands)[0];
  }
  return v;
}

bool mentions(const Verdict& v, const std::string& what) {
  for (const auto& f : v.failures)
    if (f.find(what) != std::string::npos) return true;
  return false;
}

std::string all(const Verdict& v) {
  std::string s;
  for (const auto& f : v.failures) s += f + "\n";
  return s;
}

const Shape kShapes[] = {{64, 64, 4096}, {77, 130, 4104}, {128, 96, 8192}, {33, 7, 72}, {256, 200, 640}};

TEST(Gate, AcceptsTheUnflawedNaiveKernel) {
  GF_REQUIRE_GPU(ctx);
  for (Shape s : kShapes)
    for (Layout l : {Layout::nn, Layout::tn}) {
      const Verdict v = gate_verdict(*ctx, Flaw::none, s, l, true);
      EXPECT_TRUE(v.passed()) << to_string(s) << " " << to_string(l) << "\n" << all(v);
    }
}

TEST(Gate, RejectsFp16AccumulationLabelledF32) {
  GF_REQUIRE_GPU(ctx);
  for (Shape s : kShapes)
    for (Layout l : {Layout::nn, Layout::tn}) {
      const Verdict v = gate_verdict(*ctx, Flaw::fp16_accumulate, s, l);
      EXPECT_FALSE(v.passed()) << to_string(s);
      // The accumulator probes name the failure whatever the random trials say.
      EXPECT_TRUE(mentions(v, "accumulator")) << to_string(s) << " " << to_string(l) << "\n" << all(v);
    }
}

TEST(Gate, RejectsAKernelThatSkipsTheLastRow) {
  GF_REQUIRE_GPU(ctx);
  for (Shape s : kShapes)
    for (Layout l : {Layout::nn, Layout::tn}) {
      const Verdict v = gate_verdict(*ctx, Flaw::skip_last_row, s, l);
      EXPECT_TRUE(mentions(v, "never written")) << to_string(s) << "\n" << all(v);
    }
}

TEST(Gate, RejectsAnOutOfBoundsWrite) {
  GF_REQUIRE_GPU(ctx);
  for (Shape s : kShapes)
    for (Layout l : {Layout::nn, Layout::tn}) {
      const Verdict v = gate_verdict(*ctx, Flaw::write_past_end, s, l);
      EXPECT_TRUE(mentions(v, "out-of-bounds write")) << to_string(s) << "\n" << all(v);
      EXPECT_TRUE(mentions(v, "around C")) << all(v);
    }
}

TEST(Gate, RejectsACachedResultForReusedBuffers) {
  GF_REQUIRE_GPU(ctx);
  for (Shape s : kShapes)
    for (Layout l : {Layout::nn, Layout::tn}) {
      const Verdict v = gate_verdict(*ctx, Flaw::cache_by_address, s, l);
      EXPECT_FALSE(v.passed()) << to_string(s);
      EXPECT_TRUE(mentions(v, "random-normal")) << all(v);
    }
}

TEST(Gate, RejectsACallThatLeavesAThreadRunning) {
  GF_REQUIRE_GPU(ctx);
  const Verdict v = gate_verdict(*ctx, Flaw::leave_thread, {64, 64, 64}, Layout::nn);
  EXPECT_TRUE(mentions(v, "new threads")) << all(v);
}

TEST(Gate, ToleranceGrowsWithK) {
  const auto small = random_trial_tolerance(Accum::f32, 64), big = random_trial_tolerance(Accum::f32, 16384);
  EXPECT_LT(small.abs, big.abs);
  EXPECT_LT(random_trial_tolerance(Accum::f32, 4096).abs, random_trial_tolerance(Accum::f16, 4096).abs);
}

}  // namespace
}  // namespace gemmforge::testing
