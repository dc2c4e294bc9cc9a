// CUDA C++ source -> SASS (cubin) through NVRTC, in this process, with no driver or GPU needed.
// compile() keeps no state between calls, so a caller can move it into a child process (NVRTC
// has crashed inside nvrtcCompileProgram on a kernel whose wgmma descriptors were compile-time
// zeros; design.md).
#pragma once
#include <string>
#include <vector>

namespace gemmforge::jit {

struct CompileRequest {
  std::string name;                        // for messages, e.g. "hgemm_sm90 BM128 BN256 ..."
  std::string source;                      // complete CUDA C++ source text
  std::string arch = "sm_90a";             // --gpu-architecture=<arch>; "sm_80" for Ampere paths
  std::vector<std::string> include_dirs;   // -I options (the repository's kernels/ dir etc.)
  std::vector<std::string> extra_options;  // e.g. "-DFOO=1"; passed last
};

struct CompileResult {
  bool ok = false;
  std::string log;          // NVRTC program log (errors, warnings, ptxas -v info)
  std::vector<char> cubin;  // SASS for arch (nvrtcGetCUBIN), empty if !ok
  std::string key;          // cache key (cache_key.hpp)
  bool from_cache = false;
  double seconds = 0;     // compile wall time (0 when from cache)
  int registers = -1;     // "Used N registers" in the ptxas -v info; -1 unknown
  int spill_bytes = -1;   // spill stores + spill loads; -1 unknown
  int shared_bytes = -1;  // static shared memory, when ptxas reports it
};

// A compile error, an invalid option or an architecture without SASS gives ok=false and says
// why in log; it never throws for those. Any other NVRTC failure (out of memory, a broken
// installation) throws gemmforge::Error naming the call.
CompileResult compile(const CompileRequest&);

// Every option compile() passes, in order: arch, -std=c++20, -default-device,
// --ptxas-options=-v, -lineinfo, -I per include dir, then extra_options.
std::vector<std::string> compile_options(const CompileRequest&);

std::string nvrtc_version();  // "13.0"

}  // namespace gemmforge::jit
