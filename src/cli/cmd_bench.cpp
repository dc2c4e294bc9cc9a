#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/stop_policy.hpp"
#include "cli/torch_runner.hpp"
#include "core/summary.hpp"
#include "eval/nvml.hpp"
#include "runtime/library_impl.hpp"

namespace gemmforge::cli {
namespace {

struct BenchArgs {
  ProblemOptions problem;
  std::string modes = "gpu,offline";
  std::string l2 = "warm";
  std::string order = "flops";
  std::string out = "bench-out";
  std::string python = "python3";
  std::string baseline = "cublaslt-autotune";
  TimingOptions timing;
  size_t finalists = 4;
  double time_limit_s = 0;  // 0: none
};

// SIGTERM (what `timeout` sends) or SIGINT ends a run after the shape being measured, and the
// results so far are written: hours of measurements are not lost to a time limit. SIGTERM keeps
// its handler: GNU timeout sends it twice (to the child, then to its process group), and the
// hard stop is timeout's -k. A second Ctrl-C ends the process at once.
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "read and written from a signal handler");
extern "C" void request_stop(int sig) {
  g_stop_signal.store(sig);
  if (sig == SIGINT) std::signal(sig, SIG_DFL);
}

void write_outputs(const std::filesystem::path& dir, const ResultFile& f, const SummaryOptions& so) {
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "results.json", to_json(f).dump(1) + "\n");
  std::string csv = csv_header() + "\n";
  for (const auto& r : f.records) csv += to_csv_row(r) + "\n";
  write_file_atomically(dir / "results.csv", csv);
  write_file_atomically(dir / "summary.md", render_summary_markdown(f, all_comparisons(f.records, so), so));
}

