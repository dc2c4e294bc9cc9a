// One measured (implementation, shape, layout, mode) and the result file that holds many.
// The schema is docs/results-format.md; scripts/torch_bench.py writes the same one.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/shape.hpp"

namespace gemmforge {

inline constexpr const char* kResultsSchema = "gemmforge.bench/1";

struct BenchRecord {
  Shape shape;
  Layout layout = Layout::nn;
  Accum acc = Accum::f32;
  std::string impl;
  std::string mode;  // gpu | offline | server
  std::string l2;    // warm | cold
  std::string verdict = "pass";
  std::optional<double> median_us, p25_us, p75_us, min_us, event_median_us;
  int samples = 0;
  int calls_per_sample = 0;
  std::optional<double> sm_clock_mhz, power_w;
  std::string note;

  bool passed() const { return verdict == "pass" && median_us.has_value(); }
  std::optional<double> tflops() const;
};

struct ResultFile {
  std::string command;
  std::string started_utc, finished_utc;
  nlohmann::json environment = nlohmann::json::object();
  nlohmann::json settings = nlohmann::json::object();
  std::vector<BenchRecord> records;
  bool complete = false;
  // Empty when the run measured every shape it was given; else why it stopped early and after how
  // many shapes (a time limit, a signal). The records it has are whole: a stopped run is still
  // complete, it covers fewer shapes.
  std::string stopped;
};

nlohmann::json to_json(const BenchRecord&);
BenchRecord record_from_json(const nlohmann::json&);  // throws Error naming the missing field
nlohmann::json to_json(const ResultFile&);
ResultFile result_file_from_json(const nlohmann::json&);
ResultFile read_result_file(const std::filesystem::path&);  // refuses incomplete files; .csv too
// The records of a results.csv (no environment or settings: those are only in the JSON).
ResultFile read_result_csv(const std::filesystem::path&);

std::string csv_header();
std::string csv_text(const std::string&);  // one CSV field, quoted when it holds , " or a line break
// One line of a CSV written by gemmforge (RFC 4180 quoting), as its fields; throws on a bad quote.
std::vector<std::string> split_csv_line(const std::string& line);
// Every record of a CSV text (quoted fields may hold line breaks); empty lines are skipped.
std::vector<std::vector<std::string>> split_csv_records(const std::string& text);
// A file's contents, gunzipped when it is gzip (plain files read unchanged); throws Error naming it.
std::string read_maybe_gzipped(const std::filesystem::path&);
// Reads a CSV file: `header` gets the first line's fields (it throws to refuse the file), then
// `row` each later non-empty line's. Errors name the file, and the row for a row's error.
void read_csv(const std::filesystem::path&, const std::function<void(const std::vector<std::string>&)>& header,
              const std::function<void(const std::vector<std::string>&)>& row);
std::string to_csv_row(const BenchRecord&);

// Writes `contents` to path.tmp, then renames: a reader never sees half a file.
void write_file_atomically(const std::filesystem::path& path, const std::string& contents);

std::string utc_now_iso8601();

}  // namespace gemmforge
