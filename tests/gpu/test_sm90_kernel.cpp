// gemmforge's Hopper kernel family through the correctness gate, on grid and odd shapes, for a
// sample of configurations. Needs an sm_90 GPU; skips elsewhere.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "eval/cuda_check.hpp"
#include "eval/verify.hpp"
#include "gate_check.hpp"
#include "gpu_test_env.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm90_kernel.hpp"
#include "sm90/walk_along_n.cuh"  // the order, on the host

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

// Each config also as the default space builds it (with_space_knobs: the fast walk, lean cluster
// sync where multicast). The configs as given are the code the shipped tables serve.
void add_space_twins(std::vector<KernelConfig>& configs) {
  for (const auto& c : std::vector<KernelConfig>(configs)) configs.push_back(with_space_knobs(c));
}

// One launch of `cfg` with `knobs` on `s` through the gate: a fresh guarded buffer, the kernel
// prepared, `after_prepare` (checks of the prepared kernel, e.g. its workspace) run before it, and
// every failure named by the kernel's note, the shape and the launch.
template <class AfterPrepare>
void expect_launch_passes_the_gate(DeviceContext& ctx, const KernelConfig& cfg, const LaunchKnobs& knobs,
                                   const std::shared_ptr<jit::LoadedKernel>& loaded, const Shape& s,
                                   AfterPrepare&& after_prepare) {
  ShapeBuffers buf(s, false, ctx.info().l2_bytes, ctx.stream());
  Sm90Kernel k(ctx, cfg, knobs, loaded);
  k.prepare(Problem{s, cfg.layout, cfg.acc}, {buf.guarded()});
  after_prepare(k);
  expect_gate_passes_and_rechecks(ctx, k, buf, cfg.layout, cfg.acc,
                                  k.note() + " on " + to_string(s) + " (" + k.launch_detail() + ")");
}

void expect_launch_passes_the_gate(DeviceContext& ctx, const KernelConfig& cfg, const LaunchKnobs& knobs,
                                   const std::shared_ptr<jit::LoadedKernel>& loaded, const Shape& s) {
  expect_launch_passes_the_gate(ctx, cfg, knobs, loaded, s, [](const Sm90Kernel&) {});
}

// Every knob value at least once: tile shapes, 1-2 consumers, all three modes, both cluster
// directions, both epilogues (all three epilogue column-block widths; the whole-tile, per-warp
// and per-warpgroup TMA stores, deferred or not), both accumulators.
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
           {128, 128, 4, 1, Accum::f32, cooperative, 1, 1, true},  // one consumer: stores per warp, two slices each
           // Cooperative TMA stores deferring half their blocks into the next tile's main loop
           // (epilogue.cuh): two alternating buffers with four blocks, and three blocks.
           {128, 256, 4, 2, Accum::f32, cooperative, 1, 1, true},
           {128, 192, 4, 2, Accum::f32, cooperative, 1, 1, true},
           // K-split: two warpgroups on alternate k-blocks of a tile, the second's sums handed over
           // (odd K-block counts leave the second one block short; one block leaves it none).
           {64, 32, 16, 2, Accum::f32, ksplit},
           {64, 64, 8, 2, Accum::f16, ksplit, 1, 1, true},
           {64, 32, 16, 2, Accum::f32, ksplit, 1, 2, false},
           {128, 128, 4, 2, Accum::f32, ksplit, 1, 1, true},
       })
    out.push_back(make(k));
  for (auto c : std::vector<KernelConfig>(out)) {  // the same tiles with N-major B, where they fit
    c.layout = Layout::nn;
    if (is_valid(c)) out.push_back(c);
  }
  for (const Knobs& k : std::vector<Knobs>{{64, 64, 6, 1}, {128, 32, 6, 2}, {256, 128, 4, 2, Accum::f16},
                                           {128, 64, 4, 2, Accum::f32, ConsumerMode::pingpong, 2, 1},
                                           {64, 32, 8, 2, Accum::f32, ConsumerMode::ksplit, 1, 2}}) {
    KernelConfig c = make(k);  // swap-AB: C's N on the tile's rows, M on wgmma's N
    c.swap_ab = true;
    out.push_back(c);
  }
  add_space_twins(out);
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
      expect_gate_passes_and_rechecks(*ctx, k, buf, cfg.layout, cfg.acc, cfg.name() + " on " + to_string(s));
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

