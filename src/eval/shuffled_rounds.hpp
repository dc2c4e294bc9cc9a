// How the ceilings time several kinds of launch against one another: every round runs each kind
// once, in a freshly shuffled order, so that drift (clocks, temperature, what L2 holds) hits all
// kinds alike; each launch is event-timed on its own and waited for.
#pragma once
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "eval/event_pair.hpp"

namespace gemmforge {

// us[k] holds the times of kind k (kinds index into it; slots: its size). launch(k) enqueues kind
// k on stream s.
template <class Launch>
std::vector<std::vector<double>> time_in_shuffled_rounds(std::vector<size_t> kinds, size_t slots, int rounds,
                                                         uint64_t seed, cudaStream_t s, Launch&& launch) {
  std::vector<std::vector<double>> us(slots);
  std::mt19937_64 rng(seed);
  EventPair ev;
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(kinds.begin(), kinds.end(), rng);
    for (size_t k : kinds) {
      GF_CUDA(cudaEventRecord(ev.begin, s));
      launch(k);
      GF_CUDA(cudaEventRecord(ev.end, s));
      GF_CUDA(cudaEventSynchronize(ev.end));
      us[k].push_back(ev.elapsed_us());
    }
  }
  return us;
}

// 0, 1, ..., n - 1: every kind of a list.
inline std::vector<size_t> all_kinds(size_t n) {
  std::vector<size_t> k(n);
  for (size_t i = 0; i < n; ++i) k[i] = i;
  return k;
}

}  // namespace gemmforge
