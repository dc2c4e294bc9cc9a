// JIT shape specialization (src/core/shape_constants.hpp): what the wrapper passes to the kernel
// body, how a specialized kernel is named and what it refuses, and NVRTC builds of specialized
// kernels of both families. No GPU needed.
#include <gtest/gtest.h>

#include <iterator>
#include <regex>

#include "core/kernel_config.hpp"
#include "core/sm80_config.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "sass.hpp"

namespace gemmforge {
namespace {

jit::CompileRequest request(std::string name, std::string source, std::string arch) {
  jit::CompileRequest r;
  r.name = std::move(name);
  r.source = std::move(source);
  r.arch = std::move(arch);
  r.include_dirs = {std::string(GEMMFORGE_SOURCE_DIR) + "/kernels"};
  return r;
}

// SASS instructions of a cubin's kernels (lines like "/*1a40*/  IMAD ... ;").
size_t instruction_count(const std::string& sass) {
  static const std::regex kInstruction(R"(/\*[0-9a-f]{4,}\*/\s+[A-Z@])");
  return size_t(std::distance(std::sregex_iterator(sass.begin(), sass.end(), kInstruction), std::sregex_iterator()));
}

TEST(ShapeConstants, TheWrapperPassesConstantsOrItsOwnParameters) {
  EXPECT_EQ(kernel_dimension_arguments(std::nullopt), "M, N, K");
  EXPECT_EQ(kernel_dimension_arguments(Shape{77, 4096, 72}), "77, 4096, 72");
  // Swap-AB computes Cᵀ: the kernel's M is the caller's N.
  EXPECT_EQ(kernel_dimension_arguments(Shape{77, 4096, 72}, true), "4096, 77, 72");
  EXPECT_THROW(kernel_dimension_arguments(Shape{0, 64, 64}), Error);
  EXPECT_THROW(kernel_dimension_arguments(Shape{64, int64_t(1) << 31, 64}), Error);
}

TEST(ShapeConstants, ASpecializedKernelIsNamedForItsShapeAndRefusesOthers) {
  EXPECT_EQ(specialization_suffix(std::nullopt), "");
  EXPECT_EQ(specialization_suffix(Shape{64, 128, 512}), "_at64x128x512");
  EXPECT_EQ(why_not_specialized_for(std::nullopt, Shape{1, 2, 3}), "");
  EXPECT_EQ(why_not_specialized_for(Shape{1, 2, 3}, Shape{1, 2, 3}), "");
  const std::string why = why_not_specialized_for(Shape{64, 64, 64}, Shape{64, 64, 128});
  EXPECT_NE(why.find("compiled for 64x64x64 only"), std::string::npos) << why;
}

TEST(ShapeConstants, SourcesCarryTheConstantsAndOnlyThem) {
  KernelConfig h;  // the Hopper default: tn, f32
  ASSERT_TRUE(is_valid(h)) << validity_problems(h)[0];
  const std::string generic = jit_source(h), fixed = jit_source(h, Shape{256, 512, 1024});
  EXPECT_NE(generic.find("hgemm_body<Traits>(a, b, c, C, M, N, K,"), std::string::npos) << generic;
  EXPECT_NE(fixed.find("hgemm_body<Traits>(a, b, c, C, 256, 512, 1024,"), std::string::npos) << fixed;
  EXPECT_NE(fixed.find(h.name() + "_at256x512x1024"), std::string::npos);
  // The launch signature is the same, so the host launches either build alike.
  auto signature = [](const std::string& s) { return s.substr(s.find("extern \"C\""), s.find(") {") - s.find("extern \"C\"")); };
  EXPECT_EQ(signature(generic), signature(fixed));

  Sm80Config s;
  const std::string fixed80 = sm80_jit_source(s, Shape{64, 64, 64});
  EXPECT_NE(fixed80.find("hgemm_body<Traits>(A, B, C, 64, 64, 64)"), std::string::npos) << fixed80;
  EXPECT_EQ(signature(sm80_jit_source(s)), signature(fixed80));
}

// Both families build for their shape without spills, and the constants shrink the code (fewer
// SASS instructions than the generic build); whether that is worth a compile per shape is the
// bench's question.
TEST(ShapeConstants, SpecializedBuildsOfBothFamiliesCompile) {
  Sm80Config s80;
  s80.block_m = 32, s80.block_n = 64, s80.warps_m = 1, s80.warps_n = 2;
  ASSERT_TRUE(s80.valid()) << s80.validity_problems()[0];
  KernelConfig h;
  h.block_m = 64, h.block_n = 64, h.consumers = 1, h.stages = 4;
  ASSERT_TRUE(is_valid(h)) << validity_problems(h)[0];
  const Shape tiny{64, 128, 64};
  struct Case {
    jit::CompileRequest generic, fixed;
  };
  // The same request name for both builds: only the source differs.
  const std::vector<Case> cases = {
      {request("sm80 sm_80", sm80_jit_source(s80), "sm_80"), request("sm80 sm_80", sm80_jit_source(s80, tiny), "sm_80")},
      {request("sm80 sm_90a", sm80_jit_source(s80), "sm_90a"), request("sm80 sm_90a", sm80_jit_source(s80, tiny), "sm_90a")},
      {request("sm90 sm_90a", jit_source(h), "sm_90a"), request("sm90 sm_90a", jit_source(h, tiny), "sm_90a")},
  };
  for (const auto& c : cases) {
    const auto g = jit::compile(c.generic), f = jit::compile(c.fixed);
    ASSERT_TRUE(g.ok) << g.log;
    ASSERT_TRUE(f.ok) << f.log;
    EXPECT_EQ(f.spill_bytes, 0) << c.fixed.name << "\n" << f.log;
    if (!testing::can_disassemble()) continue;  // the instruction check needs cuobjdump (CI has it)
    const std::string generic_sass = testing::sass_of(g.cubin, "shape_generic"),
                      fixed_sass = testing::sass_of(f.cubin, "shape_fixed");
    const size_t gi = instruction_count(generic_sass), fi = instruction_count(fixed_sass);
    EXPECT_GT(fi, 0u) << c.fixed.name;
    // Folded index arithmetic and loop control: fewer instructions, not just different ones.
    EXPECT_LT(fi, gi) << c.fixed.name << ": the constants did not shrink the kernel";
    std::printf("  %-12s %5zu SASS instructions generic, %5zu specialized for %s; %d / %d registers\n",
                c.fixed.name.c_str(), gi, fi, to_string(tiny).c_str(), g.registers, f.registers);
  }
}

}  // namespace
}  // namespace gemmforge
