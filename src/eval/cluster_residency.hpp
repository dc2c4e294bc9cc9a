// How many clusters of 2, 4 and 8 CTAs the current GPU holds at once, for a kernel of one CTA
// per SM: the lower bound a split-K count is sized by (core/residency.hpp).
#pragma once
#include <array>

namespace gemmforge {

// Asks the occupancy calculator (cudaOccupancyMaxActiveClusters) about a probe kernel whose
// shared memory leaves room for one CTA per SM; launches nothing. Compute capability 9.0 or
// later; throws gemmforge::Error on a CUDA error.
std::array<int, 3> measure_resident_clusters();

}  // namespace gemmforge
