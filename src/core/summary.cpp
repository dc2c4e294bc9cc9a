#include "core/summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "core/stats.hpp"

namespace gemmforge {

std::map<Shape, ShapeTiming> shape_timings(const std::vector<BenchRecord>& records, const std::string& impl,
                                           const std::string& mode, const std::string& layout) {
  std::map<Shape, ShapeTiming> out;
  for (const auto& r : records) {
    if (r.impl != impl || r.mode != mode || !r.passed()) continue;
    if (layout != "best" && to_string(r.layout) != layout) continue;
    const double spread = (r.p25_us && r.p75_us && *r.median_us > 0)
                              ? (*r.p75_us - *r.p25_us) / (2 * *r.median_us)
                              : 0.0;
    auto it = out.find(r.shape);
    if (it == out.end() || *r.median_us < it->second.median) out[r.shape] = {*r.median_us, spread};
  }
  return out;
}

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::vector<std::string> present(const std::vector<BenchRecord>& records, bool impls) {
  std::set<std::string> s;
  for (const auto& r : records) s.insert(impls ? r.impl : r.mode);
  std::vector<std::string> v(s.begin(), s.end());
  if (!impls) {  // modes in protocol order
    std::vector<std::string> order = {"gpu", "offline", "server"}, sorted;
    for (const auto& m : order)
      if (s.count(m)) sorted.push_back(m);
    return sorted;
  }
  return v;
}

}  // namespace

Comparison compare(const std::vector<BenchRecord>& records, const std::string& impl,
                   const std::string& impl_layout, const std::string& baseline,
                   const std::string& mode, const std::string& shape_class, double min_tie) {
  Comparison c;
  c.impl = impl;
  c.impl_layout = impl_layout;
  c.baseline = baseline;
  c.mode = mode;
  c.shape_class = shape_class;
  const auto x = shape_timings(records, impl, mode, impl_layout);
  const auto b = shape_timings(records, baseline, mode, "best");
  std::vector<double> speedups;
  for (const auto& [shape, tx] : x) {
    auto it = b.find(shape);
    if (it == b.end()) continue;
    if (shape_class != "all" && to_string(classify(shape)) != shape_class) continue;
    const double s = it->second.median / tx.median;
    speedups.push_back(s);
    const double tie = std::max(min_tie, tx.spread + it->second.spread);
    if (std::abs(s - 1.0) <= tie) ++c.ties;
    else if (s > 1.0) ++c.wins;
    else ++c.losses;
    if (c.shapes == 0 || s < c.worst_speedup) {
      c.worst_speedup = s;
      c.worst_shape = shape;
    }
    ++c.shapes;
  }
  c.geomean = geometric_mean(speedups);
  c.arithmean = arithmetic_mean(speedups);
  return c;
}

std::vector<Comparison> all_comparisons(const std::vector<BenchRecord>& records,
                                        const SummaryOptions& o) {
  std::vector<Comparison> out;
  const auto impls = present(records, true);
  for (const auto& mode : present(records, false)) {
    for (const auto& impl : impls) {
      std::vector<std::string> layouts = {"best"};
      if (!is_baseline(impl, o)) layouts = {"best", "nn", "tn"};
      for (const auto& layout : layouts)
        for (const auto& base : impls) {
          if (base == impl || !is_baseline(base, o)) continue;
          Comparison c = compare(records, impl, layout, base, mode, "all", o.min_tie);
          if (c.shapes == 0) continue;
          out.push_back(c);
          if (base != o.reference_baseline) continue;
          for (ShapeClass k : kAllClasses) {
            Comparison ck = compare(records, impl, layout, base, mode, to_string(k), o.min_tie);
            if (ck.shapes) out.push_back(ck);
          }
        }
    }
  }
  return out;
}

std::vector<std::string> failed_verdicts(const std::vector<BenchRecord>& records) {
  std::set<std::string> lines;
  for (const auto& r : records)
    if (r.verdict != "pass")
      lines.insert(r.impl + " " + to_string(r.layout) + " " + to_string(r.shape) + ": " + r.verdict);
  return {lines.begin(), lines.end()};
}

namespace {

std::string row(const Comparison& c, bool markdown) {
  const std::string who = c.impl + " (" + c.impl_layout + ")";
  const std::string worst = fmt("%.3fx ", c.worst_speedup) + to_string(c.worst_shape);
  const std::string wins = fmt("%.0f%%", 100.0 * c.win_rate());
  const std::string tl = std::to_string(c.ties) + "/" + std::to_string(c.losses);
  char buf[512];
  if (markdown) {
    std::snprintf(buf, sizeof buf, "| %s | %s | %s | %d | %.3fx | %.3fx | %s | %s | %s |\n",
                  who.c_str(), c.baseline.c_str(), c.shape_class.c_str(), c.shapes, c.geomean,
                  c.arithmean, wins.c_str(), tl.c_str(), worst.c_str());
  } else {
    std::snprintf(buf, sizeof buf, "  %-28s %-19s %-8s %6d %8.3fx %7.3fx %6s %9s  %s\n",
                  who.c_str(), c.baseline.c_str(), c.shape_class.c_str(), c.shapes, c.geomean,
                  c.arithmean, wins.c_str(), tl.c_str(), worst.c_str());
  }
  return buf;
}

}  // namespace

std::string render_summary_text(const std::vector<Comparison>& cs, const SummaryOptions& o) {
  std::ostringstream out;
  std::string mode;
  for (const auto& c : cs) {
    if (c.mode != mode) {
      mode = c.mode;
      out << "\nmode " << mode << ": speedup = baseline time / impl time (baseline at its best layout; "
          << "per-class rows vs " << o.reference_baseline << ")\n";
      char buf[256];
      std::snprintf(buf, sizeof buf, "  %-28s %-19s %-8s %6s %9s %8s %6s %9s  %s\n", "impl (layout)",
                    "vs baseline", "class", "shapes", "geomean", "mean", "wins", "ties/loss",
                    "worst shape");
      out << buf;
    }
    out << row(c, false);
  }
  return out.str();
}

std::string render_summary_markdown(const ResultFile& f, const std::vector<Comparison>& cs,
                                    const SummaryOptions& o) {
  std::ostringstream out;
  out << "# gemmforge bench summary\n\n";
  out << "- command: `" << f.command << "`\n";
  out << "- started " << f.started_utc << ", finished " << f.finished_utc << "\n";
  if (!f.stopped.empty()) out << "- **stopped early**: " << f.stopped << "\n";
  out << "- environment: `" << f.environment.dump() << "`\n";
  out << "- settings: `" << f.settings.dump() << "`\n\n";
  out << "Speedup = baseline median time / implementation median time per shape; baselines at their "
         "best layout. Ties: within max(" << fmt("%.0f%%", 100 * o.min_tie)
      << ", combined half-IQR spread). Per-class rows compare with " << o.reference_baseline << ".\n";
  std::string mode;
  for (const auto& c : cs) {
    if (c.mode != mode) {
      mode = c.mode;
      out << "\n## mode `" << mode << "`\n\n"
          << "| impl (layout) | vs baseline | class | shapes | geomean | mean | wins | ties/losses | worst |\n"
          << "|---|---|---|---|---|---|---|---|---|\n";
    }
    out << row(c, true);
  }
  const auto failed = failed_verdicts(f.records);
  out << "\n## correctness\n\n";
  if (failed.empty()) out << "Every measured implementation passed the correctness gate on every shape.\n";
  for (const auto& l : failed) out << "- " << l << "\n";
  return out.str();
}

}  // namespace gemmforge