// Split-K parts of a tile on different CTAs (and on ping-pong and k-split warpgroups, and in clusters), for
// tall-K and odd shapes, persistent and not; more parts than K blocks are clamped.
std::vector<KernelConfig> split_k_configs() {
  using enum ConsumerMode;
  std::vector<KernelConfig> out;
  for (const Knobs& k : std::vector<Knobs>{
           {128, 128, 4, 2},
           {64, 64, 8, 1},
           {128, 128, 4, 2, Accum::f32, pingpong, 1, 1, true},
           {128, 256, 3, 2, Accum::f32, cooperative, 2, 1, true},
           {192, 96, 4, 1, Accum::f32, cooperative, 1, 2, false},
           {128, 256, 4, 2, Accum::f16},
           {64, 64, 8, 2, Accum::f32, ksplit},
           {64, 32, 16, 2, Accum::f32, ksplit, 1, 2, false},
       })
    out.push_back(make(k));
  KernelConfig nn = make({128, 128, 4, 2});
  nn.layout = Layout::nn;
  out.push_back(nn);
  KernelConfig swap = make({128, 64, 6, 2});
  swap.swap_ab = true;
  out.push_back(swap);
  add_space_twins(out);
  return out;
}

// Split-K (2, 5, 16 parts) and stream-K (shown as 0 parts below) on tall-K, odd and
// partial-wave shapes: every tile reduced from several CTAs' partial sums.
TEST(Sm90Kernel, SplitKAndStreamKPassTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{64, 64, 16384}, {7, 77, 4104},     {77, 1000, 4104}, {1, 1, 8},
                                     {1000, 7, 1000}, {512, 512, 8192}, {130, 200, 16384}, {2112, 3000, 1024}};
  for (const auto& cfg : split_k_configs()) {
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes)
      for (int splits : {2, 5, 16, 0, -1})  // 0: stream-K with the sliced sum, -1: with the last-arriver sum
        for (bool persistent : {true, false}) {
          const Problem problem{s, cfg.layout, cfg.acc};
          if (!why_not_supported(cfg, problem).empty()) continue;
          LaunchKnobs knobs;
          knobs.splits = splits > 0 ? splits : 1;
          knobs.stream_k = splits <= 0;
          knobs.persistent = persistent;
          knobs.pdl = splits == 5;  // programmatic dependent launch on some of them
          knobs.sliced_reduction = splits != 16 && splits != -1;  // and the last-arriver sum on others
          if (!launch_problem(cfg, knobs).empty()) continue;  // stream-K: persistent, no clusters
          expect_launch_passes_the_gate(*ctx, cfg, knobs, loaded, s, [&](const Sm90Kernel& k) {
            if (splits > 0) {
              EXPECT_EQ(k.workspace_bytes() > 0, effective_splits(cfg, s.K, splits) > 1);
            }
          });
        }
  }
}

// The same with each tile's parts apart (KernelConfig::parts_apart): one wave persistent (the
// parts spread over the grid), more units than CTAs persistent (the kernel keeps a tile's parts
// together), and non-persistent over several waves (apart, with the last-arriver sum).
TEST(Sm90Kernel, SplitKWithPartsApartPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{64, 64, 16384}, {7, 77, 4104}, {512, 512, 8192}, {130, 200, 16384},
                                     {2112, 3000, 1024}};
  int ran = 0;
  for (KernelConfig cfg : split_k_configs()) {
    cfg.parts_apart = true;
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes)
      for (int splits : {2, 5, 16})
        for (bool persistent : {true, false}) {
          const Problem problem{s, cfg.layout, cfg.acc};
          if (!why_not_supported(cfg, problem).empty()) continue;
          LaunchKnobs knobs;
          knobs.splits = splits;
          knobs.persistent = persistent;
          knobs.pdl = splits == 5;
          knobs.sliced_reduction = splits != 16;
          if (!launch_problem(cfg, knobs).empty()) continue;
          expect_launch_passes_the_gate(*ctx, cfg, knobs, loaded, s);
          ++ran;
        }
  }
  EXPECT_GT(ran, 100);
}

