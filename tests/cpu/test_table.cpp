// The runtime's dispatch table: what it accepts, how it looks problems up, and every way a
// damaged or foreign table is refused with its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/records.hpp"
#include "core/shape.hpp"
#include "jit/cache_key.hpp"
#include "runtime/table.hpp"
#include "runtime/table_choice.hpp"
#include "scoped_env.hpp"

namespace gemmforge {
namespace {

const TableExpectation kHere{"NVIDIA H200", "sm_90a", "abc123"};

nlohmann::json good_table() {
  KernelConfig big;
  big.block_n = 256;
  big.stages = 3;
  big.tma_store = true;
  return {{"schema", kTableSchema},
          {"gpu", "NVIDIA H200"},
          {"arch", "sm_90a"},
          {"kernel_source_hash", "abc123"},
          {"entries",
           {{{"M", 4096}, {"N", 4096}, {"K", 4096}, {"layout", "tn"}, {"acc", "f32"}, {"config", big.to_json()},
             {"speedup_vs_cublaslt", 1.03}},
            {{"M", 64}, {"N", 64}, {"K", 64}, {"layout", "tn"}, {"config", "cublaslt"}}}},
          {"rules", {{{"class", "large"}, {"layout", "tn"}, {"config", KernelConfig{}.to_json()}}}}};
}

std::string refusal(const nlohmann::json& j) {
  try {
    table_from_json(j, kHere);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Table, LooksUpExactShapesThenClassRules) {
  const Table t = table_from_json(good_table(), kHere);
  const auto exact = t.lookup({4096, 4096, 4096}, Layout::tn, Accum::f32);
  ASSERT_TRUE(exact && exact->config);
  EXPECT_EQ(exact->config->block_n, 256);
  EXPECT_DOUBLE_EQ(exact->speedup, 1.03);
  const auto lt = t.lookup({64, 64, 64}, Layout::tn, Accum::f32);
  ASSERT_TRUE(lt);
  EXPECT_FALSE(lt->config);  // cuBLASLt serves it
  const auto rule = t.lookup({8192, 12288, 4096}, Layout::tn, Accum::f32);  // large, not listed
  ASSERT_TRUE(rule && rule->config);
  EXPECT_EQ(*rule->config, KernelConfig{});
  EXPECT_TRUE(rule->from_rule);  // the library recomputes a rule's split count per shape
  EXPECT_FALSE(exact->from_rule);
  EXPECT_FALSE(t.lookup({8192, 12288, 4096}, Layout::nn, Accum::f32));  // no nn rule
  EXPECT_FALSE(t.lookup({1000, 1000, 1000}, Layout::tn, Accum::f32));   // mid: no rule
  // What to_json writes, table_from_json reads back.
  const Table again = table_from_json(t.to_json(), kHere);
  EXPECT_EQ(again.exact.size(), t.exact.size());
  EXPECT_EQ(again.rules.size(), t.rules.size());
}

// Tiny shapes are won by the sm80 family, often built for the exact shape: the table keeps both.
TEST(Table, KeepsSm80AndShapeSpecializedKernels) {
  auto j = good_table();
  Sm80Config tiny;  // tn, f32
  tiny.block_m = 16;
  tiny.warps_m = 1;
  KernelConfig hopper;
  hopper.block_m = 64, hopper.block_n = 64, hopper.consumers = 1, hopper.stages = 4;
  j["entries"].push_back({{"M", 64}, {"N", 128}, {"K", 64}, {"layout", "tn"}, {"config", tiny.to_json()},
                          {"specialized", true}, {"speedup_vs_cublaslt", 1.3}});
  j["entries"].push_back({{"M", 128}, {"N", 128}, {"K", 128}, {"layout", "tn"}, {"config", tiny.to_json()}});
  j["entries"].push_back({{"M", 64}, {"N", 64}, {"K", 512}, {"layout", "tn"}, {"config", hopper.to_json()},
                          {"specialized", true}});
  const Table t = table_from_json(j, kHere);
  const auto a = t.lookup({64, 128, 64}, Layout::tn, Accum::f32);
  ASSERT_TRUE(a && a->sm80);
  EXPECT_FALSE(a->config);
  EXPECT_TRUE(a->names_a_kernel());
  EXPECT_EQ(*a->sm80, tiny);
  EXPECT_TRUE(a->specialized);
  const auto b = t.lookup({128, 128, 128}, Layout::tn, Accum::f32);
  ASSERT_TRUE(b && b->sm80);
  EXPECT_FALSE(b->specialized);
  const auto c = t.lookup({64, 64, 512}, Layout::tn, Accum::f32);
  ASSERT_TRUE(c && c->config);
  EXPECT_TRUE(c->specialized);
  // Neighbours lend their generic build: the specialized one serves its own shape only.
  for (const auto& n : t.nearest_kernels({64, 64, 448}, Layout::tn, Accum::f32, 8)) {
    EXPECT_FALSE(n.specialized);
    EXPECT_TRUE(n.config);  // measured plans time Hopper kernels only
  }
  EXPECT_EQ(table_from_json(t.to_json(), kHere).to_json(), t.to_json());

  auto rule = good_table();  // a class rule serves many shapes: it cannot be built for one
  rule["rules"][0]["specialized"] = true;
  EXPECT_NE(refusal(rule).find("cannot name a kernel built for one shape"), std::string::npos) << refusal(rule);
  auto other_layout = good_table();
  Sm80Config nn = tiny;
  nn.layout = Layout::nn;
  other_layout["entries"].push_back({{"M", 64}, {"N", 64}, {"K", 64}, {"layout", "tn"}, {"config", nn.to_json()}});
  EXPECT_NE(refusal(other_layout).find("another layout"), std::string::npos) << refusal(other_layout);
  auto knobs = good_table();
  knobs["entries"].push_back(
      {{"M", 32}, {"N", 32}, {"K", 32}, {"layout", "tn"}, {"config", tiny.to_json()}, {"launch", {{"splits", 2}}}});
  EXPECT_NE(refusal(knobs).find("take no launch knobs"), std::string::npos) << refusal(knobs);
  auto lt = good_table();  // cuBLASLt is not built per shape
  lt["entries"][1]["specialized"] = true;
  EXPECT_NE(refusal(lt).find("not cuBLASLt"), std::string::npos) << refusal(lt);

  // What to_json would write must read back: it refuses the entries table_from_json refuses.
  Table both = t;
  both.exact.begin()->second.sm80 = tiny;
  both.exact.begin()->second.config = KernelConfig{};
  EXPECT_THROW(both.to_json(), Error);
  Table rule_built_for_a_shape = t;
  rule_built_for_a_shape.rules.begin()->second.specialized = true;
  EXPECT_THROW(rule_built_for_a_shape.to_json(), Error);
}

TEST(Table, KeepsHowAKernelIsLaunched) {
  auto j = good_table();
  j["entries"][0]["launch"] = {{"splits", 4}, {"group_m", 2}};
  const Table t = table_from_json(j, kHere);
  const auto e = t.lookup({4096, 4096, 4096}, Layout::tn, Accum::f32);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->knobs.splits, 4);
  EXPECT_EQ(e->knobs.group_m, 2);
  EXPECT_EQ(table_from_json(t.to_json(), kHere).lookup({4096, 4096, 4096}, Layout::tn, Accum::f32)->knobs, e->knobs);
  j["entries"][0]["launch"] = {{"splits", 0}};
  EXPECT_NE(refusal(j).find("splits"), std::string::npos) << refusal(j);
}

// A shape the table does not name is measured against the kernels of the nearest tuned shapes of
// its layout: nearest by log-ratio of each dimension, one per distinct launch, cuBLASLt entries
// and other layouts left out.
TEST(Table, NearestKernelsAreTheClosestTunedShapesOfTheLayout) {
  Table t;
  auto kernel = [](int block_n, int splits) {
    TableEntry e;
    KernelConfig c;
    c.layout = Layout::tn;
    c.block_n = block_n;
    e.config = c;
    e.knobs.splits = splits;
    return e;
  };
  t.exact[{4096, 4096, 4096, Layout::tn, Accum::f32}] = kernel(256, 1);
  t.exact[{4096, 4096, 2048, Layout::tn, Accum::f32}] = kernel(256, 1);  // same launch as above
  t.exact[{1024, 1024, 1024, Layout::tn, Accum::f32}] = kernel(128, 1);
  t.exact[{1024, 1024, 16384, Layout::tn, Accum::f32}] = kernel(128, 4);
  t.exact[{3000, 3000, 3000, Layout::tn, Accum::f32}] = TableEntry{};  // cuBLASLt serves it
  TableEntry nn = kernel(64, 1);
  nn.config->layout = Layout::nn;
  t.exact[{3000, 3000, 3000, Layout::nn, Accum::f32}] = nn;

  const auto near = t.nearest_kernels({3500, 3500, 3500}, Layout::tn, Accum::f32, 3);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(near[0].config->block_n, 256);  // 4096³, and its twin at K = 2048 is not repeated
  EXPECT_EQ(near[1].config->block_n, 128);
  EXPECT_EQ(near[1].knobs.splits, 1);  // 1024³ is nearer than 1024×1024×16384
  EXPECT_EQ(near[2].knobs.splits, 4);
  for (const auto& e : near) EXPECT_TRUE(e.from_rule);  // tuned for another shape
  EXPECT_EQ(t.nearest_kernels({3500, 3500, 3500}, Layout::tn, Accum::f32, 1).size(), 1u);
  EXPECT_TRUE(t.nearest_kernels({3500, 3500, 3500}, Layout::tn, Accum::f16, 4).empty());
  const auto only_nn = t.nearest_kernels({1, 1, 1}, Layout::nn, Accum::f32, 4);
  ASSERT_EQ(only_nn.size(), 1u);
  EXPECT_EQ(only_nn[0].config->block_n, 64);
}

// Where cuBLASLt is served, the table may keep our fastest kernel there (staged calls take it):
// it reads back by name with its launch and speedup, and only such an entry may keep one.
TEST(Table, KeepsTheFastestKernelBesideACublasLtEntry) {
  KernelConfig c;  // tn, f32
  c.block_n = 256;
  LaunchKnobs k;
  k.splits = 2;
  const std::string name = KernelCandidate(c, k).name();
  auto j = good_table();
  j["entries"][1]["fastest_kernel"] = name;
  j["entries"][1]["fastest_speedup"] = 0.93;
  const Table t = table_from_json(j, kHere);
  const auto e = t.lookup({64, 64, 64}, Layout::tn, Accum::f32);
  ASSERT_TRUE(e && e->fastest);
  EXPECT_FALSE(e->names_a_kernel());  // cuBLASLt is still what the entry serves
  EXPECT_EQ(e->fastest->config, c);
  EXPECT_EQ(e->fastest->knobs, k);
  EXPECT_DOUBLE_EQ(e->fastest->speedup, 0.93);
  const auto as_kernel = e->as_fastest();
  ASSERT_TRUE(as_kernel && as_kernel->config);
  EXPECT_EQ(as_kernel->knobs, k);  // launched as measured on this shape
  EXPECT_EQ(table_from_json(t.to_json(), kHere).exact, t.exact);  // reads back the same
  EXPECT_EQ(t.to_json()["entries"][0]["fastest_kernel"], name);   // (64³ sorts first)

  auto bad = j;
  bad["entries"][0]["fastest_kernel"] = name;  // beside an entry that names a kernel
  bad["entries"][0]["fastest_speedup"] = 1.0;
  EXPECT_NE(refusal(bad).find("names cuBLASLt"), std::string::npos) << refusal(bad);
  bad = j;
  bad["entries"][1].erase("fastest_speedup");
  EXPECT_NE(refusal(bad).find("go together"), std::string::npos) << refusal(bad);
  bad = j;
  bad["entries"][1]["layout"] = "nn";  // a tn kernel beside an nn entry
  EXPECT_NE(refusal(bad).find("another layout"), std::string::npos) << refusal(bad);
  bad = j;
  bad["entries"][1]["fastest_kernel"] = "sm90_tn_f32_128x260x64";
  EXPECT_NE(refusal(bad).find("entry 1"), std::string::npos) << refusal(bad);
  bad = j;
  bad["entries"][1]["fastest_speedup"] = 0;
  EXPECT_NE(refusal(bad).find("above 0"), std::string::npos) << refusal(bad);
  bad = j;
  bad["rules"][0]["config"] = "cublaslt";
  bad["rules"][0]["fastest_kernel"] = name;
  bad["rules"][0]["fastest_speedup"] = 0.9;
  EXPECT_NE(refusal(bad).find("exact entry"), std::string::npos) << refusal(bad);
}

// Staged calls look for kernels among the nearest shapes' fastest ones too; other plans do not.
TEST(Table, NearestKernelsWithFastestCountCublasLtEntriesThatKeepOne) {
  Table t;
  KernelConfig served, fastest;
  served.block_n = 128;
  fastest.block_n = 256;
  t.exact[{1024, 1024, 1024, Layout::tn, Accum::f32}].config = served;
  TableEntry lt;  // cuBLASLt serves 4096³; our 128×256 was the fastest of ours there
  lt.fastest = FastestKernel{fastest, {}, 0.95};
  t.exact[{4096, 4096, 4096, Layout::tn, Accum::f32}] = lt;
  const auto plain = t.nearest_kernels({4095, 4096, 4096}, Layout::tn, Accum::f32, 4);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].config->block_n, 128);
  const auto with = t.nearest_kernels({4095, 4096, 4096}, Layout::tn, Accum::f32, 4, true);
  ASSERT_EQ(with.size(), 2u);
  EXPECT_EQ(with[0].config->block_n, 256);  // 4096³ is nearest
  EXPECT_DOUBLE_EQ(with[0].speedup, 0.95);
  EXPECT_TRUE(with[0].from_rule);
  EXPECT_EQ(with[1].config->block_n, 128);
  // Not one that lost by more than 10% on its own shape, nor one from a shape far off: the
  // nearest winners did better than those (FastestKernel::serves_staged_calls_at).
  EXPECT_EQ(t.nearest_kernels({2048, 4096, 4096}, Layout::tn, Accum::f32, 4, true).size(), 1u);  // distance 1
  t.exact[{4096, 4096, 4096, Layout::tn, Accum::f32}].fastest->speedup = 0.8;
  EXPECT_EQ(t.nearest_kernels({4095, 4096, 4096}, Layout::tn, Accum::f32, 4, true).size(), 1u);
  EXPECT_TRUE(FastestKernel({fastest, {}, 0.9}).serves_staged_calls_at(0.5));
  EXPECT_FALSE(FastestKernel({fastest, {}, 0.89}).serves_staged_calls_at(0));
  EXPECT_FALSE(FastestKernel({fastest, {}, 1.0}).serves_staged_calls_at(0.51));
}

