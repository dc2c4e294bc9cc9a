// gemmforge db: a tune's results database as CSV files and back, so a database measured on a
// device machine that keeps nothing can be committed with its results and resumed later.
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "jit/cache_key.hpp"
#include "jit/code_fingerprint.hpp"
#include "jit/compile_pool.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/candidate_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "search/results_db.hpp"
#include "tune/carry.hpp"

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

// Whether each candidate builds to the same code from `from_dir`'s headers as from the current
// ones: both builds of every candidate at once, on all cores, through the kernel cache.
std::map<std::string, std::optional<bool>> same_code_of(const std::vector<KernelCandidate>& cands,
                                                        const std::string& from_dir, const std::string& arch) {
  std::vector<jit::CompileRequest> reqs;
  for (const auto& c : cands) {
    reqs.push_back(compile_request(c, arch));
    reqs.push_back(reqs.back());
    reqs.back().include_dirs = {from_dir};
  }
  jit::KernelCache cache;
  jit::CompilePool pool(0, &cache);
  Progress progress("compile", reqs.size());
  size_t failed = 0;
  const auto results = pool.compile_all(reqs, [&](size_t done, size_t, size_t, const jit::CompileResult& r) {
    failed += !r.ok;
    progress.update(done, failed ? std::to_string(failed) + " failed" : std::string());
  });
  progress.finish("");
  std::map<std::string, std::optional<bool>> same;
  for (size_t i = 0; i < cands.size(); ++i) {
    const auto& now = results[2 * i];
    const auto& then = results[2 * i + 1];
    same[cands[i].name()] = now.ok && then.ok ? std::optional<bool>(jit::code_fingerprint(now.cubin) ==
                                                                    jit::code_fingerprint(then.cubin))
                                              : std::nullopt;
  }
  return same;
}

int carry(const std::string& db, const std::string& from_dir, const std::string& command) {
  const std::string from_hash = jit::include_dirs_fingerprint({from_dir});
  const std::string to_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  if (from_hash == to_hash)
    throw UsageError("--from-kernels " + from_dir + " holds the same headers as the current kernels (" + kernel_include_dir() + ")");
  std::vector<DbEnvironment> sources;
  std::string seen;
  for (const auto& e : ResultsDb::environments(db)) {
    seen += "\n  " + e.key();
    if (e.kernel_source_hash == from_hash && e.protocol == kMeasurementProtocol) sources.push_back(e);
  }
  if (sources.empty())
    throw UsageError(db + " holds no results of the kernel source in " + from_dir + " (" + from_hash +
                     ") under this measurement protocol; its environments:" + (seen.empty() ? " none" : seen));
  for (const auto& from : sources) {
    DbEnvironment to = from;
    to.kernel_source_hash = to_hash;
    const auto cands = tune::measured_candidates(db, from);
    std::cerr << "gemmforge db carry: " << from.key() << " -> " << to.key() << ": " << cands.size()
              << " candidates, each built from both sources\n";
    const auto same = same_code_of(cands, from_dir, from.arch);
    tune::CarryOptions o;
    o.db = db;
    o.from = from;
    o.to = to;
    o.same_code = [&](const KernelCandidate& c) {
      const auto it = same.find(c.name());  // a name this version spells otherwise: not compared, so not carried
      return it == same.end() ? std::nullopt : it->second;
    };
    o.command = command;
    const auto r = tune::carry_results(o);
    std::cout << from.gpu << " " << from.arch << ": " << r.candidates << " candidates, " << r.identical
              << " build to the same code, " << r.changed << " do not, " << r.not_built << " did not build; carried "
              << r.measurements << " candidate measurements, " << r.baselines << " baseline measurements and "
              << r.decisions << " decisions" << (r.already ? " (" + std::to_string(r.already) + " there already)" : "")
              << " to kernel source " << to_hash << "\n";
    auto list = [](const char* what, const std::vector<std::string>& names) {
      if (names.empty()) return;
      std::cout << "  " << what << ":";
      for (size_t i = 0; i < names.size() && i < 12; ++i) std::cout << " " << names[i];
      if (names.size() > 12) std::cout << " (and " << names.size() - 12 << " more)";
      std::cout << "\n";
    };
    list("changed", r.changed_names);
    list("did not build", r.not_built_names);
  }
  return kExitOk;
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
      "  gemmforge tune --shapes grid --budget 6 --budget-under 128:24 --db tune.sqlite   # goes on from there\n"
      "  git worktree add /tmp/old OLD_COMMIT && gemmforge db carry --db tune.sqlite --from-kernels /tmp/old/kernels\n\n"
      "`db carry` moves results measured under an earlier kernel source (the headers in --from-kernels) to\n"
      "the current one for each candidate both build to the same code (every ELF section of the cubin but\n"
      "the debug ones alike): a kernel edit behind a knob leaves most configs' code as it was, and a tune\n"
      "then measures only what changed. Baseline measurements move too; a problem's decision moves when\n"
      "every candidate measured on it is unchanged. Each carried row's note says where it came from.");
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
  auto from = std::make_shared<std::string>();
  auto* car = cmd->add_subcommand(
      "carry", "Carry --db's results measured under the kernel headers in --from-kernels to the current kernels, "
               "for the candidates both build to the same code (NVRTC, no GPU)");
  car->add_option("--db", *db, "the results database (SQLite) to read and add to")->required();
  car->add_option("--from-kernels", *from, "the kernels/ directory of the source the results were measured with")
      ->required();
  car->callback([db, from, &exit_code] {
    as_usage_error([&] {
      if (!std::filesystem::is_directory(*from)) throw Error("--from-kernels " + *from + " is not a directory");
      ResultsDb::check_file(*db);
      if (!std::filesystem::exists(*db)) throw Error("--db " + *db + " does not exist");
    });
    exit_code = carry(*db, *from, "gemmforge db carry --db " + *db + " --from-kernels " + *from);
  });
}

}  // namespace gemmforge::cli