// Clusters of four and eight CTAs: A multicast along each cluster row, B along each column, in
// slices of a quarter or an eighth of a tile (kernels/sm90/hgemm_traits.cuh). Both layouts, one
// and two consumers, both epilogues, on odd shapes whose last cluster tiles hang over both edges,
// unsplit (persistent and not) and split in 2 and 16 parts (the sliced and the last-arriver sum).
std::vector<KernelConfig> wide_cluster_configs() {
  using enum ConsumerMode;
  std::vector<KernelConfig> out;
  for (const Knobs& k : std::vector<Knobs>{
           {64, 128, 6, 1, Accum::f32, cooperative, 2, 2, false},
           {64, 128, 6, 1, Accum::f32, cooperative, 4, 1, true},
           {64, 64, 8, 1, Accum::f32, cooperative, 1, 4, false},
           {64, 64, 8, 1, Accum::f32, cooperative, 4, 2, true},
           {64, 128, 6, 1, Accum::f32, cooperative, 2, 4, false},
           {128, 128, 4, 2, Accum::f32, cooperative, 2, 2, true},
           {128, 128, 4, 2, Accum::f16, pingpong, 4, 1, false},
           {64, 64, 8, 1, Accum::f32, cooperative, 8, 1, false},
           {128, 64, 6, 2, Accum::f32, cooperative, 1, 8, false},
       })
    out.push_back(make(k));
  for (auto c : std::vector<KernelConfig>(out)) {  // N-major B, cut along K
    c.layout = Layout::nn;
    if (is_valid(c)) out.push_back(c);
  }
  add_space_twins(out);
  for (const auto& c : out) EXPECT_TRUE(is_valid(c)) << c.name() << ": " << validity_problems(c)[0];
  return out;
}

TEST(Sm90Kernel, ClustersOfFourAndEightPassTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{7, 77, 72}, {77, 1000, 4104}, {1000, 7, 1000}, {256, 256, 16384},
                                     {1000, 1000, 4096}, {4095, 2049, 512}, {130, 200, 16384}};
  int ran = 0, refused = 0;
  for (const auto& cfg : wide_cluster_configs()) {
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes)
      for (int splits : {1, 2, 16, -16})  // -16: 16 parts summed by the last to arrive
        for (bool persistent : {true, false}) {
          if (splits == 1 && !persistent && s.M < 1000) continue;  // the non-persistent walk on the larger ones
          const Problem problem{s, cfg.layout, cfg.acc};
          if (!why_not_supported(cfg, problem).empty()) continue;
          LaunchKnobs knobs;
          knobs.splits = std::abs(splits);
          knobs.persistent = persistent;
          knobs.pdl = splits == 2 || splits == 16;
          knobs.sliced_reduction = splits > 0;
          if (!launch_problem(cfg, knobs).empty()) continue;
          ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
          Sm90Kernel k(*ctx, cfg, knobs, loaded);
          // A sliced sum with more parts than resident clusters would wait on itself: refused
          // (16 parts of clusters of 8 on the H200, where fewer than 16 such clusters fit), never launched.
          try {
            k.prepare(problem, {buf.guarded()});
          } catch (const Error& e) {
            EXPECT_TRUE(splits == 16 && persistent && effective_splits(cfg, s.K, 16) == 16) << e.what();
            EXPECT_NE(std::string(e.what()).find("needs every part of a tile running at once"), std::string::npos)
                << e.what();
            ++refused;
            continue;
          }
          expect_gate_passes_and_rechecks(*ctx, k, buf, cfg.layout, cfg.acc,
                                          k.note() + " on " + to_string(s) + " (" + k.launch_detail() + ")");
          ++ran;
        }
  }
  EXPECT_GT(ran, 200);
  std::cout << ran << " launches through the gate, " << refused << " refused\n";
}

// Split-K summed inside a cluster of the parts' CTAs through distributed shared memory: every
// split-K config (both consumer modes, both layouts, f16 sums, swap-AB; the multicast ones are
// refused by the rules) on the odd and tall shapes, with 2..16 parts (above 8: a non-portable
// cluster size), with and without PDL, through the gate.
TEST(Sm90Kernel, SplitKSummedInsideAClusterPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{64, 64, 16384}, {7, 77, 4104}, {77, 1000, 4104}, {1, 1, 8},
                                     {130, 200, 16384}, {512, 512, 8192}, {64, 64, 4096}};
  int ran = 0;
  for (const auto& cfg : split_k_configs()) {
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes)
      for (int splits : {2, 3, 8, 16}) {
        const Problem problem{s, cfg.layout, cfg.acc};
        if (!why_not_supported(cfg, problem).empty()) continue;
        LaunchKnobs split;
        split.splits = splits;
        split.pdl = splits == 3;
        const LaunchKnobs knobs = cluster_reduced(split);
        if (!launch_problem(cfg, knobs).empty()) continue;
        expect_launch_passes_the_gate(*ctx, cfg, knobs, loaded, s, [&](const Sm90Kernel& k) {
          EXPECT_EQ(k.workspace_bytes(), 0u) << k.note();
          const bool split_here = effective_splits(cfg, s.K, splits) > 1;
          EXPECT_EQ(k.launch_detail().find("summed in a cluster") != std::string::npos, split_here) << k.launch_detail();
        });
        ++ran;
      }
  }
  EXPECT_GT(ran, 100);
}

