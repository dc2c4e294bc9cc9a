#include "core/residency.hpp"

#include <string>

#include "gemmforge/types.hpp"  // Error

namespace gemmforge {

namespace {
constexpr std::array<int, 3> kClusterSizes = {2, 4, 8};

int size_index(int ctas) {
  for (size_t i = 0; i < kClusterSizes.size(); ++i)
    if (kClusterSizes[i] == ctas) return int(i);
  throw Error("clusters of " + std::to_string(ctas) + " CTAs: a cluster has 1, 2, 4 or 8");
}
}  // namespace

int Residency::clusters_of(int ctas) const {
  if (ctas == 1) return sm_count;
  const int measured = clusters[size_index(ctas)];
  return measured > 0 ? measured : sm_count / ctas;
}

nlohmann::json Residency::to_json() const {
  nlohmann::json j = {{"sm_count", sm_count}};
  if (clusters_measured()) {
    nlohmann::json c = nlohmann::json::object();
    for (size_t i = 0; i < kClusterSizes.size(); ++i) c[std::to_string(kClusterSizes[i])] = clusters[i];
    j["resident_clusters"] = c;
  }
  return j;
}

Residency Residency::from_json(const nlohmann::json& j) {
  try {
    Residency r(j.value("sm_count", 0));
    if (r.sm_count < 0) throw Error("sm_count must not be negative");
    if (j.contains("resident_clusters"))
      for (size_t i = 0; i < kClusterSizes.size(); ++i) {
        const int n = j.at("resident_clusters").value(std::to_string(kClusterSizes[i]), 0);
        if (n < 0 || n > r.sm_count / kClusterSizes[i])
          throw Error("resident clusters of " + std::to_string(kClusterSizes[i]) + " CTAs: " + std::to_string(n) +
                      " is not within 0.." + std::to_string(r.sm_count / kClusterSizes[i]));
        r.clusters[i] = n;
      }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("residency: ") + e.what());
  }
}

}  // namespace gemmforge
