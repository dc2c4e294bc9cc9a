// Every Hopper kernel configuration must compile through NVRTC for sm_90a — no GPU needed. CI
// compiles a seeded sample of 100 that covers every value of every knob; the GPU round compiles
// the whole space (`gemmforge kernels --compile`).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/kernel_config.hpp"
#include "core/shape.hpp"
#include "jit/code_fingerprint.hpp"
#include "jit/compile_pool.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "jit/ptxas_info.hpp"
#include "sass.hpp"

namespace gemmforge {
namespace {

jit::CompileRequest request(const KernelConfig& c) {
  jit::CompileRequest r;
  r.name = c.name();
  r.source = jit_source(c);
  r.include_dirs = {std::string(GEMMFORGE_SOURCE_DIR) + "/kernels"};
  return r;
}

std::vector<KernelConfig> whole_space() {
  std::vector<KernelConfig> space;
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16}) {
      const auto part = config_space(l, a);
      space.insert(space.end(), part.begin(), part.end());
    }
  return space;
}


TEST(KernelCompile, ACoveringSampleCompilesForSm90aWithoutSpills) {
  const auto sample = covering_sample(whole_space(), 100, 20261129);
  ASSERT_GE(sample.size(), 100u);
  std::vector<jit::CompileRequest> reqs;
  for (const auto& c : sample) reqs.push_back(request(c));
  jit::CompilePool pool;  // no disk cache: CI must really compile
  const auto results = pool.compile_all(reqs);
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_TRUE(results[i].ok) << sample[i].name() << "\n" << results[i].log;
    EXPECT_EQ(results[i].spill_bytes, 0) << sample[i].name() << ": local-memory spills\n" << results[i].log;
    EXPECT_GT(results[i].registers, 0) << sample[i].name();
  }
}

// A copy of kernels/ with one file's text changed by `edit`.
std::filesystem::path edited_kernels(const std::string& tag, const std::string& file,
                                     const std::function<std::string(std::string)>& edit) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmforge_fingerprint_" + tag + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::copy(std::string(GEMMFORGE_SOURCE_DIR) + "/kernels", dir, std::filesystem::copy_options::recursive);
  std::ifstream in(dir / file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::ofstream(dir / file) << edit(text);
  return dir;
}

// What `gemmforge db carry` relies on: lines a build does not compile change its line table,
// not its code; a change in what it compiles changes its code.
TEST(KernelCompile, CodeFingerprintIgnoresLineNumbersAndFollowsTheCode) {
  KernelConfig c;
  c.block_m = c.block_n = 64;
  c.stages = 8;
  c.consumers = 1;
  const auto shifted = edited_kernels("shifted", "sm90/mainloop.cuh",
                                      [](std::string t) { return "// a comment that moves every line down\n" + t; });
  const auto changed = edited_kernels("changed", "sm90/pipeline.cuh", [](std::string t) {
    const std::string at = "mbarrier_wait(smem.empty(s), pos.phase ^ 1);";
    EXPECT_NE(t.find(at), std::string::npos);
    return t.replace(t.find(at), at.size(), at + " __nanosleep(1);");
  });
  auto build = [&](const std::string& dir) {
    auto r = request(c);
    r.include_dirs = {dir};
    return jit::compile(r);
  };
  const auto base = build(std::string(GEMMFORGE_SOURCE_DIR) + "/kernels");
  const auto moved = build(shifted.string());
  const auto other = build(changed.string());
  std::filesystem::remove_all(shifted);
  std::filesystem::remove_all(changed);
  ASSERT_TRUE(base.ok && moved.ok && other.ok) << base.log << moved.log << other.log;
  EXPECT_NE(base.cubin, moved.cubin) << "-lineinfo records the moved lines";
  EXPECT_EQ(jit::code_fingerprint(base.cubin), jit::code_fingerprint(moved.cubin));
  EXPECT_NE(jit::code_fingerprint(base.cubin), jit::code_fingerprint(other.cubin));
  EXPECT_EQ(jit::code_fingerprint(base.cubin).size(), 32u);
  EXPECT_THROW(jit::code_fingerprint(std::vector<char>(100, 'x')), Error);
  auto cut = base.cubin;
  cut.resize(cut.size() / 2);  // the section table is at the end
  EXPECT_THROW(jit::code_fingerprint(cut), Error);
}

// An optional knob (kernels/sm90/optional_knobs.cuh) builds a cubin of its own: the config
// without it generates the source it did before the knob existed (no line for `member`), so its
// code and the results the database keeps for it stay valid; the twin with it declares the member
// and compiles to other code. Both builds go to `plain` and `knobbed`.
void compile_knob_twins(const KernelConfig& plain_config, const KernelConfig& knobbed_config, const std::string& member,
                        jit::CompileResult& plain, jit::CompileResult& knobbed) {
  EXPECT_EQ(jit_source(plain_config).find(member), std::string::npos);
  EXPECT_NE(jit_source(knobbed_config).find("static constexpr bool " + member + " = true;"), std::string::npos);
  plain = jit::compile(request(plain_config));
  knobbed = jit::compile(request(knobbed_config));
  ASSERT_TRUE(plain.ok && knobbed.ok) << plain.log << knobbed.log;
  EXPECT_NE(jit::code_fingerprint(plain.cubin), jit::code_fingerprint(knobbed.cubin));
}

// A split tile's parts apart.
TEST(KernelCompile, PartsApartBuildsItsOwnCodeAndLeavesTheSourceOfOthersAsItWas) {
  KernelConfig c;
  c.block_m = c.block_n = 64;
  c.consumers = 1;
  KernelConfig apart = c;
  apart.parts_apart = true;
  jit::CompileResult base, spread;
  ASSERT_NO_FATAL_FAILURE(compile_knob_twins(c, apart, "kPartsApart", base, spread));
  if (testing::can_disassemble()) {
    EXPECT_NE(testing::sass_of(spread.cubin, apart.name()).find("HGMMA.64x64x16"), std::string::npos);
  }
}

// Pushed in-cluster sums, likewise a cubin of their own, with the st.async pushes (STAS) that the
// pulled sum does not have; the kernel's static_assert checks the host's shared-memory count
// (cluster_push_bytes) for each tile.
TEST(KernelCompile, ClusterPushBuildsItsOwnCodeAndLeavesTheSourceOfOthersAsItWas) {
  KernelConfig c;
  c.block_m = 64;
  c.block_n = 16;
  c.consumers = 1;
  KernelConfig pushed = c;
  pushed.cluster_push = true;
  jit::CompileResult base, push;
  ASSERT_NO_FATAL_FAILURE(compile_knob_twins(c, pushed, "kClusterPush", base, push));
  for (int bn : {32, 48, 64, 128}) {  // the host's and the kernel's shared memory agree
    KernelConfig wider = pushed;
    wider.block_n = bn;
    const auto r = jit::compile(request(wider));
    EXPECT_TRUE(r.ok) << wider.name() << "\n" << r.log;
  }
  if (testing::can_disassemble()) {
    EXPECT_NE(testing::sass_of(push.cubin, pushed.name()).find("STAS"), std::string::npos);
    EXPECT_EQ(testing::sass_of(base.cubin, c.name()).find("STAS"), std::string::npos);
  }
}

// Where a knob's build has fewer (-1) or more (+1) of an instruction than the build without it.
struct SassCountChange {
  std::string op;
  int direction;
};

// compile_knob_twins, then each instruction's count compared between the two disassemblies.
void expect_knob_sass_counts(const KernelConfig& plain_config, const KernelConfig& knobbed_config,
                             const std::string& member, const std::vector<SassCountChange>& changes) {
  jit::CompileResult plain, knobbed;
  ASSERT_NO_FATAL_FAILURE(compile_knob_twins(plain_config, knobbed_config, member, plain, knobbed));
  if (!testing::can_disassemble()) return;
  const auto a = testing::sass_of(plain.cubin, plain_config.name());
  const auto b = testing::sass_of(knobbed.cubin, knobbed_config.name());
  for (const auto& [op, direction] : changes) {
    const int before = testing::count_of(a, op), after = testing::count_of(b, op);
    if (direction < 0) EXPECT_LT(after, before) << op << " in " << knobbed_config.name();
    else EXPECT_GT(after, before) << op << " in " << knobbed_config.name();
  }
}

// Lean cluster sync, a cubin of its own: the set-up's cluster barrier arrives relaxed and the end
// has none, so the build loses the release barriers' GPU-scope memory fences (MEMBAR.ALL.GPU) and
// cluster arrivals (UCGABAR_ARV), and gains the producer's last waits on its ring.
TEST(KernelCompile, LeanClusterSyncBuildsItsOwnCodeWithoutReleaseBarriers) {
  const auto c = KernelConfig::from_name("sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc");
  KernelConfig lean = c;
  lean.lean_cluster_sync = true;
  expect_knob_sass_counts(c, lean, "kLeanClusterSync",
                          {{"MEMBAR.ALL.GPU", -1}, {"UCGABAR_ARV", -1}, {"SYNCS.PHASECHK", +1}});
}

// The fast walk, a cubin of its own: the walk's integer divisions (each starts with an I2F.RP in
// SASS) become multiply-highs, so the build has fewer; its divisors are made once per launch from
// float reciprocals refined through 64-bit conversions (F2I.S64), which the plain build has none of.
TEST(KernelCompile, FastWalkBuildsItsOwnCodeWithFewerDivisions) {
  const auto c = KernelConfig::from_name("sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore");
  KernelConfig fast = c;
  fast.fast_walk = true;
  expect_knob_sass_counts(c, fast, "kFastWalk", {{"I2F.RP", -1}, {"F2I.S64", +1}});
}

// The uniform warpgroup index, a cubin of its own: the wgmma descriptors are made in uniform
// registers (ULOP3) instead of vector ones moved into them before every wgmma (R2UR).
TEST(KernelCompile, UniformWarpgroupMakesTheDescriptorsInUniformRegisters) {
  const auto c = KernelConfig::from_name("sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_lean");
  KernelConfig uniform = c;
  uniform.uniform_warpgroup = true;
  expect_knob_sass_counts(c, uniform, "kUniformWarpgroup", {{"R2UR", -1}, {"ULOP3", +1}});
}

// The dynamic walk, a cubin of its own: its feed takes tiles with an atomic add on the workspace's
// counter and hands them to the cluster's CTAs through shared memory (ATOMG and STAS, which the
// plain build of an unsplit-capable config has fewer of: split-K's counters use ATOMG too).
TEST(KernelCompile, DynamicWalkTakesTilesFromACounter) {
  const auto c = KernelConfig::from_name("sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_lean");
  KernelConfig dynamic = c;
  dynamic.dynamic_walk = true;
  expect_knob_sass_counts(c, dynamic, "kDynamicWalk", {{"ATOMG", +1}, {"STAS", +1}});
}

// The walk along N, a cubin of its own on builds with and without the fast walk (and with the
// dynamic walk, whose fed tiles it places too), none spilling or using local memory.
TEST(KernelCompile, WalkAlongNBuildsItsOwnCodeWithoutLocalMemory) {
  const auto fast = KernelConfig::from_name("sm90_tn_f32_128x176x64_s5_c2_pingpong_2x1_mc_tmastore_fw_uw_lean");
  auto plain = fast;
  plain.fast_walk = false;
  auto fed = fast;
  fed.dynamic_walk = true;
  for (const auto& c : {fast, plain, fed}) {
    KernelConfig walked = c;
    walked.walk_n = true;
    jit::CompileResult before, after;
    ASSERT_NO_FATAL_FAILURE(compile_knob_twins(c, walked, "kWalkN", before, after));
    EXPECT_EQ(jit::parse_ptxas_info(after.log).spill_bytes, 0) << walked.name() << "\n" << after.log;
    if (testing::can_disassemble()) {
      EXPECT_EQ(testing::sass_of(after.cubin, walked.name()).find("LDL"), std::string::npos)
          << "local memory in " << walked.name();
    }
  }
}

// The fast walk's divisors are made before the grid-dependency wait (ACQBULK in SASS), where PDL
// overlaps them with the previous kernel's tail: after it they delayed every launch's first loads
// by ~0.25 µs (bench/NOTES.md, session 41).
TEST(KernelCompile, FastWalkMakesItsDivisorsBeforeTheGridDependencyWait) {
  if (!testing::can_disassemble()) GTEST_SKIP() << "cuobjdump not on PATH: cannot disassemble here";
  KernelConfig fast = KernelConfig::from_name("sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore");
  fast.fast_walk = true;
  const auto r = jit::compile(request(fast));
  ASSERT_TRUE(r.ok) << r.log;
  const std::string sass = testing::sass_of(r.cubin, fast.name());
  // The divisors' refinements (F2I.S64, which nothing else in the build has): all before the wait.
  const size_t last_divisor = sass.rfind("F2I.S64"), wait = sass.find("ACQBULK");
  ASSERT_NE(last_divisor, std::string::npos) << "no divisor refinement in " << fast.name();
  ASSERT_NE(wait, std::string::npos) << "no grid-dependency wait in " << fast.name();
  EXPECT_LT(last_divisor, wait) << fast.name();
}

