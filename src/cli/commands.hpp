// The subcommands of the gemmforge CLI. Each registers its options and sets `exit_code` when run.
#pragma once
#include <CLI/CLI.hpp>

namespace gemmforge::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailedVerdicts = 1;  // ran fine; some implementation failed the gate
inline constexpr int kExitUsage = 2;           // bad options, shapes or files
inline constexpr int kExitNoGpu = 3;
inline constexpr int kExitRuntime = 4;         // a CUDA/cuBLAS/torch error stopped the run
inline constexpr int kExitStopped = 5;         // a signal stopped the run early; what it measured is written

void add_bench(CLI::App&, int& exit_code, int argc, char** argv);
void add_verify(CLI::App&, int& exit_code, int argc, char** argv);
void add_report(CLI::App&, int& exit_code);
void add_env(CLI::App&, int& exit_code);
void add_ceilings(CLI::App&, int& exit_code, int argc, char** argv);
void add_kernels(CLI::App&, int& exit_code);
void add_strategies(CLI::App&, int& exit_code);
void add_tune(CLI::App&, int& exit_code, int argc, char** argv);
void add_db(CLI::App&, int& exit_code);
void add_trace(CLI::App&, int& exit_code, int argc, char** argv);
void add_worker(CLI::App&, int& exit_code);  // hidden: the tuner's worker process

}  // namespace gemmforge::cli
