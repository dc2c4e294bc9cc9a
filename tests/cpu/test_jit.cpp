// The JIT layer on a machine without a GPU: NVRTC needs no driver, so everything up to the
// cubin (compiling, the cache, the pool) is tested here. Each NVRTC compile costs 0.1-0.5 s,
// so the tests share a handful of small kernels.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include <unistd.h>

#include "gemmforge/types.hpp"
#include "jit/cache_key.hpp"
#include "jit/compile_pool.hpp"
#include "jit/driver_api.hpp"
#include "jit/hash.hpp"
#include "jit/kernel_cache.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "jit/ptxas_info.hpp"
#include "scoped_env.hpp"

namespace gemmforge::jit {
namespace {

namespace fs = std::filesystem;

const char* const kAddOne = R"(extern "C" __global__ void add_one(float* p) { p[threadIdx.x] += 1.f; })";

// One warpgroup MMA. The descriptors come from kernel parameters: NVRTC has crashed on a kernel
// whose descriptors were compile-time zeros (design.md).
const char* const kWgmma = R"(
extern "C" __global__ void wgmma_probe(unsigned long long desc_a, unsigned long long desc_b, float* out) {
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(desc_a), "l"(desc_b), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(0) : "memory");
  float* o = out + 4 * threadIdx.x;
  o[0] = d0; o[1] = d1; o[2] = d2; o[3] = d3;
}
)";

CompileRequest request(std::string name, std::string source, std::string arch = "sm_90a") {
  CompileRequest r;
  r.name = std::move(name);
  r.source = std::move(source);
  r.arch = std::move(arch);
  return r;
}

