// gemmforge tune: per (shape, layout), a search strategy proposes kernel configs, each is
// compiled ahead in the tuner process and measured (gated, then a quick estimate) by the worker,
// and every result goes into the results database as it comes. The two fastest are re-measured
// against cuBLASLt-autotune in interleaved rounds, and the dispatch table is written from the
// database: exact entries for every tuned problem, one rule per shape class.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/table.hpp"
#include "search/results_db.hpp"
#include "tune/backend.hpp"
#include "tune/decisions.hpp"
#include "tune/kernel_source.hpp"

namespace gemmforge::tune {

struct TuneOptions {
  std::vector<Shape> shapes;
  std::vector<Layout> layouts = {Layout::nn, Layout::tn};
  Accum acc = Accum::f32;
  std::string strategy = "rl";
  int budget = 16;             // candidate measurements per (shape, layout), recorded ones included
  uint64_t seed = 1;
  std::vector<KernelConfig> configs;  // the space searched; empty: config_space() per layout
  int seeds = 2;               // earlier winners of the class measured first (within the budget)
  int rule_candidates = 3;     // contenders per class rule
  bool measure_rule_gaps = true;  // measure contenders on tuned shapes where they were not measured
  int max_splits = kMaxSplits;
  double min_tie = 0.01;
  int final_rounds = 9;
  double time_limit_s = 0;     // 0: none. No new shape starts after it; the table is still written
  bool compile_whole_space = true;  // compile the whole space in the background from the start
  std::string baseline = "cublaslt-autotune";
  std::string kernel_source_hash;  // of the kernel headers (jit::include_dirs_fingerprint)
  std::filesystem::path db;
  std::filesystem::path out;    // the table; decisions CSV and summary JSON are written beside it
  std::string command;          // recorded with the run
};

struct TuneResult {
  std::vector<Decision> decisions;  // of the problems asked for, tuned now or before
  std::vector<ClassSummary> summary;
  Table table;
  size_t problems = 0, tuned_now = 0, already_done = 0, skipped = 0;
  long long measured = 0, reused = 0, failed = 0;  // candidate measurements
  long long not_built = 0;  // candidates that did not compile (or spill): recorded, not measured
  long long foreign = 0;  // measurements in the database from other environments (not used)
  bool stopped_by_time_limit = false;
  int sm_count = 0;
  std::filesystem::path table_path, decisions_path, summary_path;
};

// The database key of the device a backend reports.
DbEnvironment db_environment(const nlohmann::json& device, const std::string& kernel_source_hash);

// The whole command: environment, database, search, final comparisons, rules, table. Throws
// Error when it cannot go on (no worker, database refused, three shapes in a row that cannot be
// set up); everything measured until then stays in the database.
TuneResult run_tune(const TuneOptions&, MeasureBackend&, KernelSource&);

// The table file's companions: <out>.decisions.csv and <out>.summary.json (".json" replaced).
std::filesystem::path companion_path(const std::filesystem::path& table, const std::string& suffix);

}  // namespace gemmforge::tune
