// gemmforge tune: the tuner's command line. Every option is checked before any GPU work; the
// search runs through tune::run_tune with a worker process as the GPU and a compile pool in
// this process.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/gemmforge_sweep.hpp"
#include "jit/cache_key.hpp"
#include "runtime/sm90_kernel.hpp"
#include "search/results_db.hpp"
#include "search/strategy.hpp"
#include "tune/tuner.hpp"
#include "tune/worker_backend.hpp"

namespace gemmforge::cli {
namespace {

struct TuneArgs {
  std::string shapes;
  std::vector<std::string> shape;
  size_t sample = 0;
  std::string layout = "both";
  std::string acc = "f32";
  std::string strategy = "rl";
  int budget = 16;
  std::vector<std::string> budget_under;
  std::string db = "tune.sqlite";
  std::string out = "table.json";
  std::string configs = "all";
  std::string families = "hopper,sm80";
  int specialize = 0;
  uint64_t seed = 1;
  int seeds = 2;
  int neighbour_seeds = 2;
  std::vector<std::string> prior;
  std::string split_seeds;
  int rule_candidates = 3;
  bool no_rule_measurements = false;
  int max_splits = kMaxSplits;
  int rounds = 9;
  int heavy_finalists = 6;
  bool refinal_heavy = false;
  bool refinal_stale = false;
  int neighbour_evidence = 0;
  std::string raster_groups;
  bool parts_apart = false;
  bool cluster_push = false;
  std::string cluster_twins;
  bool ksplit_twins = false;
  bool space_twins = false;
  bool uniform_warpgroup_twins = false;
  bool dynamic_walk_twins = false;
  bool walk_n_twins = false;
  double timeout_s = 30;
  double time_limit_s = 0;
  unsigned compile_threads = 0;
  std::string compile_ahead = "all";
  std::string worker_exe;  // hidden: a test worker with planted kernels
};

std::string self_executable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this executable to start the worker (/proc/self/exe: " + ec.message() + ")");
  return p.string();
}

// "US:N" of --budget-under: problems whose baseline takes under US µs get N measurements.
tune::TuneOptions::BudgetTier parse_budget_tier(const std::string& text, int budget) {
  const auto colon = text.find(':');
  const std::string why = "--budget-under '" + text + "': ";
  if (colon == std::string::npos) throw Error(why + "expected US:N, e.g. 100:24 (problems under 100 µs get 24 measurements)");
  tune::TuneOptions::BudgetTier t;
  try {
    size_t used = 0;
    t.below_us = std::stod(text.substr(0, colon), &used);
    if (used != colon) throw std::invalid_argument("trailing characters");
  } catch (const std::exception&) {
    throw Error(why + "'" + text.substr(0, colon) + "' is not a time in µs");
  }
  const auto n = parse_integer(text.substr(colon + 1));
  if (!n) throw Error(why + "'" + text.substr(colon + 1) + "' is not a whole number of measurements");
  if (!(t.below_us > 0)) throw Error(why + "the time must be positive");
  if (*n <= budget) throw Error(why + "its budget must be larger than --budget (" + std::to_string(budget) + ")");
  t.budget = int(*n);
  return t;
}

// The tune's first line: each tier of the budget.
std::string budget_text(const tune::TuneOptions& o) {
  std::string text = "budget " + std::to_string(o.budget) + " per problem";
  for (const auto& t : o.budget_tiers) {
    char b[64];
    std::snprintf(b, sizeof b, "%g", t.below_us);
    text += ", " + std::to_string(t.budget) + " under " + b + " us of " + o.baseline;
  }
  return text;
}

// Everything a user can get wrong, before the GPU is touched.
tune::TuneOptions validate(const TuneArgs& a, int argc, char** argv) {
  tune::TuneOptions o;
  try {
    o.shapes = resolve_shapes(a.shapes, a.shape);
    if (a.sample) o.shapes = stratified_sample(o.shapes, a.sample, a.seed);
    if (a.layout == "both") o.layouts = {Layout::nn, Layout::tn};
    else o.layouts = {parse_layout(a.layout)};
    o.acc = parse_accum(a.acc);
    make_strategy(a.strategy, a.seed);  // throws on an unknown name, listing the known ones
    o.strategy = a.strategy;
    if (a.budget < 1) throw Error("--budget must be at least 1 (candidate measurements per shape and layout)");
    o.budget = a.budget;
    for (const auto& tier : a.budget_under) o.budget_tiers.push_back(parse_budget_tier(tier, a.budget));
    std::sort(o.budget_tiers.begin(), o.budget_tiers.end(),
              [](const auto& x, const auto& y) { return x.below_us < y.below_us; });
    if (a.seeds < 0) throw Error("--seeds must not be negative");
    if (a.neighbour_seeds < 0) throw Error("--neighbour-seeds must not be negative");
    if (a.neighbour_evidence < 0) throw Error("--neighbour-evidence must not be negative");
    if (a.neighbour_evidence > 0 && !a.refinal_stale)
      throw Error("--neighbour-evidence needs --refinal-stale: its measurements are taken to decide problems again");
    if (a.rule_candidates < 0) throw Error("--rule-candidates must not be negative");
    if (a.max_splits < 1 || a.max_splits > kMaxSplits)
      throw Error("--max-splits must be 1.." + std::to_string(kMaxSplits) + " (1: no split-K)");
    if (a.rounds < 1) throw Error("--rounds must be at least 1");
    if (a.heavy_finalists < 2) throw Error("--heavy-finalists must be at least 2 (the final of a light problem compares two)");
    if (!(a.timeout_s > 0)) throw Error("--timeout must be positive (seconds per candidate)");
    if (a.time_limit_s < 0) throw Error("--time-limit must not be negative (0: none)");
    if (a.compile_ahead != "all" && a.compile_ahead != "asked") throw Error("--compile-ahead must be all or asked");
    o.search_hopper = o.search_sm80 = false;
    for (const auto& f : split_list(a.families)) {
      if (f == "hopper") o.search_hopper = true;
      else if (f == "sm80") o.search_sm80 = true;
      else throw Error("--families: unknown family '" + f + "' (hopper, sm80)");
    }
    if (!o.search_hopper && !o.search_sm80) throw Error("--families names no family (hopper, sm80)");
    if (a.specialize < 0) throw Error("--specialize must not be negative (0: no builds for one shape)");
    o.specialize = a.specialize;
    if (a.configs != "all") {
      // An empty list would mean the whole spaces to the tuner: say so instead of searching them.
      if (o.search_hopper) o.configs = read_configs(a.configs, o.layouts, o.acc);
      if (o.search_sm80) o.sm80_configs = read_sm80_configs(a.configs, o.layouts, o.acc);
      for (Layout l : o.layouts)
        if (std::none_of(o.configs.begin(), o.configs.end(),
                         [&](const KernelConfig& c) { return c.layout == l && c.acc == o.acc; }) &&
            std::none_of(o.sm80_configs.begin(), o.sm80_configs.end(),
                         [&](const Sm80Config& c) { return c.layout == l && c.acc == o.acc; }))
          throw Error("--configs " + a.configs + " holds no config of the families searched (" + a.families +
                      ") for layout " + to_string(l) + " and accumulator " + to_string(o.acc));
    }
    o.seed = a.seed;
    o.seeds = a.seeds;
    o.neighbour_seeds = a.neighbour_seeds;
    for (const auto& path : a.prior) o.prior.merge(tune::PriorTable::read(path));
    if (!a.split_seeds.empty()) {
      // Hopper configs of any layout: each is carried to the layout of the problem it seeds.
      o.split_seeds = read_configs(a.split_seeds, o.layouts, o.acc);
      if (o.split_seeds.empty()) throw Error("--split-seeds " + a.split_seeds + " holds no Hopper config");
    }
    o.rule_candidates = a.rule_candidates;
    o.measure_rule_gaps = !a.no_rule_measurements;
    o.max_splits = a.max_splits;
    o.final_rounds = a.rounds;
    o.heavy_finalists = a.heavy_finalists;
    o.refinal_heavy = a.refinal_heavy;
    o.refinal_stale = a.refinal_stale;
    o.neighbour_evidence = a.neighbour_evidence;
    o.parts_apart = a.parts_apart;
    o.cluster_push = a.cluster_push;
    o.ksplit_twins = a.ksplit_twins;
    o.space_twins = a.space_twins;
    o.uniform_warpgroup_twins = a.uniform_warpgroup_twins;
    o.dynamic_walk_twins = a.dynamic_walk_twins;
    o.walk_n_twins = a.walk_n_twins;
    for (const auto& t : split_list(a.cluster_twins)) {
      const auto x = t.find('x');
      const auto cm = parse_integer(t.substr(0, x)), cn = x == std::string::npos ? std::nullopt : parse_integer(t.substr(x + 1));
      KernelConfig probe;
      if (cm && cn) probe.cluster_m = int(*cm), probe.cluster_n = int(*cn), probe.multicast = *cm * *cn > 1;
      if (!cm || !cn || *cm * *cn < 2 || !is_valid(probe))
        throw Error("--cluster-twins: '" + t + "' is not a cluster of 2 to " + std::to_string(kMaxClusterCtas) +
                    " CTAs as MxN with sides 1, 2, 4 or 8 (e.g. 2x2,4x2)");
      o.cluster_twins.emplace_back(int(*cm), int(*cn));
    }
    for (const auto& g : split_list(a.raster_groups)) {
      const auto v = parse_integer(g);
      if (!v || *v < 1 || *v > 65536) throw Error("--raster-groups: '" + g + "' is not a raster group (tile rows, 1 or more)");
      o.raster_groups.push_back(int(*v));
    }
    o.time_limit_s = a.time_limit_s;
    o.compile_whole_space = a.compile_ahead == "all";
    o.db = a.db;
    ResultsDb::check_file(o.db);
    o.out = a.out;
    if (std::filesystem::is_directory(o.out)) throw Error("--out '" + a.out + "' is a directory; name the table file");
    if (o.out.extension() != ".json") throw Error("--out '" + a.out + "' must end in .json (the table is JSON)");
    // The table is written at the end: a directory that cannot take it must fail now, not then.
    const auto dir = o.out.has_parent_path() ? o.out.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || access(dir.c_str(), W_OK) != 0) throw Error("cannot write the table into '" + dir.string() + "'");
    if (!a.worker_exe.empty() && access(a.worker_exe.c_str(), X_OK) != 0)
      throw Error("--worker-exe '" + a.worker_exe + "' is not an executable file");
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  o.command = command_line(argc, argv);
  o.kernel_source_hash = jit::include_dirs_fingerprint({kernel_include_dir()});
  return o;
}

int run(const TuneArgs& a, int argc, char** argv) {
  const tune::TuneOptions o = validate(a, argc, argv);
  jit::KernelCache cache;  // throws a clear error when no cache directory can be made
  tune::CompileAhead source(cache, a.compile_threads);
  const std::string exe = a.worker_exe.empty() ? self_executable() : a.worker_exe;
  tune::WorkerTimeouts timeouts;
  timeouts.candidate_s = a.timeout_s;
  tune::WorkerBackend backend({exe, "worker", "--cache-dir", cache.dir().string()}, timeouts);
  std::cerr << "gemmforge tune: " << o.shapes.size() << " shapes x " << o.layouts.size() << " layouts, strategy "
            << o.strategy << ", " << budget_text(o)
            // Builds for each shape cost compiles per problem: a grid tune runs ~5x slower with them.
            << (o.specialize > 0 ? " + " + std::to_string(o.specialize) + " built for the shape" : std::string())
            << ", seeds from " << o.prior.size() << " problems of --prior, " << o.neighbour_seeds
            << " from near problems, database " << o.db.string() << ", "
            << source.threads() << " compile threads, kernel cache " << cache.dir().string() << "\n";
  const tune::TuneResult r = tune::run_tune(o, backend, source);
  std::cout << "\n" << tune::render_summary(r.summary);
  std::cout << "\n" << r.problems << " problems: " << r.tuned_now << " tuned now, "
            << (r.refinaled ? std::to_string(r.refinaled) + " decided ones compared again, " : std::string())
            << (r.after_evidence
                    ? std::to_string(r.after_evidence) + " decided again after the class rules' or neighbours' evidence, "
                    : std::string())
            << (r.rerastered ? std::to_string(r.rerastered) + " reopened for finalists' variants, " : std::string()) << r.already_done
            << " already in the database" << (r.skipped ? ", " + std::to_string(r.skipped) + " skipped" : std::string())
            << "; " << r.measured << " candidates measured (" << r.failed << " failed), " << r.not_built
            << " did not compile, " << r.reused
            << " results reused; worker started " << backend.worker_starts() << " time(s)\n";
  if (r.stopped_by_time_limit)
    std::cout << "stopped at the time limit: run the same command again to go on where it stopped\n";
  std::cout << "wrote " << r.table_path.string() << " (" << r.table.exact.size() << " exact entries, "
            << r.table.rules.size() << " class rules), " << r.decisions_path.string() << ", "
            << r.summary_path.string() << "\n";
  return kExitOk;
}

}  // namespace