bool has_elf_magic(const std::vector<char>& b) {
  return b.size() >= 4 && b[0] == '\x7f' && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> n{0};
    path_ = fs::temp_directory_path() /
            ("gemmforge_test_jit_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_text(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

TEST(JitHash, Is32HexDigitsDeterministicAndLengthPrefixed) {
  const std::string h = hash128_hex("hgemm");
  EXPECT_EQ(h.size(), 32u);
  EXPECT_EQ(h.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(h, hash128_hex("hgemm"));
  EXPECT_NE(h, hash128_hex("hgemn"));
  EXPECT_NE(hash128_hex(""), Hasher().hex());  // an empty piece is still a piece
  EXPECT_NE(Hasher().add("ab").add("c").hex(), Hasher().add("a").add("bc").hex());
  // Both halves change when one input bit does.
  const std::string g = hash128_hex("hgemM");
  EXPECT_NE(h.substr(0, 16), g.substr(0, 16));
  EXPECT_NE(h.substr(16), g.substr(16));
}

TEST(JitPtxasInfo, ReadsRegistersSpillsAndSharedMemory) {
  const char* log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas info    : Function properties for k\n"
      "ptxas         .     0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 1024 bytes smem\n"
      "ptxas info    : Function properties for helper\n"
      "ptxas         .     0 bytes stack frame, 4 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers\n";
  const PtxasInfo info = parse_ptxas_info(log);
  EXPECT_EQ(info.registers, 168);
  EXPECT_EQ(info.spill_bytes, 24);
  EXPECT_EQ(info.shared_bytes, 1024);

  const PtxasInfo none = parse_ptxas_info("gemmforge_jit.cu(1): error: expected a \";\"\n");
  EXPECT_EQ(none.registers, -1);
  EXPECT_EQ(none.spill_bytes, -1);
  EXPECT_EQ(none.shared_bytes, -1);
}

TEST(JitCompile, TinyKernelBuildsForSm90aAndSm80) {
  for (const char* arch : {"sm_90a", "sm_80"}) {
    SCOPED_TRACE(arch);
    const CompileResult r = compile(request("add_one", kAddOne, arch));
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(has_elf_magic(r.cubin));
    EXPECT_GE(r.registers, 0) << r.log;
    EXPECT_EQ(r.spill_bytes, 0) << r.log;
    EXPECT_EQ(r.key.size(), 32u);
    EXPECT_FALSE(r.from_cache);
    EXPECT_GT(r.seconds, 0);
  }
}

TEST(JitCompile, WgmmaBuildsForSm90aAndFailsForSm80) {
  const CompileResult hopper = compile(request("wgmma_probe", kWgmma, "sm_90a"));
  ASSERT_TRUE(hopper.ok) << hopper.log;
  EXPECT_TRUE(has_elf_magic(hopper.cubin));
  EXPECT_GE(hopper.registers, 0);

  CompileResult ampere;
  ASSERT_NO_THROW(ampere = compile(request("wgmma_probe", kWgmma, "sm_80")));
  EXPECT_FALSE(ampere.ok);
  EXPECT_TRUE(ampere.cubin.empty());
  EXPECT_NE(ampere.log.find("wgmma"), std::string::npos) << ampere.log;
  EXPECT_NE(ampere.log.find("not supported on .target 'sm_80'"), std::string::npos) << ampere.log;
}

TEST(JitCompile, BadSourceOrOptionIsAResultNotAnException) {
  const CompileResult syntax = compile(request("broken", "extern \"C\" __global__ void k( { }"));
  EXPECT_FALSE(syntax.ok);
  EXPECT_TRUE(syntax.cubin.empty());
  EXPECT_NE(syntax.log.find("error"), std::string::npos) << syntax.log;

  CompileRequest bad_option = request("add_one", kAddOne);
  bad_option.extra_options = {"--no-such-option"};
  const CompileResult opt = compile(bad_option);
  EXPECT_FALSE(opt.ok);
  EXPECT_NE(opt.log.find("--no-such-option"), std::string::npos) << opt.log;

  // A virtual architecture compiles to PTX only: no cubin, so not ok, and the log says why.
  const CompileResult ptx_only = compile(request("add_one", kAddOne, "compute_90a"));
  EXPECT_FALSE(ptx_only.ok);
  EXPECT_NE(ptx_only.log.find("no SASS"), std::string::npos) << ptx_only.log;
}

TEST(JitCompile, OptionsAndVersion) {
  CompileRequest r = request("k", kAddOne, "sm_80");
  r.include_dirs = {"/opt/kernels"};
  r.extra_options = {"-DBM=128"};
  const std::vector<std::string> expected = {"--gpu-architecture=sm_80", "-std=c++20", "-default-device",
                                             "--ptxas-options=-v", "-lineinfo", "-I/opt/kernels", "-DBM=128"};
  EXPECT_EQ(compile_options(r), expected);
  const std::string v = nvrtc_version();
  EXPECT_EQ(v.find_first_not_of("0123456789."), std::string::npos) << v;
  EXPECT_NE(v.find('.'), std::string::npos) << v;
}

TEST(JitCacheKey, FollowsSourceOptionsArchAndHeadersButNotName) {
  TempDir a, b;
  write_text(a.path() / "tile.cuh", "#define TILE 64\n");
  write_text(b.path() / "tile.cuh", "#define TILE 128\n");
  fs::create_directories(a.path() / "sub");
  write_text(a.path() / "sub" / "notes.txt", "not a header");

  CompileRequest base = request("one name", kAddOne);
  base.include_dirs = {a.path().string()};
  const std::string key = cache_key(base);
  EXPECT_EQ(key.size(), 32u);
  EXPECT_EQ(key, cache_key(base));

  CompileRequest renamed = base;
  renamed.name = "another name";
  EXPECT_EQ(cache_key(renamed), key);

  CompileRequest source = base;
  source.source += "\n";
  EXPECT_NE(cache_key(source), key);

  CompileRequest option = base;
  option.extra_options = {"-DFOO=1"};
  EXPECT_NE(cache_key(option), key);

  CompileRequest arch = base;
  arch.arch = "sm_80";
  EXPECT_NE(cache_key(arch), key);

  // Same file names, different header text.
  EXPECT_NE(include_dirs_fingerprint({a.path().string()}), include_dirs_fingerprint({b.path().string()}));
  TempDir a2;
  write_text(a2.path() / "tile.cuh", "#define TILE 64\n");
  EXPECT_EQ(include_dirs_fingerprint({a.path().string()}), include_dirs_fingerprint({a2.path().string()}))
      << "only headers count, by their path inside the dir and their text";
}

TEST(JitKernelCache, DefaultDirFollowsTheEnvironment) {
  ScopedEnv home("HOME", "/home/u");
  {
    ScopedEnv own("GEMMFORGE_CACHE_DIR", "/tmp/gf");
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(KernelCache::default_dir(), fs::path("/tmp/gf"));
  }
  {
    ScopedEnv own("GEMMFORGE_CACHE_DIR", "");
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(KernelCache::default_dir(), fs::path("/xdg/gemmforge/kernels"));
  }
  {
    ScopedEnv own("GEMMFORGE_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(KernelCache::default_dir(), fs::path("/home/u/.cache/gemmforge/kernels"));
    ScopedEnv no_home("HOME", nullptr);
    EXPECT_THROW(KernelCache::default_dir(), Error);
  }
}

TEST(JitKernelCache, SecondCompileComesFromDiskWithTheSameBytes) {
  TempDir dir;
  const CompileRequest req = request("add_one cached", kAddOne);
  CompileResult first, second;
  {
    KernelCache cache(dir.path());
    first = compile_cached(req, cache);
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.from_cache);
    EXPECT_TRUE(fs::exists(cache.cubin_path(first.key)));
    EXPECT_TRUE(fs::exists(cache.json_path(first.key)));
  }
  KernelCache fresh(dir.path());  // as a later process would
  second = compile_cached(req, fresh);
  ASSERT_TRUE(second.ok);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.seconds, 0);
  EXPECT_EQ(second.key, first.key);
  EXPECT_EQ(second.cubin, first.cubin);
  EXPECT_EQ(second.registers, first.registers);
  EXPECT_EQ(second.spill_bytes, first.spill_bytes);
  EXPECT_EQ(second.log, first.log);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().extension(), ".tmp") << "left behind: " << entry.path();
}

TEST(JitKernelCache, DamagedEntriesAreMissesAndGetRewritten) {
  TempDir dir;
  KernelCache cache(dir.path());
  const CompileRequest req = request("add_one damaged", kAddOne);
  const CompileResult good = compile_cached(req, cache);
  ASSERT_TRUE(good.ok) << good.log;
  const fs::path cubin = cache.cubin_path(good.key), json = cache.json_path(good.key);

  // Damage that a recompile repairs.
  fs::resize_file(cubin, 0);
  EXPECT_FALSE(cache.load(good.key));
  CompileResult again = compile_cached(req, cache);
  EXPECT_TRUE(again.ok);
  EXPECT_FALSE(again.from_cache);
  EXPECT_EQ(fs::file_size(cubin), good.cubin.size());

  write_text(cubin, "garbage, not an ELF file");
  again = compile_cached(req, cache);
  EXPECT_TRUE(again.ok);
  EXPECT_FALSE(again.from_cache);
  ASSERT_TRUE(cache.load(good.key));
  EXPECT_EQ(cache.load(good.key)->cubin, good.cubin);

  // Damage the checks must see even though the file still looks plausible; store() repairs it
  // without another compile.
  std::vector<char> flipped = good.cubin;
  flipped[flipped.size() / 2] ^= 0x20;
  write_text(cubin, std::string(flipped.begin(), flipped.end()));
  EXPECT_FALSE(cache.load(good.key)) << "a changed byte after the ELF magic";
  cache.store(req, good);
  ASSERT_TRUE(cache.load(good.key));

  write_text(json, "{\"schema\": \"gemmforge.kernel-cache/1\", \"key\": ");
  EXPECT_FALSE(cache.load(good.key)) << "truncated json";
  fs::remove(json);
  EXPECT_FALSE(cache.load(good.key)) << "cubin without json";
  cache.store(req, good);
  EXPECT_TRUE(cache.load(good.key));
}

TEST(JitKernelCache, FailuresAreRememberedInMemoryOnly) {
  TempDir dir;
  const CompileRequest req = request("broken cached", "extern \"C\" __global__ void k( { }");
  KernelCache cache(dir.path());
  const CompileResult first = compile_cached(req, cache);
  EXPECT_FALSE(first.ok);
  EXPECT_FALSE(first.from_cache);
  const CompileResult second = compile_cached(req, cache);
  EXPECT_FALSE(second.ok);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.log, first.log);
  EXPECT_TRUE(fs::is_empty(dir.path())) << "failed compiles are not written to disk";
  EXPECT_FALSE(KernelCache(dir.path()).load(first.key)) << "a new process tries again";
}

