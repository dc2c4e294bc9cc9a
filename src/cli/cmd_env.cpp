#include <iostream>

#include "cli/commands.hpp"
#include "core/env_switch.hpp"
#include "eval/cluster_residency.hpp"
#include "eval/device.hpp"
#include "eval/nvml.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table_choice.hpp"

namespace gemmforge::cli {

void add_env(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("env", "Show the GPU, driver, CUDA and cuBLAS versions, clocks, power and the dispatch table a handle would use (JSON)");
  cmd->callback([&exit_code] {
    GpuInfo g = probe_gpu();
    // What split counts are sized by (the bench, tune and the library measure it the same way).
    std::string residency_error;
    if (g.present && g.cc_major >= 9) try {
        g.resident_clusters = measure_resident_clusters();
      } catch (const Error& e) {
        residency_error = e.what();
      }
    nlohmann::json j = environment_json(g);
    if (!residency_error.empty()) j["residency_error"] = residency_error;
    if (g.present) {
      auto& nvml = Nvml::instance(g.pci_bus_id);
      const auto r = nvml.read();
      j["nvml"] = nvml.available() ? "ok" : nvml.why_unavailable();
      j["nvidia_driver"] = nvml.driver_version();
      if (r.sm_clock_mhz) j["sm_clock_mhz"] = *r.sm_clock_mhz;
      if (r.power_w) j["power_w"] = *r.power_w;
      if (r.temperature_c) j["temperature_c"] = *r.temperature_c;
      // The table a gemmforge::Handle with default options serves from here, or why none: the
      // same choice, with the same environment ($GEMMFORGE_TABLE, $GEMMFORGE_TABLE_FROM_OTHER_GPU).
      bool other_gpu_allowed = false;
      override_switch("GEMMFORGE_TABLE_FROM_OTHER_GPU", other_gpu_allowed);
      j["dispatch_table"] = choose_table("", g.name, [&] { return table_expectation(g, other_gpu_allowed); }).status;
    }
    std::cout << j.dump(2) << "\n";
    exit_code = g.present ? kExitOk : kExitNoGpu;
  });
}

}  // namespace gemmforge::cli
