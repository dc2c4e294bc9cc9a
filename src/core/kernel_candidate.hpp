// A tuner candidate and a table entry's kernel, of either family: a Hopper kernel (a compiled
// KernelConfig and how it is launched) or an sm80-family kernel (an Sm80Config: one CTA per
// tile, no launch knobs), built for any shape or for one problem's exact shape (JIT shape
// specialization). Host-only: no GPU needed.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kernel_config.hpp"
#include "core/shape_constants.hpp"
#include "core/sm80_config.hpp"

namespace gemmforge {

struct KernelCandidate {
  KernelCandidate() = default;
  // A generic Hopper candidate.
  KernelCandidate(const KernelConfig& c, const LaunchKnobs& k = {}) : config(c), knobs(k) {}

  // The Hopper kernel and its launch. Meaningless when `sm80` is set: an sm80 candidate keeps
  // both at their defaults (make it with sm80_candidate), so equality and names stay exact.
  // Read the family through hopper() and sm80_config() rather than these members.
  KernelConfig config;
  LaunchKnobs knobs;
  std::optional<Sm80Config> sm80;
  // Set: the kernel is compiled with this shape's M, N and K as constants and serves it only.
  ShapeConstants built_for;

  bool operator==(const KernelCandidate&) const = default;
  const KernelConfig* hopper() const { return sm80 ? nullptr : &config; }
  const Sm80Config* sm80_config() const { return sm80 ? &*sm80 : nullptr; }
  bool specialized() const { return built_for.has_value(); }
  Layout layout() const { return sm80 ? sm80->layout : config.layout; }
  Accum acc() const { return sm80 ? sm80->acc : config.acc; }

  // The config's name alone (no launch knobs, no shape).
  std::string config_name() const { return sm80 ? sm80->name() : config.name(); }
  // What one cubin is: candidates that differ only in launch knobs share it.
  std::string build_name() const { return config_name() + specialization_suffix(built_for); }
  // e.g. "sm90_tn_f32_128x128x64_s4_c2_coop_1x1_k4_pdl", "sm80_tn_f32_64x64x32_w2x2_s3_v16",
  // "sm80_tn_f32_64x64x32_w2x2_s3_v16_at64x64x128" (built for 64x64x128).
  std::string name() const { return config_name() + knobs.suffix() + specialization_suffix(built_for); }

  // The same kernel built for any shape, and built for this one.
  KernelCandidate generic() const;
  KernelCandidate specialized_for(const Shape&) const;

  // Hopper: {"config": {...}, "launch": {...}}; sm80: {"config": {"family": "sm80", ...}} with
  // no "launch"; a specialized build adds "built_for": {"M": .., "N": .., "K": ..}.
  nlohmann::json to_json() const;
  // A missing "launch" is the default knobs; {"config", "launch"} of the Hopper-only tuner reads
  // as a generic Hopper candidate. Throws Error on bad input: launch knobs on an sm80 config,
  // dimensions below 1, unknown fields of the config.
  static KernelCandidate from_json(const nlohmann::json&);
};

// An sm80-family candidate for any shape.
KernelCandidate sm80_candidate(const Sm80Config&);

// How a generic candidate tuned on one shape launches on another (a class rule serving an unseen
// shape, a class winner seeding a new one): a Hopper kernel with knobs_for_shape, an sm80 kernel
// as it is. Throws Error for a build specialized for one shape: it serves no other.
KernelCandidate launched_on(const KernelCandidate&, const Shape&, const Residency&);

}  // namespace gemmforge
