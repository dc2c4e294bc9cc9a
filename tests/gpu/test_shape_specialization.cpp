// Kernels built for one shape (JIT shape specialization, src/core/shape_constants.hpp) through the
// correctness gate: both families, odd and tiny shapes, split-K and swap-AB; and a specialized
// build refuses every other shape. Needs an sm_90 GPU for the Hopper part.
#include <gtest/gtest.h>

#include "eval/verify.hpp"
#include "gate_check.hpp"
#include "gpu_test_env.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge::testing {
namespace {

// A build for `built_for` refuses any other shape in prepare, before anything is launched.
void expect_refuses(GemmImpl& k, const Shape& built_for, const Problem& other) {
  try {
    k.prepare(other, {});
    ADD_FAILURE() << k.note() << " accepted " << to_string(other.shape);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for " + to_string(built_for) + " only"), std::string::npos)
        << e.what();
  }
}

const std::vector<Shape> kShapes = {{1, 1, 8}, {7, 77, 72}, {64, 64, 64}, {77, 1000, 4104}, {130, 200, 16384}, {512, 7, 512}};

TEST(ShapeSpecialization, Sm80BuildsPassTheGateAndRefuseOtherShapes) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major < 8) GTEST_SKIP() << "needs compute capability 8.0 or newer";
  jit::KernelCache cache;
  const std::string arch = sm80_family_arch(ctx->info().cc_major, ctx->info().cc_minor);
  Sm80Config tn;  // 64x64x32, vec16
  Sm80Config nn_scalar;
  nn_scalar.layout = Layout::nn, nn_scalar.acc = Accum::f16, nn_scalar.vec16 = false, nn_scalar.stages = 2;
  nn_scalar.block_m = 32, nn_scalar.block_n = 32, nn_scalar.warps_m = 1, nn_scalar.warps_n = 2;
  for (const Sm80Config& cfg : {tn, nn_scalar}) {
    ASSERT_TRUE(cfg.valid()) << cfg.name() << ": " << cfg.validity_problems()[0];
    for (const Shape& s : kShapes) {
      const Problem problem{s, cfg.layout, cfg.acc};
      if (!why_not_supported(cfg, problem).empty()) continue;
      const auto compiled = jit::compile_cached(compile_request(cfg, arch, s), cache);
      ASSERT_TRUE(compiled.ok) << cfg.name() << " for " << to_string(s) << "\n" << compiled.log;
      Sm80Kernel k(*ctx, cfg, Sm80Kernel::load(cfg, compiled.cubin), s);
      EXPECT_NE(k.note().find("_at" + to_string(s)), std::string::npos) << k.note();
      ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
      k.prepare(problem, {buf.guarded()});
      expect_gate_passes_and_rechecks(*ctx, k, buf, problem.layout, problem.acc, k.note() + " on " + to_string(s));
      expect_refuses(k, s, Problem{Shape{s.M + 8, s.N, s.K}, cfg.layout, cfg.acc});
    }
  }
}

TEST(ShapeSpecialization, HopperBuildsPassTheGateWithSplitKAndSwapAB) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  KernelConfig small;  // 64x64, one consumer, direct stores: split-K's usual tile
  small.block_m = 64, small.block_n = 64, small.consumers = 1, small.stages = 6;
  KernelConfig staged;  // two consumers, TMA-store epilogue
  staged.block_m = 128, staged.block_n = 128, staged.consumers = 2, staged.stages = 4, staged.tma_store = true;
  KernelConfig swap = small;  // computes Cᵀ: the kernel's M is the caller's N
  swap.swap_ab = true;
  struct Case {
    KernelConfig config;
    LaunchKnobs knobs;
  };
  LaunchKnobs split16;
  split16.splits = 16;
  split16.pdl = true;
  const std::vector<Case> cases = {{small, {}}, {small, split16}, {staged, {}}, {swap, {}}};
  for (const auto& [cfg, knobs] : cases) {
    ASSERT_TRUE(is_valid(cfg)) << cfg.name() << ": " << validity_problems(cfg)[0];
    for (const Shape& s : kShapes) {
      const Problem problem{s, cfg.layout, cfg.acc};
      if (!why_not_supported(cfg, problem).empty()) continue;  // TMA-store rows need N % 8 == 0
      const auto compiled = jit::compile_cached(compile_request(cfg, s), cache);
      ASSERT_TRUE(compiled.ok) << cfg.name() << " for " << to_string(s) << "\n" << compiled.log;
      Sm90Kernel k(*ctx, cfg, knobs, Sm90Kernel::load(cfg, compiled.cubin), s);
      ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
      k.prepare(problem, {buf.guarded()});
      expect_gate_passes_and_rechecks(*ctx, k, buf, problem.layout, problem.acc, k.note() + " on " + to_string(s));
      expect_refuses(k, s, Problem{Shape{s.M, s.N, s.K + 8}, cfg.layout, cfg.acc});
    }
  }
}

}  // namespace
}  // namespace gemmforge::testing
