// A pretend GPU for the tuner's CPU tests: deterministic device times with the structure real
// kernels have (tile waste, pipeline depth, consumers, small tiles, split-K where tiles are few),
// and a baseline that a good config beats. Shared by the stand-in worker and the tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kernel_candidate.hpp"

namespace gemmforge::testing {

inline constexpr int kFakeSms = 132;

inline double fake_hopper_us(const Shape& s, const KernelCandidate& cand) {
  const KernelConfig& c = cand.config;
  const double tiles_m = std::ceil(double(s.M) / c.block_m), tiles_n = std::ceil(double(s.N) / c.block_n);
  const double waste = tiles_m * c.block_m * tiles_n * c.block_n / (double(s.M) * double(s.N));
  const double stage_penalty = 1.0 + 0.04 * std::abs(c.stages - 4);
  const double consumer_penalty = (c.block_m >= 128 && c.consumers == 1) ? 1.15 : 1.0;
  const double small_tile_penalty = 1.0 + 8.0 / c.block_n + 8.0 / c.block_m;
  // Too few tiles leave SMs idle; split-K gives them work at a small reduction cost.
  const double busy = std::min(1.0, tiles_m * tiles_n * cand.knobs.splits / kFakeSms);
  const double split_cost = cand.knobs.splits > 1 ? 1.05 : 1.0;
  const uint64_t h = std::hash<std::string>{}(to_string(s) + cand.name());
  const double noise = 1.0 + 0.03 * (double(h % 1000) / 1000.0 - 0.5);
  return 2.0 + s.flops() / 600e6 * waste * stage_penalty * consumer_penalty * small_tile_penalty * noise * split_cost /
                   std::max(busy, 0.05);
}

// How much faster than its Hopper model an sm80-family kernel and a build for one shape run on
// the pretend device; the stand-in worker's --sm80-speedup and --specialized-speedup set them.
struct FakeSpeedups {
  double sm80 = 1.0;
  double specialized = 1.0;
  double raster = 1.0;  // a launch with an explicit raster group (--raster-speedup): C written along rows
  double parts_apart = 1.0;  // a build with a split tile's parts apart (--parts-apart-speedup)
  double cluster = 1.0;      // a build in a cluster of 4 or more CTAs (--wide-cluster-speedup)
  double cluster_push = 1.0;  // a build that pushes its in-cluster sums (--cluster-push-speedup)
  double ksplit = 1.0;        // a build with k-split consumers (--ksplit-speedup)
  double lean_sync = 1.0;     // a build with lean cluster sync (--lean-sync-speedup)
  double uniform_warpgroup = 1.0;  // a build with the uniform warpgroup index (--uniform-warpgroup-speedup)
  double dynamic_walk = 1.0;  // a build with the dynamic walk (--dynamic-walk-speedup)
  double walk_n = 1.0;        // a build that walks along N (--walk-n-speedup)
};

// An sm80 kernel is modelled as the Hopper kernel of its tile (one consumer, its stages), so
// its time has the same structure; the speedups make either kind the fastest on cue.
inline double fake_candidate_us(const Shape& s, const KernelCandidate& cand, const FakeSpeedups& speedups = {}) {
  KernelCandidate model = cand;
  double speedup = cand.specialized() ? speedups.specialized : 1.0;
  if (const auto* k = cand.sm80_config()) {
    model = KernelCandidate{};
    model.config.block_m = k->block_m;
    model.config.block_n = k->block_n;
    model.config.stages = k->stages;
    model.config.consumers = 1;
    speedup *= speedups.sm80;
  }
  if (cand.specialized()) model.built_for.reset();
  // The noise of the name measured, so two kernels never tie exactly.
  const uint64_t h = std::hash<std::string>{}(to_string(s) + cand.name());
  const double noise = 1.0 + 0.002 * (double(h % 1000) / 1000.0 - 0.5);
  const double raster = (cand.knobs.group_m > 0 ? speedups.raster : 1.0) * (cand.config.parts_apart ? speedups.parts_apart : 1.0) *
                        (cand.config.cluster_m * cand.config.cluster_n >= 4 ? speedups.cluster : 1.0) *
                        (cand.config.cluster_push ? speedups.cluster_push : 1.0) *
                        (cand.config.mode == ConsumerMode::ksplit ? speedups.ksplit : 1.0) *
                        (cand.config.lean_cluster_sync ? speedups.lean_sync : 1.0) *
                        (cand.config.uniform_warpgroup ? speedups.uniform_warpgroup : 1.0) *
                        (cand.config.dynamic_walk ? speedups.dynamic_walk : 1.0) *
                        (cand.config.walk_n ? speedups.walk_n : 1.0);
  if (cand.sm80_config() || cand.specialized()) return fake_hopper_us(s, model) * noise / (speedup * raster);
  return fake_hopper_us(s, cand) / raster;
}

inline double fake_baseline_us(const Shape& s) {
  const double tiles = std::ceil(double(s.M) / 128) * std::ceil(double(s.N) / 128);
  return 2.5 + s.flops() / 600e6 * 1.2 / std::min(1.0, std::max(tiles, 16.0) / kFakeSms);
}

inline nlohmann::json fake_environment(const std::string& gpu) {
  return {{"gpu", gpu},           {"arch", "sm_90a"},         {"sm_count", kFakeSms},
          {"cuda_driver", 13000}, {"cuda_runtime", 13000},    {"nvidia_driver", "580.00"},
          {"compute_capability", "9.0"}};
}

}  // namespace gemmforge::testing