// Every table shipped in tables/ (each is installed under share/gemmforge/tables).
std::vector<std::string> shipped_table_files() {
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(GEMMFORGE_SOURCE_DIR) / "tables"))
    files.push_back(f.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A shipped table is served only with the kernel sources it was tuned on: a kernel edit without
// a re-tune would make every handle on that GPU model refuse it. This catches that before it ships.
class ShippedTable : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedTable, MatchesTheKernelSourcesAndCoversTheGrid) {
  const std::filesystem::path root = GEMMFORGE_SOURCE_DIR;
  const std::string file = GetParam();
  std::ifstream in(root / "tables" / file);
  ASSERT_TRUE(in) << "tables/" << file << " is missing";
  const auto j = nlohmann::json::parse(in);
  const std::string here = jit::include_dirs_fingerprint({(root / "kernels").string()});
  ASSERT_EQ(j.at("kernel_source_hash").get<std::string>(), here)
      << "kernels/ changed since tables/" << file << " was tuned: re-run gemmforge tune on that GPU "
      << "(scripts/gpu_round.sh tune), or gemmforge db carry where the kernels build to the same code";
  const Table t = load_table(root / "tables" / file, {j.at("gpu"), j.at("arch"), here});
  size_t grid = 0;
  for (const auto& s : read_shape_file(root / "shapes" / "grid.txt"))
    for (Layout l : {Layout::nn, Layout::tn}) grid += t.exact.count({s.M, s.N, s.K, l, Accum::f32});
  EXPECT_EQ(grid, 2000u);  // every grid shape in both layouts
  // A handle finds a model's table by the model word of its GPU's name (shipped_table): a table
  // filed under another name would never be found on the GPU it was tuned on.
  EXPECT_EQ(shipped_table_model(j.at("gpu").get<std::string>()) + ".json", file);
}

