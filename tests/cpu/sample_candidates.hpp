// Small candidates the CPU tests of the tuner's pieces share (candidate JSON, worker protocol,
// compile-ahead): a split-K Hopper kernel and a small sm80 one.
#pragma once
#include "core/kernel_candidate.hpp"

namespace gemmforge::testing {

// 64x96 tiles, 6 stages, one consumer, K split in 4.
inline KernelCandidate split_hopper_candidate() {
  KernelCandidate c;
  c.config.block_m = 64;
  c.config.block_n = 96;
  c.config.stages = 6;
  c.config.consumers = 1;
  c.knobs.splits = 4;
  return c;
}

// 32 x block_n tiles on 1x2 warps.
inline Sm80Config small_sm80_config(int block_n, int stages = 3) {
  Sm80Config c;
  c.block_m = 32;
  c.block_n = block_n;
  c.warps_m = 1;
  c.warps_n = 2;
  c.stages = stages;
  return c;
}

}  // namespace gemmforge::testing
