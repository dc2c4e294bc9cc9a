// gemmforge worker (hidden): the process `gemmforge tune` measures in. It speaks the worker
// protocol on stdin/stdout (src/tune/worker_protocol.hpp); a person never runs it.
#include "cli/commands.hpp"
#include "tune/worker_main.hpp"

namespace gemmforge::cli {

void add_worker(CLI::App& app, int& exit_code) {
  auto cache_dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("worker", "");
  cmd->group("");  // hidden from --help
  cmd->add_option("--cache-dir", *cache_dir, "the kernel cache the tuner compiled into")->required();
  cmd->callback([cache_dir, &exit_code] { exit_code = tune::run_worker(tune::kernel_cache_factory(*cache_dir)); });
}

}  // namespace gemmforge::cli
