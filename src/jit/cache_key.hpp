// What a compiled kernel depends on, boiled down to one 32-hex-digit name.
#pragma once
#include <string>
#include <vector>

#include "jit/nvrtc_compiler.hpp"

namespace gemmforge::jit {

// Hash of the source, every compile option (arch and -I paths included), the NVRTC build, and
// the text of every header under the include dirs. The request's name is not part of it.
std::string cache_key(const CompileRequest&);

// Hash of every *.cuh, *.hpp, *.h and *.inl file under the dirs (recursively, sorted by path):
// the source may include any of them, and listing what it really includes would take a
// preprocessor run. Computed once per set of dirs per process and remembered, so headers edited
// while a process runs are not seen by that process. A missing dir hashes as "missing".
std::string include_dirs_fingerprint(const std::vector<std::string>& dirs);

// nvrtc_version() plus the size of the loaded libnvrtc file: nvrtcVersion says only "13.0",
// and a patch release with different code generation must not reuse old cubins.
std::string nvrtc_fingerprint();

}  // namespace gemmforge::jit
