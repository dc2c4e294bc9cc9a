#include "core/kernel_candidate.hpp"

namespace gemmforge {

KernelCandidate sm80_candidate(const Sm80Config& c) {
  KernelCandidate k;
  k.sm80 = c;
  return k;
}

KernelCandidate launched_on(const KernelCandidate& c, const Shape& s, const Residency& r) {
  if (c.built_for) throw Error(c.name() + " is built for one shape: it cannot launch on " + to_string(s));
  if (c.sm80) return c;
  return KernelCandidate{c.config, knobs_for_shape(c.config, c.knobs, s.M, s.N, s.K, r)};
}

KernelCandidate KernelCandidate::generic() const {
  KernelCandidate k = *this;
  k.built_for.reset();
  return k;
}

KernelCandidate KernelCandidate::specialized_for(const Shape& s) const {
  KernelCandidate k = *this;
  k.built_for = s;
  return k;
}

nlohmann::json KernelCandidate::to_json() const {
  nlohmann::json j;
  if (sm80) {
    j["config"] = sm80->to_json();
  } else {
    j["config"] = config.to_json();
    j["launch"] = knobs.to_json();
  }
  if (built_for) j["built_for"] = {{"M", built_for->M}, {"N", built_for->N}, {"K", built_for->K}};
  return j;
}

KernelCandidate KernelCandidate::from_json(const nlohmann::json& j) {
  try {
    if (!j.is_object()) throw Error("kernel candidate: expected an object, got " + j.dump().substr(0, 80));
    const nlohmann::json& c = j.at("config");
    KernelCandidate k;
    if (is_sm80_config_json(c)) {
      if (j.contains("launch")) throw Error("kernel candidate: an sm80 kernel takes no launch knobs");
      k.sm80 = Sm80Config::from_json(c);
    } else {
      k.config = KernelConfig::from_json(c);
      k.knobs = LaunchKnobs::from_json(j.value("launch", nlohmann::json::object()));
    }
    if (j.contains("built_for")) {
      const auto& b = j.at("built_for");
      const Shape s{b.at("M").get<int64_t>(), b.at("N").get<int64_t>(), b.at("K").get<int64_t>()};
      if (s.M < 1 || s.N < 1 || s.K < 1) throw Error("kernel candidate: built_for dimensions must be at least 1");
      k.built_for = s;
    }
    return k;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("kernel candidate: ") + e.what());
  }
}

}  // namespace gemmforge
