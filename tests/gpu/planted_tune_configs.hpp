// The configs behind which the planted tuner worker (planted_worker.cpp) runs planted kernels
// instead of the real ones, shared with the test that expects each one's failure (test_tune.cpp).
// They are real, valid configs of the space: the tuner compiles and proposes them like any other.
#pragma once
#include <optional>
#include <vector>

#include "core/kernel_config.hpp"
#include "planted_kernels.hpp"

namespace gemmforge::testing {

// A tn f32 config of the space with these knobs (cooperative, no cluster, direct stores).
inline KernelConfig space_config(int block_m, int block_n, int stages, int consumers) {
  for (const auto& c : config_space(Layout::tn, Accum::f32))
    if (c.block_m == block_m && c.block_n == block_n && c.stages == stages && c.consumers == consumers &&
        c.mode == ConsumerMode::cooperative && c.cluster_m == 1 && c.cluster_n == 1 && !c.tma_store && !c.swap_ab)
      return c;
  throw Error("the config space has no tn f32 " + std::to_string(block_m) + "x" + std::to_string(block_n) + " s" +
              std::to_string(stages) + " c" + std::to_string(consumers) + " config");
}

struct PlantedConfig {
  KernelConfig config;
  Flaw flaw;
};

inline const std::vector<PlantedConfig>& planted_tune_configs() {
  static const std::vector<PlantedConfig> planted = {
      {space_config(64, 64, 2, 1), Flaw::illegal_address},
      {space_config(64, 64, 3, 1), Flaw::device_trap},
      {space_config(64, 64, 4, 1), Flaw::hang},
      {space_config(64, 64, 5, 1), Flaw::host_crash},
      {space_config(64, 64, 6, 1), Flaw::skip_last_row},
  };
  return planted;
}

inline std::optional<Flaw> planted_flaw(const KernelConfig& c) {
  for (const auto& p : planted_tune_configs())
    if (p.config == c) return p.flaw;
  return std::nullopt;
}

}  // namespace gemmforge::testing