TEST(JitKernelCache, UnwritableDirectoryIsAnError) {
  TempDir dir;
  write_text(dir.path() / "file", "x");
  EXPECT_THROW(KernelCache(dir.path() / "file" / "kernels"), Error);
}

TEST(JitCompilePool, CompileAllReturnsResultsInRequestOrder) {
  std::vector<CompileRequest> reqs;
  for (int i = 0; i < 6; ++i) {
    // Distinct sources and archs; the kernel name says which request a cubin came from.
    const std::string fn = "add_" + std::to_string(i);
    reqs.push_back(request(fn,
                           "extern \"C\" __global__ void " + fn + "(float* p) { p[threadIdx.x] += " +
                               std::to_string(i) + ".f; }",
                           i % 2 ? "sm_80" : "sm_90a"));
  }
  std::vector<std::string> keys;
  for (const auto& r : reqs) keys.push_back(cache_key(r));

  CompilePool pool;
  EXPECT_GE(pool.threads(), 1u);
  std::set<size_t> seen;
  size_t last_done = 0;
  const auto results = pool.compile_all(reqs, [&](size_t done, size_t total, size_t index, const CompileResult& r) {
    EXPECT_EQ(total, 6u);
    EXPECT_EQ(done, last_done + 1);
    last_done = done;
    EXPECT_TRUE(seen.insert(index).second);
    EXPECT_EQ(r.key, keys[index]);
  });
  EXPECT_EQ(last_done, 6u);
  ASSERT_EQ(results.size(), reqs.size());
  for (size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(reqs[i].name);
    EXPECT_TRUE(results[i].ok) << results[i].log;
    EXPECT_EQ(results[i].key, keys[i]);
    EXPECT_NE(results[i].log.find("'" + reqs[i].name + "' for '" + reqs[i].arch + "'"), std::string::npos)
        << results[i].log;
  }
}