TEST(KernelCompile, SassHasHopperMatrixInstructions) {
  if (!testing::can_disassemble()) GTEST_SKIP() << "cuobjdump not on PATH: cannot disassemble here";
  KernelConfig f32;
  KernelConfig f16;
  f16.acc = Accum::f16;
  f16.block_n = 256;
  KernelConfig nn;
  nn.layout = Layout::nn;
  nn.block_n = 192;
  KernelConfig cluster;  // 2x1 cluster with B multicast, TMA-store epilogue
  cluster.block_n = 256;
  cluster.stages = 3;
  cluster.cluster_m = 2;
  cluster.multicast = true;
  cluster.tma_store = true;
  KernelConfig pingpong;
  pingpong.mode = ConsumerMode::pingpong;
  pingpong.tma_store = true;
  KernelConfig square;  // 2x2 cluster: A multicast along its rows, B along its columns
  square.block_m = 64;
  square.block_n = 128;
  square.consumers = 1;
  square.stages = 6;
  square.cluster_m = 2;
  square.cluster_n = 2;
  square.multicast = true;
  KernelConfig eight = square;  // 4x2, N-major B cut in quarters along K
  eight.layout = Layout::nn;
  eight.cluster_m = 4;
  for (const auto& c : {f32, f16, nn, cluster, pingpong, square, eight}) {
    const auto r = jit::compile(request(c));
    ASSERT_TRUE(r.ok) << r.log;
    const std::string sass = testing::sass_of(r.cubin, c.name());
    EXPECT_NE(sass.find("HGMMA.64x" + std::to_string(c.block_n) + "x16"), std::string::npos) << c.name() << "\n" << sass.substr(0, 2000);
    EXPECT_NE(sass.find("UTMALDG"), std::string::npos) << "no TMA loads in " << c.name();
    EXPECT_EQ(sass.find("LDL"), std::string::npos) << "local memory in " << c.name();
    if (c.tma_store) {
      EXPECT_NE(sass.find("UTMASTG"), std::string::npos) << "no TMA stores in " << c.name();
    }
    if (c.multicast) {
      EXPECT_NE(sass.find(".MULTICAST"), std::string::npos) << "no multicast loads in " << c.name();
    }
    EXPECT_FALSE(jit::parse_ptxas_info(r.log).wgmma_serialized) << c.name() << ": ptxas serialised the wgmmas";
  }
}

// K-split consumers (ConsumerMode::ksplit): each of the two warpgroups issues its own wgmmas, the
// second hands its sums over behind named barrier 6 (full) and the first frees them with 7; both
// directions of both barriers are in the code, nothing goes to local memory, and the kernel's
// shared memory (ring, hand-over words, one warpgroup's epilogue buffers) is the host's (the
// generated source static_asserts it).
TEST(KernelCompile, KSplitConsumersHandOverTheirSumsBehindTwoNamedBarriers) {
  KernelConfig skinny;  // cuBLAS's skinny tiling: 64x32 in 1x2 clusters sharing A, 16 stages
  skinny.block_m = 64;
  skinny.block_n = 32;
  skinny.stages = 16;
  skinny.mode = ConsumerMode::ksplit;
  skinny.cluster_n = 2;
  skinny.multicast = true;
  KernelConfig stored = skinny;  // per-warp TMA stores of f16 sums, N-major B
  stored.cluster_n = 1;
  stored.multicast = false;
  stored.block_n = 64;
  stored.stages = 8;
  stored.acc = Accum::f16;
  stored.layout = Layout::nn;
  stored.tma_store = true;
  KernelConfig wide = stored;  // two wgmma tiles per warpgroup
  wide.acc = Accum::f32;
  wide.layout = Layout::tn;
  wide.block_m = 128;
  wide.block_n = 128;
  wide.stages = 4;
  for (const auto& c : {skinny, stored, wide}) {
    ASSERT_TRUE(is_valid(c)) << c.name() << ": " << validity_problems(c)[0];
    const auto r = jit::compile(request(c));
    ASSERT_TRUE(r.ok) << c.name() << "\n" << r.log;
    EXPECT_EQ(jit::parse_ptxas_info(r.log).spill_bytes, 0) << c.name();
    EXPECT_FALSE(jit::parse_ptxas_info(r.log).wgmma_serialized) << c.name();
    if (!testing::can_disassemble()) continue;  // the SASS half needs cuobjdump
    const std::string sass = testing::sass_of(r.cubin, c.name());
    EXPECT_NE(sass.find("HGMMA.64x" + std::to_string(c.block_n) + "x16"), std::string::npos) << c.name();
    EXPECT_EQ(sass.find("LDL"), std::string::npos) << "local memory in " << c.name();
    for (const char* bar : {"BAR.ARV 0x6, 0x100", "BAR.SYNC.DEFER_BLOCKING 0x6, 0x100", "BAR.ARV 0x7, 0x100",
                            "BAR.SYNC.DEFER_BLOCKING 0x7, 0x100"})
      EXPECT_NE(sass.find(bar), std::string::npos) << bar << " missing in " << c.name();
  }
  // gemmforge trace's builds of a k-split kernel (phase and k-block stamps) build too.
  auto traced = request(skinny);
  traced.extra_options = {"-DGEMMFORGE_TRACE", "-DGEMMFORGE_TRACE_KBLOCKS"};
  const auto t = jit::compile(traced);
  ASSERT_TRUE(t.ok) << t.log;
  EXPECT_EQ(jit::parse_ptxas_info(t.log).spill_bytes, 0) << t.log;
}

