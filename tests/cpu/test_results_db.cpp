#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sqlite3.h>
#include <unistd.h>

#include <zlib.h>

#include "core/kernel_candidate.hpp"
#include "core/records.hpp"
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

TEST(ResultsDb, ResultsFromAnotherGpuArchKernelSourceOrProtocolAreNeverReused) {
  TempDir dir;
  const auto file = dir.path / "tune.sqlite";
  {
    ResultsDb db(file, h200());
    db.record(sample(200));
  }
  for (auto change : {0, 1, 2, 3}) {
    DbEnvironment other = h200();
    if (change == 0) other.gpu = "NVIDIA H100 80GB HBM3";
    if (change == 1) other.arch = "sm_80";
    if (change == 2) other.kernel_source_hash = "def456";
    if (change == 3) other.protocol = "1";  // measured another way
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

// Candidates of either family, generic or built for one shape, are stored under names that tell
// them apart and read back as the same candidates; a row the Hopper-only tuner wrote still reads.
TEST(ResultsDb, CandidatesOfEitherFamilyAndShapeBuildsRoundTrip) {
  TempDir dir;
  const Shape s{64, 64, 128};
  KernelCandidate hopper;
  hopper.knobs.pdl = true;
  Sm80Config k;
  k.block_m = 32;
  k.warps_m = 1;
  const std::vector<KernelCandidate> kinds = {hopper, hopper.specialized_for(s), sm80_candidate(k),
                                              sm80_candidate(k).specialized_for(s)};
  const std::string old_name = "sm90_tn_f32_64x128x64_s3_c1_coop_1x1";
  {
    ResultsDb db(dir.path / "t.sqlite", h200());
    for (size_t i = 0; i < kinds.size(); ++i) {
      db.add_candidate(kinds[i].name(), kinds[i].to_json().dump());
      Measurement m = sample(10.0 + double(i));
      m.shape = s;
      m.mode = "estimate";
      m.config = kinds[i].name();
      db.record(m);
    }
    db.add_candidate(old_name, R"({"config": {"layout": "tn", "acc": "f32", "block_m": 64, "block_n": 128,)"
                               R"( "stages": 3, "consumers": 1}, "launch": {"splits": 1}})");
  }
  ResultsDb db(dir.path / "t.sqlite", h200());
  EXPECT_EQ(db.measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate").size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    const auto json = db.candidate_json(kinds[i].name());
    ASSERT_TRUE(json.has_value()) << kinds[i].name();
    EXPECT_EQ(KernelCandidate::from_json(nlohmann::json::parse(*json)), kinds[i]);
    const auto m = db.find(s, Layout::tn, Accum::f32, "gemmforge", kinds[i].name(), "estimate");
    ASSERT_TRUE(m && m->median_us);
    EXPECT_DOUBLE_EQ(*m->median_us, 10.0 + double(i));
  }
  const KernelCandidate old = KernelCandidate::from_json(nlohmann::json::parse(*db.candidate_json(old_name)));
  EXPECT_EQ(old.name(), old_name);
  EXPECT_FALSE(old.specialized());
  EXPECT_FALSE(old.sm80_config());
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

namespace gemmforge {
namespace {

struct DbFile {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("gemmforge_db_test2_" + std::to_string(getpid()) + "_" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::path file = dir / "tune.sqlite";
  DbFile() {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~DbFile() { std::filesystem::remove_all(dir); }
};

DbEnvironment env() { return {"NVIDIA H200", "sm_90a", "abc123", "580.159.04", "13.0"}; }

TEST(ResultsDb, DecisionsRunsAndCandidatesRoundTrip) {
  DbFile f;
  {
    ResultsDb db(f.file, env());
    db.begin_run("gemmforge tune --shape 64x64x64", R"({"gpu": "NVIDIA H200", "sm_clock_mhz_at_start": 1980})", "{}");
    db.add_candidate("sm90_x_k4", R"({"config": {}, "launch": {"splits": 4}})");
    db.add_candidate("sm90_x_k4", "ignored: a name is added once");
    Decision d;
    d.shape = {64, 64, 4096};
    d.layout = Layout::nn;
    d.served = "cublaslt";
    d.outcome = "tie";
    d.best = "sm90_x_k4";
    d.best_us = 6.1;
    d.baseline_us = 6.2;
    d.speedup = 6.2 / 6.1;
    d.tie_band = 0.02;
    d.budget = 16;
    db.record_decision(d);
    Measurement m;
    m.shape = d.shape;
    m.layout = Layout::nn;
    m.impl = "gemmforge";
    m.config = "sm90_x_k4";
    m.mode = "estimate";
    m.verdict = "fail: worker killed by signal 11 (Segmentation fault)";
    m.note = "seed";
    db.record(m);
    db.finish_run(R"({"problems": 1})");
  }
  ResultsDb db(f.file, env());
  EXPECT_EQ(db.candidate_json("sm90_x_k4").value(), R"({"config": {}, "launch": {"splits": 4}})");
  EXPECT_FALSE(db.candidate_json("other").has_value());
  const auto d = db.decision({64, 64, 4096}, Layout::nn, Accum::f32);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, "tie");
  EXPECT_EQ(d->served, "cublaslt");
  EXPECT_EQ(d->best, "sm90_x_k4");
  EXPECT_DOUBLE_EQ(*d->best_us, 6.1);
  EXPECT_DOUBLE_EQ(d->tie_band, 0.02);
  EXPECT_EQ(d->budget, 16);
  EXPECT_FALSE(d->runner_up_us.has_value());
  EXPECT_EQ(db.decisions().size(), 1u);
  const auto ms = db.measurements_of({64, 64, 4096}, Layout::nn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].note, "seed");
  EXPECT_EQ(ms[0].verdict, "fail: worker killed by signal 11 (Segmentation fault)");
  EXPECT_TRUE(db.measurements_of({64, 64, 4096}, Layout::tn, Accum::f32, "gemmforge", "estimate").empty());
}

TEST(ResultsDb, CheckFileRefusesWhatItCannotUseWithoutTouchingIt) {
  DbFile f;
  EXPECT_NO_THROW(ResultsDb::check_file(f.dir / "new.sqlite"));  // made on first use
  EXPECT_FALSE(std::filesystem::exists(f.dir / "new.sqlite"));
  std::ofstream(f.dir / "notes.txt") << "not a database\n";
  EXPECT_THROW(ResultsDb::check_file(f.dir / "notes.txt"), Error);
  { ResultsDb db(f.file, env()); }
  EXPECT_NO_THROW(ResultsDb::check_file(f.file));
  // Someone else's SQLite database.
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open((f.dir / "other.sqlite").c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE recipes (name TEXT)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  EXPECT_THROW(ResultsDb::check_file(f.dir / "other.sqlite"), Error);
  EXPECT_THROW(ResultsDb(f.dir / "other.sqlite", env()), Error);
  // A newer gemmforge's database.
  ASSERT_EQ(sqlite3_open(f.file.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "UPDATE meta SET value = '99' WHERE key = 'gemmforge_schema'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
  try {
    ResultsDb::check_file(f.file);
    FAIL() << "accepted a newer schema";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("newer gemmforge"), std::string::npos) << e.what();
  }
}

// Its results stay readable under the protocol they were measured with (1, the key without a
// version); a tune now measures under protocol 2 and does not reuse them.
TEST(ResultsDb, AVersionOneDatabaseIsUpgradedAndKeepsItsResultsUnderTheirProtocol) {
  DbFile f;
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(f.file.c_str(), &raw), SQLITE_OK);
  const char* v1 =
      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
      "INSERT INTO meta VALUES ('gemmforge_schema', '1');"
      "CREATE TABLE environments (id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, gpu TEXT, arch TEXT, "
      "kernel_source_hash TEXT, driver TEXT, cuda TEXT, first_seen TEXT DEFAULT CURRENT_TIMESTAMP);"
      "INSERT INTO environments (id, key, gpu, arch, kernel_source_hash) "
      "VALUES (1, 'NVIDIA H200|sm_90a|abc123', 'NVIDIA H200', 'sm_90a', 'abc123');"
      "CREATE TABLE measurements (id INTEGER PRIMARY KEY, env INTEGER NOT NULL REFERENCES environments(id), "
      "M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, impl TEXT, config TEXT, mode TEXT, verdict TEXT, "
      "median_us REAL, spread REAL, at TEXT DEFAULT CURRENT_TIMESTAMP);"
      "INSERT INTO measurements (env, M, N, K, layout, acc, impl, config, mode, verdict, median_us) "
      "VALUES (1, 64, 64, 64, 'tn', 'f32', 'gemmforge', 'old', 'gpu', 'pass', 3.5);"
      "CREATE TABLE winners (env INTEGER NOT NULL, M INTEGER, N INTEGER, K INTEGER, layout TEXT, acc TEXT, "
      "config TEXT, speedup REAL, PRIMARY KEY (env, M, N, K, layout, acc));"
      "INSERT INTO winners VALUES (1, 64, 64, 64, 'tn', 'f32', 'old', 1.1);";
  ASSERT_EQ(sqlite3_exec(raw, v1, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  {
    ResultsDb now(f.file, env());  // today's protocol: the old measurement is not one of its own
    EXPECT_FALSE(now.find({64, 64, 64}, Layout::tn, Accum::f32, "gemmforge", "old", "gpu").has_value());
  }
  DbEnvironment then = env();
  then.protocol = "1";  // what it was measured under: a key without a protocol version
  ResultsDb db(f.file, then);
  const auto m = db.find({64, 64, 64}, Layout::tn, Accum::f32, "gemmforge", "old", "gpu");
  ASSERT_TRUE(m.has_value());
  EXPECT_DOUBLE_EQ(*m->median_us, 3.5);
  EXPECT_EQ(db.winner({64, 64, 64}, Layout::tn, Accum::f32).value(), "old");
  Decision d;
  d.shape = {64, 64, 128};
  d.served = "cublaslt";
  d.outcome = "loss";
  db.record_decision(d);
  EXPECT_EQ(db.decision({64, 64, 128}, Layout::tn, Accum::f32)->outcome, "loss");
}

// A database written as CSV files and read back is the same database: a tune resumes from it.
TEST(ResultsDb, AnExportedDatabaseImportsBackWithEveryRowAndNull) {
  DbFile f;
  const Shape s{64, 64, 4096};
  {
    ResultsDb db(f.file, env());
    db.begin_run("gemmforge tune --shape 64x64x4096", R"({"gpu": "NVIDIA H200"})", R"({"budget": 6})");
    db.add_candidate("sm90_x_k4", R"({"config": {"a": "b,c"}, "launch": {"splits": 4}})");
    Measurement m;
    m.shape = s;
    m.impl = "gemmforge";
    m.config = "sm90_x_k4";
    m.mode = "estimate";
    m.verdict = "fail: not built: ptxas said \"no\",\r\nthen more";  // quotes, a comma, a line break
    m.note = "seed";
    db.record(m);  // no time: NULLs
    m.verdict = "pass";
    m.median_us = 6.123456789012345;
    m.spread = 0.0125;
    m.note = "";
    db.record(m);
    Measurement base;
    base.shape = s;
    base.impl = "cublaslt-autotune";
    base.mode = "estimate";
    base.verdict = "pass";
    base.median_us = 7.0;
    db.record(base);  // config "": the empty text, not NULL, as the tuner looks it up
    Decision d;
    d.shape = s;
    d.served = "sm90_x_k4";
    d.outcome = "win";
    d.best = "sm90_x_k4";
    d.best_us = 6.1;
    d.baseline_us = 7.0;
    d.speedup = 7.0 / 6.1;
    d.budget = 24;
    db.record_decision(d);
    db.finish_run(R"({"problems": 1})");
  }
  ResultsDb::export_csv(f.file, f.dir / "csv");
  for (const auto& t : ResultsDb::table_names()) EXPECT_TRUE(std::filesystem::exists(f.dir / "csv" / ("db-" + t + ".csv.gz")));
  ResultsDb::import_csv(f.dir / "csv", f.dir / "again.sqlite");
  ResultsDb db(f.dir / "again.sqlite", env());
  const auto ms = db.measurements_of(s, Layout::tn, Accum::f32, "gemmforge", "estimate");
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].verdict, "fail: not built: ptxas said \"no\",\r\nthen more");
  EXPECT_FALSE(ms[0].median_us.has_value());
  EXPECT_FALSE(ms[0].spread.has_value());
  EXPECT_EQ(ms[0].note, "seed");
  EXPECT_EQ(*ms[1].median_us, 6.123456789012345);  // the same double, not a rounded one
  EXPECT_EQ(*ms[1].spread, 0.0125);
  EXPECT_TRUE(db.find(s, Layout::tn, Accum::f32, "cublaslt-autotune", "", "estimate").has_value());
  const auto d = db.decision(s, Layout::tn, Accum::f32);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->served, "sm90_x_k4");
  EXPECT_EQ(d->budget, 24);
  EXPECT_FALSE(d->runner_up_us.has_value());
  EXPECT_EQ(db.candidate_json("sm90_x_k4").value(), R"({"config": {"a": "b,c"}, "launch": {"splits": 4}})");
  EXPECT_EQ(db.foreign_count(), 0);  // the same environment row, so its results are reused
  // Exporting the import again gives the same files.
  ResultsDb::export_csv(f.dir / "again.sqlite", f.dir / "csv2");
  for (const auto& t : ResultsDb::table_names()) {
    auto read = [](const std::filesystem::path& p) {
      return split_csv_records(read_maybe_gzipped(p));
    };
    EXPECT_EQ(read(f.dir / "csv" / ("db-" + t + ".csv.gz")), read(f.dir / "csv2" / ("db-" + t + ".csv.gz"))) << t;
  }
}

// An export of one kernel source keeps that source's environment, runs, measurements, decisions
// and the candidates it measured, and nothing of another source's; a source the database does not
// hold is refused before anything is written.
TEST(ResultsDb, AnExportOfOneKernelSourceLeavesTheOthersOut) {
  DbFile f;
  const Shape s{64, 64, 4096};
  DbEnvironment old_source = env(), new_source = env();
  new_source.kernel_source_hash = old_source.kernel_source_hash + "-next";
  for (const auto& [e, name] : {std::pair{old_source, std::string("sm90_old")}, std::pair{new_source, std::string("sm90_new")}}) {
    ResultsDb db(f.file, e);
    db.begin_run("gemmforge tune", "{}", "{}");
    db.add_candidate(name, R"({"config": {}})");
    Measurement m;
    m.shape = s;
    m.impl = "gemmforge";
    m.config = name;
    m.mode = "gpu";
    m.verdict = "pass";
    m.median_us = 5.0;
    db.record(m);
    Decision d;
    d.shape = s;
    d.served = d.best = name;
    d.outcome = "win";
    db.record_decision(d);
    db.finish_run("{}");
  }
  ResultsDb::export_csv(f.file, f.dir / "new", new_source.kernel_source_hash);
  ResultsDb::import_csv(f.dir / "new", f.dir / "new.sqlite");
  EXPECT_EQ(ResultsDb::environments(f.dir / "new.sqlite").size(), 1u);
  {
    ResultsDb db(f.dir / "new.sqlite", new_source);
    ASSERT_EQ(db.all_in_this_environment().size(), 1u);
    EXPECT_EQ(db.all_in_this_environment()[0].config, "sm90_new");
    ASSERT_TRUE(db.decision(s, Layout::tn, Accum::f32));
    EXPECT_EQ(db.decision(s, Layout::tn, Accum::f32)->served, "sm90_new");
    EXPECT_TRUE(db.candidate_json("sm90_new").has_value());
    EXPECT_FALSE(db.candidate_json("sm90_old").has_value());
  }
  {
    ResultsDb db(f.dir / "new.sqlite", old_source);
    EXPECT_TRUE(db.all_in_this_environment().empty());
    EXPECT_FALSE(db.decision(s, Layout::tn, Accum::f32));
  }
  EXPECT_THROW(ResultsDb::export_csv(f.file, f.dir / "none", std::string("no-such-source")), Error);
  EXPECT_FALSE(std::filesystem::exists(f.dir / "none"));
  ResultsDb::export_csv(f.file, f.dir / "all");  // without a source: both
  ResultsDb::import_csv(f.dir / "all", f.dir / "all.sqlite");
  EXPECT_EQ(ResultsDb::environments(f.dir / "all.sqlite").size(), 2u);
}

TEST(ResultsDb, AnImportRefusesToOverwriteOrToReadADamagedExportAndLeavesNoFile) {
  DbFile f;
  { ResultsDb db(f.file, env()); }
  ResultsDb::export_csv(f.file, f.dir / "csv");
  // Never over a file the user has.
  const auto size = std::filesystem::file_size(f.file);
  EXPECT_THROW(ResultsDb::import_csv(f.dir / "csv", f.file), Error);
  EXPECT_EQ(std::filesystem::file_size(f.file), size);
  // A row that does not fit its header: nothing is created.
  {
    gzFile g = gzopen((f.dir / "csv" / "db-winners.csv.gz").c_str(), "ab");
    gzputs(g, "1,2,3\n");
    gzclose(g);
  }
  try {
    ResultsDb::import_csv(f.dir / "csv", f.dir / "new.sqlite");
    FAIL() << "imported a damaged file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("db-winners.csv.gz' row 2: 3 fields"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(f.dir / "new.sqlite"));
  // A directory that is not an export.
  std::filesystem::remove(f.dir / "csv" / "db-runs.csv.gz");
  EXPECT_THROW(ResultsDb::import_csv(f.dir / "csv", f.dir / "new.sqlite"), Error);
  EXPECT_FALSE(std::filesystem::exists(f.dir / "new.sqlite"));
  // Not a results database at all.
  std::ofstream(f.dir / "notes.txt") << "not a database\n";
  EXPECT_THROW(ResultsDb::export_csv(f.dir / "notes.txt", f.dir / "csv3"), Error);
}

}  // namespace
}  // namespace gemmforge
