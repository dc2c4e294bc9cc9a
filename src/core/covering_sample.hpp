// A reproducible sample of a config space that still holds every value of every knob occurring in
// it: what CI compiles when the whole space is too large for its time. Shared by the kernel
// families; each says what its knobs are (a "name=value" string per knob).
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace gemmforge {

template <class Config, class KnobsOf>
std::vector<Config> covering_sample_of(const std::vector<Config>& space, size_t count, uint64_t seed, KnobsOf knobs) {
  if (count >= space.size()) return space;
  std::vector<size_t> order(space.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  // First, for every (knob, value) not yet covered, the first shuffled config that has it; then
  // the rest of the shuffled order.
  std::set<std::string> covered;
  std::vector<bool> taken(space.size(), false);
  std::vector<Config> out;
  for (size_t i : order) {
    const std::vector<std::string> k = knobs(space[i]);
    if (std::all_of(k.begin(), k.end(), [&](const std::string& v) { return covered.count(v) > 0; })) continue;
    covered.insert(k.begin(), k.end());
    taken[i] = true;
    out.push_back(space[i]);
  }
  for (size_t i : order) {
    if (out.size() >= count) break;
    if (!taken[i]) out.push_back(space[i]);
  }
  return out;
}

}  // namespace gemmforge
