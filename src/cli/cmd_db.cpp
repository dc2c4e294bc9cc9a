// gemmforge db: a tune's results database as CSV files and back, so a database measured on a
// device machine that keeps nothing can be committed with its results and resumed later.
#include <iostream>

#include "cli/commands.hpp"
#include "search/results_db.hpp"

namespace gemmforge::cli {
namespace {

// Bad paths or files are the user's to fix: exit 2, with nothing written.
template <class F>
void as_usage_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace

void add_db(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("db", "Export a tune's results database as CSV files, or import them into a new one");
  cmd->require_subcommand(1);
  cmd->footer(
      "A database exported once reads back the same: every environment, run, candidate, measurement and\n"
      "decision, each table as DIR/db-<table>.csv.gz (a header of column names; an empty field is NULL\n"
      "for numbers and empty text otherwise, as gemmforge reads a NULL text). `gemmforge tune --db` on\n"
      "the imported file resumes where the exported run stopped; results of another GPU, architecture or\n"
      "kernel source stay unused, as in the original.\n\n"
      "Examples:\n"
      "  gemmforge db export --db tune.sqlite --dir bench/results/RUN/tune\n"
      "  gemmforge db import --dir bench/results/RUN/tune --db tune.sqlite\n"
      "  gemmforge tune --shapes grid --budget 6 --budget-under 128:24 --db tune.sqlite   # goes on from there");
  auto db = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  auto* out = cmd->add_subcommand("export", "Write every table of --db as --dir/db-<table>.csv.gz");
  out->add_option("--db", *db, "the results database (SQLite) to read")->required();
  out->add_option("--dir", *dir, "where to write the CSV files (created if missing)")->required();
  out->callback([db, dir, &exit_code] {
    as_usage_error([&] { ResultsDb::export_csv(*db, *dir); });
    std::cout << "wrote";
    for (const auto& t : ResultsDb::table_names()) std::cout << " db-" << t << ".csv.gz";
    std::cout << " into " << *dir << "\n";
    exit_code = kExitOk;
  });
  auto* in = cmd->add_subcommand("import", "Create a new database --db from --dir/db-<table>.csv.gz");
  in->add_option("--dir", *dir, "the directory an export wrote")->required();
  in->add_option("--db", *db, "the database to create (must not exist)")->required();
  in->callback([db, dir, &exit_code] {
    as_usage_error([&] { ResultsDb::import_csv(*dir, *db); });
    std::cout << "created " << *db << " from " << *dir << "\n";
    exit_code = kExitOk;
  });
}

}  // namespace gemmforge::cli
