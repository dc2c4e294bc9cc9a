// The results database as plain files and back (ResultsDb::export_csv, import_csv). The device
// machine keeps nothing between sessions and a SQLite file does not belong in the repository, so
// a tune's database is committed as its tables' CSV files, and a later tune resumes from them.
#include <zlib.h>

#include <charconv>
#include <cstdio>
#include <map>
#include <set>

#include "core/records.hpp"
#include "search/results_db.hpp"
#include "search/sqlite_statement.hpp"

namespace gemmforge {
namespace {

using detail::Statement;

std::filesystem::path table_file(const std::filesystem::path& dir, const std::string& table) {
  return dir / ("db-" + table + ".csv.gz");
}

// A REAL as the shortest text that reads back to the same double.
std::string real_text(double v) {
  char b[40];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

void write_gzip(const std::filesystem::path& path, const std::string& text) {
  const auto tmp = path.string() + ".tmp";
  gzFile f = gzopen(tmp.c_str(), "wb9");
  if (!f) throw Error("cannot write '" + tmp + "'");
  const bool ok = text.empty() || gzwrite(f, text.data(), unsigned(text.size())) == int(text.size());
  if (gzclose(f) != Z_OK || !ok) {
    std::filesystem::remove(tmp);
    throw Error("cannot write '" + tmp + "'");
  }
  std::filesystem::rename(tmp, path);
}

// Declared column types of a table, by column name (PRAGMA table_info).
std::map<std::string, std::string> column_types(sqlite3* db, const std::string& table, const std::filesystem::path& file) {
  std::map<std::string, std::string> out;
  Statement s(db, "SELECT name, type FROM pragma_table_info(?)", file);
  s.bind(1, table);
  while (s.step()) out[s.text(0)] = s.text(1);
  return out;
}

// Opens an existing database read-only and checks it is a gemmforge one of this schema.
sqlite3* open_for_export(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw Error("no results database at '" + path.string() + "'");
  sqlite3* db = detail::open_sqlite(path, SQLITE_OPEN_READONLY);
  long long version = -1;
  try {
    version = detail::schema_version(db, path);
  } catch (const Error&) {
    version = -1;  // not a database at all
  }
  if (version == detail::kSchemaVersion) return db;
  sqlite3_close(db);
  if (version <= 0) throw Error("'" + path.string() + "' is not a gemmforge results database");
  throw Error("'" + path.string() + "' has results schema " + std::to_string(version) + ", not " +
              std::to_string(detail::kSchemaVersion) + ": open it once with this gemmforge (tune upgrades an older one)");
}

// The schema version a directory of exported tables holds (its db-meta file).
long long exported_schema(const std::filesystem::path& dir) {
  std::vector<std::vector<std::string>> records;
  try {
    records = split_csv_records(read_maybe_gzipped(table_file(dir, "meta")));
  } catch (const Error& e) {
    throw Error("'" + table_file(dir, "meta").string() + "': " + e.what());
  }
  for (size_t i = 1; i < records.size(); ++i)
    if (records[i].size() == 2 && records[i][0] == "gemmforge_schema")
      if (const auto v = parse_integer(records[i][1])) return *v;
  throw Error("'" + table_file(dir, "meta").string() + "' does not say its results schema");
}

}  // namespace

const std::vector<std::string>& ResultsDb::table_names() {
  static const std::vector<std::string> names = {"meta", "environments", "runs", "candidates", "measurements", "winners"};
  return names;
}

// The rows of `table` an export keeps: all, or those of the environments of one kernel source
// (bound as parameter 1).
static std::string export_filter(const std::string& table, bool one_source) {
  if (!one_source || table == "meta") return "";
  const std::string envs = "SELECT id FROM environments WHERE kernel_source_hash = ?1";
  if (table == "environments") return " WHERE kernel_source_hash = ?1";
  if (table == "candidates") return " WHERE name IN (SELECT config FROM measurements WHERE env IN (" + envs + "))";
  return " WHERE env IN (" + envs + ")";  // runs, measurements, winners
}

void ResultsDb::export_csv(const std::filesystem::path& path, const std::filesystem::path& dir,
                           const std::optional<std::string>& kernel_source) {
  sqlite3* db = open_for_export(path);
  try {
    if (kernel_source) {
      Statement held(db, "SELECT COUNT(*) FROM environments WHERE kernel_source_hash = ?", path);
      held.bind(1, *kernel_source);
      if (!held.step() || held.i64(0) == 0)
        throw Error("'" + path.string() + "' holds no results of kernel source " + *kernel_source + " (nothing written)");
    }
    std::filesystem::create_directories(dir);
    for (const auto& table : table_names()) {
      Statement s(db, "SELECT * FROM " + table + export_filter(table, kernel_source.has_value()) + " ORDER BY rowid", path);
      if (kernel_source && table != "meta") s.bind(1, *kernel_source);
      std::string text;
      sqlite3_stmt* raw = s.raw();
      const int columns = sqlite3_column_count(raw);
      for (int c = 0; c < columns; ++c) text += (c ? "," : "") + csv_text(sqlite3_column_name(raw, c));
      text += "\n";
      while (s.step()) {
        for (int c = 0; c < columns; ++c) {
          if (c) text += ",";
          switch (sqlite3_column_type(raw, c)) {
            case SQLITE_NULL: break;
            case SQLITE_INTEGER: text += std::to_string(s.i64(c)); break;
            case SQLITE_FLOAT: text += real_text(sqlite3_column_double(raw, c)); break;
            default: text += csv_text(s.text(c));
          }
        }
        text += "\n";
      }
      write_gzip(table_file(dir, table), text);
    }
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  sqlite3_close(db);
}

void ResultsDb::import_csv(const std::filesystem::path& dir, const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec))
    throw Error("'" + path.string() + "' exists: import writes a new database only (nothing was changed)");
  for (const auto& table : table_names())
    if (!std::filesystem::is_regular_file(table_file(dir, table)))
      throw Error("no '" + table_file(dir, table).string() + "': not an exported results database");
  if (const long long v = exported_schema(dir); v != detail::kSchemaVersion)
    throw Error("'" + dir.string() + "' holds results schema " + std::to_string(v) + ", this gemmforge reads " +
                std::to_string(detail::kSchemaVersion));
  sqlite3* db = nullptr;
  try {
    db = detail::open_sqlite(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "create");
  } catch (const Error&) {
    std::filesystem::remove(path, ec);
    throw;
  }
  try {
    create_schema(db, path);
    detail::exec_sql(db, "BEGIN IMMEDIATE", path);
    for (const auto& table : table_names()) {
      if (table == "meta") continue;  // the schema's own rows, checked above
      const auto file = table_file(dir, table);
      std::vector<std::vector<std::string>> records;
      try {
        records = split_csv_records(read_maybe_gzipped(file));
      } catch (const Error& e) {
        throw Error("'" + file.string() + "': " + e.what());
      }
      if (records.empty()) throw Error("'" + file.string() + "' has no header");
      const auto types = column_types(db, table, path);
      const auto& header = records.front();
      std::set<std::string> seen;
      std::string columns, marks;
      for (const auto& name : header) {
        if (!types.count(name)) throw Error("'" + file.string() + "': table " + table + " has no column '" + name + "'");
        if (!seen.insert(name).second) throw Error("'" + file.string() + "': column '" + name + "' twice");
        columns += (columns.empty() ? "" : ", ") + name;
        marks += marks.empty() ? "?" : ", ?";
      }
      Statement insert(db, "INSERT INTO " + table + " (" + columns + ") VALUES (" + marks + ")", path);
      for (size_t r = 1; r < records.size(); ++r) {
        const auto& fields = records[r];
        const std::string where = "'" + file.string() + "' row " + std::to_string(r + 1);
        if (fields.size() != header.size())
          throw Error(where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                      std::to_string(header.size()));
        insert.reset();
        for (size_t c = 0; c < fields.size(); ++c) {
          const std::string& type = types.at(header[c]);
          const int i = int(c) + 1;
          // An empty number is a NULL; an empty text is the empty string (the tuner writes no NULL
          // text where it reads one back: a NULL text column reads as "" everywhere).
          if (type == "INTEGER") {
            if (fields[c].empty()) insert.bind(i, std::optional<double>());
            else if (const auto v = parse_integer(fields[c])) insert.bind(i, (long long)*v);
            else throw Error(where + ": " + header[c] + " '" + fields[c] + "' is not an integer");
          } else if (type == "REAL") {
            if (fields[c].empty()) insert.bind(i, std::optional<double>());
            else if (const auto v = parse_real(fields[c])) insert.bind(i, std::optional<double>(*v));
            else throw Error(where + ": " + header[c] + " '" + fields[c] + "' is not a number");
          } else {
            insert.bind(i, fields[c]);
          }
        }
        insert.step();
      }
    }
    detail::exec_sql(db, "COMMIT", path);
  } catch (...) {
    sqlite3_close(db);
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path.string() + "-wal", ec);
    std::filesystem::remove(path.string() + "-shm", ec);
    throw;
  }
  sqlite3_close(db);
}

}  // namespace gemmforge
