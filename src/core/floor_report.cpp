#include "core/floor_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "core/stats.hpp"
#include "core/summary.hpp"

namespace gemmforge {
namespace {

const char* const kFloorModes[] = {"gpu", "offline", "server"};

std::optional<double> ratio(const std::optional<double>& num, const std::optional<double>& den) {
  if (!num || !den || *den <= 0) return std::nullopt;
  return *num / *den;
}

std::optional<double> geomean_of(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return geometric_mean(v);
}

std::string num(const char* format, const std::optional<double>& v) {
  if (!v) return "—";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, *v);
  return buf;
}

std::string csv_num(const std::optional<double>& v) {
  if (!v) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}

}  // namespace

std::optional<double> FloorRow::headroom() const { return ratio(baseline_us, floor.total_us); }
std::optional<double> FloorRow::baseline_floor_fraction() const { return ratio(floor.total_us, baseline_us); }
std::optional<double> FloorRow::impl_floor_fraction() const { return ratio(floor.total_us, impl_us); }
std::optional<double> FloorRow::speedup() const { return ratio(baseline_us, impl_us); }
bool FloorRow::below_floor() const {
  return (baseline_us && *baseline_us < floor.total_us) || (impl_us && *impl_us < floor.total_us);
}

std::string pick_floor_impl(const std::vector<BenchRecord>& records, const std::string& requested) {
  if (requested != "auto") return requested;
  std::set<std::string> impls;
  for (const auto& r : records) impls.insert(r.impl);
  for (const char* name : {"gemmforge", "gemmforge-lib"})
    if (impls.count(name)) return name;
  return "";
}

std::vector<FloorRow> floor_rows(const std::vector<BenchRecord>& records, const Ceilings& c,
                                 const std::string& baseline, const std::string& impl, double heavy_call_us) {
  std::vector<FloorRow> rows;
  for (const char* mode : kFloorModes) {
    std::set<Shape> shapes, warm, steady;
    for (const auto& r : records)
      if (r.mode == mode) {
        shapes.insert(r.shape);
        if (r.l2 == "warm") warm.insert(r.shape);
        if (r.median_us && *r.median_us > heavy_call_us) steady.insert(r.shape);
      }
    if (shapes.empty()) continue;
    std::vector<Shape> ordered(shapes.begin(), shapes.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const Shape& a, const Shape& b) { return a.flops() < b.flops(); });
    const auto base = shape_timings(records, baseline, mode, "best");
    const auto ours = impl.empty() ? std::map<Shape, ShapeTiming>() : shape_timings(records, impl, mode, "best");
    for (const Shape& s : ordered) {
      FloorRow row;
      row.shape = s;
      row.mode = mode;
      row.l2_warm = warm.count(s) > 0;
      row.steady_state = steady.count(s) > 0;
      row.floor = floor_of(s, mode, c, row.l2_warm, row.steady_state);
      if (auto it = base.find(s); it != base.end()) row.baseline_us = it->second.median;
      if (auto it = ours.find(s); it != ours.end()) row.impl_us = it->second.median;
      rows.push_back(row);
    }
  }
  return rows;
}

std::vector<FloorClassSummary> floor_class_summaries(const std::vector<FloorRow>& rows) {
  std::vector<FloorClassSummary> out;
  auto summarize_rows = [&](const std::string& mode, const std::string& cls) {
    FloorClassSummary s;
    s.shape_class = cls;
    s.mode = mode;
    std::vector<double> headroom, base_fraction, impl_fraction, speedup;
    for (const auto& r : rows) {
      if (r.mode != mode || (cls != "all" && to_string(classify(r.shape)) != cls)) continue;
      ++s.shapes;
      switch (r.floor.bound) {
        case FloorBound::launch: ++s.bound_launch; break;
        case FloorBound::memory: ++s.bound_memory; break;
        case FloorBound::compute: ++s.bound_compute; break;
      }
      if (r.below_floor()) ++s.below_floor;
      if (auto h = r.headroom()) {
        headroom.push_back(*h);
        base_fraction.push_back(*r.baseline_floor_fraction());
      }
      if (auto f = r.impl_floor_fraction()) impl_fraction.push_back(*f);
      if (auto x = r.speedup()) speedup.push_back(*x);
    }
    s.with_baseline = int(headroom.size());
    s.with_impl = int(impl_fraction.size());
    s.with_both = int(speedup.size());
    s.headroom = geomean_of(headroom);
    s.baseline_floor_fraction = geomean_of(base_fraction);
    s.impl_floor_fraction = geomean_of(impl_fraction);
    s.speedup = geomean_of(speedup);
    if (s.shapes) out.push_back(s);
  };
  for (const char* mode : kFloorModes) {
    summarize_rows(mode, "all");
    for (ShapeClass k : kAllClasses) summarize_rows(mode, to_string(k));
  }
  return out;
}

