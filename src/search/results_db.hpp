// The tuner's results database (SQLite, WAL): every measurement and verdict, keyed by the
// environment it was made in, so a run resumes where it stopped and a result from another GPU,
// architecture or kernel source is never reused silently.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"

struct sqlite3;

namespace gemmforge {

// What makes two measurements comparable. Results are reused only under an identical key.
struct DbEnvironment {
  std::string gpu;                 // e.g. "NVIDIA H200"
  std::string arch;                // e.g. "sm_90a"
  std::string kernel_source_hash;  // hash of the kernel headers (jit::include_dirs_fingerprint)
  std::string driver, cuda;        // recorded with the key, not part of it
  std::string key() const { return gpu + "|" + arch + "|" + kernel_source_hash; }
};

struct Measurement {
  Shape shape;
  Layout layout = Layout::tn;
  Accum acc = Accum::f32;
  std::string impl;    // "gemmforge", "cublaslt-autotune", ...
  std::string config;  // the kernel config as JSON text ("" for baselines)
  std::string mode;    // gpu | offline | server
  std::string verdict = "pass";
  std::optional<double> median_us, spread;  // spread: relative half-IQR
};

class ResultsDb {
 public:
  // Opens or creates the file and registers the environment. Throws gemmforge::Error (naming the
  // file) if it is not a gemmforge database or cannot be opened; the file is then left untouched.
  ResultsDb(const std::filesystem::path&, const DbEnvironment&);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  void record(const Measurement&);
  // The latest measurement of exactly this candidate in this environment, if any.
  std::optional<Measurement> find(const Shape&, Layout, Accum, const std::string& impl, const std::string& config,
                                  const std::string& mode) const;
  std::vector<Measurement> all_in_this_environment() const;
  // How many measurements the file holds from other environments (reported, never reused).
  long long foreign_count() const;

  void set_winner(const Shape&, Layout, Accum, const std::string& config, double speedup_vs_baseline);
  std::optional<std::string> winner(const Shape&, Layout, Accum) const;

 private:
  void exec(const char* sql) const;
  void open_schema(const DbEnvironment&);
  sqlite3* db_ = nullptr;
  long long env_id_ = 0;
  std::filesystem::path path_;
};

}  // namespace gemmforge