// The TMA-store epilogue stages a consumer's whole tile where it fits (more than two column blocks):
// the kernel's shared-memory size must be the host's (the generated source static_asserts it, so
// a compile is the check), and the whole-tile path waits for older stores once per tile, before
// any block is staged (DEPBAR SB0 down to 0), where the two-buffer path waits per block for all
// but the newest (down to 1).
TEST(KernelCompile, AWholeTileEpilogueAgreesWithTheHostAndWaitsOncePerTile) {
  KernelConfig whole;  // 128x256, 3 stages: 2 consumers x 4 blocks fit beside the stages
  whole.block_n = 256;
  whole.stages = 3;
  whole.tma_store = true;
  KernelConfig two_buffers = whole;  // 4 stages: they do not
  two_buffers.stages = 4;
  KernelConfig pingpong;  // 64x256 per consumer, 4 stages
  pingpong.mode = ConsumerMode::pingpong;
  pingpong.block_m = 64;
  pingpong.block_n = 256;
  pingpong.tma_store = true;
  ASSERT_EQ(whole.epilogue_buffers(), 4);
  ASSERT_EQ(two_buffers.epilogue_buffers(), 2);
  ASSERT_EQ(pingpong.epilogue_buffers(), 4);
  for (const auto& c : {whole, two_buffers, pingpong}) {
    const auto r = jit::compile(request(c));
    ASSERT_TRUE(r.ok) << c.name() << "\n" << r.log;
    EXPECT_EQ(jit::parse_ptxas_info(r.log).spill_bytes, 0) << c.name();
    if (!testing::can_disassemble()) continue;  // the SASS half needs cuobjdump
    const std::string sass = testing::sass_of(r.cubin, c.name());
    const bool waits_per_block = sass.find("DEPBAR.LE SB0, 0x1") != std::string::npos;
    EXPECT_EQ(waits_per_block, c.epilogue_buffers() == 2) << c.name();
  }
}

// Each warp of a lone consumer stores its own slices (kEpiPerWarp): its TMA-store epilogue adds
// no named barrier to the kernel, where two consumers' per-warpgroup stores add theirs.
TEST(KernelCompile, ALoneConsumersEpilogueStoresWithoutNamedBarriers) {
  KernelConfig lone;  // 64x64, one consumer, 8 stages
  lone.block_m = 64;
  lone.block_n = 64;
  lone.consumers = 1;
  lone.stages = 8;
  KernelConfig pair;  // 128x128, two cooperative consumers
  lone.tma_store = pair.tma_store = true;
  for (const KernelConfig& c : {lone, pair}) {
    ASSERT_EQ(c.epilogue_buffers(), 2) << c.name();
    ASSERT_EQ(c.epilogue_store_rows(), c.consumers == 1 ? 16 : c.wg_rows()) << c.name();
  }
  if (!testing::can_disassemble()) GTEST_SKIP() << "needs cuobjdump for the SASS";
  for (const KernelConfig& c : {lone, pair}) {
    const bool per_warp = c.consumers == 1;
    auto barriers = [](const KernelConfig& k) {
      const auto r = jit::compile(request(k));
      EXPECT_TRUE(r.ok) << k.name() << "\n" << r.log;
      const std::string sass = testing::sass_of(r.cubin, k.name());
      size_t n = 0;
      for (size_t at = sass.find("BAR.SYNC"); at != std::string::npos; at = sass.find("BAR.SYNC", at + 1)) ++n;
      return n;
    };
    KernelConfig direct = c;  // the same kernel storing from registers: no epilogue barriers
    direct.tma_store = false;
    if (per_warp) EXPECT_EQ(barriers(c), barriers(direct)) << c.name();
    else EXPECT_GT(barriers(c), barriers(direct)) << c.name();
  }
}

TEST(KernelCompile, InvalidConfigsNeverReachTheCompiler) {
  KernelConfig c;
  c.block_n = 264;
  EXPECT_THROW(jit_source(c), Error);
}

}  // namespace
}  // namespace gemmforge
