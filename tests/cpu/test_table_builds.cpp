// The kernels a dispatch table serves, as builds to compile ahead (`gemmforge kernels --table`):
// each distinct build once, an entry marked specialized built for its own shape, none for
// cuBLASLt entries, and exactly the requests the runtime compiles, so that once they are compiled
// the runtime's own request for a table entry finds its cubin in the cache.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>

#include "jit/compile_pool.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table_builds.hpp"
#include "sample_candidates.hpp"

namespace gemmforge {
namespace {

const TableExpectation kHere{"NVIDIA H200", "sm_90a", "abc123"};

KernelConfig hopper(int block_n) {
  KernelConfig c;  // tn, f32
  c.block_m = 64, c.block_n = block_n, c.consumers = 1, c.stages = 4;
  return c;
}

nlohmann::json table_json() {
  const Sm80Config tiny = testing::small_sm80_config(32, 2);
  const auto entry = [](int m, int n, int k, const nlohmann::json& config) {
    return nlohmann::json{{"M", m}, {"N", n}, {"K", k}, {"layout", "tn"}, {"acc", "f32"}, {"config", config}};
  };
  nlohmann::json e = nlohmann::json::array();
  e.push_back(entry(1024, 1024, 1024, hopper(64).to_json()));
  e.push_back(entry(2048, 1024, 1024, hopper(64).to_json()));  // the same build
  auto special = entry(512, 512, 1024, hopper(64).to_json());
  special["specialized"] = true;  // its own build, for 512x512x1024
  e.push_back(special);
  auto tiny_entry = entry(64, 64, 128, tiny.to_json());
  tiny_entry["specialized"] = true;
  e.push_back(tiny_entry);
  e.push_back(entry(4096, 4096, 4096, "cublaslt"));  // no kernel
  auto with_fastest = entry(8192, 8192, 8192, "cublaslt");  // no kernel served, but its fastest is built
  with_fastest["fastest_kernel"] = hopper(192).name();
  with_fastest["fastest_speedup"] = 0.97;
  e.push_back(with_fastest);
  nlohmann::json rules = nlohmann::json::array();
  rules.push_back({{"class", "mid"}, {"layout", "tn"}, {"config", hopper(64).to_json()}});  // already listed
  rules.push_back({{"class", "large"}, {"layout", "tn"}, {"config", hopper(128).to_json()}});
  return {{"schema", kTableSchema}, {"gpu", kHere.gpu}, {"arch", kHere.arch},
          {"kernel_source_hash", kHere.kernel_source_hash}, {"entries", e}, {"rules", rules}};
}

TEST(TableBuilds, EachDistinctBuildOnceSpecializedOnesForTheirShapeNoneForCublasLt) {
  const Table t = table_from_json(table_json(), kHere);
  const auto builds = table_builds(t, "sm_80");
  std::vector<std::string> names;
  for (const auto& b : builds) names.push_back(b.kernel.build_name());
  const Sm80Config tiny = testing::small_sm80_config(32, 2);
  const std::vector<std::string> want = {
      tiny.name() + "_at64x64x128", hopper(64).name() + "_at512x512x1024", hopper(64).name(), hopper(192).name(),
      hopper(128).name()};
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), std::set<std::string>(want.begin(), want.end()));
  EXPECT_EQ(names.size(), want.size());
  // Exactly what the runtime compiles for these entries (runtime/handle.cpp's requests).
  for (const auto& b : builds) {
    const jit::CompileRequest runtime = b.kernel.sm80_config()
                                            ? compile_request(*b.kernel.sm80_config(), "sm_80", b.kernel.built_for)
                                            : compile_request(*b.kernel.hopper(), b.kernel.built_for);
    EXPECT_EQ(b.request.source, runtime.source) << b.kernel.build_name();
    EXPECT_EQ(b.request.arch, runtime.arch) << b.kernel.build_name();
    EXPECT_EQ(b.request.include_dirs, runtime.include_dirs) << b.kernel.build_name();
  }
}

TEST(TableBuilds, OnceCompiledTheRuntimesRequestIsACacheHit) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gemmforge_table_builds_test_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  {
    jit::KernelCache cache(dir);
    auto j = table_json();
    j["entries"] = nlohmann::json::array({j["entries"][3]});  // the sm80 build for 64x64x128: quick to compile
    j["rules"] = nlohmann::json::array();
    const auto builds = table_builds(table_from_json(j, kHere), "sm_90a");
    ASSERT_EQ(builds.size(), 1u);
    jit::CompilePool pool(1, &cache);
    const auto results = pool.compile_all({builds[0].request});
    ASSERT_TRUE(results.at(0).ok) << results[0].log;
    EXPECT_FALSE(results[0].from_cache);
    const jit::CompileResult again = jit::compile_cached(
        compile_request(testing::small_sm80_config(32, 2), "sm_90a", Shape{64, 64, 128}), cache);
    EXPECT_TRUE(again.ok);
    EXPECT_TRUE(again.from_cache);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge
