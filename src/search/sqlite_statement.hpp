// The SQLite plumbing the results database's files share (results_db.cpp, results_db_csv.cpp):
// a prepared statement that names the file in its errors, and the schema's version. Internal.
#pragma once
#include <sqlite3.h>

#include <filesystem>
#include <optional>
#include <string>

#include "gemmforge/types.hpp"

namespace gemmforge::detail {

inline constexpr int kSchemaVersion = 2;

// One prepared statement, finalized on every path out.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::filesystem::path& file) : db_(db), file_(file) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(st_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
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
  Statement& bind_run(int i, long long run) {  // 0: no run (a row written outside begin_run)
    check(run ? sqlite3_bind_int64(st_, i, run) : sqlite3_bind_null(st_, i));
    return *this;
  }
  // Ready to bind and step again (bindings are replaced by the next bind calls).
  void reset() { sqlite3_reset(st_); }
  sqlite3_stmt* raw() const { return st_; }
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

// The schema version of an open database: 0 for an empty file, -1 for a file with tables but no
// gemmforge meta table (someone else's database).
inline long long schema_version(sqlite3* db, const std::filesystem::path& path) {
  long long tables = 0, meta = 0;
  {
    Statement s(db, "SELECT count(*), sum(name = 'meta') FROM sqlite_master WHERE type = 'table'", path);
    if (s.step()) {
      tables = s.i64(0);
      meta = s.i64(1);
    }
  }
  if (tables == 0) return 0;
  if (meta == 0) return -1;
  Statement s(db, "SELECT value FROM meta WHERE key = 'gemmforge_schema'", path);
  if (!s.step()) return -1;
  const auto v = parse_integer(s.text(0));
  return v && *v > 0 ? *v : -1;
}

// Opens a database file with these sqlite3_open_v2 flags; throws Error naming it (nothing open).
inline sqlite3* open_sqlite(const std::filesystem::path& path, int flags, const char* what = "open") {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw Error(std::string("cannot ") + what + " results database '" + path.string() + "': " + why);
  }
  return db;
}

// Runs SQL without results; throws Error naming the file.
inline void exec_sql(sqlite3* db, const char* sql, const std::filesystem::path& file) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    throw Error("results database '" + file.string() + "': " + why);
  }
}

}  // namespace gemmforge::detail
