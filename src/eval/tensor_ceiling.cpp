// The compute term of the floor: fp16 tensor-core throughput with f32 accumulation, sustained
// under the power cap. Measured by the evaluator itself (run_bench): cuBLASLt-autotune through
// the correctness gate, warmed up by time, timed in gpu mode with both layouts interleaved.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "eval/bench.hpp"
#include "eval/buffers.hpp"
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/event_pair.hpp"

namespace gemmforge {

CeilingMeasurement measure_fp16_tensor(DeviceContext& ctx, const CeilingOptions& o) {
  BenchOptions b;
  const Shape shape{o.gemm_dim, o.gemm_dim, o.gemm_dim};
  b.shapes = {shape};
  b.layouts = {Layout::nn, Layout::tn};
  b.acc = Accum::f32;
  b.impls = {"cublaslt-autotune"};
  b.modes = {Mode::gpu};
  b.timing.rounds = o.gemm_rounds;
  b.timing.min_sample_us = o.gemm_sample_us;
  // The card heats into its power cap within about a second: warm up by time, then measure.
  b.timing.first_heavy_warmup_s = b.timing.heavy_warmup_s = o.gemm_warmup_s;
  b.timing.seed = o.seed;
  b.gate.seed = o.seed;
  const std::vector<BenchRecord> records = run_bench(ctx, b);

  const BenchRecord* best = nullptr;
  nlohmann::json per_layout = nlohmann::json::object();
  for (const auto& r : records) {
    const bool timed = r.passed() && r.tflops();
    per_layout[to_string(r.layout)] = timed ? nlohmann::json(*r.tflops()) : nlohmann::json(r.verdict);
    if (timed && (!best || *r.median_us < *best->median_us)) best = &r;
  }
  if (!best)
    throw Error("fp16 tensor ceiling: cuBLASLt-autotune did not run on " + to_string(shape) + ": " +
                (records.empty() ? std::string("no records") : records.front().verdict));

  CeilingMeasurement m;
  m.field = kFp16Tensor;
  m.time_us.median = *best->median_us;
  m.time_us.p25 = best->p25_us.value_or(0);
  m.time_us.p75 = best->p75_us.value_or(0);
  m.time_us.min = best->min_us.value_or(0);
  m.time_us.count = best->samples;
  m.value = *best->tflops();
  m.method = "cuBLASLt-autotune (the fastest of its heuristic's algorithms, after the correctness gate) on " +
             to_string(shape) + ", f32 accumulation, random normal operands, both layouts interleaved and the faster "
             "kept; after warmup_s seconds of calls, gpu mode: CUDA graphs of calls_per_sample calls, median over "
             "the samples";
  m.detail["shape"] = to_string(shape);
  m.detail["impl"] = best->impl;
  m.detail["layout"] = to_string(best->layout);
  m.detail["acc"] = to_string(best->acc);
  m.detail["tflops_per_layout"] = per_layout;
  m.detail["warmup_s"] = o.gemm_warmup_s;
  m.detail["calls_per_sample"] = best->calls_per_sample;
  m.detail["note"] = best->note;
  // NVML right after the samples, as bench records them.
  m.detail["sm_clock_mhz"] = best->sm_clock_mhz ? nlohmann::json(*best->sm_clock_mhz) : nlohmann::json();
  m.detail["power_w"] = best->power_w ? nlohmann::json(*best->power_w) : nlohmann::json();
  return m;
}

std::optional<CeilingMeasurement> measure_fp16_tensor_alone(DeviceContext& ctx, const CeilingOptions& o) {
  if (ctx.info().cc_major != 9) return std::nullopt;  // the loop is wgmma: sm_90 only
  const int ctas = ctx.info().sm_count;  // 48 KiB and 256 threads of ~150 registers: one CTA per SM
  DeviceBuffer sink(sizeof(float) * ceiling_ops::kTensorLoopSinkFloats);
  float* sink_floats = static_cast<float*>(sink.get());
  const cudaStream_t s = ctx.stream();
  constexpr unsigned kNeverKey = 0;  // the accumulators are never stored
  EventPair ev;
  auto timed = [&](int k_blocks) {
    GF_CUDA(cudaEventRecord(ev.begin, s));
    ceiling_ops::tensor_loop(ctas, k_blocks, kNeverKey, sink_floats, s);
    GF_CUDA(cudaEventRecord(ev.end, s));
    GF_CUDA(cudaEventSynchronize(ev.end));
    return double(ev.elapsed_us());
  };
  // One launch per sample, sized to about gemm_sample_us from a probe.
  timed(256);
  const double probe_us = timed(2048);
  const int k_blocks = int(std::clamp(2048.0 * o.gemm_sample_us / std::max(probe_us, 1.0), 2048.0, 4e6));
  // The card heats into its power cap within about a second: warm up by time, then measure.
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.gemm_warmup_s);
  while (std::chrono::steady_clock::now() < warm_until) timed(k_blocks);
  std::vector<double> us;
  for (int r = 0; r < o.gemm_rounds; ++r) us.push_back(timed(k_blocks));
  const NvmlReading clocks = Nvml::instance(ctx.info().pci_bus_id).read();

  CeilingMeasurement m;
  m.field = kFp16TensorAlone;
  m.time_us = summarize(us);
  const double flops = double(ctas) * k_blocks * ceiling_ops::kTensorLoopFlopsPerCtaKBlock;
  m.value = flops / m.time_us.median / 1e6;  // flops per µs / 1e6 = TFLOP/s
  m.method = "wgmma m64n256k16 alone, f32 accumulation, on fp16 operands that stay in shared memory (pseudo-random "
             "values), two warpgroups per SM (a 128x256 tile's main loop without its loads and stores), one CTA per "
             "SM; after warmup_s seconds of launches, one launch per sample, event-timed, median; with no memory "
             "traffic drawing power, no GEMM's tensor work runs faster at the same power cap";
  m.detail["ctas"] = ctas;
  m.detail["k_blocks_per_launch"] = k_blocks;
  m.detail["warmup_s"] = o.gemm_warmup_s;
  m.note_clocks(clocks);
  return m;
}

CeilingMeasurement fp16_tensor_peak(DeviceContext& ctx) {
  const auto& info = ctx.info();
  const int per_clock = dense_fp16_flops_per_sm_clock(info.cc_major, info.cc_minor);
  if (per_clock == 0)
    throw Error("fp16 tensor peak: no dense FLOPs-per-clock figure for compute capability " +
                std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor));
  const auto max_mhz = Nvml::instance(info.pci_bus_id).max_sm_clock_mhz();
  if (!max_mhz) throw Error("fp16 tensor peak: NVML gives no maximum SM clock here");
  CeilingMeasurement m;
  m.field = kFp16TensorPeak;
  m.value = double(info.sm_count) * per_clock * *max_mhz * 1e6 / 1e12;
  m.time_us.count = 0;
  m.method = "not timed: SM count x dense fp16 FLOPs per SM clock (" + std::to_string(per_clock) +
             ", from the data sheet) x the highest SM clock NVML reports; no kernel can be faster";
  m.detail["sm_count"] = info.sm_count;
  m.detail["flops_per_sm_clock"] = per_clock;
  m.detail["max_sm_clock_mhz"] = *max_mhz;
  return m;
}

}  // namespace gemmforge
