// The kernels an earlier table served, as seeds of a new tune: after a kernel edit voids a table
// (its kernel-source hash no longer matches) and a new baseline protocol voids the database, the
// winners of the last tune are still the best first guess for each problem. A seed is measured
// like any candidate, within the budget, so it is kept only if it still wins.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/kernel_candidate.hpp"
#include "core/shape.hpp"

namespace gemmforge::tune {

class PriorTable {
 public:
  PriorTable() = default;
  // Reads the exact entries of a table written by `gemmforge tune` (any kernel-source hash);
  // entries that served cuBLASLt are no seeds and are skipped. A build for one shape seeds its
  // generic kernel (the tune's --specialize rebuilds the best). Launch knobs are kept as the
  // table has them: the tuner drops a seed its options or the problem cannot take. Throws Error
  // naming the file (and the entry) when it is not such a table.
  static PriorTable read(const std::filesystem::path&);

  // The kernel the table served for this problem, if a gemmforge one.
  std::optional<KernelCandidate> find(const Shape&, Layout, Accum) const;
  size_t size() const { return entries_.size(); }

 private:
  static std::string key(const Shape&, Layout, Accum);
  std::map<std::string, KernelCandidate> entries_;
};

}  // namespace gemmforge::tune
