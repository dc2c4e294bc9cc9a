// gemmforge: the command-line front of the evaluator (and, later, the tuner).
#include <iostream>

#include "cli/commands.hpp"
#include "gemmforge/types.hpp"
#include "runtime/library_impl.hpp"

int main(int argc, char** argv) {
  using namespace gemmforge::cli;
  CLI::App app{"gemmforge: honest fp16 GEMM (HGEMM) measurement and search for NVIDIA GPUs"};
  app.footer(
      "Start here:\n"
      "  gemmforge env                                     what GPU, driver and libraries are here, which table serves it\n"
      "  gemmforge verify --shape 1000x77x4095             the correctness gate on cuBLAS\n"
      "  gemmforge bench --shape 4096x4096x4096            time the four baselines on one shape\n"
      "  gemmforge bench --shapes grid --out results/grid  the 1000-shape grid, gpu + offline modes\n"
      "  gemmforge report results/grid/results.json        the summary tables again, no GPU needed\n"
      "  gemmforge ceilings --out results/ceilings         launch latency, HBM bandwidth, fp16 TF/s of this GPU\n"
      "  gemmforge kernels --compile                       compile gemmforge's Hopper kernels (no GPU needed)\n"
      "  gemmforge tune --shapes grid --out table.json     search kernels per shape; write a dispatch table\n"
      "  gemmforge trace --shape 4096x4096x1024 --kernel NAME   where one launch of a kernel spends its time\n"
      "  gemmforge db export --db tune.sqlite --dir D      keep a tune's database as CSV files (import: back)\n"
      "Run 'gemmforge SUBCOMMAND --help' for each one's options.");
  app.require_subcommand(1);
  gemmforge::register_library_impl();  // --impl gemmforge-lib: the runtime library, call by call
  int exit_code = kExitOk;
  add_bench(app, exit_code, argc, argv);
  add_verify(app, exit_code, argc, argv);
  add_report(app, exit_code);
  add_env(app, exit_code);
  add_ceilings(app, exit_code, argc, argv);
  add_kernels(app, exit_code);
  add_strategies(app, exit_code);
  add_tune(app, exit_code, argc, argv);
  add_db(app, exit_code);
  add_trace(app, exit_code, argc, argv);
  add_worker(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitUsage;
  } catch (const gemmforge::UsageError& e) {
    std::cerr << "gemmforge: " << e.what() << "\n";
    return kExitUsage;
  } catch (const gemmforge::NoGpuError& e) {
    std::cerr << "gemmforge: " << e.what() << "\n";
    return kExitNoGpu;
  } catch (const gemmforge::Error& e) {
    std::cerr << "gemmforge: " << e.what() << "\n";
    return kExitRuntime;
  } catch (const std::exception& e) {
    std::cerr << "gemmforge: unexpected error: " << e.what() << "\n";
    return kExitRuntime;
  }
  return exit_code;
}
