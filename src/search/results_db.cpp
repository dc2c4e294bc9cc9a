#include "search/results_db.hpp"

#include <sqlite3.h>

namespace gemmforge {
namespace {

constexpr int kSchemaVersion = 1;

// One prepared statement, finalized on every path out.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::filesystem::path& file) : db_(db), file_(file) {
    if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(st_, i, v.c_str(), int(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, long long v) {
    check(sqlite3_bind_int64(st_, i, v));
    return *this;
  }
  Statement& bind(int i, std::optional<double> v) {
    check(v ? sqlite3_bind_double(st_, i, *v) : sqlite3_bind_null(st_, i));
    return *this;
  }
  bool step() {  // true while there is a row
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  long long i64(int c) const { return sqlite3_column_int64(st_, c); }
  std::string text(int c) const {
    const auto* p = sqlite3_column_text(st_, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::optional<double> real(int c) const {
    if (sqlite3_column_type(st_, c) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(st_, c);
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) {
    throw Error("results database '" + file_.string() + "': " + what + " failed: " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
  std::filesystem::path file_;
};

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
  return m;
}

constexpr const char* kSelectColumns = "M, N, K, layout, acc, impl, config, mode, verdict, median_us, spread";

}  // namespace

ResultsDb::ResultsDb(const std::filesystem::path& path, const DbEnvironment& env) : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error("cannot open results database '" + path.string() + "': " + why);
  }
  try {
    open_schema(env);
  } catch (...) {
    sqlite3_close(db_);  // a constructor that throws runs no destructor
    db_ = nullptr;
    throw;
  }
}

void ResultsDb::open_schema(const DbEnvironment& env) {
  const auto& path = path_;
  try {
    sqlite3_busy_timeout(db_, 10000);  // a second tuner process on the same file waits, not fails
    // Reading the schema first tells a foreign or damaged file apart before anything is written.
    long long version = -1;
    {
      Statement s(db_, "SELECT value FROM meta WHERE key = 'gemmforge_schema'", path_);
      if (s.step()) version = std::stoll(s.text(0));
    }
    if (version != kSchemaVersion) throw Error("unsupported schema version " + std::to_string(version));
  } catch (const Error& e) {
    // No meta table: a new (empty) file gets the schema; anything else is refused untouched.
    long long tables = 0;
    {
      Statement s(db_, "SELECT count(*) FROM sqlite_master", path_);
      if (s.step()) tables = s.i64(0);
    }
    if (tables != 0) {
      throw Error("'" + path.string() + "' is not a gemmforge results database (" + e.what() + "); it was left untouched");
    }
    exec("PRAGMA journal_mode=WAL");
    exec("BEGIN");
    exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    exec("INSERT INTO meta VALUES ('gemmforge_schema', '1')");
    exec("CREATE TABLE environments (id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, gpu TEXT, arch TEXT, "
         "kernel_source_hash TEXT, driver TEXT, cuda TEXT, first_seen TEXT DEFAULT CURRENT_TIMESTAMP)");
    exec("CREATE TABLE measurements (id INTEGER PRIMARY KEY, env INTEGER NOT NULL REFERENCES environments(id), "
         "M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, impl TEXT, config TEXT, mode TEXT, verdict TEXT, "
         "median_us REAL, spread REAL, at TEXT DEFAULT CURRENT_TIMESTAMP)");
    exec("CREATE INDEX measurements_by_candidate ON measurements (env, M, N, K, layout, acc, impl, config, mode)");
    exec("CREATE TABLE winners (env INTEGER NOT NULL, M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, "
         "config TEXT, speedup REAL, PRIMARY KEY (env, M, N, K, layout, acc))");
    exec("COMMIT");
  }
  exec("PRAGMA journal_mode=WAL");
  {
    Statement s(db_, "INSERT OR IGNORE INTO environments (key, gpu, arch, kernel_source_hash, driver, cuda) "
                     "VALUES (?, ?, ?, ?, ?, ?)", path_);
    s.bind(1, env.key()).bind(2, env.gpu).bind(3, env.arch).bind(4, env.kernel_source_hash).bind(5, env.driver)
        .bind(6, env.cuda);
    s.step();
  }
  Statement s(db_, "SELECT id FROM environments WHERE key = ?", path_);
  s.bind(1, env.key());
  if (!s.step()) throw Error("results database '" + path.string() + "': environment not registered");
  env_id_ = s.i64(0);
}

ResultsDb::~ResultsDb() {
  if (db_) sqlite3_close(db_);
}

void ResultsDb::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : "unknown error";
    sqlite3_free(err);
    throw Error("results database '" + path_.string() + "': " + why);
  }
}

void ResultsDb::record(const Measurement& m) {
  Statement s(db_, "INSERT INTO measurements (env, M, N, K, layout, acc, impl, config, mode, verdict, median_us, spread) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, env_id_).bind(2, m.shape.M).bind(3, m.shape.N).bind(4, m.shape.K).bind(5, to_string(m.layout))
      .bind(6, to_string(m.acc)).bind(7, m.impl).bind(8, m.config).bind(9, m.mode).bind(10, m.verdict)
      .bind(11, m.median_us).bind(12, m.spread);
  s.step();
}

std::optional<Measurement> ResultsDb::find(const Shape& sh, Layout l, Accum a, const std::string& impl,
                                           const std::string& config, const std::string& mode) const {
  Statement s(db_, (std::string("SELECT ") + kSelectColumns +
                    " FROM measurements WHERE env = ? AND M = ? AND N = ? AND K = ? AND layout = ? AND acc = ? "
                    "AND impl = ? AND config = ? AND mode = ? ORDER BY id DESC LIMIT 1").c_str(), path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a))
      .bind(7, impl).bind(8, config).bind(9, mode);
  if (!s.step()) return std::nullopt;
  return row_to_measurement(s);
}

std::vector<Measurement> ResultsDb::all_in_this_environment() const {
  Statement s(db_, (std::string("SELECT ") + kSelectColumns + " FROM measurements WHERE env = ? ORDER BY id").c_str(),
              path_);
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

void ResultsDb::set_winner(const Shape& sh, Layout l, Accum a, const std::string& config, double speedup) {
  Statement s(db_, "INSERT OR REPLACE INTO winners VALUES (?, ?, ?, ?, ?, ?, ?, ?)", path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a))
      .bind(7, config).bind(8, std::optional<double>(speedup));
  s.step();
}

std::optional<std::string> ResultsDb::winner(const Shape& sh, Layout l, Accum a) const {
  Statement s(db_, "SELECT config FROM winners WHERE env = ? AND M = ? AND N = ? AND K = ? AND layout = ? AND acc = ?",
              path_);
  s.bind(1, env_id_).bind(2, sh.M).bind(3, sh.N).bind(4, sh.K).bind(5, to_string(l)).bind(6, to_string(a));
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

}  // namespace gemmforge
