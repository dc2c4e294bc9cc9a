#include "jit/ptxas_info.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace gemmforge::jit {

namespace {

// The number just before `suffix` in `line` ("..., 0 bytes spill stores" -> 0), or -1.
int number_before(std::string_view line, std::string_view suffix) {
  const size_t at = line.find(suffix);
  if (at == std::string_view::npos) return -1;
  size_t begin = at;
  while (begin > 0 && line[begin - 1] == ' ') --begin;
  const size_t end = begin;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9') --begin;
  if (begin == end) return -1;
  return std::atoi(std::string(line.substr(begin, end - begin)).c_str());
}

void take_max(int& field, int v) {
  if (v >= 0) field = std::max(field, v);
}

}  // namespace

// The lines look like (CUDA 13):
//   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 10 registers, used 1 barriers, 128 bytes smem
PtxasInfo parse_ptxas_info(std::string_view log) {
  PtxasInfo info;
  size_t pos = 0;
  while (pos < log.size()) {
    size_t eol = log.find('\n', pos);
    if (eol == std::string_view::npos) eol = log.size();
    const std::string_view line = log.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.find("wgmma.mma_async instructions are serialized") != std::string_view::npos) info.wgmma_serialized = true;
    if (line.substr(0, 5) != "ptxas") continue;

    take_max(info.registers, number_before(line, "registers"));
    take_max(info.shared_bytes, number_before(line, "bytes smem"));
    const int stores = number_before(line, "bytes spill stores");
    const int loads = number_before(line, "bytes spill loads");
    if (stores >= 0 || loads >= 0)
      info.spill_bytes = std::max(info.spill_bytes, 0) + std::max(stores, 0) + std::max(loads, 0);
  }
  return info;
}

}  // namespace gemmforge::jit
