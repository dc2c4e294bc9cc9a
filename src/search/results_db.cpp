#include "search/results_db.hpp"

#include "search/sqlite_statement.hpp"

namespace gemmforge {
namespace {

using detail::kSchemaVersion;
using detail::schema_version;
using detail::Statement;

constexpr const char* kMeasurementColumns =
    "M, N, K, layout, acc, impl, config, mode, verdict, median_us, spread, note";

Measurement row_to_measurement(const Statement& s) {
  Measurement m;
  m.shape = {s.i64(0), s.i64(1), s.i64(2)};
  m.layout = parse_layout(s.text(3));
  m.acc = parse_accum(s.text(4));
  m.impl = s.text(5);
  m.config = s.text(6);
  m.mode = s.text(7);
  m.verdict = s.text(8);
  m.median_us = s.real(9);
  m.spread = s.real(10);
  m.note = s.text(11);
  return m;
}

constexpr const char* kDecisionColumns =
    "M, N, K, layout, acc, config, outcome, best, runner_up, best_us, runner_up_us, baseline_us, speedup, tie_band, "
    "budget";

Decision row_to_decision(const Statement& s) {
  Decision d;
  d.shape = {s.i64(0), s.i64(1), s.i64(2)};
  d.layout = parse_layout(s.text(3));
  d.acc = parse_accum(s.text(4));
  d.served = s.text(5);
  d.outcome = s.text(6);
  d.best = s.text(7);
  d.runner_up = s.text(8);
  d.best_us = s.real(9);
  d.runner_up_us = s.real(10);
  d.baseline_us = s.real(11);
  d.speedup = s.real(12).value_or(0);
  d.tie_band = s.real(13).value_or(0);
  d.budget = int(s.i64(14));
  return d;
}

std::string refused(const std::filesystem::path& path, long long version) {
  if (version > kSchemaVersion)
    return "'" + path.string() + "' was written by a newer gemmforge (results schema " + std::to_string(version) +
           ", this one reads up to " + std::to_string(kSchemaVersion) + "); it was left untouched";
  return "'" + path.string() + "' is not a gemmforge results database; it was left untouched";
}

}  // namespace

ResultsDb::ResultsDb(const std::filesystem::path& path, const DbEnvironment& env) : path_(path) {
  db_ = detail::open_sqlite(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX);
  try {
    open_schema(env);
  } catch (...) {
    sqlite3_close(db_);  // a constructor that throws runs no destructor
    db_ = nullptr;
    throw;
  }
}

void ResultsDb::check_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;  // a new database is made there
  sqlite3* db = detail::open_sqlite(path, SQLITE_OPEN_READONLY);
  long long version = -1;
  try {
    version = schema_version(db, path);
  } catch (const Error&) {
    version = -1;  // not a database at all
  }
  sqlite3_close(db);
  if (version < 0 || version > kSchemaVersion) throw Error(refused(path, version));
}

void ResultsDb::open_schema(const DbEnvironment& env) {
  sqlite3_busy_timeout(db_, 10000);  // a second tuner process on the same file waits, not fails
  // Reading the schema first tells a foreign or damaged file apart before anything is written.
  long long version = -1;
  try {
    version = schema_version(db_, path_);
  } catch (const Error& e) {
    throw Error("'" + path_.string() + "' is not a gemmforge results database (" + e.what() + "); it was left untouched");
  }
  if (version < 0 || version > kSchemaVersion) throw Error(refused(path_, version));
  exec("PRAGMA journal_mode=WAL");
  // In WAL mode, NORMAL still survives a crash of the process (what a killed tuner needs); only
  // a power loss can lose the last commits. FULL would fsync once per measurement.
  exec("PRAGMA synchronous=NORMAL");
  if (version == 0) create_schema(db_, path_);
  if (version == 1) upgrade_from_v1();
  {
    Statement s(db_, "INSERT OR IGNORE INTO environments (key, gpu, arch, kernel_source_hash, driver, cuda) "
                     "VALUES (?, ?, ?, ?, ?, ?)", path_);
    s.bind(1, env.key()).bind(2, env.gpu).bind(3, env.arch).bind(4, env.kernel_source_hash).bind(5, env.driver)
        .bind(6, env.cuda);
    s.step();
  }
  Statement s(db_, "SELECT id FROM environments WHERE key = ?", path_);
  s.bind(1, env.key());
  if (!s.step()) throw Error("results database '" + path_.string() + "': environment not registered");
  env_id_ = s.i64(0);
}