// Sums pushed inside a cluster (KernelConfig::cluster_push): the gate on both layouts, odd shapes
// and cluster sizes that cut a tile's units unevenly (3, 13), and C bit for bit what the pulled
// sum of the same config stores (both add the parts in rank order), run after run.
// C's bits after `launch`, which finds C filled with 0xFF bytes (an fp16 NaN no real result
// holds, so an element the launch did not write shows as 0xFFFF).
template <class Launch>
std::vector<unsigned short> c_after(DeviceContext& ctx, const ShapeBuffers& buf, Launch&& launch) {
  const size_t n = size_t(buf.shape().M * buf.shape().N);
  std::vector<unsigned short> out(n);
  GF_CUDA(cudaMemsetAsync(buf.guarded().C, 0xFF, n * 2, ctx.stream()));
  launch();
  GF_CUDA(cudaMemcpyAsync(out.data(), buf.guarded().C, n * 2, cudaMemcpyDeviceToHost, ctx.stream()));
  GF_CUDA(cudaStreamSynchronize(ctx.stream()));
  return out;
}

TEST(Sm90Kernel, SplitKPushedInsideAClusterPassesTheGateAndMatchesThePulledSum) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{64, 64, 16384}, {7, 77, 4104}, {77, 1000, 4104}, {1, 1, 8},
                                     {130, 200, 16384}, {256, 128, 8192}};
  std::vector<KernelConfig> pulled;
  for (const Knobs& k : std::vector<Knobs>{{64, 16, 4, 1}, {64, 32, 4, 1}, {64, 48, 4, 1},
                                           {64, 64, 8, 1, Accum::f32, ConsumerMode::cooperative, 1, 1, true},
                                           {64, 64, 6, 1, Accum::f16}})
    pulled.push_back(make(k));
  KernelConfig nn = make({64, 64, 8, 1, Accum::f32, ConsumerMode::cooperative, 1, 1, true});
  nn.layout = Layout::nn;
  pulled.push_back(nn);
  KernelConfig swap = make({64, 64, 4, 1});  // C stored transposed
  swap.swap_ab = true;
  pulled.push_back(swap);
  int ran = 0;
  for (const KernelConfig& plain : pulled) {
    KernelConfig pushed = plain;
    pushed.cluster_push = true;
    ASSERT_TRUE(is_valid(pushed)) << pushed.name() << ": " << validity_problems(pushed)[0];
    const auto compiled_plain = jit::compile_cached(compile_request(plain), cache);
    const auto compiled_pushed = jit::compile_cached(compile_request(pushed), cache);
    ASSERT_TRUE(compiled_plain.ok && compiled_pushed.ok) << compiled_plain.log << compiled_pushed.log;
    auto loaded_plain = Sm90Kernel::load(plain, compiled_plain.cubin);
    auto loaded_pushed = Sm90Kernel::load(pushed, compiled_pushed.cubin);
    for (const Shape& s : shapes)
      for (int splits : {2, 3, 8, 13, 16}) {
        const Problem problem{s, plain.layout, plain.acc};
        if (!why_not_supported(pushed, problem).empty()) continue;
        LaunchKnobs split;
        split.splits = splits;
        split.pdl = splits == 3;
        const LaunchKnobs knobs = cluster_reduced(split);
        if (!launch_problem(pushed, knobs).empty() || !launch_problem(plain, knobs).empty()) continue;
        ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
        Sm90Kernel k(*ctx, pushed, knobs, loaded_pushed);
        k.prepare(problem, {buf.guarded()});
        const std::string what = k.note() + " on " + to_string(s) + " (" + k.launch_detail() + ")";
        expect_gate_passes_and_rechecks(*ctx, k, buf, pushed.layout, pushed.acc, what);
        // The same inputs through both: C bit for bit, twice over for the pushed sum.
        buf.fill_for_timing(11, ctx->stream());
        auto c_of = [&](Sm90Kernel& kernel) { return c_after(*ctx, buf, [&] { kernel.run(buf.guarded()); }); };
        Sm90Kernel reference(*ctx, plain, knobs, loaded_plain);
        reference.prepare(problem, {buf.guarded()});
        const auto want = c_of(reference);
        EXPECT_EQ(c_of(k), want) << what << ": C differs from the pulled sum's";
        EXPECT_EQ(c_of(k), want) << what << ": C differs from the pulled sum's on a second run";
        ++ran;
      }
  }
  EXPECT_GT(ran, 100);
}

