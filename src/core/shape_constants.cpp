#include "core/shape_constants.hpp"

#include <cstdint>
#include <limits>

namespace gemmforge {

std::string specialization_suffix(const ShapeConstants& c) { return c ? "_at" + to_string(*c) : std::string(); }

std::string kernel_dimension_arguments(const ShapeConstants& c, bool swap_mn) {
  if (!c) return "M, N, K";
  constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
  for (int64_t d : {c->M, c->N, c->K})
    if (d < 1 || d > kIntMax) throw Error("cannot specialize a kernel for " + to_string(*c) + ": dimensions must be 1..2^31-1");
  const int64_t m = swap_mn ? c->N : c->M, n = swap_mn ? c->M : c->N;
  return std::to_string(m) + ", " + std::to_string(n) + ", " + std::to_string(c->K);
}

std::string why_not_specialized_for(const ShapeConstants& c, const Shape& s) {
  if (!c || *c == s) return {};
  return "compiled for " + to_string(*c) + " only (shape specialization), not " + to_string(s);
}

}  // namespace gemmforge
