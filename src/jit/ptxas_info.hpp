// Reads the resource figures out of the "ptxas info" lines that --ptxas-options=-v leaves in
// the NVRTC log. The tuner uses them to drop configs that spill or exceed a register budget
// before spending GPU time on them.
#pragma once
#include <string_view>

namespace gemmforge::jit {

struct PtxasInfo {
  int registers = -1;     // most registers any function uses ("Used N registers")
  int spill_bytes = -1;   // spill stores + spill loads, summed over all functions
  int shared_bytes = -1;  // largest static shared memory ("N bytes smem"); ptxas omits it when 0
  // ptxas warning C7514/C7515...: it had to serialise the wgmma pipeline (an accumulator was
  // touched between wgmma issue and wait). The kernel is correct but loses its overlap.
  bool wgmma_serialized = false;
};

// Fields stay -1 when the log does not report them (no -v, or a failed compile).
PtxasInfo parse_ptxas_info(std::string_view log);

}  // namespace gemmforge::jit
