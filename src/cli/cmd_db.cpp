// gemmforge db: a tune's results database as CSV files and back, so a database measured on a
// device machine that keeps nothing can be committed with its results and resumed later.
#include <algorithm>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "core/records.hpp"
#include "jit/cache_key.hpp"
#include "jit/code_fingerprint.hpp"
#include "jit/compile_pool.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/candidate_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table.hpp"
#include "runtime/table_builds.hpp"
#include "search/results_db.hpp"
#include "tune/carry.hpp"
#include "tune/fastest_kernels.hpp"

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

// A database's environments for a message, one per line ("none" if it has none).
std::string listed(const std::vector<DbEnvironment>& envs) {
  std::string out;
  for (const auto& e : envs) out += "\n  " + e.key();
  return out.empty() ? " none" : out;
}

// Whether each build (a request under the current headers) builds to the same code from
// `from_dir`'s headers: both builds of every request at once, on all cores, through the kernel
// cache; nullopt where either build failed.
std::vector<std::optional<bool>> same_code_of_builds(const std::vector<jit::CompileRequest>& now_reqs,
                                                     const std::string& from_dir) {
  std::vector<jit::CompileRequest> reqs;
  for (const auto& r : now_reqs) {
    reqs.push_back(r);
    reqs.push_back(r);
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
  std::vector<std::optional<bool>> same;
  for (size_t i = 0; i < now_reqs.size(); ++i) {
    const auto& now = results[2 * i];
    const auto& then = results[2 * i + 1];
    same.push_back(now.ok && then.ok ? std::optional<bool>(jit::code_fingerprint(now.cubin) == jit::code_fingerprint(then.cubin))
                                     : std::nullopt);
  }
  return same;
}

// The same for each measured candidate, by name.
std::map<std::string, std::optional<bool>> same_code_of(const std::vector<KernelCandidate>& cands,
                                                        const std::string& from_dir, const std::string& arch) {
  std::vector<jit::CompileRequest> reqs;
  for (const auto& c : cands) reqs.push_back(compile_request(c, arch));
  const auto same = same_code_of_builds(reqs, from_dir);
  std::map<std::string, std::optional<bool>> by_name;
  for (size_t i = 0; i < cands.size(); ++i) by_name[cands[i].name()] = same[i];
  return by_name;
}

// --table: a dispatch table tuned under the kernel source in `from_dir`, re-keyed to the current
// source when every kernel it serves (exact entries, builds for one shape, class rules) builds to
// the same code from both, and written to `out`. Its measurements were of that code, so they hold;
// if any kernel differs (or fails to build), nothing is written and the kernels are named.
int carry_table(const std::string& in_path, const std::string& out_path, const std::string& from_dir) {
  const std::string from_hash = jit::include_dirs_fingerprint({from_dir});
  const std::string to_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  Table table;
  std::vector<TableBuild> builds;
  try {
    // The table must be the old source's: its kernels are then compared, not assumed.
    table = read_table_file(in_path, from_hash);
    builds = table_builds(table, table.arch);
  } catch (const Error& e) {
    throw UsageError("--table " + in_path + ": " + e.what() + " (it must be a table of the kernel source in " +
                     from_dir + ", " + from_hash + ")");
  }
  std::vector<jit::CompileRequest> reqs;
  for (const auto& b : builds) reqs.push_back(b.request);
  std::cerr << "gemmforge db carry --table " << in_path << ": " << builds.size()
            << " kernels, each built from both sources\n";
  const auto same = same_code_of_builds(reqs, from_dir);
  std::vector<std::string> changed;
  for (size_t i = 0; i < builds.size(); ++i)
    if (!same[i] || !*same[i]) changed.push_back(builds[i].kernel.build_name() + (same[i] ? "" : " (did not build)"));
  if (!changed.empty()) {
    std::cout << in_path << ": " << changed.size() << " of " << builds.size()
              << " kernels build to other code under the current kernels; nothing written (re-tune instead):";
    for (size_t i = 0; i < changed.size() && i < 12; ++i) std::cout << " " << changed[i];
    if (changed.size() > 12) std::cout << " (and " << changed.size() - 12 << " more)";
    std::cout << "\n";
    return kExitFailedVerdicts;
  }
  table.kernel_source_hash = to_hash;
  write_file_atomically(out_path, table.to_json().dump(1) + "\n");
  std::cout << in_path << ": all " << builds.size() << " kernels build to the same code; wrote " << out_path
            << " for kernel source " << to_hash << "\n";
  return kExitOk;
}

int carry(const std::string& db, const std::string& from_dir, const std::string& command) {
  const std::string from_hash = jit::include_dirs_fingerprint({from_dir});
  const std::string to_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  std::vector<DbEnvironment> sources;
  const auto held = ResultsDb::environments(db);
  for (const auto& e : held)
    if (e.kernel_source_hash == from_hash && e.protocol == kMeasurementProtocol) sources.push_back(e);
  if (sources.empty())
    throw UsageError(db + " holds no results of the kernel source in " + from_dir + " (" + from_hash +
                     ") under this measurement protocol; its environments:" + listed(held));
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

// --table's entries that name cuBLASLt get the fastest kernel of ours --db measured there
// (tune::add_fastest_kernels), written to --table-out. The database must hold results of the
// table's GPU, architecture and kernel source: its decisions are what the table was made from.
int add_fastest(const std::string& db_path, const std::string& in_path, const std::string& out_path) {
  Table table;
  DbEnvironment env;
  as_usage_error([&] {
    ResultsDb::check_file(db_path);
    if (!std::filesystem::exists(db_path)) throw Error("--db " + db_path + " does not exist");
    try {
      table = read_table_file(in_path, "");
    } catch (const Error& e) {
      throw Error("--table " + in_path + ": " + e.what());
    }
    env.gpu = table.gpu, env.arch = table.arch, env.kernel_source_hash = table.kernel_source_hash;
    const auto held = ResultsDb::environments(db_path);
    if (std::none_of(held.begin(), held.end(), [&](const DbEnvironment& e) { return e.key() == env.key(); }))
      throw Error("--db " + db_path + " holds no results of the table's environment " + env.key() +
                  " (carry them to its kernel source first: db carry); its environments:" + listed(held));
  });
  const tune::FastestAdded r = [&] {
    ResultsDb db(db_path, env);
    return tune::add_fastest_kernels(table, db);
  }();
  write_file_atomically(out_path, table.to_json().dump(1) + "\n");
  std::cout << in_path << ": " << r.added << " of " << r.cublaslt_entries
            << " entries that name cuBLASLt now keep our fastest kernel there (" << r.no_decision
            << " without a decision in the database, " << r.none_generic
            << " whose fastest were sm80 or built for the one shape); wrote " << out_path << "\n";
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
      "every candidate measured on it is unchanged. Each carried row's note says where it came from.\n"
      "With --table T --table-out OUT, a dispatch table tuned under the old source is written for the\n"
      "current one when every kernel it serves builds to the same code from both (else nothing is written\n"
      "and the kernels that differ are named):\n"
      "  gemmforge db carry --from-kernels /tmp/old/kernels --table tables/h200.json --table-out tables/h200.json\n"
      "A carried database keeps the rows of every source it passed through; to hand on only what a tune\n"
      "under the current kernels reuses (a smaller file to carry to the GPU machine):\n"
      "  gemmforge db export --db tune.sqlite --dir carried --kernel-source current\n\n"
      "`db fastest` keeps, beside each of a table's entries that name cuBLASLt, the fastest kernel of ours\n"
      "the database measured there (it lost or tied). Calls whose rows TMA cannot take are staged and served\n"
      "by their aligned neighbour's kernel, and there cuBLASLt's alternative is far slower: that kernel is\n"
      "the one to take. `gemmforge tune` writes them itself; this adds them to a table tuned before:\n"
      "  gemmforge db fastest --db tune.sqlite --table tables/h100.json --table-out tables/h100.json");
  auto db = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  auto* out = cmd->add_subcommand("export", "Write every table of --db as --dir/db-<table>.csv.gz");
  out->add_option("--db", *db, "the results database (SQLite) to read")->required();
  out->add_option("--dir", *dir, "where to write the CSV files (created if missing)")->required();
  auto source = std::make_shared<std::string>();
  out->add_option("--kernel-source", *source,
                  "only the results of this kernel source hash ('current': this gemmforge's kernels), the ones a tune "
                  "under it reuses; a database carried forward keeps its older sources' rows, which this leaves out");
  out->callback([db, dir, source, &exit_code] {
    std::optional<std::string> only;
    if (!source->empty()) only = *source == "current" ? jit::include_dirs_fingerprint({kernel_include_dir()}) : *source;
    as_usage_error([&] { ResultsDb::export_csv(*db, *dir, only); });
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
  auto table_in = std::make_shared<std::string>();
  auto table_out = std::make_shared<std::string>();
  car->add_option("--db", *db, "the results database (SQLite) to read and add to");
  car->add_option("--from-kernels", *from, "the kernels/ directory of the source the results were measured with")
      ->required();
  car->add_option("--table", *table_in,
                  "a dispatch table tuned under --from-kernels: written to --table-out for the current kernels if "
                  "every kernel it serves builds to the same code from both");
  car->add_option("--table-out", *table_out, "where --table's carried copy goes (may be --table itself)");
  car->callback([db, from, table_in, table_out, &exit_code] {
    as_usage_error([&] {
      if (!std::filesystem::is_directory(*from)) throw Error("--from-kernels " + *from + " is not a directory");
      if (db->empty() && table_in->empty()) throw Error("name --db, --table or both");
      if (table_in->empty() != table_out->empty()) throw Error("--table and --table-out go together");
      if (!db->empty()) {
        ResultsDb::check_file(*db);
        if (!std::filesystem::exists(*db)) throw Error("--db " + *db + " does not exist");
      }
      if (jit::include_dirs_fingerprint({*from}) == jit::include_dirs_fingerprint({kernel_include_dir()}))
        throw Error("--from-kernels " + *from + " holds the same headers as the current kernels (" +
                    kernel_include_dir() + ")");
    });
    exit_code = kExitOk;
    if (!db->empty()) exit_code = carry(*db, *from, "gemmforge db carry --db " + *db + " --from-kernels " + *from);
    if (!table_in->empty() && exit_code == kExitOk) exit_code = carry_table(*table_in, *table_out, *from);
  });
  auto* fast = cmd->add_subcommand(
      "fastest", "Keep, beside each of --table's entries that name cuBLASLt, the fastest kernel of ours --db measured "
                 "there (staged calls use it; no GPU)");
  fast->add_option("--db", *db, "the results database the table was tuned into (its GPU and kernel source)")->required();
  fast->add_option("--table", *table_in, "the dispatch table")->required();
  fast->add_option("--table-out", *table_out, "where the table goes (may be --table itself)")->required();
  fast->callback([db, table_in, table_out, &exit_code] { exit_code = add_fastest(*db, *table_in, *table_out); });
}

}  // namespace gemmforge::cli
