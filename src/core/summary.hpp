// Turns bench records into the comparisons a person reads: per implementation against each
// baseline, per timing mode, overall and per shape class.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/records.hpp"

namespace gemmforge {

// Speedup of X over baseline B on a shape = B's median time / X's median time, each taken at
// its best layout unless a layout is named for X. A shape counts as a tie when the speedup is
// within the larger of `min_tie` and the two records' combined relative spread (half IQR).
struct Comparison {
  std::string impl;          // X
  std::string impl_layout;   // "best", "nn" or "tn"
  std::string baseline;      // B (always at its best layout)
  std::string mode;
  std::string shape_class;   // "all" or a class name
  int shapes = 0;
  double geomean = 0, arithmean = 0;
  int wins = 0, ties = 0, losses = 0;
  Shape worst_shape;
  double worst_speedup = 0;
  double win_rate() const { return shapes ? double(wins) / shapes : 0; }
};

struct SummaryOptions {
  std::vector<std::string> baselines = {"cublas", "cublaslt-heuristic", "cublaslt-autotune", "torch"};
  std::string reference_baseline = "cublaslt-autotune";  // the one per-class tables compare with
  double min_tie = 0.01;
};

inline bool is_baseline(const std::string& impl, const SummaryOptions& o) {
  for (const auto& b : o.baselines)
    if (b == impl) return true;
  return false;
}

// Per shape, one implementation's fastest passing record in one mode: its median and relative
// spread (half IQR), at its best layout ("best") or only the named layout ("nn", "tn").
struct ShapeTiming {
  double median = 0, spread = 0;
};
std::map<Shape, ShapeTiming> shape_timings(const std::vector<BenchRecord>&, const std::string& impl,
                                           const std::string& mode, const std::string& layout);

Comparison compare(const std::vector<BenchRecord>& records, const std::string& impl,
                   const std::string& impl_layout, const std::string& baseline,
                   const std::string& mode, const std::string& shape_class, double min_tie);

std::vector<Comparison> all_comparisons(const std::vector<BenchRecord>&, const SummaryOptions&);

// Plain-text tables for the terminal and the same as Markdown for summary.md.
std::string render_summary_text(const std::vector<Comparison>&, const SummaryOptions&);
std::string render_summary_markdown(const ResultFile&, const std::vector<Comparison>&,
                                    const SummaryOptions&);
// One line per failed correctness verdict, so failures are never buried in a mean.
std::vector<std::string> failed_verdicts(const std::vector<BenchRecord>&);

}  // namespace gemmforge
