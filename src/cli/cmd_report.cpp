#include <iostream>

#include "cli/commands.hpp"
#include "core/summary.hpp"

namespace gemmforge::cli {
namespace {

struct ReportArgs {
  std::vector<std::string> files;
  std::string baseline = "cublaslt-autotune";
  std::string markdown;
};

int run(const ReportArgs& a) {
  ResultFile merged;
  try {
    for (const auto& path : a.files) {
      ResultFile f = read_result_file(path);
      if (merged.command.empty()) merged = f;
      else merged.records.insert(merged.records.end(), f.records.begin(), f.records.end());
    }
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  merged.complete = true;
  SummaryOptions so;
  so.reference_baseline = a.baseline;
  const auto cs = all_comparisons(merged.records, so);
  std::cout << render_summary_text(cs, so);
  const auto failed = failed_verdicts(merged.records);
  std::cout << "\n" << merged.records.size() << " records, " << failed.size() << " failed verdicts\n";
  for (size_t i = 0; i < failed.size() && i < 20; ++i) std::cout << "  " << failed[i] << "\n";
  if (!a.markdown.empty()) write_file_atomically(a.markdown, render_summary_markdown(merged, cs, so));
  return kExitOk;
}

}  // namespace

void add_report(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Summarize one or more result files (results.json, .json.gz or results.csv; merged) without a GPU");
  cmd->footer("Example: gemmforge report bench/results/grid/results.json --baseline cublas --markdown summary.md");
  cmd->add_option("files", args->files, "results.json / results.json.gz / results.csv files written by gemmforge bench")->required();
  cmd->add_option("--baseline", args->baseline, "baseline of the per-class tables")->capture_default_str();
  cmd->add_option("--markdown", args->markdown, "also write the summary as Markdown to this file");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace gemmforge::cli
