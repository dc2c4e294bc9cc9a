#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/records.hpp"

namespace gemmforge {
namespace {

BenchRecord sample_record() {
  BenchRecord r;
  r.shape = {4096, 4096, 4096};
  r.layout = Layout::tn;
  r.impl = "cublaslt-autotune";
  r.mode = "gpu";
  r.l2 = "warm";
  r.median_us = 200;
  r.p25_us = 199;
  r.p75_us = 202;
  r.min_us = 198;
  r.samples = 9;
  r.calls_per_sample = 1;
  r.note = "algo 2 of 8, \"quoted\"";
  return r;
}

TEST(Records, JsonRoundTripKeepsEveryField) {
  const BenchRecord r = sample_record();
  const auto j = to_json(r);
  EXPECT_EQ(j["class"], "large");
  EXPECT_NEAR(j["tflops"].get<double>(), 2.0 * 4096 * 4096 * 4096 / 200e-6 / 1e12, 1e-9);
  const BenchRecord back = record_from_json(j);
  EXPECT_EQ(back.shape, r.shape);
  EXPECT_EQ(back.layout, r.layout);
  EXPECT_EQ(back.median_us, r.median_us);
  EXPECT_EQ(back.note, r.note);
  EXPECT_FALSE(back.event_median_us.has_value());
}

TEST(Records, FailedRecordHasNoTiming) {
  BenchRecord r = sample_record();
  r.verdict = "fail: 3 elements NaN";
  r.median_us.reset();
  EXPECT_FALSE(r.passed());
  EXPECT_TRUE(to_json(r)["tflops"].is_null());
}

TEST(Records, MissingFieldIsNamed) {
  auto j = to_json(sample_record());
  j.erase("layout");
  try {
    record_from_json(j);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("layout"), std::string::npos);
  }
}

TEST(Records, CsvQuotesTextWithCommasAndQuotes) {
  const std::string row = to_csv_row(sample_record());
  EXPECT_NE(row.find("\"algo 2 of 8, \"\"quoted\"\"\""), std::string::npos) << row;
  const std::string header = csv_header();
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 20);
}

TEST(ResultFile, CsvReadsBackTheRecords) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_records_csv_test";
  std::filesystem::create_directories(dir);
  BenchRecord failed = sample_record();
  failed.verdict = "fail: 3 elements NaN, first at (0, 1)";
  failed.median_us.reset();
  BenchRecord powered = sample_record();
  powered.sm_clock_mhz = 1410;
  powered.power_w = 689.5;
  std::string csv = csv_header() + "\n";
  for (const auto& r : {sample_record(), failed, powered}) csv += to_csv_row(r) + "\n";
  write_file_atomically(dir / "results.csv", csv);
  const ResultFile f = read_result_file(dir / "results.csv");
  ASSERT_EQ(f.records.size(), 3u);
  EXPECT_EQ(f.records[0].note, sample_record().note);  // quotes and commas survive
  EXPECT_EQ(f.records[0].median_us, 200);
  EXPECT_EQ(f.records[1].verdict, failed.verdict);
  EXPECT_FALSE(f.records[1].median_us.has_value());
  EXPECT_EQ(f.records[2].power_w, 689.5);
  write_file_atomically(dir / "other.csv", "a,b,c\n1,2,3\n");
  EXPECT_THROW(read_result_file(dir / "other.csv"), Error);  // not a gemmforge results.csv
  write_file_atomically(dir / "short.csv", csv_header() + "\n1,2,3\n");
  EXPECT_THROW(read_result_file(dir / "short.csv"), Error);
  std::filesystem::remove_all(dir);
}

TEST(ResultFile, ARunStoppedEarlySaysSoAndKeepsItsRecords) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_records_stopped_test";
  std::filesystem::create_directories(dir);
  ResultFile f;
  f.complete = true;
  f.records.push_back(sample_record());
  f.stopped = "time limit of 500 s: 1 of 3 shapes measured";
  write_file_atomically(dir / "stopped.json", to_json(f).dump());
  const ResultFile back = read_result_file(dir / "stopped.json");
  EXPECT_EQ(back.stopped, f.stopped);
  EXPECT_EQ(back.records.size(), 1u);
  f.stopped.clear();  // a run that measured everything writes no "stopped" at all
  EXPECT_FALSE(to_json(f).contains("stopped"));
  write_file_atomically(dir / "whole.json", to_json(f).dump());
  EXPECT_TRUE(read_result_file(dir / "whole.json").stopped.empty());
  std::filesystem::remove_all(dir);
}

TEST(ResultFile, IncompleteOrForeignFilesAreRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_records_test";
  std::filesystem::create_directories(dir);
  ResultFile f;
  f.records.push_back(sample_record());
  f.complete = false;
  write_file_atomically(dir / "partial.json", to_json(f).dump());
  EXPECT_THROW(read_result_file(dir / "partial.json"), Error);
  f.complete = true;
  write_file_atomically(dir / "done.json", to_json(f).dump());
  EXPECT_EQ(read_result_file(dir / "done.json").records.size(), 1u);
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().extension(), ".json") << "temporary file left behind: " << e.path();
  std::ofstream(dir / "garbage.json") << "{ not json";
  EXPECT_THROW(read_result_file(dir / "garbage.json"), Error);
  std::ofstream(dir / "foreign.json") << R"({"schema": "other", "records": []})";
  EXPECT_THROW(read_result_file(dir / "foreign.json"), Error);
  EXPECT_THROW(read_result_file(dir / "missing.json"), Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmforge
