// The kernels a dispatch table serves, as builds to compile ahead: a library's first call of a
// shape then loads a cubin from the kernel cache instead of compiling it (a compile takes about
// half a second of CPU per kernel; a cold cache cost a quarter of session 10's full-grid library run).
#pragma once
#include <string>
#include <vector>

#include "core/kernel_candidate.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "runtime/table.hpp"

namespace gemmforge {

struct TableBuild {
  KernelCandidate kernel;  // generic, or built for the entry's shape; launch knobs dropped (they share the cubin)
  jit::CompileRequest request;  // exactly what the runtime compiles for it
};

// Every distinct build the table's exact entries and class rules name, in table order: an entry
// marked specialized is built for its own shape, everything else for any shape; a cuBLASLt entry
// names its fastest kernel, if it keeps one (staged calls serve it). sm80_arch: what the sm80
// family compiles for on the GPU (sm80_family_arch).
std::vector<TableBuild> table_builds(const Table&, const std::string& sm80_arch);

}  // namespace gemmforge
