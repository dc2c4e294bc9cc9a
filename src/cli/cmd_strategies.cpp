// gemmforge strategies: the search strategies compared on recorded sweeps, on CPU. For each
// layout and kernel family in the files, every strategy searches every recorded shape (the rl policy carries what
// it learned from one shape to the next) and is scored against the exhaustive best of the
// recording: measurements needed to come within 5% and 1% of it, and the quality reached after a
// small budget.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "core/records.hpp"
#include "search/sweep_replay.hpp"

namespace gemmforge::cli {
namespace {

struct StrategiesArgs {
  std::vector<std::string> files;
  int budget = 0;  // 0: the whole space
  int small_budget = 8;
  uint64_t seed = 1;
  std::string out;
};

// Every strategy on one family's recorded space of one layout: a table on stdout, rows in `report`.
template <class Config>
void compare_strategies(const StrategiesArgs& a, const SweepReplay& replay, Layout layout, const char* family,
                        const std::vector<Shape>& shapes, const std::vector<Config>& space, size_t dropped,
                        nlohmann::json& report) {
  if (space.empty()) return;
  const int budget = a.budget > 0 ? std::min<int>(a.budget, int(space.size())) : int(space.size());
  std::cout << "\nlayout " << to_string(layout) << ", " << family << " family: " << shapes.size() << " shapes, "
            << space.size() << " configs recorded for every shape"
            << (dropped ? " (" + std::to_string(dropped) + " recorded for some shapes only, left out)" : std::string())
            << "; budget " << budget << ", small budget " << a.small_budget << "\n";
  std::cout << "  strategy      to 95% of best   to 99% of best   best/found after " << a.small_budget << "\n";
  const MeasureOf<Config> measure = [&](const Shape& s, const Config& c) { return replay.measure(s, c); };
  for (const auto& name : strategy_names()) {
    auto strategy = make_strategy(name, a.seed);
    const StrategyScore sc = score_strategy(*strategy, shapes, space, measure, budget, a.small_budget);
    std::ostringstream line;
    line << "  " << std::left << std::setw(12) << name << std::right << std::fixed << std::setprecision(1)
         << std::setw(10) << sc.budget_to_95 << " meas." << std::setw(11) << sc.budget_to_99 << " meas."
         << std::setprecision(3) << std::setw(14) << sc.quality_at_small_budget << "\n";
    std::cout << line.str();
    report.push_back({{"layout", to_string(layout)}, {"family", family}, {"strategy", name}, {"shapes", sc.shapes},
                      {"space", space.size()}, {"budget", budget}, {"small_budget", a.small_budget},
                      {"budget_to_95", sc.budget_to_95}, {"budget_to_99", sc.budget_to_99},
                      {"quality_at_small_budget", sc.quality_at_small_budget}, {"seed", a.seed}});
  }
}

int run(const StrategiesArgs& a) {
  SweepReplay replay;
  try {
    std::vector<std::filesystem::path> files(a.files.begin(), a.files.end());
    replay = load_sweep_replay(files);
    if (a.budget < 0 || a.small_budget < 1) throw Error("--budget must be ≥ 0 and --small-budget ≥ 1");
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  nlohmann::json report = nlohmann::json::array();
  std::cout << replay.rows << " recorded measurements\n";
  for (const auto& [layout, part] : replay.parts) {
    compare_strategies(a, replay, layout, "hopper", part.shapes, part.space, part.dropped_configs, report);
    compare_strategies(a, replay, layout, "sm80", part.shapes, part.sm80_space, part.sm80_dropped_configs, report);
  }
  if (!a.out.empty()) write_file_atomically(a.out, report.dump(1) + "\n");
  return kExitOk;
}

}  // namespace

void add_strategies(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<StrategiesArgs>();
  auto* cmd = app.add_subcommand("strategies", "Compare the search strategies on recorded sweeps (no GPU needed)");
  cmd->footer(
      "The sweep.csv files come from 'gemmforge bench --impl gemmforge' (one run; its parts may be several files).\n"
      "A config's time is its recorded first estimate; a config that failed the gate is a failed measurement.\n"
      "Each kernel family in the files (Hopper, sm80) is a space of its own, compared per layout.\n"
      "Examples:\n"
      "  gemmforge strategies bench/results/2026-11-29-h200-kernels-v3-large/large-*/sweep.csv --small-budget 8\n"
      "  gemmforge strategies tiny/sweep.csv --small-budget 3     # both families, from issue4-classes/tiny.tar.gz");
  cmd->add_option("files", args->files, "sweep.csv files of one run")->required();
  cmd->add_option("--budget", args->budget, "measurements per shape (0: the whole recorded space)")->capture_default_str();
  cmd->add_option("--small-budget", args->small_budget, "the budget at which quality is reported")->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of the random, evolution and rl strategies")->capture_default_str();
  cmd->add_option("--out", args->out, "write the table as JSON");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace gemmforge::cli