// The parts of a tile are added in slot order whichever finishes last: the bits of C repeat.
TEST(Sm90Kernel, SplitKAndStreamKAreDeterministic) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  const KernelConfig cfg = make({128, 128, 4, 2});
  const auto compiled = jit::compile_cached(compile_request(cfg), cache);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
  // The last-arriver sum is where the order could depend on timing: which part arrives last.
  for (int variant = 0; variant < 5; ++variant) {
    const bool stream_k = variant % 2 == 1 && variant < 4, sliced = variant < 2;
    const Shape s = stream_k ? Shape{2112, 3000, 4096} : Shape{256, 384, 16384};
    ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
    buf.fill_for_timing(7, ctx->stream());
    LaunchKnobs knobs;
    knobs.splits = stream_k ? 1 : 8;
    knobs.stream_k = stream_k;
    knobs.sliced_reduction = sliced;
    if (variant == 4) knobs = cluster_reduced(knobs);  // summed inside a cluster, in rank order
    Sm90Kernel k(*ctx, cfg, knobs, loaded);
    k.prepare(Problem{s, Layout::tn, cfg.acc}, {buf.guarded()});
    const size_t n = size_t(s.M * s.N);
    std::vector<unsigned short> first(n), again(n);
    k.run(buf.guarded());
    GF_CUDA(cudaMemcpyAsync(first.data(), buf.guarded().C, n * 2, cudaMemcpyDeviceToHost, ctx->stream()));
    GF_CUDA(cudaStreamSynchronize(ctx->stream()));
    for (int trial = 0; trial < 20; ++trial) {
      GF_CUDA(cudaMemsetAsync(buf.guarded().C, 0xFF, n * 2, ctx->stream()));
      k.run(buf.guarded());
      GF_CUDA(cudaMemcpyAsync(again.data(), buf.guarded().C, n * 2, cudaMemcpyDeviceToHost, ctx->stream()));
      GF_CUDA(cudaStreamSynchronize(ctx->stream()));
      ASSERT_EQ(first, again) << k.note() << ": run " << trial << " differs";
    }
  }
}

// Programmatic dependent launch: a GEMM whose A is the previous GEMM's C must still wait for it.
// The first is made slow (long K) and its output poisoned before each run, so a missing wait
// shows as NaN or stale values in the second's result. Also with the fast walk, whose builds make
// their scheduler before the wait.
TEST(Sm90Kernel, DependentLaunchWaitsForThePreviousKernel) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  jit::KernelCache cache;
  KernelConfig fast_walk = make({128, 128, 4, 2});
  fast_walk.fast_walk = true;
  for (const KernelConfig& cfg : {make({128, 128, 4, 2}), fast_walk}) {
    SCOPED_TRACE(cfg.name());
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    const Shape first_shape{256, 512, 16384}, second_shape{256, 384, 512};  // second's K = first's N
    ShapeBuffers first(first_shape, false, ctx->info().l2_bytes, ctx->stream());
    ShapeBuffers second(second_shape, false, ctx->info().l2_bytes, ctx->stream());
    first.fill_for_timing(3, ctx->stream());
    second.fill_for_timing(4, ctx->stream());
    const Operands o1 = first.guarded();
    const Operands o2{o1.C, second.guarded().B, second.guarded().C};
    const size_t n = size_t(second_shape.M * second_shape.N);
    auto chain = [&](bool pdl) {
      LaunchKnobs knobs;
      knobs.pdl = pdl;
      Sm90Kernel k1(*ctx, cfg, knobs, loaded), k2(*ctx, cfg, knobs, loaded);
      k1.prepare(Problem{first_shape, Layout::tn, Accum::f32}, {o1});
      k2.prepare(Problem{second_shape, Layout::tn, Accum::f32}, {o2});
      std::vector<unsigned short> out(n);
      for (int i = 0; i < 5; ++i) {
        GF_CUDA(cudaMemsetAsync(o1.C, 0xFF, size_t(first_shape.M * first_shape.N) * 2, ctx->stream()));
        k1.run(o1);
        k2.run(o2);
      }
      GF_CUDA(cudaMemcpyAsync(out.data(), o2.C, n * 2, cudaMemcpyDeviceToHost, ctx->stream()));
      GF_CUDA(cudaStreamSynchronize(ctx->stream()));
      return out;
    };
    const auto plain = chain(false), programmatic = chain(true);
    size_t nan = 0;
    for (unsigned short h : plain) nan += (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
    ASSERT_EQ(nan, 0u) << "the plain chain itself read poisoned input";
    EXPECT_EQ(plain, programmatic);
  }
}