INSTANTIATE_TEST_SUITE_P(Table, ShippedTable, ::testing::ValuesIn(shipped_table_files()), [](const auto& info) {
  return info.param.substr(0, info.param.find('.'));
});

TEST(Table, TheShippedTablesAreTheH200sAndTheH100s) {
  EXPECT_EQ(shipped_table_files(), (std::vector<std::string>{"h100.json", "h200.json"}));
}

TEST(Table, AShippedTableIsNamedForTheModelWordOfTheGpusName) {
  EXPECT_EQ(shipped_table_model("NVIDIA H200"), "h200");
  EXPECT_EQ(shipped_table_model("NVIDIA H100 80GB HBM3"), "h100");
  EXPECT_EQ(shipped_table_model("NVIDIA H100 PCIe"), "h100");  // whose table then refuses it: another GPU
  EXPECT_EQ(shipped_table_model("NVIDIA A100-SXM4-80GB"), "a100");
  EXPECT_EQ(shipped_table_model("NVIDIA GH200 480GB"), "");  // no word is a letter and then digits
  EXPECT_EQ(shipped_table_model("NVIDIA GeForce RTX 4090"), "");
  EXPECT_EQ(shipped_table_model(""), "");
}

// What a handle with no table named takes on each GPU model: its own shipped table; another
// model's only when allowed; none where no table is shipped; and a bad one named is refused with
// the reason instead of throwing.
TEST(Table, AHandleChoosesTheTableShippedForItsGpuModel) {
  const std::filesystem::path root = GEMMFORGE_SOURCE_DIR;
  const ScopedEnv no_named_table("GEMMFORGE_TABLE", nullptr);
  const ScopedEnv these_tables("GEMMFORGE_DATA_DIR", root.c_str());  // not an installed copy
  const std::string here = jit::include_dirs_fingerprint({(root / "kernels").string()});
  const auto choose = [&](const std::string& named, const std::string& gpu, const std::string& kernels, bool other_gpu) {
    return choose_table(named, gpu, [&] { return TableExpectation{gpu, "sm_90a", kernels, other_gpu}; });
  };
  for (const std::string gpu : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
    const TableChoice c = choose("", gpu, here, false);
    ASSERT_TRUE(c.table) << gpu << ": " << c.status;
    EXPECT_EQ(c.table->gpu, gpu);
    EXPECT_FALSE(c.of_other_gpu);
    EXPECT_NE(c.status.find("tables/" + shipped_table_model(gpu) + ".json"), std::string::npos) << c.status;
  }
  const TableChoice pcie = choose("", "NVIDIA H100 PCIe", here, false);
  EXPECT_FALSE(pcie.table);
  EXPECT_NE(pcie.status.find("NVIDIA H100 80GB HBM3"), std::string::npos) << pcie.status;  // whose it is
  const TableChoice allowed = choose("", "NVIDIA H100 PCIe", here, true);
  ASSERT_TRUE(allowed.table) << allowed.status;
  EXPECT_TRUE(allowed.of_other_gpu);
  EXPECT_NE(allowed.status.find("every plan measured"), std::string::npos) << allowed.status;
  const TableChoice none = choose("", "NVIDIA GeForce RTX 4090", here, false);
  EXPECT_FALSE(none.table);
  EXPECT_NE(none.status.find("no table for NVIDIA GeForce RTX 4090"), std::string::npos) << none.status;
  EXPECT_NE(choose("none", "NVIDIA H200", here, false).status.find("switched off"), std::string::npos);
  for (const TableChoice& refused : {choose((root / "tables" / "no-such.json").string(), "NVIDIA H200", here, false),
                                     choose("", "NVIDIA H200", "another kernel source", false)}) {
    EXPECT_FALSE(refused.table);
    EXPECT_NE(refused.status.find("table not used"), std::string::npos) << refused.status;
  }
  // Kernel headers that cannot be read: no table, and the reason, not an exception.
  const TableChoice unreadable =
      choose_table("", "NVIDIA H200", []() -> TableExpectation { throw Error("cannot read the kernel headers"); });
  EXPECT_FALSE(unreadable.table);
  EXPECT_NE(unreadable.status.find("cannot read the kernel headers"), std::string::npos) << unreadable.status;
}

