// gemmforge's sm80 kernel family (mma.sync + cp.async) through the correctness gate, on odd and
// tiny shapes in both layouts with both accumulators, for configs that cover both load paths,
// odd warp-tile widths and the swizzle widths. Needs a GPU of compute capability 8.0 or newer.
#include <gtest/gtest.h>

#include "eval/verify.hpp"
#include "gate_check.hpp"
#include "gpu_test_env.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm80_kernel.hpp"

namespace gemmforge::testing {
namespace {

Sm80Config make(Layout l, Accum a, int bm, int bn, int bk, int wm, int wn, int stages, bool vec16) {
  Sm80Config c;
  c.layout = l, c.acc = a;
  c.block_m = bm, c.block_n = bn, c.block_k = bk;
  c.warps_m = wm, c.warps_n = wn;
  c.stages = stages;
  c.vec16 = vec16;
  return c;
}

std::vector<Sm80Config> sample_configs() {
  using enum Layout;
  using enum Accum;
  std::vector<Sm80Config> out = {
      make(tn, f32, 64, 64, 32, 2, 2, 3, true),
      make(nn, f32, 64, 64, 32, 2, 2, 3, true),
      make(tn, f16, 32, 32, 64, 1, 2, 4, true),
      make(nn, f16, 128, 128, 32, 2, 4, 2, true),
      make(tn, f32, 128, 128, 64, 2, 4, 4, true),
      make(nn, f32, 16, 128, 32, 1, 4, 3, true),
      make(tn, f32, 16, 16, 32, 1, 1, 2, false),
      make(nn, f32, 32, 64, 64, 2, 2, 2, false),
      make(tn, f16, 64, 40, 32, 2, 1, 2, false),  // five mma columns per warp: ldmatrix.x4 pairs + x2
      make(nn, f16, 64, 32, 32, 2, 4, 2, false),  // one mma column per warp: ldmatrix.x2.trans only
  };
  for (const auto& c : out) EXPECT_TRUE(c.valid()) << c.name() << ": " << c.validity_problems()[0];
  return out;
}

struct Loaded {
  Sm80Config config;
  std::shared_ptr<jit::LoadedKernel> kernel;
};

Loaded load(DeviceContext& ctx, jit::KernelCache& cache, const Sm80Config& c) {
  const auto compiled = jit::compile_cached(compile_request(c, sm80_family_arch(ctx.info().cc_major, ctx.info().cc_minor)), cache);
  EXPECT_TRUE(compiled.ok) << c.name() << "\n" << compiled.log;
  if (!compiled.ok) return {c, nullptr};
  return {c, Sm80Kernel::load(c, compiled.cubin)};
}

TEST(Sm80Kernel, PassesTheGateOnOddAndTinyShapes) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major < 8) GTEST_SKIP() << "needs compute capability 8.0 or newer";
  jit::KernelCache cache;
  // M or N of 1, 7, 77, 512; K of 1, 8, 72, 4104, 4095; mixed; and one shape with more than a
  // raster band of tile rows and a partial last band.
  const std::vector<Shape> shapes = {{1, 1, 1},      {7, 77, 8},      {77, 7, 72},     {512, 512, 512},
                                     {1, 512, 4104}, {512, 1, 4095},  {77, 77, 4104},  {7, 512, 4095},
                                     {512, 7, 1},    {77, 1, 72},     {1, 77, 8},      {64, 64, 64},
                                     {777, 1025, 1000}};
  for (const auto& cfg : sample_configs()) {
    const Loaded loaded = load(*ctx, cache, cfg);
    ASSERT_TRUE(loaded.kernel) << cfg.name();
    for (const Shape& s : shapes) {
      const Problem problem{s, cfg.layout, cfg.acc};
      if (!why_not_supported(cfg, problem).empty()) {
        EXPECT_TRUE(cfg.vec16) << cfg.name() << " refuses " << to_string(s) << ": " << why_not_supported(cfg, problem);
        continue;  // vec16 needs K % 8 == 0 (and N % 8 == 0 in nn)
      }
      ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
      Sm80Kernel k(*ctx, cfg, loaded.kernel);
      k.prepare(problem, {buf.guarded()});
      expect_gate_passes_and_rechecks(*ctx, k, buf, cfg.layout, cfg.acc, cfg.name() + " on " + to_string(s));
    }
  }
}