// Every sampled config as the default space builds it, with `knob` set, through the gate on grid,
// odd, tall-K and many-tile shapes, once for each of `launches` that the config and shape take;
// `check` sees each prepared kernel (as expect_launch_passes_the_gate's after_prepare).
template <class Check>
void expect_space_builds_pass_the_gate(DeviceContext& ctx, void (*knob)(KernelConfig&), const std::vector<LaunchKnobs>& launches,
                                       Check&& check) {
  jit::KernelCache cache;
  const std::vector<Shape> shapes = {{64, 64, 64},      {7, 77, 72},       {77, 1000, 4104}, {1000, 7, 1000},
                                     {4095, 12289, 64}, {130, 200, 16384}, {2112, 3000, 1024}};
  for (KernelConfig cfg : sample_configs()) {
    if (cfg.fast_walk) continue;  // a space twin: the same config is taken as the space builds it below
    cfg = with_space_knobs(cfg);
    knob(cfg);
    const auto compiled = jit::compile_cached(compile_request(cfg), cache);
    ASSERT_TRUE(compiled.ok) << cfg.name() << "\n" << compiled.log;
    auto loaded = Sm90Kernel::load(cfg, compiled.cubin);
    for (const Shape& s : shapes)
      for (const LaunchKnobs& knobs : launches) {
        if (!why_not_supported(cfg, Problem{s, cfg.layout, cfg.acc}).empty() || !launch_problem(cfg, knobs).empty())
          continue;
        expect_launch_passes_the_gate(ctx, cfg, knobs, loaded, s,
                                      [&](const Sm90Kernel& k) { check(k, cfg, knobs, s); });
      }
  }
}

LaunchKnobs launch_with(int splits, bool stream_k, bool persistent, bool pdl) {
  LaunchKnobs k;
  k.splits = splits;
  k.stream_k = stream_k;
  k.persistent = persistent;
  k.pdl = pdl;
  return k;
}

// The uniform warpgroup index (KernelConfig::uniform_warpgroup) on every sampled config as the
// default space builds it: whole launches, and split-K and stream-K ones where the config takes
// them, persistent, with programmatic dependent launch on the split ones.
TEST(Sm90Kernel, UniformWarpgroupPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  expect_space_builds_pass_the_gate(
      *ctx, [](KernelConfig& c) { c.uniform_warpgroup = true; },
      {launch_with(1, false, true, false), launch_with(3, false, true, true), launch_with(1, true, true, false)},
      [](const Sm90Kernel&, const KernelConfig&, const LaunchKnobs&, const Shape&) {});
}

// The dynamic walk (KernelConfig::dynamic_walk) on every sampled config as the default space
// builds it. Unsplit persistent launches take tiles from the workspace's counter: the gate runs
// each launch more than once, so a counter a launch did not leave at zero would skip tiles in the
// next and fail it. Split, stream-K and non-persistent launches of the same builds walk statically.
TEST(Sm90Kernel, DynamicWalkPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  expect_space_builds_pass_the_gate(
      *ctx, [](KernelConfig& c) { c.dynamic_walk = true; },
      {launch_with(1, false, true, true), launch_with(3, false, true, false), launch_with(1, true, true, false),
       launch_with(1, false, false, false)},
      [](const Sm90Kernel& k, const KernelConfig& cfg, const LaunchKnobs& knobs, const Shape& s) {
        // K too short to split leaves one part: an unsplit launch, dynamic when persistent.
        const bool unsplit = !knobs.stream_k && effective_splits(cfg, s.K, knobs.splits) == 1;
        EXPECT_EQ(k.dynamic_walk(), unsplit && knobs.persistent) << k.note() << " on " << to_string(s);
        if (k.dynamic_walk()) {
          EXPECT_EQ(k.workspace_bytes(), kDynamicWalkWorkspaceBytes);
        }
      });
}

