// gemmforge tune: per (shape, layout), a search strategy proposes kernel configs, each is
// compiled ahead in the tuner process and measured (gated, then a quick estimate) by the worker,
// and every result goes into the results database as it comes. On tiny shapes (and where no
// Hopper kernel can serve the shape) sm80-family configs share the budget. Optionally the best
// candidates are rebuilt for the problem's exact shape and measured too. The two fastest (on a
// problem heavy enough to heat the card into its power cap, heavy_finalists of them) are
// re-measured against cuBLASLt-autotune in interleaved rounds, and the dispatch table is written
// from the database: exact entries for every tuned problem (either family, generic or built for
// the shape), one rule per shape class (generic kernels only).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/table.hpp"
#include "search/results_db.hpp"
#include "tune/backend.hpp"
#include "tune/decisions.hpp"
#include "tune/kernel_source.hpp"
#include "tune/prior_table.hpp"

namespace gemmforge::tune {

struct TuneOptions {
  std::vector<Shape> shapes;
  std::vector<Layout> layouts = {Layout::nn, Layout::tn};
  Accum acc = Accum::f32;
  std::string strategy = "rl";
  int budget = 16;             // candidate measurements per (shape, layout), recorded ones included
  uint64_t seed = 1;
  // The spaces searched. Both empty: each searched family's whole space per layout
  // (config_space, sm80_config_space); otherwise exactly these (a family without any is not searched).
  std::vector<KernelConfig> configs;
  std::vector<Sm80Config> sm80_configs;
  bool search_hopper = true;   // the families searched (--families)
  bool search_sm80 = true;
  // After a problem's search, the best `specialize` generic candidates are rebuilt with the
  // shape's M, N and K as constants and measured like any candidate, beyond the budget. 0: none.
  int specialize = 0;
  // More measurements where each costs little device time: a problem whose baseline estimate is
  // under `below_us` gets `budget` measurements (the largest tier it falls in) instead of --budget.
  // In session 9's grid tune a problem under 128 µs took ~0.1 s of device time at budget 6, one
  // over 1 ms 1-5 s; and with 2-4 of the 6 spent on seeds, the search itself had almost none.
  struct BudgetTier {
    double below_us = 0;
    int budget = 0;
  };
  std::vector<BudgetTier> budget_tiers;
  int seeds = 2;               // earlier winners of the class measured first (within the budget)
  int neighbour_seeds = 2;     // best kernels of the nearest decided problems, measured first (within the budget)
  PriorTable prior;            // kernels found earlier for each problem, measured first (--prior)
  // Tiles measured with split-K first on each problem where their output tiles leave SMs idle
  // (--split-seeds), in the problem's layout; only their split launch. The search proposes small
  // tiles there, which fill the SMs unsplit: session 11 found larger tiles split K 1.0-1.55x
  // faster than the tuned best on such problems (bench/NOTES.md, session 11, call 2).
  std::vector<KernelConfig> split_seeds;
  int rule_candidates = 3;     // contenders per class rule
  bool measure_rule_gaps = true;  // measure contenders on tuned shapes where they were not measured
  int max_splits = kMaxSplits;
  double min_tie = 0.01;
  int final_rounds = 9;
  // A problem whose baseline estimate is over heavy_us heats the card into its power cap. Its
  // quick estimates, taken one candidate at a time with the card cooler, rank kernels otherwise
  // than steady state does (bench/NOTES.md, session 12, call 3: on 8192³ the best estimate
  // was 1.16x slower in the interleaved rounds, where a kernel estimated 9% slower won), so its
  // final comparison times its heavy_finalists fastest candidates at steady state, not two.
  double heavy_us = 200;  // TimingOptions::heavy_call_us, where the timer warms up by time
  int heavy_finalists = 6;
  // --refinal-heavy: every heavy problem already decided gets its final comparison again with
  // heavy_finalists, from the measurements in the database (nothing new is measured), once per run.
  bool refinal_heavy = false;
  // --neighbour-evidence N (with --refinal-stale; ignored without it): after the problems, each
  // decided problem of the run is measured (estimate mode) with the best kernels of its N nearest
  // decided problems (and any as near as the N-th), as they launch on it, where it never measured
  // them; problems that evidence makes stale are decided again in the same run. The search meets
  // its neighbours' winners only where they were decided before it (neighbour_seeds), so the
  // problems tuned first never met those found after them (bench/NOTES.md, session 50). 0: off.
  int neighbour_evidence = 0;
  // --refinal-stale: every decided problem whose fastest candidates by estimate (its finalists,
  // were its final run now) include one that no final of it has timed gets its final again, from
  // the measurements in the database (nothing new is measured but the finalists' variants a run
  // asks for, --raster-groups or twins). Such candidates
  // come after the decision: class-rule evidence, a later run's seeds or twins (session 48's H100
  // database: on 1024^3 tn the class-rule pass estimated a 64x128 tile at 5.91 us, where the
  // decided best took 7.63). With it, the class-rule pass runs right after the problems (not with
  // the table) and the run's problems its evidence makes stale are decided again in the same run.
  bool refinal_stale = false;
  // --raster-groups: each problem's finalists (fastest Hopper candidates by estimate) are also
  // measured with each of these raster groups (LaunchKnobs::group_m: tile rows, or columns in
  // builds that walk along N), beyond the budget, and the final compares them too; decided
  // problems are reopened for it, once per run and only while one of those variants is
  // unmeasured. A store-bound launch writes C faster along whole rows than in the square waves of
  // the automatic group (bench/NOTES.md, session 21).
  std::vector<int> raster_groups;
  // --parts-apart: likewise, each finalist that is a split launch summed through global memory is
  // also measured built with its parts apart (KernelConfig::parts_apart): the CTAs that start
  // together then read the boxes they share at once (tall-K launches 5-20% faster, bench/NOTES.md,
  // session 23).
  bool parts_apart = false;
  // --cluster-push: likewise, each finalist whose parts are summed inside a cluster is also measured
  // built to push its sums (KernelConfig::cluster_push: no cluster barrier between a part's end and
  // its owner's sum, nothing read through the window).
  bool cluster_push = false;
  // --cluster-twins: likewise, each split finalist without a cluster is also measured in each of
  // these clusters (CTAs along M, along N), both operands multicast (A along a cluster row, B along
  // a column), with the same launch knobs, where the rules let it. cuBLASLt's tall-K picks are
  // split-K in 4- and 8-CTA clusters (bench/NOTES.md, session 25).
  std::vector<std::pair<int, int>> cluster_twins;
  // --ksplit-twins: likewise, each finalist with one consumer warpgroup is also measured with two
  // k-split consumers (ConsumerMode::ksplit: alternate k-blocks of each tile; the ring rounded
  // down to an even depth), with the same launch knobs. One warpgroup's wgmma issue paces a
  // 64-row tile (bench/NOTES.md, session 36); cuBLAS runs such tiles on two.
  bool ksplit_twins = false;
  // --space-twins: likewise, each Hopper finalist not built as the default space builds configs now
  // (with_space_knobs: the fast walk, lean cluster sync where multicast) is also measured so built,
  // with the same launch knobs. A database tuned before those knobs existed then decides between
  // its old finalists and their current builds without searching again.
  bool space_twins = false;
  // --uniform-warpgroup-twins: likewise, each Hopper finalist with two consumer warpgroups is also
  // measured with the uniform warpgroup index (KernelConfig::uniform_warpgroup: its wgmma
  // descriptors in uniform registers; 1.7-1.9% faster on 128x256 cooperative and 128x176
  // ping-pong, bench/NOTES.md, session 43). Not in the default space, where some builds spill: a
  // twin that spills is recorded as not built and never wins.
  bool uniform_warpgroup_twins = false;
  // --dynamic-walk-twins: likewise, each Hopper finalist of an unsplit persistent launch is also
  // measured built with the dynamic walk (KernelConfig::dynamic_walk: clusters take tiles from a
  // counter as they free up, so tiles that start together share their boxes in L2).
  bool dynamic_walk_twins = false;
  // --walk-n-twins: likewise, each Hopper finalist is also measured built to walk along N
  // (KernelConfig::walk_n: raster groups of tile columns, n fastest, serpentine in m; cuBLAS's
  // order) with the automatic group, whose size then counts columns. With --dynamic-walk-twins,
  // unsplit persistent finalists are also measured with both (cuBLAS's order and dispatch).
  bool walk_n_twins = false;
  double time_limit_s = 0;     // 0: none. No new shape starts after it; the table is still written
  bool compile_whole_space = true;  // compile the whole space in the background from the start
  std::string baseline = "cublaslt-autotune";
  std::string kernel_source_hash;  // of the kernel headers (jit::include_dirs_fingerprint)
  std::filesystem::path db;
  std::filesystem::path out;    // the table; decisions CSV and summary JSON are written beside it
  std::string command;          // recorded with the run
};

struct TuneResult {
  std::vector<Decision> decisions;  // of the problems asked for, tuned now or before
  std::vector<ClassSummary> summary;
  Table table;
  size_t problems = 0, tuned_now = 0, already_done = 0, skipped = 0;
  size_t refinaled = 0;  // decided problems compared again (--refinal-heavy, --refinal-stale)
  // Finals of this run's problems run again after the class-rule pass and the neighbours'
  // evidence (--refinal-stale, --neighbour-evidence), beside the counts above: a problem tuned or
  // compared again before them may be counted here too.
  size_t after_evidence = 0;
  size_t rerastered = 0;  // decided problems whose finalists were measured with --raster-groups or --parts-apart
  long long measured = 0, reused = 0, failed = 0;  // candidate measurements
  long long not_built = 0;  // candidates that did not compile (or spill): recorded, not measured
  long long foreign = 0;  // measurements in the database from other environments (not used)
  bool stopped_by_time_limit = false;
  int sm_count = 0;
  Residency residency;
  std::filesystem::path table_path, decisions_path, summary_path;
};

// The architecture the sm80 family compiles for on the device a backend reports (from its
// "compute_capability", e.g. "9.0" -> sm_90a). Throws Error when it is missing or below 8.0.
std::string sm80_arch_of(const nlohmann::json& device);

// The measurements a problem gets: the largest tier whose bound its baseline estimate is under,
// else --budget (also when the baseline has no estimate yet or failed).
int budget_for(const TuneOptions&, const std::optional<double>& baseline_us);

// The distance between two shapes in (log2 M, log2 N, log2 K), summed: 1 per doubling of a dimension.
double shape_distance(const Shape&, const Shape&);

// The candidate a database names, from its JSON; nullopt when the database has none of that
// name. Throws Error (naming the file and the candidate) when the JSON does not read.
std::optional<KernelCandidate> candidate_named(const ResultsDb&, const std::string& name);

// The database key of the device a backend reports.
DbEnvironment db_environment(const nlohmann::json& device, const std::string& kernel_source_hash);

// The whole command: environment, database, search, final comparisons, rules, table. Throws
// Error when it cannot go on (no worker, database refused, three shapes in a row that cannot be
// set up); everything measured until then stays in the database.
TuneResult run_tune(const TuneOptions&, MeasureBackend&, KernelSource&);

// The table file's companions: <out>.decisions.csv and <out>.summary.json (".json" replaced).
std::filesystem::path companion_path(const std::filesystem::path& table, const std::string& suffix);

}  // namespace gemmforge::tune
