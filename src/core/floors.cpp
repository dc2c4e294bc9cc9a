#include "core/floors.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/json_file.hpp"

namespace gemmforge {

double Ceilings::launch_us(std::string_view mode) const {
  if (mode == "gpu") return launch_gpu_us;
  if (mode == "offline") return launch_offline_us;
  if (mode == "server") return launch_server_us;
  throw Error("no launch ceiling for mode '" + std::string(mode) + "': use gpu, offline or server");
}

double Ceilings::l2_kept_bytes() const { return l2_resident_bytes > 0 ? std::min(l2_resident_bytes, l2_bytes) : l2_bytes; }

double Ceilings::compute_tflops(bool steady_state) const {
  return steady_state && fp16_alone_tflops > 0 ? std::min(fp16_alone_tflops, fp16_peak_tflops) : fp16_peak_tflops;
}

namespace {

// measurements.<key>.value, which must be a positive finite number in the field's unit: a zero
// or negative ceiling would make every floor meaningless (or infinite) without saying so.
double positive_value(const nlohmann::json& measurements, const CeilingField& f) {
  const std::string where = std::string("measurements.") + f.key;
  if (!measurements.contains(f.key) || !measurements.at(f.key).is_object())
    throw Error(where + " is missing (re-run 'gemmforge ceilings')");
  const auto& m = measurements.at(f.key);
  if (!m.contains("value") || !m.at("value").is_number())
    throw Error(where + ".value is missing or not a number");
  const double v = m.at("value").get<double>();
  if (!std::isfinite(v) || v <= 0) throw Error(where + ".value must be a positive number, not " + m.at("value").dump());
  const std::string unit = m.value("unit", std::string());
  if (unit != f.unit) throw Error(where + ".unit must be '" + f.unit + "', not '" + unit + "'");
  return v;
}

}  // namespace

Ceilings ceilings_from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("schema", std::string()) != kCeilingsSchema)
    throw Error(std::string("not a gemmforge ceilings file (schema must be '") + kCeilingsSchema + "')");
  if (!j.contains("measurements") || !j.at("measurements").is_object())
    throw Error("ceilings file has no measurements object");
  const auto& m = j.at("measurements");
  Ceilings c;
  c.launch_gpu_us = positive_value(m, kLaunchGpu);
  c.launch_offline_us = positive_value(m, kLaunchOffline);
  c.launch_server_us = positive_value(m, kLaunchServer);
  c.hbm_read_gbps = positive_value(m, kHbmRead);
  c.hbm_write_gbps = positive_value(m, kHbmWrite);
  c.l2_read_gbps = positive_value(m, kL2Read);
  c.fp16_tflops = positive_value(m, kFp16Tensor);
  c.fp16_peak_tflops = positive_value(m, kFp16TensorPeak);
  const auto l2 = j.contains("environment") ? j.at("environment").value("l2_bytes", nlohmann::json()) : nlohmann::json();
  if (!l2.is_number() || l2.get<double>() <= 0) throw Error("environment.l2_bytes is missing or not a positive number");
  c.l2_bytes = l2.get<double>();
  // Measured since 2026-12-02; a file without them keeps the L2's size and the peak.
  if (m.contains(kL2Resident.key)) c.l2_resident_bytes = positive_value(m, kL2Resident) * double(1 << 20);
  if (m.contains(kFp16TensorAlone.key)) c.fp16_alone_tflops = positive_value(m, kFp16TensorAlone);
  if (m.contains(kL2Write.key)) c.l2_write_gbps = positive_value(m, kL2Write);
  return c;
}

Ceilings read_ceilings_file(const std::filesystem::path& path) {
  const nlohmann::json j = read_json_file(path, "ceilings file");
  try {
    return ceilings_from_json(j);
  } catch (const std::exception& e) {  // a field missing or of the wrong type, or a value out of range
    throw Error("'" + path.string() + "': " + e.what());
  }
}

std::string to_string(FloorBound b) {
  switch (b) {
    case FloorBound::launch: return "launch";
    case FloorBound::memory: return "memory";
    case FloorBound::compute: return "compute";
  }
  return "?";
}

double min_read_bytes(const Shape& s) { return 2.0 * (double(s.M) * double(s.K) + double(s.K) * double(s.N)); }
double min_write_bytes(const Shape& s) { return 2.0 * double(s.M) * double(s.N); }

Floor floor_of(const Shape& s, std::string_view mode, const Ceilings& c, bool l2_warm, bool steady_state) {
  Floor f;
  f.launch_us = c.launch_us(mode);
  const double read = min_read_bytes(s), write = min_write_bytes(s);
  // With L2 warm, as much as it keeps is served by it (reads first, then C), the rest by HBM.
  const double kept = c.l2_kept_bytes();
  const double l2_read = l2_warm ? std::min(read, kept) : 0;
  const double l2_write = l2_warm ? std::min(write, std::max(0.0, kept - read)) : 0;
  // bytes / (GB/s · 1e9) seconds = bytes / (GB/s · 1e3) µs; flops / (TF/s · 1e12) s = flops / (TF/s · 1e6) µs.
  const double hbm_us = (read - l2_read) / (c.hbm_read_gbps * 1e3) + (write - l2_write) / (c.hbm_write_gbps * 1e3);
  // L2 time: each direction at its own rate (writes at the read rate where their rate was not
  // measured), and both at the faster one, in case reads and writes share L2's bandwidth; the
  // longest of these is a lower bound either way.
  const double l2_read_rate = std::max(c.l2_read_gbps, c.hbm_read_gbps) * 1e3;
  const double l2_write_rate = c.l2_write_gbps > 0 ? std::max(c.l2_write_gbps, c.hbm_write_gbps) * 1e3 : l2_read_rate;
  const double l2_us = std::max({l2_read / l2_read_rate, l2_write / l2_write_rate,
                                 (l2_read + l2_write) / std::max(l2_read_rate, l2_write_rate)});
  // HBM and L2 hits can proceed at once: the slower of the two streams bounds the call.
  f.memory_us = std::max(hbm_us, l2_us);
  f.compute_us = s.flops() / (c.compute_tflops(steady_state) * 1e6);
  const double work_us = std::max(f.memory_us, f.compute_us);
  const FloorBound work_bound = f.memory_us >= f.compute_us ? FloorBound::memory : FloorBound::compute;
  if (mode == "offline") {
    const double device_us = c.launch_gpu_us + work_us;
    f.total_us = std::max(f.launch_us, device_us);
    f.bound = (f.launch_us >= device_us || c.launch_gpu_us >= work_us) ? FloorBound::launch : work_bound;
  } else {
    f.total_us = f.launch_us + work_us;
    f.bound = f.launch_us >= work_us ? FloorBound::launch : work_bound;
  }
  return f;
}

}  // namespace gemmforge
