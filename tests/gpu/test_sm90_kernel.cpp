// gemmforge's Hopper kernel family through the correctness gate, on grid and odd shapes, for a
// sample of configurations. Needs an sm_90 GPU; skips elsewhere.
#include <gtest/gtest.h>

#include "eval/verify.hpp"
#include "gpu_test_env.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge::testing {
namespace {

struct Knobs {
  int bm, bn, stages, consumers;
  Accum acc = Accum::f32;
  ConsumerMode mode = ConsumerMode::cooperative;
  int cluster_m = 1, cluster_n = 1;  // a two-CTA cluster always multicasts its shared operand
  bool tma_store = false;
};

KernelConfig make(const Knobs& k) {
  KernelConfig c;
  c.block_m = k.bm;
  c.block_n = k.bn;
  c.stages = k.stages;
  c.consumers = k.consumers;
  c.acc = k.acc;
  c.mode = k.mode;
  c.cluster_m = k.cluster_m;
  c.cluster_n = k.cluster_n;
  c.multicast = k.cluster_m * k.cluster_n > 1;
  c.tma_store = k.tma_store;
  return c;
}

// Every knob value at least once: tile shapes, 1-2 consumers, both modes, both cluster
// directions, both epilogues (and all three epilogue column-block widths), both accumulators.
std::vector<KernelConfig> sample_configs() {
  using enum ConsumerMode;
  std::vector<KernelConfig> out;
  for (const Knobs& k : std::vector<Knobs>{
           {128, 128, 4, 2},
           {64, 80, 6, 1},
           {256, 96, 4, 2},
           {128, 256, 4, 2, Accum::f16},
           {192, 144, 4, 1, Accum::f16},
           {128, 256, 3, 2, Accum::f32, cooperative, 2, 1, true},
           {256, 128, 3, 2, Accum::f32, cooperative, 1, 2, false},
           {128, 128, 4, 2, Accum::f32, pingpong, 1, 1, true},
           {128, 160, 4, 2, Accum::f32, pingpong, 2, 1, false},
           {128, 176, 4, 2, Accum::f32, cooperative, 1, 1, true},
           {192, 96, 4, 1, Accum::f32, cooperative, 1, 2, true},
           {128, 256, 3, 2, Accum::f16, cooperative, 2, 1, true},
       })
    out.push_back(make(k));
  for (auto c : std::vector<KernelConfig>(out)) {  // the same tiles with N-major B, where they fit
    c.layout = Layout::nn;
    if (is_valid(c)) out.push_back(c);
  }
  for (const auto& c : out) EXPECT_TRUE(is_valid(c)) << c.name() << ": " << validity_problems(c)[0];
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
  for (const KernelConfig& cfg : {KernelConfig{}, make({128, 128, 4, 2, Accum::f32, ConsumerMode::pingpong, 2, 1, true})}) {
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    const Shape s{2048 + 64, 3000, 1024};  // an odd number of tile rows: the last cluster hangs over
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    LaunchKnobs knobs;
    knobs.persistent = false;
    knobs.group_m = 1;
    Sm90Kernel k(*ctx, cfg, knobs, loaded);
    k.prepare(Problem{s, Layout::tn, cfg.acc}, {buf.guarded()});
    CorrectnessGate gate(*ctx, buf, cfg.acc, GateOptions{});
    const Verdict v = gate.check({{&k, Layout::tn}})[0];
    EXPECT_TRUE(v.passed()) << cfg.name() << ": " << v.text();
  }
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
  KernelConfig store = cfg;
  store.tma_store = true;  // C rows must be 16-byte multiples for the TMA store
  EXPECT_FALSE(why_not_supported(store, Problem{{7, 77, 64}, Layout::tn, Accum::f32}).empty());
  EXPECT_TRUE(why_not_supported(store, Problem{{7, 80, 64}, Layout::tn, Accum::f32}).empty());
}

}  // namespace
}  // namespace gemmforge::testing