TEST(JitCompilePool, SubmitWithCacheAndCleanShutdown) {
  TempDir dir;
  KernelCache cache(dir.path());
  {
    CompilePool pool(2, &cache);
    EXPECT_EQ(pool.threads(), 2u);
    auto broken = pool.submit(request("broken", "__global__ void k( {"));
    const CompileResult r = broken.get();
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(cache.load(r.key)) << "the pool's failures land in its cache's memory";
  }
  CompilePool idle(3);  // destroyed with nothing to do
}

// On this CPU machine there is no driver: load() must say so with NoGpuError, not crash. On an
// sm_90 GPU the same test loads and runs the kernel, checking the launch path end to end.
TEST(JitDriverApi, LoadSaysNoGpuOrRunsTheKernel) {
  const char* src = R"(extern "C" __global__ void add_index(float* p) {
    p[blockIdx.x * blockDim.x + threadIdx.x] += float(blockIdx.x); })";
  const CompileResult r = compile(request("add_index", src));
  ASSERT_TRUE(r.ok) << r.log;

  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    EXPECT_THROW(LoadedKernel::load(r.cubin, "add_index"), NoGpuError);
    return;
  }
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  if (prop.major != 9) GTEST_SKIP() << "the test kernel is built for sm_90a; this GPU is sm_" << prop.major << prop.minor;

  LoadedKernel k = LoadedKernel::load(r.cubin, "add_index");
  EXPECT_EQ(k.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS), r.registers);
  EXPECT_THROW(LoadedKernel::load(r.cubin, "no_such_kernel"), Error);
  float* p = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), 64 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMemset(p, 0, 64 * sizeof(float)), cudaSuccess);
  void* args[] = {&p};
  launch(k, dim3(2), dim3(32), dim3(1), 0, nullptr, args);  // blocks 0 and 1 add 0 and 1
  launch(k, dim3(2), dim3(32), dim3(2), 0, nullptr, args);  // one cluster of both: add 0 and 1 again
  std::vector<float> host(64);
  ASSERT_EQ(cudaMemcpy(host.data(), p, 64 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(p);
  EXPECT_EQ(host[0], 0.f);
  EXPECT_EQ(host[63], 2.f);
}

}  // namespace
}  // namespace gemmforge::jit
