// The runtime's dispatch table: what it accepts, how it looks problems up, and every way a
// damaged or foreign table is refused with its reason.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/records.hpp"
#include "runtime/table.hpp"

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
  EXPECT_FALSE(t.lookup({8192, 12288, 4096}, Layout::nn, Accum::f32));  // no nn rule
  EXPECT_FALSE(t.lookup({1000, 1000, 1000}, Layout::tn, Accum::f32));   // mid: no rule
  // What to_json writes, table_from_json reads back.
  const Table again = table_from_json(t.to_json(), kHere);
  EXPECT_EQ(again.exact.size(), t.exact.size());
  EXPECT_EQ(again.rules.size(), t.rules.size());
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