int run(const BenchArgs& a, int argc, char** argv) {
  bool wants_torch = false;
  BenchOptions o;
  try {
    o = resolve_problem_options(a.problem, wants_torch);
    o.modes.clear();
    for (const auto& m : split_list(a.modes)) o.modes.push_back(parse_mode(m));
    if (o.modes.empty()) throw Error("--mode names no mode");
    if (a.l2 != "warm" && a.l2 != "cold") throw Error("--l2 must be warm or cold");
    if (a.order != "flops" && a.order != "file") throw Error("--order must be flops or file");
    o.timing = a.timing;
    if (a.finalists < 1) throw Error("--finalists must be at least 1");
    o.sweep_finalists = a.finalists;
    if (a.time_limit_s < 0) throw Error("--time-limit must not be negative (0: none)");
    o.timing.seed = a.problem.seed;
    o.timing.cold_l2 = a.l2 == "cold";
    if (o.timing.rounds < 1 || o.timing.server_calls < 1) throw Error("--rounds and --server-calls must be at least 1");
    if (!(o.timing.min_sample_us > 0) || o.timing.server_gap_us < 0)
      throw Error("--min-sample-us must be positive and --server-gap-us not negative");
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  // Ascending work keeps the heavy shapes together at the end, so the card heats into its power
  // cap once and stays there instead of cooling between them.
  if (a.order == "flops")
    std::stable_sort(o.shapes.begin(), o.shapes.end(), [](const Shape& x, const Shape& y) { return x.flops() < y.flops(); });

  StopPolicy stop;
  stop.time_limit_s = a.time_limit_s;
  stop.pending_signal = [] { return g_stop_signal.load(); };
  o.stop_requested = [&stop] { return stop(); };
  std::signal(SIGTERM, request_stop);
  std::signal(SIGINT, request_stop);

  ResultFile f;
  f.command = command_line(argc, argv);
  f.started_utc = utc_now_iso8601();
  const std::filesystem::path out_dir(a.out);
  DeviceContext ctx;  // throws a clear error when there is no GPU
  // The library without its table is cuBLASLt under another name: refuse before measuring anything.
  const bool measures_library = std::any_of(o.impls.begin(), o.impls.end(), [](const std::string& i) {
    return i == kLibraryImplName || i == kMeasuringLibraryImplName || i == kDirectLibraryImplName ||
           i == kExceptPdlLibraryImplName || i == kReplayAllLibraryImplName;
  });
  if (measures_library)
    if (const std::string why = library_table_problem(); !why.empty())
      throw UsageError("--impl " + std::string(kLibraryImplName) + " would measure cuBLASLt, not the library: " + why +
                       ". Set GEMMFORGE_TABLE to a table made by 'gemmforge tune' for this GPU and these kernel "
                       "sources, or GEMMFORGE_TABLE=none to measure the library without one on purpose");
  std::filesystem::create_directories(out_dir);
  f.environment = environment_json(ctx.info());
  auto& nvml = Nvml::instance(ctx.info().pci_bus_id);
  f.environment["nvidia_driver"] = nvml.driver_version();
  if (!nvml.available()) f.environment["nvml"] = nvml.why_unavailable();
  const auto idle = nvml.read();
  f.environment["sm_clock_mhz_at_start"] = idle.sm_clock_mhz ? nlohmann::json(*idle.sm_clock_mhz) : nlohmann::json();
  f.environment["power_w_at_start"] = idle.power_w ? nlohmann::json(*idle.power_w) : nlohmann::json();
  const nlohmann::json sweep = prepare_gemmforge(a.problem, o, ctx);
  std::ofstream sweep_csv;
  if (o.gemmforge_candidates) {
    // Every configuration's verdict and first estimate, not just the winner's timing.
    sweep_csv.open(out_dir / "sweep.csv");
    sweep_csv << "M,N,K,layout,acc,config,verdict,estimate_us,finalist_median_us,launch\n";
    o.on_sweep_candidate = [&sweep_csv](const Problem& p, const GemmImpl& impl, const Verdict& v, double est_us,
                                        double final_us) {
      auto num = [](double x) { return x >= 0 ? std::to_string(x) : std::string(); };
      sweep_csv << p.shape.M << "," << p.shape.N << "," << p.shape.K << "," << to_string(p.layout) << ","
                << to_string(p.acc) << "," << csv_text(impl.note()) << "," << (v.passed() ? "pass" : "fail") << ","
                << num(est_us) << "," << num(final_us) << "," << csv_text(impl.launch_detail()) << "\n";
      sweep_csv.flush();
    };
  }
  f.settings = settings_json(o);
  if (!sweep.is_null()) f.settings["gemmforge_sweep"] = sweep;
  f.settings["order"] = a.order;

  std::cerr << "gemmforge bench: " << o.shapes.size() << " shapes, impls " << a.problem.impls << ", modes " << a.modes
            << ", L2 " << a.l2 << ", on " << ctx.info().name << "\n";
  std::string torch_stopped;  // why torch's own process measured nothing, when a stop ended it
  if (wants_torch) {
    try {
      ResultFile t = run_torch_bench(o, a.python, out_dir, f.command);
      f.records.insert(f.records.end(), t.records.begin(), t.records.end());
      f.environment["torch"] = t.environment.value("torch", nlohmann::json());
      f.environment["torch_note"] = "torch is timed by scripts/torch_bench.py in its own process, before the C++ "
                                    "implementations; it is interleaved only with itself";
      if (t.environment.contains("skipped")) f.environment["torch_skipped"] = t.environment["skipped"];
    } catch (const Error&) {
      // A stop signal reaches torch's process too (timeout signals the process group): what the
      // C++ side measures next is still written. Any other torch failure ends the run.
      if (const int sig = g_stop_signal.load()) torch_stopped = signal_text(sig) + " during the torch benchmark";
      else throw;
    }
  }
  if (!o.impls.empty()) {
    auto recs = run_bench(ctx, o);
    f.records.insert(f.records.end(), recs.begin(), recs.end());
  }
  f.finished_utc = utc_now_iso8601();
  f.complete = true;
  if (!stop.reason.empty() || !torch_stopped.empty()) {
    const std::string why = torch_stopped.empty() ? stop.reason : torch_stopped;
    const std::string torch_part =
        !wants_torch ? "" : (torch_stopped.empty() ? " (torch, timed first in its own process: all of them)"
                                                   : " (torch: none)");
    f.stopped = why + ": " + std::to_string(o.impls.empty() ? 0 : stop.shapes_started) + " of " +
                std::to_string(o.shapes.size()) + " shapes measured" + torch_part;
  }

  SummaryOptions so;
  so.reference_baseline = a.baseline;
  write_outputs(out_dir, f, so);
  std::cout << render_summary_text(all_comparisons(f.records, so), so);
  const auto failed = failed_verdicts(f.records);
  if (!failed.empty()) {
    std::cout << "\n" << failed.size() << " failed verdicts (no timing recorded for them):\n";
    for (size_t i = 0; i < failed.size() && i < 20; ++i) std::cout << "  " << failed[i] << "\n";
  }
  if (!f.stopped.empty()) std::cout << "\nstopped early (" << f.stopped << ")\n";
  std::cout << "\nwrote " << (out_dir / "results.json").string() << ", results.csv and summary.md\n";
  // A signal that came after the last shape stopped nothing: the run is whole.
  if (!f.stopped.empty() && g_stop_signal.load() != 0) return kExitStopped;
  return failed.empty() ? kExitOk : kExitFailedVerdicts;
}

}  // namespace

