// The sm80 kernel family (mma.sync + cp.async, kernels/sm80/): its config rules, names and
// space, and NVRTC compiles of a seeded sample for both architectures it runs as — sm_80 (A100)
// and sm_90a (H100/H200) — with no spills. No GPU needed.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/sm80_config.hpp"
#include "jit/compile_pool.hpp"
#include "sass.hpp"

namespace gemmforge {
namespace {

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

jit::CompileRequest request(const Sm80Config& c, const std::string& arch) {
  jit::CompileRequest r;
  r.name = c.name() + " " + arch;
  r.source = sm80_jit_source(c);
  r.arch = arch;
  r.include_dirs = {std::string(GEMMFORGE_SOURCE_DIR) + "/kernels"};
  return r;
}

std::vector<Sm80Config> whole_space() {
  std::vector<Sm80Config> space;
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16}) {
      const auto part = sm80_config_space(l, a);
      space.insert(space.end(), part.begin(), part.end());
    }
  return space;
}


TEST(Sm80Config, TheDefaultIsValid) { EXPECT_TRUE(Sm80Config{}.valid()) << Sm80Config{}.validity_problems()[0]; }

TEST(Sm80Config, RulesRejectWithAReason) {
  Sm80Config c;
  c.block_k = 48;
  EXPECT_TRUE(mentions(c.validity_problems(), "block_k must be 32, 64 or 128"));
  c = {};
  c.block_m = 40;
  EXPECT_TRUE(mentions(c.validity_problems(), "steps of 16"));
  c = {};
  c.block_n = 20;
  EXPECT_TRUE(mentions(c.validity_problems(), "steps of 8"));
  c = {};
  c.block_m = 32;
  c.warps_m = 4;  // 8-row warp tiles
  EXPECT_TRUE(mentions(c.validity_problems(), "multiple of 16x8"));
  c = {};
  c.warps_m = 3;
  EXPECT_TRUE(mentions(c.validity_problems(), "must divide"));
  c = {};
  c.warps_m = 4;
  c.warps_n = 4;
  EXPECT_TRUE(mentions(c.validity_problems(), "1 to 8 warps"));
  c = {};
  c.stages = 1;
  EXPECT_TRUE(mentions(c.validity_problems(), "pipeline stages"));
  c = {};
  c.vec16 = false;  // the default has 3 stages
  EXPECT_TRUE(mentions(c.validity_problems(), "scalar"));
  c.stages = 2;
  EXPECT_TRUE(c.valid());
  c = {};
  c.block_m = c.block_n = 256;
  c.block_k = 128;
  c.warps_m = 2;
  c.warps_n = 4;
  c.stages = 2;  // 2 × 512 rows × 256 bytes
  EXPECT_TRUE(mentions(c.validity_problems(), "shared memory"));
  c = {};
  c.block_m = c.block_n = 128;
  c.warps_m = c.warps_n = 1;  // 512 f32 accumulators per thread
  EXPECT_TRUE(mentions(c.validity_problems(), "registers"));
  c = {};
  c.layout = Layout::nn;
  c.block_n = 48;
  c.warps_n = 1;
  EXPECT_TRUE(mentions(c.validity_problems(), "power of two"));
  c.layout = Layout::tn;
  EXPECT_TRUE(c.valid()) << c.validity_problems()[0];
}

TEST(Sm80Config, NamesAndJsonRoundTrip) {
  EXPECT_EQ(Sm80Config{}.name(), "sm80_tn_f32_64x64x32_w2x2_s3_v16");
  std::set<std::string> names;
  for (const auto& c : whole_space()) {
    EXPECT_EQ(Sm80Config::from_name(c.name()), c) << c.name();
    EXPECT_EQ(Sm80Config::from_json(c.to_json()), c) << c.name();
    EXPECT_TRUE(is_sm80_config_json(c.to_json()));
    EXPECT_TRUE(is_sm80_config_json(nlohmann::json(c.name())));
    names.insert(c.name());
  }
  EXPECT_EQ(names.size(), whole_space().size()) << "two configs share a name";
  // A name alone (bare, or as an object's "name") is a config too.
  const std::string n = "sm80_nn_f16_32x128x64_w1x4_s2_v2";
  EXPECT_EQ(Sm80Config::from_json(nlohmann::json(n)).name(), n);
  EXPECT_EQ(Sm80Config::from_json(nlohmann::json{{"name", n}}).name(), n);
  EXPECT_FALSE(is_sm80_config_json(nlohmann::json{{"family", "sm90"}, {"block_m", 128}}));
  EXPECT_FALSE(is_sm80_config_json(nlohmann::json("sm90_tn_f32_128x128x64_s4_c2_coop_1x1")));
}

TEST(Sm80Config, BadNamesAndJsonSayWhatIsWrong) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { Sm80Config::from_name("sm90_tn_f32_64x64x32_w2x2_s3_v16"); }).find("expected sm80_"),
            std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tn_f32_64x64_w2x2_s3_v16"); }).find("tile '64x64'"), std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tn_f32_64x64x32_w2_s3_v16"); }).find("warps '2'"), std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tn_f32_64x64x32_w2x2_3_v16"); }).find("'3' is not s<stages>"),
            std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tn_f32_64x64x32_w2x2_s3_v8"); }).find("'v8'"), std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tt_f32_64x64x32_w2x2_s3_v16"); }).find("tt"), std::string::npos);
  EXPECT_NE(message([] { Sm80Config::from_name("sm80_tn_f32_064x64x32_w2x2_s3_v16"); }).find("reads back"),
            std::string::npos);
  auto j = Sm80Config{}.to_json();
  j.erase("warps_n");
  EXPECT_NE(message([&] { Sm80Config::from_json(j); }).find("warps_n"), std::string::npos);
  j = Sm80Config{}.to_json();
  j["family"] = "sm90";
  EXPECT_NE(message([&] { Sm80Config::from_json(j); }).find("family"), std::string::npos);
}

