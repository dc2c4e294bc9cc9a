#include "runtime/table_builds.hpp"

#include <set>

#include "runtime/candidate_kernel.hpp"

namespace gemmforge {

std::vector<TableBuild> table_builds(const Table& t, const std::string& sm80_arch) {
  std::vector<TableBuild> out;
  std::set<std::string> seen;
  const auto add = [&](const TableEntry& e, const ShapeConstants& shape) {
    if (!e.names_a_kernel()) return;
    KernelCandidate k = e.sm80 ? sm80_candidate(*e.sm80) : KernelCandidate(*e.config);
    if (shape) k = k.specialized_for(*shape);
    if (seen.insert(k.build_name()).second) out.push_back({k, compile_request(k, sm80_arch)});
  };
  for (const auto& [key, e] : t.exact) {
    const auto& [M, N, K, layout, acc] = key;
    add(e, e.specialized ? ShapeConstants(Shape{M, N, K}) : std::nullopt);
    if (auto f = e.as_fastest()) add(*f, std::nullopt);
  }
  for (const auto& [key, e] : t.rules) add(e, std::nullopt);
  return out;
}

}  // namespace gemmforge
