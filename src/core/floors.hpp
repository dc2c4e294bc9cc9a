// The floor of one HGEMM call: the least time the hardware allows it, from the ceilings that
// `gemmforge ceilings` measures on the GPU (launch latency per timing mode, HBM and L2
// bandwidth, what a warm L2 keeps, the tensor cores alone at the power cap) and the tensor
// cores' peak at the highest SM clock. Pure arithmetic, kept apart from the GPU so that what the
// report claims ("no kernel can beat cuBLASLt by more than X on this class") is unit-tested.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "gemmforge/types.hpp"

namespace gemmforge {

inline constexpr const char* kCeilingsSchema = "gemmforge.ceilings/1";

// An entry of ceilings.json's "measurements" object that the floor reads, and the unit its
// value must be in. The writer (gemmforge ceilings) and the reader share these names.
struct CeilingField {
  const char* key;
  const char* unit;
};
inline constexpr CeilingField kLaunchGpu{"launch_gpu", "us"};
inline constexpr CeilingField kLaunchOffline{"launch_offline", "us"};
inline constexpr CeilingField kLaunchServer{"launch_server", "us"};
inline constexpr CeilingField kHbmRead{"hbm_read", "GB/s"};
inline constexpr CeilingField kHbmWrite{"hbm_write", "GB/s"};
inline constexpr CeilingField kHbmCopy{"hbm_copy", "GB/s"};  // recorded; the floor does not use it
inline constexpr CeilingField kL2Read{"l2_read", "GB/s"};
// Stores into a buffer L2 holds. Optional: files written before it was measured take the read rate.
inline constexpr CeilingField kL2Write{"l2_write", "GB/s"};
// How much of a buffer read again and again a warm L2 keeps (the rest comes from HBM). Optional:
// files written before it was measured fall back to the L2's size.
inline constexpr CeilingField kL2Resident{"l2_resident", "MiB"};
// Distributed shared memory between the CTAs of a cluster: recorded for kernel design (split-K
// reduced inside a cluster), not used by the floor.
inline constexpr CeilingField kDsmemRead{"dsmem_read", "GB/s"};
// TMA loads of tile-shaped boxes from L2 into shared memory, all SMs: the most a TMA-fed main
// loop can receive. Recorded for kernel design, not used by the floor.
inline constexpr CeilingField kTmaRead{"tma_read", "GB/s"};
// TMA stores of the epilogue's boxes from shared memory to a tensor far larger than L2, all SMs:
// what a small-K call's C leaves the SMs at. Recorded for kernel design, not used by the floor.
inline constexpr CeilingField kTmaWrite{"tma_write", "GB/s"};
// Sustained under the power cap (cuBLASLt on 8192³): recorded, not used by the floor.
inline constexpr CeilingField kFp16Tensor{"fp16_tensor", "TFLOP/s"};
inline constexpr CeilingField kFp16TensorPeak{"fp16_tensor_peak", "TFLOP/s"};
// wgmma alone (no memory traffic) at steady state, the card at its power cap: the compute term of
// calls measured at steady state. Optional (sm_90 only; older files): the peak stands in.
inline constexpr CeilingField kFp16TensorAlone{"fp16_tensor_alone", "TFLOP/s"};

// Dense fp16 tensor-core FLOPs per SM per clock (f32 or f16 accumulation), from NVIDIA's data
// sheets: H100 SXM 989.4 TFLOP/s at 1830 MHz on 132 SMs (4096); A100 312 TFLOP/s at 1410 MHz on
// 108 SMs (2048). 0 for an architecture we have no figure for.
inline int dense_fp16_flops_per_sm_clock(int cc_major, int cc_minor) {
  if (cc_major == 9 && cc_minor == 0) return 4096;
  if (cc_major == 8 && cc_minor == 0) return 2048;
  return 0;
}

struct Ceilings {
  // An empty kernel's cost per call, measured the way each timing mode times a call.
  double launch_gpu_us = 0, launch_offline_us = 0, launch_server_us = 0;
  double hbm_read_gbps = 0, hbm_write_gbps = 0;  // 1 GB/s = 1e9 bytes/s
  double l2_read_gbps = 0;                       // from a buffer that L2 holds
  double l2_write_gbps = 0;                      // into a buffer that L2 holds; 0: not measured
  double l2_bytes = 0;                           // the L2's size (environment.l2_bytes)
  double l2_resident_bytes = 0;                  // what a warm L2 keeps of a buffer; 0: not measured
  double fp16_alone_tflops = 0;                  // wgmma alone at the power cap; 0: not measured
  double fp16_tflops = 0;                        // sustained under the power cap, f32 accumulation
  double fp16_peak_tflops = 0;                   // SMs × dense FLOPs per clock × highest SM clock
  double launch_us(std::string_view mode) const;  // throws Error on a mode other than gpu|offline|server
  double l2_kept_bytes() const;  // l2_resident_bytes where measured (at most l2_bytes), else l2_bytes
  // The compute rate of a call at steady state (fp16_alone_tflops where measured), or not.
  double compute_tflops(bool steady_state) const;
};

// Throws Error naming the field that is missing, not a positive number, or in another unit.
Ceilings ceilings_from_json(const nlohmann::json&);
Ceilings read_ceilings_file(const std::filesystem::path&);  // errors also name the file

enum class FloorBound { launch, memory, compute };
std::string to_string(FloorBound);

struct Floor {
  double launch_us = 0;   // the mode's launch term
  double memory_us = 0;   // the least bytes (min_read_bytes, min_write_bytes) at HBM and L2 rates
  double compute_us = 0;  // 2·M·N·K / fp16 throughput (Ceilings::compute_tflops)
  double total_us = 0;
  FloorBound bound = FloorBound::launch;  // the term that sets total_us
};

// The bytes any HGEMM moves at least: fp16 A and B read once, fp16 C written once.
double min_read_bytes(const Shape&);
double min_write_bytes(const Shape&);

// Bandwidths: with L2 warm (the same buffers every call), as many bytes as a warm L2 keeps
// (Ceilings::l2_kept_bytes) are served by it, A and B first, then C (at L2's write rate where
// measured, else its read rate; the L2 time is the longest of the reads alone, the writes alone,
// and both at the faster rate), and the rest by HBM; L2 and HBM traffic overlap, so memory =
// max(HBM time, L2 time). Compute: at the peak, or with `steady_state` (a call the bench measured after warming
// the card into its power cap) at the rate wgmma alone sustains there. Each is the fastest the
// hardware could give, so the floor stays a lower bound.
// gpu and server: a call is its launch, then its work, one after the other:
//   total = launch(mode) + max(memory, compute).
// offline: back-to-back calls from the host overlap the host's launch cost of call i+1 with
// the device work of call i, so a call costs whichever is longer:
//   total = max(launch_offline, launch_gpu + max(memory, compute)),
// and the bound is launch when the host (or the device-side launch) is the longer part.
Floor floor_of(const Shape&, std::string_view mode, const Ceilings&, bool l2_warm, bool steady_state = false);

}  // namespace gemmforge
