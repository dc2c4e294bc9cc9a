// The tuner's results database (SQLite, WAL): the environment of every run (GPU, driver, CUDA,
// clocks), the candidates, every measurement and verdict, and the decision per problem, keyed by
// the environment it was made in, so a run resumes where it stopped and a result from another
// GPU, architecture or kernel source is never reused silently.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/shape.hpp"

struct sqlite3;

namespace gemmforge {

// What makes two measurements comparable. Results are reused only under an identical key.
// How candidates and baselines are measured, as a version: results measured another way are not
// comparable, so they are never reused. 2: cuBLASLt-autotune picks its algorithm by device time
// (eval/fastest_of.hpp); before, by calls launched from the host (the key had no version then).
inline constexpr const char* kMeasurementProtocol = "2";

struct DbEnvironment {
  std::string gpu;                 // e.g. "NVIDIA H200"
  std::string arch;                // e.g. "sm_90a"
  std::string kernel_source_hash;  // hash of the kernel headers (jit::include_dirs_fingerprint)
  std::string driver, cuda;        // recorded with the key, not part of it
  std::string protocol = kMeasurementProtocol;
  // Protocol 1 is what databases written before the version existed hold: their keys had none.
  std::string key() const {
    return gpu + "|" + arch + "|" + kernel_source_hash + (protocol == "1" ? "" : "|m" + protocol);
  }
};

struct Measurement {
  Shape shape;
  Layout layout = Layout::tn;
  Accum acc = Accum::f32;
  std::string impl;    // "gemmforge", "cublaslt-autotune", ...
  std::string config;  // the candidate's name (its JSON is in the candidates table); "" for baselines
  std::string mode;    // estimate (the search's quick device time) | gpu (interleaved rounds) | ...
  std::string verdict = "pass";
  std::optional<double> median_us, spread;  // spread: relative half-IQR
  std::string note;    // what else was learnt: the baseline's algorithm, clocks, the worker's fate
};

// What the tuner decided for one problem after the final interleaved comparison.
struct Decision {
  Shape shape;
  Layout layout = Layout::tn;
  Accum acc = Accum::f32;
  std::string served;   // the candidate the table names, or "cublaslt"
  std::string outcome;  // win | tie | loss | no-candidate | no-baseline
  std::string best, runner_up;  // the fastest gemmforge candidates of the final ("" if none)
  std::optional<double> best_us, runner_up_us, baseline_us;  // interleaved medians
  double speedup = 0;   // baseline_us / best_us; 0 when either is missing
  double tie_band = 0;  // |speedup - 1| within this is a tie
  int budget = 0;       // candidate measurements spent on the problem
};

class ResultsDb {
 public:
  // Opens or creates the file and registers the environment. Throws gemmforge::Error (naming the
  // file) if it is not a gemmforge database or cannot be opened; the file is then left untouched.
  // A file of an older schema is upgraded in place.
  ResultsDb(const std::filesystem::path&, const DbEnvironment&);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  // Without writing anything: throws Error when the file exists and is not a gemmforge results
  // database this version can use (so a command can refuse it before any GPU work).
  static void check_file(const std::filesystem::path&);
  // Every environment the file has registered (protocol read from its key), read without writing;
  // none when the file does not exist. Throws Error for a file that is not a results database.
  static std::vector<DbEnvironment> environments(const std::filesystem::path&);

  // A run: the command, the environment as the device reported it (JSON: clocks, versions) and
  // the settings. Measurements and decisions recorded afterwards name it.
  long long begin_run(const std::string& command, const std::string& environment_json, const std::string& settings_json);
  void finish_run(const std::string& summary_json);

  // The catalogue of candidates: name -> JSON ({"config": ..., "launch": ...}). Idempotent.
  void add_candidate(const std::string& name, const std::string& json);
  std::optional<std::string> candidate_json(const std::string& name) const;

  void record(const Measurement&);
  // The latest measurement of exactly this candidate in this environment, if any.
  std::optional<Measurement> find(const Shape&, Layout, Accum, const std::string& impl, const std::string& config,
                                  const std::string& mode) const;
  // Every measurement of one problem, implementation and mode in this environment, oldest first.
  std::vector<Measurement> measurements_of(const Shape&, Layout, Accum, const std::string& impl,
                                           const std::string& mode) const;
  std::vector<Measurement> all_in_this_environment() const;
  // How many measurements the file holds from other environments (reported, never reused).
  long long foreign_count() const;


  void record_decision(const Decision&);
  std::optional<Decision> decision(const Shape&, Layout, Accum) const;
  std::vector<Decision> decisions() const;  // this environment's, in (M, N, K, layout, acc) order

  // Shorthands over decisions: the served candidate (or "cublaslt") and its speedup.
  void set_winner(const Shape&, Layout, Accum, const std::string& config, double speedup_vs_baseline);
  std::optional<std::string> winner(const Shape&, Layout, Accum) const;

  const std::filesystem::path& path() const { return path_; }

  // A database as plain files, one CSV per table (db-<table>.csv.gz: a header of column names,
  // an empty field for NULL), so a run's database can be kept with its results and restored for
  // a later run to resume. Numbers, NULL numbers and texts read back exactly; a NULL text (a run
  // not finished, say) reads back as "", which this class reads the same. Export refuses a file that is not a gemmforge results database of this
  // schema; import refuses to write over an existing file and files of another schema, and
  // writes nothing unless every row reads (the new file is removed on any error).
  // With `kernel_source`, only the rows of the environments of that kernel source hash (their runs,
  // measurements and decisions, and the candidates those measured): what a tune under that source
  // reuses, without the rows that carries to later sources leave behind. Refuses a hash the
  // database holds no environment of.
  static void export_csv(const std::filesystem::path& db, const std::filesystem::path& dir,
                         const std::optional<std::string>& kernel_source = std::nullopt);
  static void import_csv(const std::filesystem::path& dir, const std::filesystem::path& db);
  // The tables, in the order import restores them.
  static const std::vector<std::string>& table_names();

 private:
  void exec(const char* sql) const;
  void open_schema(const DbEnvironment&);
  static void create_schema(sqlite3*, const std::filesystem::path&);
  void upgrade_from_v1();
  sqlite3* db_ = nullptr;
  long long env_id_ = 0;
  long long run_id_ = 0;  // 0 until begin_run
  std::filesystem::path path_;
};

}  // namespace gemmforge
