// `gemmforge trace`: where one launch of a Hopper kernel spends its time, phase by phase, from
// stamps a traced build of the kernel writes (kernels/sm90/trace.cuh). A diagnostic, not a
// timing: the traced build is gated like any candidate, but its times are not speed claims.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "core/records.hpp"
#include "core/shape.hpp"
#include "core/trace_summary.hpp"
#include "runtime/trace_launch.hpp"

namespace gemmforge::cli {
namespace {

struct TraceArgs {
  std::vector<std::string> shapes, kernels;
  int warmup = 20;
  std::string out;
  std::string ablate = "none";
  bool kblock_stamps = false;
  int smem_pad = 0;
};

int run(const TraceArgs& a, int argc, char** argv) {
  std::vector<Shape> shapes;
  std::vector<std::pair<KernelConfig, LaunchKnobs>> kernels;
  try {
    for (const auto& s : a.shapes) shapes.push_back(parse_shape(s));
    for (const auto& k : a.kernels) {
      // Refused here, before the GPU is opened: a name that reads back but no rule allows (a
      // cluster side of 3, splits and a reduction in a cluster) would otherwise fail to compile
      // or launch only after the device's start-up.
      auto [config, knobs] = parse_hopper_candidate_name(k);
      if (const auto problems = validity_problems(config); !problems.empty()) throw Error(k + ": " + problems.front());
      if (const auto why = launch_problem(config, knobs); !why.empty()) throw Error(k + ": " + why);
      kernels.emplace_back(config, knobs);
    }
    if (a.warmup < 0) throw Error("--warmup must not be negative");
    (void)parse_ablation(a.ablate);
    if (a.smem_pad < 0) throw Error("--smem-pad must not be negative");
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  DeviceContext ctx;
  jit::KernelCache cache;
  nlohmann::json results = nlohmann::json::array();
  if (!a.out.empty()) std::filesystem::create_directories(a.out);
  int failed = 0;
  for (const auto& shape : shapes)
    for (size_t i = 0; i < kernels.size(); ++i) {
      const auto& [config, knobs] = kernels[i];
      const std::string name = a.kernels[i] + (a.ablate == "none" ? "" : "-without-" + a.ablate) +
                               (a.smem_pad > 0 ? "-pad" + std::to_string(a.smem_pad) : "");
      std::cout << to_string(shape) << " " << name << "\n";
      nlohmann::json r = {{"shape", to_string(shape)}, {"kernel", a.kernels[i]}, {"left_out", a.ablate}, {"smem_pad", a.smem_pad}};
      try {
        const TracedLaunch t =
            trace_launch(ctx, config, knobs, shape, cache, a.warmup, {parse_ablation(a.ablate), a.kblock_stamps, a.smem_pad});
        std::printf("  launch: %s; event %.2f us\n%s%s", t.launch.c_str(), t.event_us, trace_phases_table(t.summary).c_str(),
                    trace_kblocks_table(t.summary).c_str());
        r["event_us"] = t.event_us;
        r["launch"] = t.launch;
        r["trace"] = trace_phases_json(t.summary);
        if (!a.out.empty())
          write_file_atomically(std::filesystem::path(a.out) / (to_string(shape) + "-" + name + "-units.csv"),
                                trace_units_csv(t.summary));
        if (!a.out.empty() && !t.summary.kblocks.empty())
          write_file_atomically(std::filesystem::path(a.out) / (to_string(shape) + "-" + name + "-kblocks.csv"),
                                trace_kblocks_csv(t.summary));
      } catch (const NoGpuError&) {
        throw;
      } catch (const Error& e) {
        ++failed;
        std::printf("  not traced: %s\n", e.what());
        r["error"] = e.what();
      }
      std::fflush(stdout);
      results.push_back(r);
    }
  if (!a.out.empty()) {
    const nlohmann::json file = {{"schema", "gemmforge.trace/1"}, {"command", command_line(argc, argv)},
                                 {"environment", environment_json(ctx.info())}, {"results", results}};
    write_file_atomically(std::filesystem::path(a.out) / "trace.json", file.dump(1) + "\n");
    std::cout << "wrote " << a.out << "/trace.json and a units CSV per traced launch\n";
  }
  return failed ? kExitRuntime : kExitOk;
}

}  // namespace

void add_trace(CLI::App& app, int& exit_code, int argc, char** argv) {
  auto args = std::make_shared<TraceArgs>();
  auto* cmd = app.add_subcommand("trace", "Show where one launch of a Hopper kernel spends its time, phase by phase");
  cmd->footer(
      "Builds the kernel with phase stamps compiled in (-DGEMMFORGE_TRACE; the tuned and served builds\n"
      "never have them), gates it like any candidate, runs it --warmup times, then once more with the\n"
      "stamps read back: each CTA's set-up, the wait for its first load, and per work unit the wait\n"
      "for its first stage, its main loop (clocks per k-block), its epilogue or reduction part, and the\n"
      "gap to the next unit's first stage; the producer's time waiting for free stages. Medians and\n"
      "10th/90th percentiles over CTAs or units, in microseconds at the SM clock the stamps show. The\n"
      "first 24 units of the first 4096 CTAs are stamped.\n"
      "This is a diagnostic: stamps add a few instructions per unit, so compare phases, and take speed\n"
      "from 'gemmforge bench'.\n\n"
      "Examples:\n"
      "  gemmforge trace --shape 4096x4096x1024 --kernel sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore_pdl\n"
      "  gemmforge trace --shape 256x512x16384 --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_k16_pdl --out t/\n"
      "Kernel names are those of tune tables, decisions and bench notes: a config and its launch knobs.\n\n"
      "--ablate leaves one part out of the traced build, to see what it costs the rest. Of the\n"
      "TMA-store epilogue (in ping-pong, what it costs the other consumer's main loop beside it):\n"
      "'epilogue' (all of it), 'store-issue' (staged, never stored), 'staging' (no conversion or\n"
      "stmatrix; stale buffers stored), 'proxy-fence' (the fence after staging). Of the main loop:\n"
      "'mma' (stages waited for and released, no wgmma: the loads' pace alone) and 'loads' (no TMA\n"
      "load, every stage full at once: the math's pace alone). Such a build writes a wrong C: the\n"
      "complete traced build is gated first, the ablated one only timed. Never a speed claim.\n"
      "--kblock-stamps adds, for units 4-7 of each CTA's walk, each k-block's stage full, group retired\n"
      "and loads issued; medians per position in the unit are printed. Those stamps cost the main\n"
      "loop ~10%: read the other phases from a run without them.");
  cmd->add_option("--shape", args->shapes, "a shape as MxNxK (repeatable)")->required();
  cmd->add_option("--kernel", args->kernels, "a Hopper kernel by name, config and launch knobs (repeatable)")->required();
  cmd->add_option("--warmup", args->warmup, "launches before the traced one")->capture_default_str();
  cmd->add_flag("--kblock-stamps", args->kblock_stamps,
                "also stamp every k-block of each CTA's units 4-7 (a per-position table and a k-blocks CSV; slows the main loop ~10%)");
  cmd->add_option("--smem-pad", args->smem_pad,
                  "launch with this many more bytes of (unused) shared memory: a CTA's footprint, and so the SM's "
                  "L1 share, changed without changing the code (diagnostic)");
  cmd->add_option("--ablate", args->ablate, "a part of the kernel to leave out (diagnostic; see below)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "write trace.json and one CSV of units per launch into this directory");
  cmd->callback([args, &exit_code, argc, argv] { exit_code = run(*args, argc, argv); });
}

}  // namespace gemmforge::cli
