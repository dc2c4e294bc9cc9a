// Order statistics of timing samples and aggregates of speedups across shapes.
#pragma once
#include <vector>

namespace gemmforge {

struct SampleStats {
  double median = 0, p25 = 0, p75 = 0, min = 0;
  int count = 0;
  // Half the interquartile range relative to the median: the run-to-run spread we treat as noise.
  double relative_spread() const { return median > 0 ? (p75 - p25) / (2 * median) : 0; }
};

// Linear interpolation between order statistics (numpy's default), so the Python and C++
// sides of a run summarize samples identically. Throws gemmforge::Error on an empty input.
SampleStats summarize(std::vector<double> samples);
double percentile(std::vector<double> sorted_values, double q);  // q in [0, 100]

double geometric_mean(const std::vector<double>& positive_values);
double arithmetic_mean(const std::vector<double>& values);

}  // namespace gemmforge
