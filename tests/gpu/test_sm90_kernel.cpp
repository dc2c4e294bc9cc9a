// gemmforge's Hopper kernel family through the correctness gate, on grid and odd shapes, for a
// sample of configurations. Needs an sm_90 GPU; skips elsewhere.
#include <gtest/gtest.h>

#include "eval/verify.hpp"
#include "gpu_test_env.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge::testing {
namespace {

std::vector<KernelConfig> sample_configs() {
  std::vector<KernelConfig> out;
  auto add = [&](int bm, int bn, int stages, int consumers, Accum acc) {
    KernelConfig c;
    c.block_m = bm;
    c.block_n = bn;
    c.stages = stages;
    c.consumers = consumers;
    c.acc = acc;
    out.push_back(c);
  };
  add(128, 128, 4, 2, Accum::f32);
  add(128, 256, 3, 2, Accum::f32);
  add(64, 80, 6, 1, Accum::f32);
  add(256, 96, 4, 2, Accum::f32);
  add(128, 256, 4, 2, Accum::f16);
  add(192, 144, 4, 1, Accum::f16);
  for (auto c : std::vector<KernelConfig>(out)) {  // the same tiles with N-major B, where they fit
    c.layout = Layout::nn;
    if (is_valid(c)) out.push_back(c);
  }
  return out;
}

TEST(Sm90Kernel, PassesTheGateOnGridAndOddShapes) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  // K must be a multiple of 8 for TMA; M and N are free.
  const std::vector<Shape> shapes = {{64, 64, 64},     {1, 1, 8},      {7, 77, 72},   {77, 1000, 4104},
                                     {1000, 7, 1000},  {4095, 12289, 64}, {12289, 4095, 8}, {4096, 4096, 4096},
                                     {130, 200, 16384}};
  for (const auto& cfg : sample_configs()) {
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes) {
      const Problem problem{s, cfg.layout, cfg.acc};
      if (!why_not_supported(cfg, problem).empty()) continue;  // nn needs N % 8 == 0
      ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
      Sm90Kernel k(*ctx, cfg, LaunchKnobs{}, loaded);
      k.prepare(problem, {buf.guarded()});
      CorrectnessGate gate(*ctx, buf, cfg.acc, GateOptions{});
      const std::vector<Candidate> cands = {{&k, cfg.layout}};
      const Verdict v = gate.check(cands)[0];
      EXPECT_TRUE(v.passed()) << cfg.name() << " on " << to_string(s) << ": " << v.text();
      for (int i = 0; i < 3; ++i) k.run(buf.guarded());
      const Verdict again = gate.recheck_after_timing(cands)[0];
      EXPECT_TRUE(again.passed()) << cfg.name() << " on " << to_string(s) << ": " << again.text();
    }
  }
}

TEST(Sm90Kernel, NonPersistentLaunchGivesTheSameAnswer) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  KernelConfig cfg;
  const auto compiled = jit::compile_cached(compile_request(cfg), cache);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
  const Shape s{2048, 3000, 1024};
  ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
  LaunchKnobs knobs;
  knobs.persistent = false;
  knobs.group_m = 1;
  Sm90Kernel k(*ctx, cfg, knobs, loaded);
  k.prepare(Problem{s, Layout::tn, cfg.acc}, {buf.guarded()});
  CorrectnessGate gate(*ctx, buf, cfg.acc, GateOptions{});
  EXPECT_TRUE(gate.check({{&k, Layout::tn}})[0].passed());
}

TEST(Sm90Kernel, RefusesWhatTmaCannotTake) {
  KernelConfig cfg;
  EXPECT_FALSE(why_not_supported(cfg, Problem{{64, 64, 77}, Layout::tn, Accum::f32}).empty());  // K % 8
  EXPECT_FALSE(why_not_supported(cfg, Problem{{64, 64, 64}, Layout::nn, Accum::f32}).empty());  // config is tn
  KernelConfig nn = cfg;
  nn.layout = Layout::nn;
  EXPECT_FALSE(why_not_supported(nn, Problem{{64, 77, 64}, Layout::nn, Accum::f32}).empty());  // N % 8
  EXPECT_TRUE(why_not_supported(nn, Problem{{7, 80, 64}, Layout::nn, Accum::f32}).empty());
  EXPECT_TRUE(why_not_supported(cfg, Problem{{7, 77, 64}, Layout::tn, Accum::f32}).empty());
}

}  // namespace
}  // namespace gemmforge::testing
