#include "core/stats.hpp"

#include <algorithm>
#include <cmath>

#include "gemmforge/types.hpp"

namespace gemmforge {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) throw Error("percentile of no samples");
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * double(v.size() - 1);
  const size_t lo = size_t(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

SampleStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw Error("no timing samples to summarize");
  std::sort(samples.begin(), samples.end());
  SampleStats s;
  s.count = int(samples.size());
  s.min = samples.front();
  s.median = percentile(samples, 50);
  s.p25 = percentile(samples, 25);
  s.p75 = percentile(samples, 75);
  return s;
}

double geometric_mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double log_sum = 0;
  for (double x : v) {
    if (!(x > 0)) throw Error("geometric mean needs positive values");
    log_sum += std::log(x);
  }
  return std::exp(log_sum / double(v.size()));
}

double arithmetic_mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

}  // namespace gemmforge
