// Measures, on the current GPU, the hardware ceilings that the floor of an HGEMM call is built
// from (core/floors.hpp): an empty kernel's cost in each timing mode, HBM and L2 bandwidth, what
// a warm L2 keeps, and fp16 tensor-core throughput (cuBLASLt's sustained, wgmma alone at the
// power cap, and the peak at the highest clock). `gemmforge ceilings` writes them to ceilings.json.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/floors.hpp"
#include "core/stats.hpp"
#include "eval/device.hpp"
#include "eval/nvml.hpp"

namespace gemmforge {

struct CeilingOptions {
  int rounds = 21;           // samples of each gpu/offline launch and bandwidth measurement
  int server_calls = 200;    // samples of the server-mode launch
  double server_gap_us = 200;
  size_t hbm_buffer_bytes = size_t(2) << 30;  // per buffer; halved while two do not fit
  int64_t gemm_dim = 8192;                    // the fp16 throughput runs on dim × dim × dim
  double gemm_warmup_s = 1.5;                 // long enough for the card to reach its power cap
  int gemm_rounds = 15;
  double gemm_sample_us = 10000;  // a sample is a graph of several calls: throughput, not one call
  uint64_t seed = 1;
};

struct CeilingMeasurement {
  CeilingField field{"", ""};  // key and unit in ceilings.json
  double value = 0;          // in field.unit, from the median time
  SampleStats time_us;       // per unit of work: one launch, one pass over a buffer, one GEMM call
  std::string method;        // how it was measured, in words
  nlohmann::json detail = nlohmann::json::object();  // sizes, sample counts, clocks

  // NVML's SM clock and power, read right after the samples (null where NVML is missing).
  void note_clocks(const NvmlReading& r) {
    detail["sm_clock_mhz"] = r.sm_clock_mhz ? nlohmann::json(*r.sm_clock_mhz) : nlohmann::json();
    detail["power_w"] = r.power_w ? nlohmann::json(*r.power_w) : nlohmann::json();
  }
};

// launch_gpu, launch_offline, launch_server (eval/launch_ceiling.cpp).
std::vector<CeilingMeasurement> measure_launch_latency(DeviceContext&, const CeilingOptions&);
// hbm_read, hbm_write, hbm_copy, l2_read, l2_write, and dsmem_read on sm_90 (eval/memory_ceiling.cpp).
std::vector<CeilingMeasurement> measure_memory_bandwidth(DeviceContext&, const CeilingOptions&);
// l2_resident (eval/l2_residency_ceiling.cpp): how much of a buffer read again and again a warm
// L2 keeps, in MiB.
CeilingMeasurement measure_l2_residency(DeviceContext&, const CeilingOptions&);
// tma_read (eval/tma_ceiling.cpp): the rate TMA delivers tile-shaped boxes from L2 to the SMs,
// all SMs together (the best of several box sizes and depths); nullopt on GPUs without TMA.
std::optional<CeilingMeasurement> measure_tma_read(DeviceContext&, const CeilingOptions&);
// tma_write (eval/tma_ceiling.cpp): the rate at which TMA stores of the epilogue's boxes leave the
// SMs for a tensor far larger than L2, by depth (and to one L2 holds, beside it); nullopt on GPUs
// without TMA.
std::optional<CeilingMeasurement> measure_tma_write(DeviceContext&, const CeilingOptions&);
// fp16_tensor (eval/tensor_ceiling.cpp): sustained, measured.
CeilingMeasurement measure_fp16_tensor(DeviceContext&, const CeilingOptions&);
// fp16_tensor_alone (eval/tensor_ceiling.cpp): wgmma alone at the power cap; nullopt on GPUs
// without wgmma.
std::optional<CeilingMeasurement> measure_fp16_tensor_alone(DeviceContext&, const CeilingOptions&);
// fp16_tensor_peak (eval/tensor_ceiling.cpp): SMs × dense FLOPs per SM clock × the highest SM
// clock NVML reports. Throws Error where NVML or the architecture's figure is missing.
CeilingMeasurement fp16_tensor_peak(DeviceContext&);

}  // namespace gemmforge
