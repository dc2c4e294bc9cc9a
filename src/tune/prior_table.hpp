// Kernels found earlier, as seeds of a new tune: after a kernel edit voids a table (its
// kernel-source hash no longer matches) and a new baseline protocol voids the database, the
// winners of the last tune are still the best first guess for each problem; and a class sweep
// (`gemmforge bench --configs`) knows each of its shapes' fastest config where the tuner's
// small budget may never reach it. A seed is measured like any candidate, within the budget, so
// it is kept only if it wins.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/kernel_candidate.hpp"
#include "core/shape.hpp"

namespace gemmforge::tune {

class PriorTable {
 public:
  PriorTable() = default;
  // Reads either
  // - a table written by `gemmforge tune` (any kernel-source hash): its exact entries; entries that
  //   served cuBLASLt are no seeds and are skipped; a build for one shape seeds its generic
  //   kernel (the tune's --specialize rebuilds the best); or
  // - a sweep of `gemmforge bench --impl gemmforge --configs ...` (its output directory or its
  //   sweep.csv): per problem, the passing candidate with the fastest finalist median (the
  //   fastest estimate where no candidate reached the finalists), launch knobs included.
  // Launch knobs are kept as recorded: the tuner drops a seed its options or the problem cannot
  // take. Throws Error naming the file (and the entry or line) when it is neither.
  static PriorTable read(const std::filesystem::path&);

  // Adds the other's seeds; a problem keeps each distinct kernel once, this one's first.
  void merge(const PriorTable&);

  // The kernels the prior runs found for this problem (none, one, or one per source).
  std::vector<KernelCandidate> find(const Shape&, Layout, Accum) const;
  size_t size() const { return entries_.size(); }  // problems with a seed

 private:
  static PriorTable read_table(const std::filesystem::path&);
  static PriorTable read_sweep(const std::filesystem::path&);
  void add(const std::string& key, const KernelCandidate&);
  static std::string key(const Shape&, Layout, Accum);
  std::map<std::string, std::vector<KernelCandidate>> entries_;
};

}  // namespace gemmforge::tune