std::string render_floor_markdown(const Ceilings& c, const std::vector<FloorRow>& rows,
                                  const std::vector<FloorClassSummary>& classes, const FloorReportLabels& t,
                                  bool per_shape) {
  const std::string impl = t.impl.empty() ? "gemmforge (no records)" : t.impl;
  std::ostringstream out;
  out << "\n## Floors: measured times against what the hardware allows\n\n"
      << "Ceilings from `" << t.ceilings_source << "`: launch " << num("%.2f", c.launch_gpu_us) << " µs (gpu), "
      << num("%.2f", c.launch_offline_us) << " µs (offline), " << num("%.2f", c.launch_server_us)
      << " µs (server); HBM read " << num("%.0f", c.hbm_read_gbps) << " GB/s, write "
      << num("%.0f", c.hbm_write_gbps) << " GB/s; L2 read " << num("%.0f", c.l2_read_gbps) << " GB/s, write "
      << (c.l2_write_gbps > 0 ? num("%.0f", c.l2_write_gbps) + " GB/s" : std::string("not measured in this file")) << " ("
      << num("%.0f", c.l2_bytes / (1 << 20)) << " MiB, of which a warm L2 keeps "
      << (c.l2_resident_bytes > 0 ? num("%.0f", c.l2_kept_bytes() / (1 << 20)) + " MiB, measured"
                                  : std::string("all: not measured in this file"))
      << "); fp16 peak " << num("%.0f", c.fp16_peak_tflops) << " TFLOP/s ("
      << num("%.0f", c.fp16_tflops) << " cuBLASLt sustains under the power cap; wgmma alone there "
      << (c.fp16_alone_tflops > 0 ? num("%.0f", c.fp16_alone_tflops) : std::string("not measured in this file"))
      << ").\n\n"
      << "floor = launch + max(memory, compute) (offline: max(launch offline, launch gpu + max(memory, compute)), "
         "since back-to-back calls overlap host launches with device work); memory = 2(MK + KN) bytes read + 2MN "
         "written; with L2 warm, as many bytes as a warm L2 keeps at L2 bandwidth (A and B first), the rest at HBM "
         "bandwidth, the two streams overlapping; compute = 2MNK at the fp16 peak, or, for shapes measured at "
         "steady state (a call over the bench's heavy_call_us, timed after the card was warmed into its power "
         "cap), at the rate wgmma alone sustains there. headroom = "
      << t.baseline << " / floor: the largest speedup over " << t.baseline
      << " any kernel could have. 'of floor' = floor / time (1.00 = at the floor). Geometric means per class; "
         "'below floor' counts shapes measured faster than the floor: a measurement or a ceiling is wrong there.\n\n"
      << "| mode | class | shapes | bound launch/memory/compute | headroom vs " << t.baseline << " | " << t.baseline
      << " of floor | " << impl << " speedup vs " << t.baseline << " | " << impl << " of floor | below floor |\n"
      << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& s : classes) {
    out << "| " << s.mode << " | " << s.shape_class << " | " << s.shapes << " | " << s.bound_launch << "/"
        << s.bound_memory << "/" << s.bound_compute << " | " << num("%.3fx", s.headroom) << " (" << s.with_baseline
        << ") | " << num("%.3f", s.baseline_floor_fraction) << " | " << num("%.3fx", s.speedup) << " ("
        << s.with_both << ") | " << num("%.3f", s.impl_floor_fraction) << " | " << s.below_floor << " |\n";
  }
  if (!per_shape) return out.str();
  out << "\n### Per shape\n\n"
      << "| mode | shape | class | steady | bound | floor µs | launch µs | memory µs | compute µs | " << t.baseline
      << " µs | of floor | headroom | " << impl << " µs | of floor | speedup |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    out << "| " << r.mode << " | " << to_string(r.shape) << " | " << to_string(classify(r.shape)) << " | "
        << (r.steady_state ? "yes" : "no") << " | "
        << to_string(r.floor.bound) << " | " << num("%.2f", r.floor.total_us) << " | "
        << num("%.2f", r.floor.launch_us) << " | " << num("%.2f", r.floor.memory_us) << " | "
        << num("%.2f", r.floor.compute_us) << " | " << num("%.2f", r.baseline_us) << " | "
        << num("%.3f", r.baseline_floor_fraction()) << " | " << num("%.3fx", r.headroom()) << " | " << num("%.2f", r.impl_us) << " | "
        << num("%.3f", r.impl_floor_fraction()) << " | " << num("%.3fx", r.speedup()) << " |\n";
  }
  return out.str();
}

std::string floor_csv(const std::vector<FloorRow>& rows, const FloorReportLabels& t) {
  std::ostringstream out;
  out << "M,N,K,class,mode,steady_state,bound,floor_us,launch_us,memory_us,compute_us,baseline,baseline_us,"
         "baseline_floor_fraction,headroom,impl,impl_us,impl_floor_fraction,speedup,below_floor\n";
  for (const auto& r : rows) {
    out << r.shape.M << "," << r.shape.N << "," << r.shape.K << "," << to_string(classify(r.shape)) << "," << r.mode
        << "," << (r.steady_state ? 1 : 0) << "," << to_string(r.floor.bound) << "," << csv_num(r.floor.total_us) << "," << csv_num(r.floor.launch_us)
        << "," << csv_num(r.floor.memory_us) << "," << csv_num(r.floor.compute_us) << "," << csv_text(t.baseline)
        << "," << csv_num(r.baseline_us) << "," << csv_num(r.baseline_floor_fraction()) << ","
        << csv_num(r.headroom()) << "," << csv_text(t.impl) << "," << csv_num(r.impl_us) << ","
        << csv_num(r.impl_floor_fraction()) << "," << csv_num(r.speedup()) << "," << (r.below_floor() ? 1 : 0)
        << "\n";
  }
  return out.str();
}

}  // namespace gemmforge
