// Disassembling a cubin on the CPU machine for the kernel-compile tests: cuobjdump (with nvdisasm
// beside it) runs without a GPU; .ci/run installs both from PyPI (nvidia-cuda-cuobjdump/-nvdisasm).
#pragma once
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gemmforge::testing {

// Runs a command and returns its standard output ("" if it could not run).
inline std::string capture(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf;
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    pclose(p);
  }
  return out;
}

inline bool can_disassemble() { return !capture("cuobjdump --version 2>/dev/null").empty(); }

// The SASS of a cubin, written under the temp dir as `name`.cubin first.
inline std::string sass_of(const std::vector<char>& cubin, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmforge_sass_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / (name + ".cubin");
  std::ofstream(path, std::ios::binary).write(cubin.data(), std::streamsize(cubin.size()));
  return capture("cuobjdump -sass " + path.string() + " 2>&1");
}

// How many times an instruction (or any text) occurs in a disassembly.
inline int count_of(const std::string& sass, const std::string& op) {
  int n = 0;
  for (size_t at = sass.find(op); at != std::string::npos; at = sass.find(op, at + op.size())) ++n;
  return n;
}

}  // namespace gemmforge::testing