TEST(Sm80Config, TheSpaceIsValidOrderedAndAFewHundredPerLayoutAndAccumulator) {
  for (Layout l : {Layout::tn, Layout::nn})
    for (Accum a : {Accum::f32, Accum::f16}) {
      const auto space = sm80_config_space(l, a);
      EXPECT_GE(space.size(), 200u);
      EXPECT_LE(space.size(), 600u);
      EXPECT_EQ(space, sm80_config_space(l, a)) << "the order must be fixed";
      for (const auto& c : space) {
        EXPECT_TRUE(c.valid()) << c.name();
        EXPECT_EQ(c.layout, l);
        EXPECT_EQ(c.acc, a);
      }
    }
  Sm80Config bad;
  bad.block_k = 48;
  EXPECT_THROW(sm80_jit_source(bad), Error);
}

TEST(Sm80Compile, ACoveringSampleCompilesForSm80AndSm90aWithoutSpills) {
  const auto space = whole_space();
  const auto sample = sm80_covering_sample(space, 24, 20261130);
  ASSERT_GE(sample.size(), 24u);
  // Every value of every knob that the space has, both layouts and accumulators, both load paths.
  std::map<std::string, std::set<std::string>> in_space, in_sample;
  auto note = [](std::map<std::string, std::set<std::string>>& m, const Sm80Config& c) {
    m["layout"].insert(to_string(c.layout));
    m["acc"].insert(to_string(c.acc));
    m["bm"].insert(std::to_string(c.block_m));
    m["bn"].insert(std::to_string(c.block_n));
    m["bk"].insert(std::to_string(c.block_k));
    m["warps"].insert(std::to_string(c.warps_m) + "x" + std::to_string(c.warps_n));
    m["stages"].insert(std::to_string(c.stages));
    m["vec16"].insert(c.vec16 ? "1" : "0");
  };
  for (const auto& c : space) note(in_space, c);
  for (const auto& c : sample) note(in_sample, c);
  EXPECT_EQ(in_sample, in_space);

  std::vector<jit::CompileRequest> reqs;
  for (const char* arch : {"sm_80", "sm_90a"})
    for (const auto& c : sample) reqs.push_back(request(c, arch));
  jit::CompilePool pool;  // no disk cache: CI must really compile
  const auto start = std::chrono::steady_clock::now();
  const auto results = pool.compile_all(reqs);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double total = 0;
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    EXPECT_TRUE(r.ok) << reqs[i].name << "\n" << r.log;
    EXPECT_EQ(r.spill_bytes, 0) << reqs[i].name << ": local-memory spills\n" << r.log;
    EXPECT_GT(r.registers, 0) << reqs[i].name;
    total += r.seconds;
    // Registers and spills per config in the test log, to follow them across toolkit versions.
    std::printf("  %-44s %5.2f s  %3d registers  %d bytes spilled\n", reqs[i].name.c_str(), r.seconds, r.registers,
                r.spill_bytes);
  }
  std::printf("  %zu compiles, %.1f s of compile time, %.1f s wall on %u threads\n", results.size(), total, wall,
              pool.threads());
}

TEST(Sm80Compile, SassHasMmaSyncLdmatrixAndAsyncCopies) {
  if (!testing::can_disassemble()) GTEST_SKIP() << "cuobjdump not on PATH: cannot disassemble here";
  Sm80Config f32;  // tn, vec16
  Sm80Config f16_nn;
  f16_nn.layout = Layout::nn;
  f16_nn.acc = Accum::f16;
  f16_nn.block_n = 32;  // 8-column warp tiles: B goes through ldmatrix.x2.trans alone
  f16_nn.warps_n = 4;
  Sm80Config scalar;
  scalar.vec16 = false;
  scalar.stages = 2;
  scalar.warps_n = 1;
  scalar.block_n = 8 * 5;  // five mma columns per warp: ldmatrix.x4 pairs and one x2
  for (const auto& [c, arch] : std::vector<std::pair<Sm80Config, std::string>>{
           {f32, "sm_90a"}, {f16_nn, "sm_80"}, {scalar, "sm_90a"}, {scalar, "sm_80"}}) {
    ASSERT_TRUE(c.valid()) << c.name() << ": " << c.validity_problems()[0];
    const auto r = jit::compile(request(c, arch));
    ASSERT_TRUE(r.ok) << r.log;
    const std::string sass = testing::sass_of(r.cubin, c.name() + "_" + arch);
    const std::string what = c.name() + " for " + arch;
    EXPECT_NE(sass.find(c.acc == Accum::f32 ? "HMMA.16816.F32" : "HMMA.16816.F16"), std::string::npos)
        << what << "\n" << sass.substr(0, 3000);
    EXPECT_NE(sass.find(c.layout == Layout::nn ? "LDSM.16.MT88" : "LDSM.16.M88"), std::string::npos) << what;
    if (c.vec16) {
      EXPECT_NE(sass.find("LDGSTS.E.BYPASS.128"), std::string::npos) << "no 16-byte cp.async in " << what;
    } else {
      EXPECT_EQ(sass.find("LDGSTS"), std::string::npos) << "cp.async in the scalar path of " << what;
      EXPECT_NE(sass.find("LDG.E.U16"), std::string::npos) << "no 2-byte loads in " << what;
    }
    EXPECT_EQ(sass.find("LDL"), std::string::npos) << "local memory in " << what;
  }
}

}  // namespace
}  // namespace gemmforge