TEST(Table, KeepsTheAutotunedCublasLtAlgorithm) {
  auto j = good_table();
  j["entries"][1]["cublaslt_algo"] = 3;  // 64x64x64 is served by cuBLASLt
  const Table t = table_from_json(j, kHere);
  EXPECT_EQ(t.lookup({64, 64, 64}, Layout::tn, Accum::f32)->cublaslt_algo, 3);
  EXPECT_EQ(table_from_json(t.to_json(), kHere).lookup({64, 64, 64}, Layout::tn, Accum::f32)->cublaslt_algo, 3);
  EXPECT_EQ(t.lookup({4096, 4096, 4096}, Layout::tn, Accum::f32)->cublaslt_algo, -1);
  j["entries"][1]["cublaslt_algo"] = kLtHeuristicCount;
  EXPECT_NE(refusal(j).find("cublaslt_algo"), std::string::npos) << refusal(j);
}

TEST(Table, ForeignTablesAreRefusedWithTheReason) {
  auto j = good_table();
  j["gpu"] = "NVIDIA H100 80GB HBM3";
  EXPECT_NE(refusal(j).find("made on NVIDIA H100"), std::string::npos) << refusal(j);
  j = good_table();
  j["kernel_source_hash"] = "old";
  EXPECT_NE(refusal(j).find("other kernel sources"), std::string::npos) << refusal(j);
  j = good_table();
  j["arch"] = "sm_80";
  EXPECT_NE(refusal(j).find("made for sm_80"), std::string::npos) << refusal(j);
}

