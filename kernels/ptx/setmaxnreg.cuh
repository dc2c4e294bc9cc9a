// Register rebalancing between warpgroups (sm_90a): the TMA producer gives registers up so the
// wgmma consumers can hold larger accumulator tiles. Needs __launch_bounds__(threads, 1).
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

template <u32 kRegs>
__device__ inline void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}
template <u32 kRegs>
__device__ inline void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}

}  // namespace gemmforge::ptx