void add_bench(CLI::App& app, int& exit_code, int argc, char** argv) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Time HGEMM implementations on a list of shapes, after the correctness gate");
  cmd->footer(
      "Every candidate passes the correctness gate (see 'gemmforge verify') before it is timed and is\n"
      "re-checked with fresh inputs after. Candidates of one shape run interleaved in shuffled rounds.\n"
      "Modes: gpu = CUDA-graph replay of back-to-back calls (device time); offline = back-to-back calls\n"
      "through the API (host launch cost included); server = single calls after random idle gaps\n"
      "(host wall clock until the device is idle).\n\n"
      "Examples:\n"
      "  gemmforge bench --shape 4096x4096x4096 --impl cublas,cublaslt-autotune\n"
      "  gemmforge bench --shapes grid --layout both --mode gpu,offline --out bench/results/grid\n"
      "  gemmforge bench --shapes grid --sample 100 --mode server --l2 cold\n"
      "  gemmforge bench --shapes grid --time-limit 500   # ends inside 500 s, writing the shapes measured\n"
      "Writes OUT/results.json, OUT/results.csv and OUT/summary.md (docs/results-format.md).");
  add_problem_options(*cmd, args->problem, "cublas,cublaslt-heuristic,cublaslt-autotune,torch");
  cmd->add_option("--mode", args->modes, "comma list of gpu, offline, server")->capture_default_str();
  cmd->add_option("--l2", args->l2, "warm (same buffers each call) or cold (rotate sets ≥ 2× L2; flush in server)")
      ->capture_default_str();
  cmd->add_option("--finalists", args->finalists,
                  "with --impl gemmforge: how many of the quickest configs (first estimate) are re-timed in "
                  "interleaved rounds to pick the winner (on a shape whose fastest estimate is over 200 µs, every "
                  "passing config is: the card is then at its power cap, where estimates rank configs badly)")
      ->capture_default_str();
  cmd->add_flag("--specialize", args->problem.specialize,
                "with --impl gemmforge: also compile each shape's finalists with its M, N and K as constants "
                "(JIT shape specialization), gate them, and time them beside the finalists");
  cmd->add_option("--rounds", args->timing.rounds, "samples per candidate in gpu/offline modes")->capture_default_str();
  cmd->add_option("--min-sample-us", args->timing.min_sample_us, "each gpu/offline sample lasts at least this long")
      ->capture_default_str();
  cmd->add_option("--server-calls", args->timing.server_calls, "samples per candidate in server mode")
      ->capture_default_str();
  cmd->add_option("--server-gap-us", args->timing.server_gap_us, "mean idle gap before a server call")
      ->capture_default_str();
  cmd->add_option("--order", args->order, "flops (ascending; heavy shapes together) or file")->capture_default_str();
  cmd->add_option("--time-limit", args->time_limit_s,
                  "seconds; a shape starts only if the longest shape so far would end within it, and what "
                  "was measured is written (0: none). SIGTERM or Ctrl-C stops after the current shape (exit code 5)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "output directory")->capture_default_str();
  cmd->add_option("--python", args->python, "Python with torch, for --impl torch")->capture_default_str();
  cmd->add_option("--baseline", args->baseline, "baseline of the per-class tables")->capture_default_str();
  cmd->callback([args, &exit_code, argc, argv] { exit_code = run(*args, argc, argv); });
}

}  // namespace gemmforge::cli