// An f16 config really accumulates in fp16: the f32 gate's cancellation probe (+4096, ones, −4096)
// loses its ones. With m16n8k16 steps the all-ones probe reaches 4096 exactly (partial sums are
// multiples of 16), so it is the cancellation probe that tells.
TEST(Sm80Kernel, F16ConfigsReallyAccumulateInF16) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major < 8) GTEST_SKIP() << "needs compute capability 8.0 or newer";
  jit::KernelCache cache;
  const Shape s{64, 64, 4096};
  for (bool vec16 : {true, false}) {
    Sm80Config c = make(Layout::tn, Accum::f16, 64, 64, 32, 2, 2, vec16 ? 3 : 2, vec16);
    const Loaded loaded = load(*ctx, cache, c);
    ASSERT_TRUE(loaded.kernel);
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    Sm80Kernel k(*ctx, c, loaded.kernel);
    k.prepare(Problem{s, Layout::tn, Accum::f16}, {buf.guarded()});
    CorrectnessGate f32_gate(*ctx, buf, Accum::f32, GateOptions{});
    const Verdict v = f32_gate.check({{&k, Layout::tn}})[0];
    EXPECT_FALSE(v.passed()) << c.name() << " passed the f32 accumulator probes";
    // Random inputs may fail first; the accumulator probes must be among the failures.
    bool accumulator_probe_failed = false;
    for (const auto& f : v.failures) accumulator_probe_failed |= f.find("accumulator") != std::string::npos;
    EXPECT_TRUE(accumulator_probe_failed) << v.text();
    CorrectnessGate f16_gate(*ctx, buf, Accum::f16, GateOptions{});
    const Verdict ok = f16_gate.check({{&k, Layout::tn}})[0];
    EXPECT_TRUE(ok.passed()) << c.name() << ": " << ok.text();
  }
}

TEST(Sm80Kernel, Vec16RefusesUnalignedOperandsAndScalarTakesThem) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major < 8) GTEST_SKIP() << "needs compute capability 8.0 or newer";
  jit::KernelCache cache;
  const Shape s{77, 64, 64};
  ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
  Operands shifted = buf.guarded();
  shifted.A += 1;  // 2-byte aligned only
  for (bool vec16 : {true, false}) {
    const Sm80Config c = make(Layout::tn, Accum::f32, 64, 64, 32, 2, 2, vec16 ? 3 : 2, vec16);
    const Loaded loaded = load(*ctx, cache, c);
    ASSERT_TRUE(loaded.kernel);
    Sm80Kernel k(*ctx, c, loaded.kernel);
    k.prepare(Problem{s, Layout::tn, Accum::f32}, {buf.guarded()});
    EXPECT_TRUE(k.accepts(buf.guarded()));
    EXPECT_EQ(k.accepts(shifted), !vec16) << c.name();
    if (vec16) {
      EXPECT_THROW(k.run(shifted), Error);
    }
  }
}

TEST(Sm80Kernel, RefusesWhatItCannotTake) {
  Sm80Config v16;
  EXPECT_FALSE(why_not_supported(v16, Problem{{64, 64, 77}, Layout::tn, Accum::f32}).empty());  // K % 8
  EXPECT_FALSE(why_not_supported(v16, Problem{{64, 64, 64}, Layout::nn, Accum::f32}).empty());  // config is tn
  EXPECT_FALSE(why_not_supported(v16, Problem{{64, 64, 64}, Layout::tn, Accum::f16}).empty());  // config is f32
  EXPECT_TRUE(why_not_supported(v16, Problem{{7, 77, 64}, Layout::tn, Accum::f32}).empty());    // N free in tn
  Sm80Config nn = v16;
  nn.layout = Layout::nn;
  EXPECT_FALSE(why_not_supported(nn, Problem{{64, 77, 64}, Layout::nn, Accum::f32}).empty());  // N % 8 in nn
  EXPECT_TRUE(why_not_supported(nn, Problem{{7, 80, 64}, Layout::nn, Accum::f32}).empty());
  Sm80Config scalar = nn;
  scalar.vec16 = false;
  scalar.stages = 2;
  EXPECT_TRUE(why_not_supported(scalar, Problem{{7, 77, 4095}, Layout::nn, Accum::f32}).empty());
  EXPECT_TRUE(why_not_supported(scalar, Problem{{1, 1, 1}, Layout::nn, Accum::f32}).empty());
  EXPECT_EQ(sm80_family_arch(9, 0), "sm_90a");
  EXPECT_EQ(sm80_family_arch(8, 0), "sm_80");
  EXPECT_EQ(sm80_family_arch(8, 6), "sm_86");
  EXPECT_THROW(sm80_family_arch(7, 5), Error);
}

}  // namespace
}  // namespace gemmforge::testing