void ResultsDb::create_schema(sqlite3* db, const std::filesystem::path& path) {
  auto exec = [&](const char* sql) { detail::exec_sql(db, sql, path); };
  exec("BEGIN IMMEDIATE");
  try {
    // Another process may have created it between our look and our lock.
    if (schema_version(db, path) != 0) {
      exec("COMMIT");
      return;
    }
    exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    exec("INSERT INTO meta VALUES ('gemmforge_schema', '2')");
    exec("CREATE TABLE environments (id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, gpu TEXT, arch TEXT, "
         "kernel_source_hash TEXT, driver TEXT, cuda TEXT, first_seen TEXT DEFAULT CURRENT_TIMESTAMP)");
    exec("CREATE TABLE runs (id INTEGER PRIMARY KEY, env INTEGER NOT NULL REFERENCES environments(id), command TEXT, "
         "environment TEXT, settings TEXT, summary TEXT, started TEXT DEFAULT CURRENT_TIMESTAMP, finished TEXT)");
    exec("CREATE TABLE candidates (name TEXT PRIMARY KEY, json TEXT NOT NULL)");
    exec("CREATE TABLE measurements (id INTEGER PRIMARY KEY, env INTEGER NOT NULL REFERENCES environments(id), "
         "M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, impl TEXT, config TEXT, mode TEXT, verdict TEXT, "
         "median_us REAL, spread REAL, at TEXT DEFAULT CURRENT_TIMESTAMP, note TEXT, run INTEGER)");
    exec("CREATE INDEX measurements_by_candidate ON measurements (env, M, N, K, layout, acc, impl, config, mode)");
    exec("CREATE TABLE winners (env INTEGER NOT NULL, M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, "
         "config TEXT, speedup REAL, outcome TEXT, best TEXT, runner_up TEXT, best_us REAL, runner_up_us REAL, "
         "baseline_us REAL, tie_band REAL, budget INTEGER, run INTEGER, PRIMARY KEY (env, M, N, K, layout, acc))");
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

// Version 1 had no runs, candidates, notes or decision details; its rows stay valid.
void ResultsDb::upgrade_from_v1() {
  exec("BEGIN IMMEDIATE");
  try {
    if (schema_version(db_, path_) != 1) {  // upgraded by another process meanwhile
      exec("COMMIT");
      return;
    }
    exec("CREATE TABLE runs (id INTEGER PRIMARY KEY, env INTEGER NOT NULL REFERENCES environments(id), command TEXT, "
         "environment TEXT, settings TEXT, summary TEXT, started TEXT DEFAULT CURRENT_TIMESTAMP, finished TEXT)");
    exec("CREATE TABLE candidates (name TEXT PRIMARY KEY, json TEXT NOT NULL)");
    exec("ALTER TABLE measurements ADD COLUMN note TEXT");
    exec("ALTER TABLE measurements ADD COLUMN run INTEGER");
    for (const char* column : {"outcome TEXT", "best TEXT", "runner_up TEXT", "best_us REAL", "runner_up_us REAL",
                               "baseline_us REAL", "tie_band REAL", "budget INTEGER", "run INTEGER"})
      exec(("ALTER TABLE winners ADD COLUMN " + std::string(column)).c_str());
    exec("UPDATE meta SET value = '2' WHERE key = 'gemmforge_schema'");
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

ResultsDb::~ResultsDb() {
  if (db_) sqlite3_close(db_);
}

void ResultsDb::exec(const char* sql) const { detail::exec_sql(db_, sql, path_); }

long long ResultsDb::begin_run(const std::string& command, const std::string& environment_json,
                               const std::string& settings_json) {
  Statement s(db_, "INSERT INTO runs (env, command, environment, settings) VALUES (?, ?, ?, ?)", path_);
  s.bind(1, env_id_).bind(2, command).bind(3, environment_json).bind(4, settings_json);
  s.step();
  run_id_ = sqlite3_last_insert_rowid(db_);
  return run_id_;
}

void ResultsDb::finish_run(const std::string& summary_json) {
  if (!run_id_) return;
  Statement s(db_, "UPDATE runs SET summary = ?, finished = CURRENT_TIMESTAMP WHERE id = ?", path_);
  s.bind(1, summary_json).bind(2, run_id_);
  s.step();
}

void ResultsDb::add_candidate(const std::string& name, const std::string& json) {
  Statement s(db_, "INSERT OR IGNORE INTO candidates (name, json) VALUES (?, ?)", path_);
  s.bind(1, name).bind(2, json);
  s.step();
}

std::optional<std::string> ResultsDb::candidate_json(const std::string& name) const {
  Statement s(db_, "SELECT json FROM candidates WHERE name = ?", path_);
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

void ResultsDb::record(const Measurement& m) {
  Statement s(db_, "INSERT INTO measurements (env, M, N, K, layout, acc, impl, config, mode, verdict, median_us, spread, "
                   "note, run) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, env_id_).bind(2, m.shape.M).bind(3, m.shape.N).bind(4, m.shape.K).bind(5, to_string(m.layout))
      .bind(6, to_string(m.acc)).bind(7, m.impl).bind(8, m.config).bind(9, m.mode).bind(10, m.verdict)
      .bind(11, m.median_us).bind(12, m.spread).bind(13, m.note).bind_run(14, run_id_);
  s.step();
}

std::optional<Measurement> ResultsDb::find(const Shape& sh, Layout l, Accum a, const std::string& impl,
                                           const std::string& config, const std::string& mode) const {
  Statement s(db_, std::string("SELECT ") + kMeasurementColumns +
                       " FROM measurements WHERE env = ? AND M = ? AND N = ? AND K = ? AND layout = ? AND acc = ? "
                       "AND impl = ? AND config = ? AND mode = ? ORDER BY id DESC LIMIT 1", path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a))
      .bind(7, impl).bind(8, config).bind(9, mode);
  if (!s.step()) return std::nullopt;
  return row_to_measurement(s);
}

std::vector<Measurement> ResultsDb::measurements_of(const Shape& sh, Layout l, Accum a, const std::string& impl,
                                                    const std::string& mode) const {
  Statement s(db_, std::string("SELECT ") + kMeasurementColumns +
                       " FROM measurements WHERE env = ? AND M = ? AND N = ? AND K = ? AND layout = ? AND acc = ? "
                       "AND impl = ? AND mode = ? ORDER BY id", path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a))
      .bind(7, impl).bind(8, mode);
  std::vector<Measurement> out;
  while (s.step()) out.push_back(row_to_measurement(s));
  return out;
}

std::vector<Measurement> ResultsDb::all_in_this_environment() const {
  Statement s(db_, std::string("SELECT ") + kMeasurementColumns + " FROM measurements WHERE env = ? ORDER BY id", path_);
  s.bind(1, env_id_);
  std::vector<Measurement> out;
  while (s.step()) out.push_back(row_to_measurement(s));
  return out;
}

long long ResultsDb::foreign_count() const {
  Statement s(db_, "SELECT count(*) FROM measurements WHERE env != ?", path_);
  s.bind(1, env_id_);
  return s.step() ? s.i64(0) : 0;
}

std::vector<DbEnvironment> ResultsDb::environments(const std::filesystem::path& path) {
  check_file(path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  sqlite3* db = detail::open_sqlite(path, SQLITE_OPEN_READONLY);
  struct Closer {
    sqlite3* db;
    ~Closer() { sqlite3_close(db); }
  } closer{db};
  Statement s(db, "SELECT key, gpu, arch, kernel_source_hash, driver, cuda FROM environments ORDER BY id", path);
  std::vector<DbEnvironment> out;
  while (s.step()) {
    DbEnvironment e{s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)};
    const std::string key = s.text(0);
    const auto bar = key.rfind("|m");
    e.protocol = bar != std::string::npos && bar + 2 < key.size() && key.find('|', bar + 1) == std::string::npos
                     ? key.substr(bar + 2)
                     : "1";
    out.push_back(e);
  }
  return out;
}

void ResultsDb::record_decision(const Decision& d) {
  Statement s(db_, "INSERT OR REPLACE INTO winners (env, M, N, K, layout, acc, config, speedup, outcome, best, runner_up, "
                   "best_us, runner_up_us, baseline_us, tie_band, budget, run) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, env_id_).bind(2, d.shape.M).bind(3, d.shape.N).bind(4, d.shape.K).bind(5, to_string(d.layout))
      .bind(6, to_string(d.acc)).bind(7, d.served).bind(8, std::optional<double>(d.speedup)).bind(9, d.outcome)
      .bind(10, d.best).bind(11, d.runner_up).bind(12, d.best_us).bind(13, d.runner_up_us).bind(14, d.baseline_us)
      .bind(15, std::optional<double>(d.tie_band)).bind(16, (long long)d.budget).bind_run(17, run_id_);
  s.step();
}

std::optional<Decision> ResultsDb::decision(const Shape& sh, Layout l, Accum a) const {
  Statement s(db_, std::string("SELECT ") + kDecisionColumns +
                       " FROM winners WHERE env = ? AND M = ? AND N = ? AND K = ? AND layout = ? AND acc = ?", path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a));
  if (!s.step()) return std::nullopt;
  return row_to_decision(s);
}

std::vector<Decision> ResultsDb::decisions() const {
  Statement s(db_, std::string("SELECT ") + kDecisionColumns + " FROM winners WHERE env = ? ORDER BY M, N, K, layout, acc",
              path_);
  s.bind(1, env_id_);
  std::vector<Decision> out;
  while (s.step()) out.push_back(row_to_decision(s));
  return out;
}

void ResultsDb::set_winner(const Shape& sh, Layout l, Accum a, const std::string& config, double speedup) {
  Decision d;
  d.shape = sh;
  d.layout = l;
  d.acc = a;
  d.served = config;
  d.speedup = speedup;
  record_decision(d);
}

std::optional<std::string> ResultsDb::winner(const Shape& sh, Layout l, Accum a) const {
  if (auto d = decision(sh, l, a)) return d->served;
  return std::nullopt;
}

}  // namespace gemmforge
