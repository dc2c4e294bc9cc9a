#include <iostream>

#include "cli/commands.hpp"
#include "core/floor_report.hpp"
#include "core/summary.hpp"
#include "eval/timing.hpp"

namespace gemmforge::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> files;
  std::string baseline = "cublaslt-autotune";
  std::string markdown;
  std::string floors;        // ceilings.json from gemmforge ceilings
  std::string floors_csv;
  std::string floors_impl = "auto";
};

// The floors section (core/floor_report.hpp): the class table for the terminal, the class and
// per-shape tables for the Markdown file, the per-shape rows as CSV.
struct FloorsOutput {
  std::string terminal, markdown;
};

FloorsOutput floors_section(const ReportArgs& a, const Ceilings& ceilings, const ResultFile& merged) {
  const auto& records = merged.records;
  FloorReportLabels labels{a.floors, a.baseline, pick_floor_impl(records, a.floors_impl)};
  // Which calls the bench timed at steady state; a results.csv has no settings: the bench's default.
  const nlohmann::json heavy = merged.settings.value("heavy_call_us", nlohmann::json(TimingOptions{}.heavy_call_us));
  if (!heavy.is_number()) throw UsageError("--floors: the results' settings.heavy_call_us is not a number");
  const auto rows = floor_rows(records, ceilings, labels.baseline, labels.impl, heavy.get<double>());
  if (rows.empty()) throw UsageError("--floors: the result files hold no gpu, offline or server records");
  const auto classes = floor_class_summaries(rows);
  if (!a.floors_csv.empty()) write_file_atomically(a.floors_csv, floor_csv(rows, labels));
  return {render_floor_markdown(ceilings, rows, classes, labels, false),
          render_floor_markdown(ceilings, rows, classes, labels, true)};
}

int run(const ReportArgs& a) {
  if (a.floors.empty() && !a.floors_csv.empty()) throw UsageError("--floors-csv needs --floors CEILINGS.json");
  ResultFile merged;
  Ceilings ceilings;
  try {
    if (!a.floors.empty()) ceilings = read_ceilings_file(a.floors);
    std::string stopped;  // every merged file that stopped early, and why
    for (const auto& path : a.files) {
      ResultFile f = read_result_file(path);
      if (!f.stopped.empty()) stopped += (stopped.empty() ? "" : "; ") + path + ": " + f.stopped;
      if (merged.command.empty()) merged = f;
      else merged.records.insert(merged.records.end(), f.records.begin(), f.records.end());
    }
    merged.stopped = stopped;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  merged.complete = true;
  SummaryOptions so;
  so.reference_baseline = a.baseline;
  const auto cs = all_comparisons(merged.records, so);
  if (!merged.stopped.empty()) std::cout << "stopped early, fewer shapes than asked for: " << merged.stopped << "\n\n";
  std::cout << render_summary_text(cs, so);
  const auto failed = failed_verdicts(merged.records);
  std::cout << "\n" << merged.records.size() << " records, " << failed.size() << " failed verdicts\n";
  for (size_t i = 0; i < failed.size() && i < 20; ++i) std::cout << "  " << failed[i] << "\n";
  const FloorsOutput floors = a.floors.empty() ? FloorsOutput{} : floors_section(a, ceilings, merged);
  std::cout << floors.terminal;
  if (!a.markdown.empty())
    write_file_atomically(a.markdown, render_summary_markdown(merged, cs, so) + floors.markdown);
  return kExitOk;
}

}  // namespace

void add_report(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Summarize one or more result files (results.json, .json.gz or results.csv; merged) without a GPU");
  cmd->footer(
      "With --floors CEILINGS.json (written by 'gemmforge ceilings'), also sets every shape and mode against\n"
      "its floor, the least time the hardware allows: launch + max(memory, compute), where memory moves A and B\n"
      "once and C once (at L2 bandwidth for what a warm L2 keeps, l2_resident, at HBM bandwidth for the rest)\n"
      "and compute runs 2MNK at the tensor cores' peak at the highest clock, or, for calls the bench timed at\n"
      "steady state (over its heavy_call_us, after warming the card into its power cap), at the rate wgmma\n"
      "alone sustains there (fp16_tensor_alone) (offline: max(host launch, gpu launch + max(memory, compute)),\n"
      "as back-to-back calls overlap the two). Per class\n"
      "and mode it prints the headroom (baseline time / floor: the largest speedup over the baseline any kernel\n"
      "could have), gemmforge's speedup, and how close each comes to the floor. The per-shape rows go to\n"
      "--markdown and --floors-csv.\n\n"
      "Examples:\n"
      "  gemmforge report bench/results/grid/results.json --baseline cublas --markdown summary.md\n"
      "  gemmforge report bench/results/grid/results.json.gz --floors ceilings/ceilings.json --floors-csv floors.csv");
  cmd->add_option("files", args->files, "results.json / results.json.gz / results.csv files written by gemmforge bench")->required();
  cmd->add_option("--baseline", args->baseline, "baseline of the per-class tables and of the floors' headroom")
      ->capture_default_str();
  cmd->add_option("--markdown", args->markdown, "also write the summary (and the floors, per shape) as Markdown to this file");
  cmd->add_option("--floors", args->floors, "ceilings.json from 'gemmforge ceilings': set each shape against its floor");
  cmd->add_option("--floors-csv", args->floors_csv, "with --floors: write one row per shape and mode as CSV to this file");
  cmd->add_option("--floors-impl", args->floors_impl,
                  "with --floors: the implementation set against the floor; 'auto' is gemmforge if present, else "
                  "gemmforge-lib")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace gemmforge::cli
