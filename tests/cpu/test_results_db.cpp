#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "search/results_db.hpp"

namespace gemmforge {
namespace {

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("gemmforge_db_test_" + std::to_string(getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

DbEnvironment h200() { return {"NVIDIA H200", "sm_90a", "abc123", "580.159.04", "13.0"}; }

Measurement sample(double us) {
  Measurement m;
  m.shape = {4096, 4096, 4096};
  m.impl = "gemmforge";
  m.config = R"({"block_m":128})";
  m.mode = "gpu";
  m.median_us = us;
  m.spread = 0.01;
  return m;
}

TEST(ResultsDb, ARunResumesWhereItStopped) {
  TempDir dir;
  const auto file = dir.path / "tune.sqlite";
  {
    ResultsDb db(file, h200());
    db.record(sample(200));
    db.record(sample(190));  // a re-measurement: the latest wins
    db.set_winner({4096, 4096, 4096}, Layout::tn, Accum::f32, R"({"block_m":128})", 1.04);
  }
  ResultsDb again(file, h200());
  const auto m = again.find({4096, 4096, 4096}, Layout::tn, Accum::f32, "gemmforge", R"({"block_m":128})", "gpu");
  ASSERT_TRUE(m.has_value());
  EXPECT_DOUBLE_EQ(*m->median_us, 190);
  EXPECT_EQ(again.all_in_this_environment().size(), 2u);
  EXPECT_EQ(again.winner({4096, 4096, 4096}, Layout::tn, Accum::f32).value(), R"({"block_m":128})");
  EXPECT_FALSE(again.find({4096, 4096, 4096}, Layout::nn, Accum::f32, "gemmforge", R"({"block_m":128})", "gpu"));
}

TEST(ResultsDb, ResultsFromAnotherGpuArchOrKernelSourceAreNeverReused) {
  TempDir dir;
  const auto file = dir.path / "tune.sqlite";
  {
    ResultsDb db(file, h200());
    db.record(sample(200));
  }
  for (auto change : {0, 1, 2}) {
    DbEnvironment other = h200();
    if (change == 0) other.gpu = "NVIDIA H100 80GB HBM3";
    if (change == 1) other.arch = "sm_80";
    if (change == 2) other.kernel_source_hash = "def456";
    ResultsDb db(file, other);
    EXPECT_FALSE(db.find({4096, 4096, 4096}, Layout::tn, Accum::f32, "gemmforge", R"({"block_m":128})", "gpu"));
    EXPECT_GE(db.foreign_count(), 1);
    EXPECT_FALSE(db.winner({4096, 4096, 4096}, Layout::tn, Accum::f32).has_value());
  }
  // The driver is recorded but does not split the environment.
  DbEnvironment newer_driver = h200();
  newer_driver.driver = "590.1";
  ResultsDb db(file, newer_driver);
  EXPECT_TRUE(db.find({4096, 4096, 4096}, Layout::tn, Accum::f32, "gemmforge", R"({"block_m":128})", "gpu"));
}

TEST(ResultsDb, AForeignOrDamagedFileIsRefusedAndLeftUntouched) {
  TempDir dir;
  const auto garbage = dir.path / "notes.sqlite";
  std::ofstream(garbage) << "these are my notes, not a database\n";
  const auto size = std::filesystem::file_size(garbage);
  EXPECT_THROW(ResultsDb(garbage, h200()), Error);
  EXPECT_EQ(std::filesystem::file_size(garbage), size);
}

TEST(ResultsDb, FailedVerdictsAreRecordedWithoutTiming) {
  TempDir dir;
  ResultsDb db(dir.path / "t.sqlite", h200());
  Measurement m = sample(0);
  m.median_us.reset();
  m.verdict = "fail: 12 elements NaN";
  db.record(m);
  const auto back = db.find(m.shape, m.layout, m.acc, m.impl, m.config, m.mode);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->verdict, "fail: 12 elements NaN");
  EXPECT_FALSE(back->median_us.has_value());
}

}  // namespace
}  // namespace gemmforge