// What a dynamic-walk build leaves in C when its tile counter starts at `skipped`, beside the C of
// its static twin (`want`): the counter hands out unit indices from clusters + skipped on, so the
// cluster tiles at walk positions clusters .. clusters + skipped - 1 are never written (0xFFFF).
// `next` is the C of a second launch on the same workspace, which the first one's last take must
// have set back to zero (`counter_after`).
struct CounterRun {
  std::vector<unsigned short> want, got, next;
  unsigned clusters = 0, counter_after = 1;
  std::string detail;
};

void run_from_counter(DeviceContext& ctx, const KernelConfig& plain, const KernelConfig& dynamic,
                      const LaunchKnobs& knobs, const Problem& problem, const ShapeBuffers& buf, unsigned skipped,
                      CounterRun& out) {
  jit::KernelCache cache;
  const auto compiled_plain = jit::compile_cached(compile_request(plain), cache);
  const auto compiled_dynamic = jit::compile_cached(compile_request(dynamic), cache);
  ASSERT_TRUE(compiled_plain.ok && compiled_dynamic.ok) << compiled_plain.log << compiled_dynamic.log;
  Sm90Kernel fixed(ctx, plain, LaunchKnobs{}, Sm90Kernel::load(plain, compiled_plain.cubin));
  fixed.prepare(problem, {buf.guarded()});
  Sm90Kernel walker(ctx, dynamic, knobs, Sm90Kernel::load(dynamic, compiled_dynamic.cubin));
  walker.use_caller_workspace();
  walker.prepare(problem, {buf.guarded()});
  out.detail = walker.launch_detail();
  ASSERT_TRUE(walker.dynamic_walk()) << out.detail;
  out.clusters = walker.grid_ctas() / (dynamic.cluster_m * dynamic.cluster_n);
  DeviceBuffer workspace(walker.workspace_bytes());
  GF_CUDA(cudaMemsetAsync(workspace.get(), 0, walker.workspace_bytes(), ctx.stream()));
  out.want = c_after(ctx, buf, [&] { fixed.run(buf.guarded()); });
  GF_CUDA(cudaMemcpyAsync(workspace.get(), &skipped, sizeof skipped, cudaMemcpyHostToDevice, ctx.stream()));
  out.got = c_after(ctx, buf, [&] { walker.run_on(buf.guarded(), ctx.stream(), workspace.get()); });
  GF_CUDA(cudaMemcpyAsync(&out.counter_after, workspace.get(), sizeof out.counter_after, cudaMemcpyDeviceToHost,
                          ctx.stream()));
  GF_CUDA(cudaStreamSynchronize(ctx.stream()));
  out.next = c_after(ctx, buf, [&] { walker.run_on(buf.guarded(), ctx.stream(), workspace.get()); });
}

// A dynamic-walk launch takes its tiles from the workspace's counter, not from the static walk:
// started at 3, the three cluster tiles after the first wave's are never written, every other
// tile is its static twin's bit for bit, and the launch's last take sets the counter back to zero.
// (The gate alone cannot tell: a build that ignored the flag would pass it.)
TEST(Sm90Kernel, DynamicWalkTakesItsTilesFromTheCounter) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  const KernelConfig plain = with_space_knobs(make({128, 128, 4, 2, Accum::f32, ConsumerMode::cooperative, 2, 1}));
  KernelConfig dynamic = plain;
  dynamic.dynamic_walk = true;
  // 8 x 24 whole cluster tiles of 256 x 128: more units than resident clusters plus the skipped.
  const Shape s{2048, 3072, 512};
  ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
  buf.fill_for_timing(5, ctx->stream());
  constexpr unsigned kSkipped = 3, kUnits = (2048 / 256) * (3072 / 128);
  CounterRun run;
  run_from_counter(*ctx, plain, dynamic, LaunchKnobs{}, Problem{s, plain.layout, plain.acc}, buf, kSkipped, run);
  if (HasFatalFailure()) return;
  ASSERT_LT(run.clusters + kSkipped, kUnits) << run.detail;
  size_t unwritten = 0, wrong = 0;
  for (size_t i = 0; i < run.got.size(); ++i)
    if (run.got[i] != run.want[i]) ++(run.got[i] == 0xFFFF ? unwritten : wrong);
  EXPECT_EQ(wrong, 0u) << run.detail;
  EXPECT_EQ(unwritten, size_t(kSkipped) * 256 * 128) << run.detail << ": " << run.clusters << " clusters";
  EXPECT_EQ(run.counter_after, 0u) << "the launch's last take did not reset the counter";
  EXPECT_EQ(run.next, run.want) << "the next launch, its counter back at zero, differs from the static walk's";
}

// The walk along N (KernelConfig::walk_n) on every sampled config as the default space builds it:
// whole launches with the automatic group and with groups of 3 columns, split-K, stream-K and
// non-persistent ones, each of which visits every tile once in its own order.
TEST(Sm90Kernel, WalkAlongNPassesTheGate) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  LaunchKnobs threes = launch_with(1, false, true, false);
  threes.group_m = 3;
  expect_space_builds_pass_the_gate(
      *ctx, [](KernelConfig& c) { c.walk_n = true; },
      {launch_with(1, false, true, true), threes, launch_with(3, false, true, false), launch_with(1, true, true, false),
       launch_with(1, false, false, false)},
      [](const Sm90Kernel& k, const KernelConfig&, const LaunchKnobs&, const Shape&) {
        EXPECT_NE(k.launch_detail().find("tile columns"), std::string::npos) << k.launch_detail();
      });
}

// Which tiles a launch visits in which order, seen through the dynamic walk's counter: started at
// 3, the feed hands out cluster tiles from clusters + 3 on, so the three after the first wave's
// are never written. With the walk along N (groups of 5 of the 24 columns, the last 4 wide) those
// are the tiles that walk_along_n.cuh's order names there, on the host; every other element is
// the default walk's bit for bit. Both divisions of the walk (fast and plain) are checked.
TEST(Sm90Kernel, WalkAlongNVisitsTheTilesInItsOrder) {
  GF_REQUIRE_GPU(ctx);
  if (ctx->info().cc_major != 9) GTEST_SKIP() << "needs an sm_90 GPU";
  const Shape s{2048, 3000, 512};  // 8 x 24 cluster tiles of 256 x 128, the last column 56 wide
  ShapeBuffers buf(s, false, ctx->info().l2_bytes, ctx->stream());
  buf.fill_for_timing(7, ctx->stream());
  constexpr int kTilesM = 8, kTilesN = 24, kGroup = 5;
  constexpr unsigned kSkipped = 3;
  for (const bool fast : {true, false}) {
    KernelConfig plain = with_space_knobs(make({128, 128, 4, 2, Accum::f32, ConsumerMode::cooperative, 2, 1}));
    plain.fast_walk = fast;
    KernelConfig walked = plain;
    walked.dynamic_walk = walked.walk_n = true;
    LaunchKnobs knobs;  // unsplit, persistent
    knobs.group_m = kGroup;
    CounterRun run;
    run_from_counter(*ctx, plain, walked, knobs, Problem{s, Layout::tn, Accum::f32}, buf, kSkipped, run);
    if (HasFatalFailure()) return;
    ASSERT_LT(int(run.clusters + kSkipped), kTilesM * kTilesN) << run.detail;
    std::vector<char> skipped(size_t(s.M * s.N), 0);
    for (int t = int(run.clusters); t < int(run.clusters + kSkipped); ++t) {
      int tile_m = -1, tile_n = -1;
      sm90::walk_along_n(t, kTilesM, kTilesN, kGroup, tile_m, tile_n);
      for (int64_t r = tile_m * 256; r < std::min<int64_t>(s.M, (tile_m + 1) * 256); ++r)
        for (int64_t c = tile_n * 128; c < std::min<int64_t>(s.N, (tile_n + 1) * 128); ++c) skipped[size_t(r * s.N + c)] = 1;
    }
    size_t in_skipped = 0, unwritten = 0, wrong = 0;
    for (size_t i = 0; i < run.got.size(); ++i) {
      in_skipped += skipped[i];
      unwritten += run.got[i] == 0xFFFF;
      if (!skipped[i]) wrong += run.got[i] != run.want[i];
    }
    EXPECT_EQ(unwritten, in_skipped) << run.detail << ": not the tiles the walk along N skips there";
    EXPECT_EQ(wrong, 0u) << run.detail << ": an element outside the skipped tiles differs";
    EXPECT_EQ(run.counter_after, 0u) << run.detail << ": the launch's last take did not reset the counter";
    EXPECT_EQ(run.next, run.want) << run.detail << ": the next launch differs from the default walk's";
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