TEST(Table, AnotherGpusTableIsAcceptedOnlyWhenAllowedAndOnlyForTheSameKernels) {
  TableExpectation other_allowed = kHere;
  other_allowed.other_gpu_allowed = true;
  auto j = good_table();
  j["gpu"] = "NVIDIA H100 80GB HBM3";
  const Table t = table_from_json(j, other_allowed);
  EXPECT_EQ(t.gpu, "NVIDIA H100 80GB HBM3");  // kept, so the handle knows whose timings these are
  EXPECT_EQ(t.exact.size(), good_table()["entries"].size());
  j["kernel_source_hash"] = "old";
  EXPECT_THROW(table_from_json(j, other_allowed), Error);
  j = good_table();
  j["gpu"] = "NVIDIA A100-SXM4-80GB";
  j["arch"] = "sm_80";
  EXPECT_THROW(table_from_json(j, other_allowed), Error);
}

TEST(Table, DamagedTablesAreRefusedWithTheReason) {
  auto j = good_table();
  j["schema"] = "something/2";
  EXPECT_NE(refusal(j).find("not a gemmforge table"), std::string::npos);
  j = good_table();
  j["entries"][0]["config"]["block_n"] = 260;  // not a valid kernel
  EXPECT_NE(refusal(j).find("entry 0"), std::string::npos) << refusal(j);
  j = good_table();
  j["entries"].push_back(j["entries"][1]);  // the same problem twice
  EXPECT_NE(refusal(j).find("appears twice"), std::string::npos) << refusal(j);
  j = good_table();
  j["entries"][1]["M"] = 0;
  EXPECT_NE(refusal(j).find("at least 1"), std::string::npos) << refusal(j);
  j = good_table();
  j["entries"][0]["layout"] = "nn";  // a tn config filed under nn
  EXPECT_NE(refusal(j).find("another layout"), std::string::npos) << refusal(j);
  j = good_table();
  j.erase("entries");
  EXPECT_NE(refusal(j).find("malformed table"), std::string::npos) << refusal(j);

  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_table_test";
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "broken.json", "{\"schema\": ");
  EXPECT_THROW(load_table(dir / "broken.json", kHere), Error);
  EXPECT_THROW(load_table(dir / "missing.json", kHere), Error);
  write_file_atomically(dir / "good.json", good_table().dump());
  EXPECT_EQ(load_table(dir / "good.json", kHere).exact.size(), 2u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge
