// gemmforge ceilings: measures what the GPU allows at best (launch latency per timing mode, HBM
// and L2 bandwidth, fp16 tensor throughput) and writes ceilings.json, which
// `gemmforge report --floors` turns into the floor of every shape.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "core/records.hpp"
#include "eval/ceilings.hpp"

namespace gemmforge::cli {
namespace {

struct CeilingsArgs {
  std::string out = "ceilings-out";
  size_t buffer_mib = 2048;
  CeilingOptions measure;
};

nlohmann::json to_json(const CeilingMeasurement& m) {
  nlohmann::json j = m.detail;
  j["value"] = m.value;
  j["unit"] = m.field.unit;
  j["method"] = m.method;
  j["samples"] = m.time_us.count;
  j["time_us"] = {{"median", m.time_us.median}, {"p25", m.time_us.p25}, {"p75", m.time_us.p75}, {"min", m.time_us.min}};
  return j;
}

std::string clocks_text(const nlohmann::json& detail) {
  std::string t;
  if (detail.contains("sm_clock_mhz") && detail["sm_clock_mhz"].is_number())
    t += std::to_string(int(std::lround(detail["sm_clock_mhz"].get<double>()))) + " MHz";
  if (detail.contains("power_w") && detail["power_w"].is_number())
    t += (t.empty() ? "" : ", ") + std::to_string(int(std::lround(detail["power_w"].get<double>()))) + " W";
  return t.empty() ? "no NVML" : t;
}

void print_table(const std::vector<CeilingMeasurement>& ms) {
  std::printf("%-16s %10s  %-8s %8s  %s\n", "ceiling", "median", "unit", "samples", "SM clock, power after");
  for (const auto& m : ms)
    std::printf("%-16s %10.3f  %-8s %8d  %s\n", m.field.key, m.value, m.field.unit, m.time_us.count,
                clocks_text(m.detail).c_str());
}

void check_args(const CeilingsArgs& a) {
  if (a.measure.rounds < 1 || a.measure.server_calls < 1) throw UsageError("--rounds and --server-calls must be at least 1");
  if (a.buffer_mib < 1) throw UsageError("--buffer-mib must be at least 1");
  if (!std::isfinite(a.measure.gemm_warmup_s) || a.measure.gemm_warmup_s < 0)
    throw UsageError("--warmup-s must be a number of seconds, not negative");
}

int run(CeilingsArgs a, int argc, char** argv) {
  check_args(a);
  a.measure.hbm_buffer_bytes = a.buffer_mib << 20;
  nlohmann::json file = {{"schema", kCeilingsSchema}, {"command", command_line(argc, argv)},
                         {"started_utc", utc_now_iso8601()}};
  DeviceContext ctx;  // throws a clear error when there is no GPU, before anything is written
  nlohmann::json env = environment_json(ctx.info());
  auto& nvml = Nvml::instance(ctx.info().pci_bus_id);
  env["nvidia_driver"] = nvml.driver_version();
  if (!nvml.available()) env["nvml"] = nvml.why_unavailable();
  const NvmlReading idle = nvml.read();
  env["sm_clock_mhz_at_start"] = idle.sm_clock_mhz ? nlohmann::json(*idle.sm_clock_mhz) : nlohmann::json();
  env["power_w_at_start"] = idle.power_w ? nlohmann::json(*idle.power_w) : nlohmann::json();
  env["temperature_c_at_start"] = idle.temperature_c ? nlohmann::json(*idle.temperature_c) : nlohmann::json();
  file["environment"] = env;

  std::cerr << "gemmforge ceilings: on " << ctx.info().name << ": launch latency, HBM bandwidth, then fp16 "
            << "throughput (last: it heats the card)\n";
  std::vector<CeilingMeasurement> ms = measure_launch_latency(ctx, a.measure);
  for (auto& m : measure_memory_bandwidth(ctx, a.measure)) ms.push_back(std::move(m));
  ms.push_back(measure_l2_residency(ctx, a.measure));
  if (auto tma = measure_tma_read(ctx, a.measure)) ms.push_back(std::move(*tma));
  if (auto tma = measure_tma_write(ctx, a.measure)) ms.push_back(std::move(*tma));
  ms.push_back(measure_fp16_tensor(ctx, a.measure));
  if (auto alone = measure_fp16_tensor_alone(ctx, a.measure)) ms.push_back(std::move(*alone));
  ms.push_back(fp16_tensor_peak(ctx));

  file["measurements"] = nlohmann::json::object();
  for (const auto& m : ms) file["measurements"][m.field.key] = to_json(m);
  file["finished_utc"] = utc_now_iso8601();
  ceilings_from_json(file);  // what report --floors will read must be there and positive
  const std::filesystem::path out_dir(a.out);
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir / "ceilings.json", file.dump(2) + "\n");
  print_table(ms);
  std::cout << "\nwrote " << (out_dir / "ceilings.json").string() << "\n";
  return kExitOk;
}

}  // namespace

void add_ceilings(CLI::App& app, int& exit_code, int argc, char** argv) {
  auto args = std::make_shared<CeilingsArgs>();
  auto* cmd = app.add_subcommand("ceilings", "Measure the GPU's ceilings (launch latency, HBM and L2 bandwidth, what "
                                             "a warm L2 keeps, fp16 throughput) for the floors of 'report --floors'");
  cmd->footer(
      "Measures, in one process on the current GPU:\n"
      "  launch_gpu, launch_offline, launch_server  an empty kernel, timed exactly as bench's gpu, offline and\n"
      "                                             server modes time a call (us per call); through <<<>>>,\n"
      "                                             cuLaunchKernelEx (with and without PDL) and a replayed\n"
      "                                             graph, the fastest kept\n"
      "  hbm_read, hbm_write, hbm_copy              16-byte load / store kernels and a device-to-device copy\n"
      "                                             over buffers >= 4x L2 (GB/s; copy counts read + write)\n"
      "  l2_read                                    the load kernel over a quarter of L2, many passes, its loads\n"
      "                                             through L2 only (GB/s; the L1 paths beside it in the JSON)\n"
      "  l2_resident                                the same loads over 8 MiB .. 1.5x L2, many passes each: the\n"
      "                                             largest footprint a warm L2 still serves (MiB)\n"
      "  l2_write                                   the store kernel over a quarter of L2, many passes (GB/s)\n"
      "  tma_read                                   sm_90: one thread per SM keeping TMA loads of tile-shaped boxes\n"
      "                                             in flight from L2, best of box sizes and depths (GB/s, all SMs;\n"
      "                                             cp.async and multicast in clusters of 2 and 4 beside it)\n"
      "  tma_write                                  sm_90: one thread per SM storing the epilogue's 64x64 boxes with\n"
      "                                             TMA, 1-16 groups in flight, to a 1 GiB tensor (best depth;\n"
      "                                             GB/s, all SMs) and to a quarter of L2 (beside it)\n"
      "  dsmem_read                                 sm_90: CTAs in pairs reading each other's shared memory\n"
      "                                             (distributed shared memory; GB/s over all SMs)\n"
      "  fp16_tensor                                cuBLASLt-autotune on 8192^3, f32 accumulation, after\n"
      "                                             --warmup-s of calls (the card at its power cap; TFLOP/s)\n"
      "  fp16_tensor_alone                          sm_90: wgmma alone on operands in shared memory, after\n"
      "                                             --warmup-s (the power cap with no memory traffic; TFLOP/s;\n"
      "                                             the floor's compute rate for calls timed at steady state)\n"
      "  fp16_tensor_peak                           SMs x dense FLOPs per clock x highest SM clock (TFLOP/s;\n"
      "                                             not timed: what no kernel can exceed; the floor uses it\n"
      "                                             for calls not timed at steady state)\n"
      "Each value is the median of its samples, with the spread, the method, sizes and NVML clock and power\n"
      "beside it.\n\n"
      "Examples:\n"
      "  gemmforge ceilings --out bench/results/ceilings\n"
      "  gemmforge report bench/results/grid/results.json --floors bench/results/ceilings/ceilings.json\n"
      "Writes OUT/ceilings.json (schema gemmforge.ceilings/1).");
  cmd->add_option("--out", args->out, "output directory")->capture_default_str();
  cmd->add_option("--rounds", args->measure.rounds, "samples of each gpu/offline launch and bandwidth measurement")
      ->capture_default_str();
  cmd->add_option("--server-calls", args->measure.server_calls, "samples of the server-mode launch")
      ->capture_default_str();
  cmd->add_option("--buffer-mib", args->buffer_mib,
                  "size of each HBM buffer (two are allocated; halved while they do not fit, never below 4x L2)")
      ->capture_default_str();
  cmd->add_option("--warmup-s", args->measure.gemm_warmup_s, "seconds of GEMM calls before fp16 throughput is timed")
      ->capture_default_str();
  cmd->add_option("--seed", args->measure.seed, "seed of the round order, idle gaps and the gate's inputs")
      ->capture_default_str();
  cmd->callback([args, &exit_code, argc, argv] { exit_code = run(*args, argc, argv); });
}

}  // namespace gemmforge::cli