void add_tune(CLI::App& app, int& exit_code, int argc, char** argv) {
  auto args = std::make_shared<TuneArgs>();
  auto* cmd = app.add_subcommand("tune", "Search gemmforge's kernels per shape against cuBLASLt and write a dispatch table");
  cmd->footer(
      "For each (shape, layout), the strategy proposes kernel configs; each is compiled ahead (a pool of\n"
      "threads, the on-disk kernel cache), then gated and timed briefly in a worker process. A candidate\n"
      "that crashes, hangs (--timeout) or breaks the CUDA context costs only the worker: it is recorded as\n"
      "failed with the reason and a fresh worker goes on. The two fastest are re-timed against\n"
      "cuBLASLt-autotune in interleaved rounds; a win inside the noise is a tie and the table names cuBLASLt.\n"
      "Where cuBLASLt's estimate is over 200 µs (the card then runs at its power cap, where quick estimates\n"
      "rank kernels badly) the --heavy-finalists fastest are re-timed so, after a warm-up by time;\n"
      "--refinal-heavy runs that final again for heavy problems decided before, measuring nothing new;\n"
      "--refinal-stale does so where a candidate measured after the final (class-rule evidence, a later\n"
      "run's seeds) now ranks among the finalists and was never timed in one, and on heavy problems whose\n"
      "final timed fewer than --heavy-finalists; the class-rule pass then runs right after the problems.\n"
      "--neighbour-evidence 4 (with --refinal-stale) also measures, on each decided problem of the run, the\n"
      "best kernels of its 4 nearest decided problems (the same shape in the other layout among them, and any as\n"
      "near as the 4th) that it never measured, and decides again where one ranks among its finalists: its\n"
      "search could seed only from the neighbours decided before it. These measurements, and the class-rule\n"
      "pass's, do not count against a later search's --budget.\n"
      "--raster-groups 1,2 measures each problem's finalists launched with those raster groups too (the order\n"
      "in which C's tiles are written: on 16384x16384x64 tn one tile row per group was estimated at 141 us\n"
      "where the automatic square waves took 162) and decides again with them, reopening decided problems.\n"
      "--parts-apart does the same with each split finalist built with its tile's parts apart (CTAs that start\n"
      "together share a K range and read their common boxes at once: 5-20% faster on tall-K split launches);\n"
      "--cluster-twins 2x2,4x2 with each split finalist run in those clusters, both operands multicast;\n"
      "--ksplit-twins with each one-consumer finalist built with two k-split consumers (alternate k-blocks);\n"
      "--space-twins with each finalist built as the default space builds configs now (the fast walk, lean\n"
      "cluster sync where multicast), so a table tuned before such knobs can take them;\n"
      "--uniform-warpgroup-twins with each two-consumer finalist built with the uniform warpgroup index\n"
      "(wgmma descriptors in uniform registers: 1.7-1.9% faster on 128x256 cooperative and 128x176 ping-pong);\n"
      "--dynamic-walk-twins with each unsplit persistent finalist built with the dynamic walk (clusters take\n"
      "tiles from a counter as they free up, as cuBLAS's kernels do, so tiles that start together meet in L2);\n"
      "--walk-n-twins with each finalist built to walk its tiles as cuBLAS's kernels do (raster groups of tile\n"
      "columns, n fastest, serpentine in m; a swap-AB build's columns are the caller's rows).\n"
      "Where the output tiles cannot fill the SMs, each config is also tried with split-K. On tiny shapes\n"
      "(all dimensions <= 512) half the budget goes to sm80-family configs (mma.sync; all of it where no\n"
      "Hopper config can serve the shape). --specialize N rebuilds the N best candidates of each problem\n"
      "with its M, N and K compiled in and measures them too (N more measurements, beyond the budget);\n"
      "the table then names such a build with \"specialized\": true. Class rules name generic kernels only.\n\n"
      "Every result goes into the SQLite database (--db) as it is measured. Run the same command again\n"
      "to resume: nothing measured is measured again, finished shapes are skipped, a larger --budget (or\n"
      "--budget-under tier) goes on searching. Results from another GPU, architecture or kernel source are\n"
      "never reused. `gemmforge db export` keeps a database as CSV files, `gemmforge db import` restores one.\n\n"
      "Each problem first measures its seeds: the kernel --prior served it, the best kernels of the nearest\n"
      "decided problems (--neighbour-seeds), split-K launches of larger tiles where tiles leave SMs idle\n"
      "(--split-seeds FILE) and the class's winners (--seeds); the strategy proposes the rest.\n"
      "--budget-under US:N gives problems whose cuBLASLt estimate is under US µs N measurements: they cost\n"
      "little device time each, and the search needs ~10-20 measurements to come within 5% of a space's best.\n\n"
      "Examples:\n"
      "  gemmforge tune --shape 4096x4096x4096 --layout tn --budget 32\n"
      "  gemmforge tune --shapes grid --layout both --strategy rl --budget 16 --db tune.sqlite --out tables/h200.json\n"
      "  gemmforge tune --shapes grid --time-limit 540      # stop starting shapes after 9 min; rerun to go on\n"      "  gemmforge tune --shapes grid --budget 6 --budget-under 128:24 --prior tables/h200.json\n"
      "  gemmforge tune --shapes shapes/tiny.txt --specialize 2   # sm80 and shape-specialized entries too\n"
      "  gemmforge tune --shapes shapes/small-k.txt --raster-groups 1,2 --db tune.sqlite   # reopen small-K problems\n"
      "  gemmforge tune --shapes shapes/tall-k.txt --parts-apart --db tune.sqlite   # split finalists, parts apart\n"
      "  gemmforge tune --shapes shapes/tall-k.txt --cluster-twins 2x2,4x2 --db tune.sqlite   # and in clusters\n"
      "  gemmforge tune --shapes shapes/skinny.txt --ksplit-twins --db tune.sqlite   # 64-row tiles on two warpgroups\n"
      "  gemmforge tune --shapes grid --space-twins --db tune.sqlite   # old finalists as the space builds them now\n"
      "  gemmforge tune --shapes shapes/large.txt --configs bench/configs/large2.json --strategy exhaustive\n"
      "Writes OUT (the table, schema gemmforge.table/1: exact entries for every tuned problem in the database,\n"
      "one rule per shape class, layout and accumulator), OUT's .decisions.csv and .summary.json beside it.\n"
      "Exit status: 0 done; 2 bad options; 3 no usable GPU; 4 an error stopped the run (the database keeps\n"
      "what was measured).");
  cmd->add_option("--shapes", args->shapes, "'grid' (the 1000-shape grid) or a file with one 'M N K' per line");
  cmd->add_option("--shape", args->shape, "one shape as MxNxK (repeatable)");
  cmd->add_option("--sample", args->sample, "tune a reproducible sample of this many shapes, from every class");
  cmd->add_option("--layout", args->layout, "nn, tn or both")->capture_default_str();
  cmd->add_option("--acc", args->acc, "accumulator: f32 or f16")->capture_default_str();
  cmd->add_option("--strategy", args->strategy, "exhaustive, random, evolution or rl")->capture_default_str();
  cmd->add_option("--budget", args->budget, "candidate measurements per (shape, layout), recorded ones included")
      ->capture_default_str();
  cmd->add_option("--budget-under", args->budget_under,
                  "US:N: problems whose cuBLASLt-autotune estimate is under US µs get N measurements instead "
                  "(repeatable; cheap problems can take many more, e.g. --budget 6 --budget-under 128:24)");
  cmd->add_option("--db", args->db, "the SQLite results database (created if missing; resumed if present)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "the dispatch table to write (.json)")->capture_default_str();
  cmd->add_option("--configs", args->configs,
                  "'all': every config of the families searched; 'sm80': the sm80 space only; or a JSON file of "
                  "configs of either family (gemmforge kernels --out)")
      ->capture_default_str();
  cmd->add_option("--families", args->families, "kernel families searched: hopper, sm80 or both (comma-separated)")
      ->capture_default_str();
  cmd->add_option("--specialize", args->specialize,
                  "rebuild the best N candidates of each problem for its exact shape and measure them (0: off)")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of the strategies and the gate's inputs")->capture_default_str();
  cmd->add_option("--seeds", args->seeds, "earlier winners of the shape's class measured first, within the budget")
      ->capture_default_str();
  cmd->add_option("--neighbour-seeds", args->neighbour_seeds,
                  "best kernels of the nearest decided problems (this problem's own from an earlier run where it "
                  "now launches otherwise, the same shape in the other layout, then shapes "
                  "nearest in log2 M, N, K) measured first, within the budget")
      ->capture_default_str();
  cmd->add_option("--prior", args->prior,
                  "kernels found earlier, measured first on each problem (counted against the budget, and measured even where recorded measurements, e.g. carried ones, have spent it): a table from an "
                  "earlier tune (e.g. tables/h200.json, even one voided by a kernel edit: the kernel it served), or "
                  "a bench sweep with --configs (its directory or sweep.csv: the problem's fastest config); "
                  "repeat it to seed from several");
  cmd->add_option("--split-seeds", args->split_seeds,
                  "a JSON file of Hopper tiles (e.g. bench/configs/split-seeds.json) measured first with split-K, in "
                  "each problem's layout, on problems where their output tiles leave SMs idle (within the budget)");
  cmd->add_option("--rule-candidates", args->rule_candidates, "candidates each class rule considers")
      ->capture_default_str();
  cmd->add_flag("--no-rule-measurements", args->no_rule_measurements,
                "build class rules from recorded measurements only (no extra GPU time)");
  cmd->add_option("--max-splits", args->max_splits, "largest split-K tried (1: none)")->capture_default_str();
  cmd->add_option("--rounds", args->rounds, "interleaved rounds of the final comparison")->capture_default_str();
  cmd->add_option("--heavy-finalists", args->heavy_finalists,
                  "candidates in the final comparison of a problem whose cuBLASLt estimate is over 200 µs (at the "
                  "power cap the quick estimates rank kernels otherwise than steady state does)")
      ->capture_default_str();
  cmd->add_flag("--refinal-heavy", args->refinal_heavy,
                "compare heavy problems decided earlier again, with --heavy-finalists, from the measurements in "
                "the database (nothing new measured)");
  cmd->add_flag("--refinal-stale", args->refinal_stale,
                "compare decided problems again where a candidate measured since their final (class-rule "
                "evidence, a later run's seeds) ranks among their finalists by estimate and no final has timed it "
                "(nothing new measured for it but the class-rule pass, run right after the problems, and "
                "--neighbour-evidence)");
  cmd->add_option("--neighbour-evidence", args->neighbour_evidence,
                  "with --refinal-stale: after the problems, measure on each decided problem of the run the best "
                  "kernels of its N nearest decided problems (the same shape in the other layout, then this layout's "
                  "nearest shapes, and every one as near as the N-th; its own decision not counted) that it never "
                  "measured, and decide again where one ranks among its finalists (0: off)")
      ->capture_default_str();
  cmd->add_option("--raster-groups", args->raster_groups,
                  "comma list of raster groups (tile rows per group, columns for _wn builds; e.g. 1,2): each "
                  "problem's finalists are also measured launched with each (beyond the budget) and the final "
                  "compares them too; decided problems are reopened for it. For store-bound shapes (small K), whose C "
                  "is written faster along whole rows");
  cmd->add_flag("--parts-apart", args->parts_apart,
                "each problem's split finalists (sums through global memory) are also measured built with their "
                "tile's parts apart, beyond the budget, and the final compares them too; decided problems are "
                "reopened for it");
  cmd->add_flag("--cluster-push", args->cluster_push,
                "each problem's finalists summed inside a cluster are also measured built to push their sums into "
                "the CTAs that add them (no cluster barrier between a part's end and the sum), beyond the budget, and "
                "the final compares them too; decided problems are reopened for it");
  cmd->add_option("--cluster-twins", args->cluster_twins,
                  "comma list of clusters as MxN CTAs (e.g. 2x2,4x2): each problem's split finalists without a "
                  "cluster are also measured in each, both operands multicast, beyond the budget, and the final "
                  "compares them too; decided problems are reopened for it");
  cmd->add_flag("--ksplit-twins", args->ksplit_twins,
                "each problem's one-consumer finalists are also measured with two k-split consumers (alternate "
                "k-blocks of each tile, an even ring), beyond the budget, and the final compares them too; decided "
                "problems are reopened for it");
  cmd->add_flag("--space-twins", args->space_twins,
                "each problem's Hopper finalists not built as the default space builds configs now (the fast walk, "
                "lean cluster sync where multicast) are also measured so built, beyond the budget, and the final compares "
                "them too; decided problems are reopened for it");
  cmd->add_flag("--uniform-warpgroup-twins", args->uniform_warpgroup_twins,
                "each problem's Hopper finalists with two consumer warpgroups are also measured built with the uniform "
                "warpgroup index (wgmma descriptors in uniform registers; builds that spill are left out), beyond the "
                "budget, and the final compares them too; decided problems are reopened for it");
  cmd->add_flag("--dynamic-walk-twins", args->dynamic_walk_twins,
                "each problem's unsplit persistent Hopper finalists are also measured built with the dynamic walk "
                "(tiles taken from a counter as clusters free up), beyond the budget, and the final compares them too; "
                "decided problems are reopened for it");
  cmd->add_flag("--walk-n-twins", args->walk_n_twins,
                "each problem's Hopper finalists are also measured built to walk along N (raster groups of tile "
                "columns, n fastest, serpentine in m; automatic group), beyond the budget, and the final compares them "
                "too; decided problems are reopened for it. With --dynamic-walk-twins, unsplit ones also with both");
  cmd->add_option("--timeout", args->timeout_s, "seconds one candidate may take before its worker is killed")
      ->capture_default_str();
  cmd->add_option("--time-limit", args->time_limit_s, "seconds after which no new shape starts (0: none)")
      ->capture_default_str();
  cmd->add_option("--compile-threads", args->compile_threads, "compile pool size (0: all cores but two)")
      ->capture_default_str();
  cmd->add_option("--compile-ahead", args->compile_ahead,
                  "all: in the background from the start, first the builds the problems meet soonest (their --prior seeds, an earlier run's finalists), then the whole space; asked: only what the search asks for")
      ->capture_default_str();
  cmd->add_option("--worker-exe", args->worker_exe, "")->group("");  // hidden: tests plant bad kernels through it
  cmd->callback([args, &exit_code, argc, argv] { exit_code = run(*args, argc, argv); });
}

}  // namespace gemmforge::cli
