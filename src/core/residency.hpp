// How many CTAs the GPU holds at once, by cluster size: what a split-K count is sized by. A
// persistent launch puts one unit of work on each resident cluster; a sliced split-K sum needs
// every part of a tile resident at once (src/runtime/sm90_kernel.cpp).
#pragma once
#include <array>

#include <nlohmann/json.hpp>

namespace gemmforge {

struct Residency {
  int sm_count = 0;
  // Clusters of 2, 4 and 8 CTAs resident at once for a kernel of one CTA per SM, as the device
  // reports them (src/eval/cluster_residency.cu); 0 where not measured. A cluster must sit in one
  // GPC, and GPCs differ in size, so fewer fit than sm_count / size (H200: 30 clusters of 4, not
  // 33). A kernel that fits more CTAs on an SM places at least as many: a lower bound for all.
  std::array<int, 3> clusters{};

  Residency() = default;
  // An SM count alone (a CPU test, a worker that did not measure clusters): clusters of c CTAs
  // are then taken as sm_count / c, which the device may not reach; a sliced launch that needs
  // more than it has is refused when prepared, not hung.
  Residency(int sm_count) : sm_count(sm_count) {}  // NOLINT: implicit on purpose

  // Clusters of `ctas` CTAs (1, 2, 4 or 8) resident at once; ctas == 1 is sm_count.
  int clusters_of(int ctas) const;
  bool clusters_measured() const { return clusters[0] > 0 && clusters[1] > 0 && clusters[2] > 0; }

  // {"sm_count": 132, "resident_clusters": {"2": 66, "4": 30, "8": 15}} (the clusters only when
  // measured); from_json throws Error on a count below 0 or a cluster count above sm_count / size.
  nlohmann::json to_json() const;
  static Residency from_json(const nlohmann::json&);
};

}  // namespace gemmforge
