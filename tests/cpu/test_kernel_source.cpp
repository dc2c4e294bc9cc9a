// Compile-ahead with NVRTC on CPU: kernels of both families and builds for one shape compile to
// distinct cache entries, launch variants share one, and an sm80 kernel without an architecture
// is a failed build that says why.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "sample_candidates.hpp"
#include "tune/kernel_source.hpp"

namespace gemmforge::tune {
namespace {

struct TempCache {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("gemmforge_kernel_source_test_" + std::to_string(getpid()));
  TempCache() { std::filesystem::remove_all(dir); }
  ~TempCache() { std::filesystem::remove_all(dir); }
};

Sm80Config small_sm80() { return gemmforge::testing::small_sm80_config(32, 2); }

TEST(CompileAhead, BuildsEitherFamilyAndShapeBuildsUnderTheirOwnKeys) {
  TempCache t;
  jit::KernelCache cache(t.dir);
  CompileAhead source(cache, 2);
  const KernelCandidate sm80 = sm80_candidate(small_sm80());
  const CompiledConfig no_arch = source.get(sm80);
  EXPECT_FALSE(no_arch.ok);
  EXPECT_NE(no_arch.why.find("no architecture"), std::string::npos) << no_arch.why;

  CompileAhead with_arch(cache, 2);
  with_arch.set_sm80_arch("sm_90a");
  const CompiledConfig generic = with_arch.get(sm80);
  const CompiledConfig built = with_arch.get(sm80.specialized_for({64, 64, 128}));
  ASSERT_TRUE(generic.ok) << generic.why;
  ASSERT_TRUE(built.ok) << built.why;
  EXPECT_NE(generic.cubin_key, built.cubin_key);

  KernelCandidate hopper;
  hopper.config.block_m = 64;
  hopper.config.block_n = 64;
  hopper.config.consumers = 1;
  hopper.config.stages = 2;
  KernelCandidate split = hopper;
  split.knobs.splits = 4;
  const CompiledConfig h = with_arch.get(hopper);
  ASSERT_TRUE(h.ok) << h.why;
  EXPECT_EQ(with_arch.get(split).cubin_key, h.cubin_key);  // launch knobs do not change the cubin
  EXPECT_NE(h.cubin_key, generic.cubin_key);
}

}  // namespace
}  // namespace gemmforge::tune
