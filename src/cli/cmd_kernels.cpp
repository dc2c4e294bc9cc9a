#include <iostream>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/gemmforge_sweep.hpp"
#include "core/progress.hpp"
#include "jit/cache_key.hpp"
#include "jit/compile_pool.hpp"
#include "jit/ptxas_info.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table_builds.hpp"

namespace gemmforge::cli {
namespace {

struct KernelsArgs {
  std::string configs = "all";
  std::string layout = "tn";
  std::string acc = "f32";
  bool compile = false;
  std::string sm80_arch = "sm_90a";  // what sm80-family configs are compiled for (no GPU to ask)
  std::string table;  // the kernels this dispatch table serves, instead of --configs
  std::string out;
};

// --table: the builds a dispatch table serves, listed or compiled into the cache (so a library's
// first calls load them). The table must match these kernel sources; its GPU is not checked here,
// so a table can be prepared on a machine without one.
int run_table(const KernelsArgs& a) {
  std::vector<TableBuild> builds;
  try {
    builds = table_builds(read_table_file(a.table, jit::include_dirs_fingerprint({kernel_include_dir()})),
                          a.sm80_arch);
  } catch (const Error& e) {
    throw UsageError("--table " + a.table + ": " + e.what());
  }
  nlohmann::json report = nlohmann::json::array();
  size_t ok = 0;
  if (!a.compile) {
    for (const auto& b : builds) {
      std::cout << b.kernel.build_name() << "\n";
      report.push_back(b.kernel.to_json());
      report.back()["name"] = b.kernel.build_name();
    }
  } else {
    jit::KernelCache cache;
    jit::CompilePool pool(0, &cache);
    std::vector<jit::CompileRequest> reqs;
    for (const auto& b : builds) reqs.push_back(b.request);
    Progress progress("compile", reqs.size());
    const auto results = pool.compile_all(reqs, [&](size_t done, size_t, size_t, const jit::CompileResult&) {
      progress.update(done, "");
    });
    progress.finish("");
    size_t cached = 0;
    for (size_t i = 0; i < results.size(); ++i) {
      ok += results[i].ok;
      cached += results[i].from_cache;
      if (!results[i].ok) std::cout << "FAILED " << builds[i].kernel.build_name() << "\n" << results[i].log.substr(0, 2000) << "\n";
      auto j = builds[i].kernel.to_json();
      j["name"] = builds[i].kernel.build_name();
      j["ok"] = results[i].ok;
      j["from_cache"] = results[i].from_cache;
      report.push_back(j);
    }
    std::cout << ok << " of " << builds.size() << " kernels of " << a.table << " compiled (" << cached
              << " were in the cache already) on " << pool.threads() << " threads; cache " << cache.dir().string() << "\n";
  }
  if (!a.compile) std::cout << builds.size() << " kernels serve " << a.table << "\n";
  if (!a.out.empty()) write_file_atomically(a.out, report.dump(1) + "\n");
  return a.compile && ok != builds.size() ? kExitFailedVerdicts : kExitOk;
}

int run(const KernelsArgs& a) {
  if (!a.table.empty()) return run_table(a);
  std::vector<KernelConfig> configs;
  std::vector<Sm80Config> sm80;
  try {
    std::vector<Layout> layouts;
    if (a.layout == "both") layouts = {Layout::nn, Layout::tn};
    else layouts = {parse_layout(a.layout)};
    std::vector<Accum> accs;
    if (a.acc == "both") accs = {Accum::f32, Accum::f16};
    else accs = {parse_accum(a.acc)};
    if (a.configs == "all" || a.configs == "sm80") {
      for (Accum acc : accs) {
        auto c = read_configs(a.configs, layouts, acc);
        configs.insert(configs.end(), c.begin(), c.end());
        auto m = read_sm80_configs(a.configs, layouts, acc);
        sm80.insert(sm80.end(), m.begin(), m.end());
      }
    } else {
      configs = read_configs(a.configs, layouts, accs.front());  // a file names layout and acc per config
      sm80 = read_sm80_configs(a.configs, layouts, accs.front());
    }
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  nlohmann::json report = nlohmann::json::array();
  if (!a.compile) {
    for (const auto& c : configs) {
      std::cout << c.name() << "  smem " << c.shared_bytes() << " B, " << c.accumulator_registers()
                << " accumulator registers/thread\n";
      report.push_back(c.to_json());
    }
    for (const auto& c : sm80) {
      std::cout << c.name() << "  smem " << c.shared_bytes() << " B, " << c.threads() << " threads, about "
                << c.register_estimate() << " registers/thread\n";
      report.push_back(c.to_json());
    }
    std::cout << configs.size() + sm80.size() << " valid configurations\n";
  } else {
    jit::KernelCache cache;
    jit::CompilePool pool(0, &cache);
    std::vector<jit::CompileRequest> reqs;
    for (const auto& c : configs) reqs.push_back(compile_request(c));
    for (const auto& c : sm80) reqs.push_back(compile_request(c, a.sm80_arch));
    Progress progress("compile", reqs.size());
    const auto results = pool.compile_all(reqs, [&](size_t done, size_t, size_t, const jit::CompileResult&) {
      progress.update(done, "");
    });
    size_t ok = 0, spills = 0, serialized = 0;
    double seconds = 0;
    int max_regs = 0;
    for (size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      ok += r.ok;
      spills += r.ok && r.spill_bytes > 0;
      seconds += r.seconds;
      max_regs = std::max(max_regs, r.registers);
      const bool wgmma_serialized = r.ok && jit::parse_ptxas_info(r.log).wgmma_serialized;
      serialized += wgmma_serialized;
      const bool is_sm80 = i >= configs.size();  // requests are the Hopper configs, then the sm80 ones
      const std::string name = is_sm80 ? sm80[i - configs.size()].name() : configs[i].name();
      if (!r.ok) std::cout << "FAILED " << name << "\n" << r.log.substr(0, 2000) << "\n";
      auto j = is_sm80 ? sm80[i - configs.size()].to_json() : configs[i].to_json();
      j["name"] = name;
      if (is_sm80) j["arch"] = a.sm80_arch;
      j["ok"] = r.ok;
      j["registers"] = r.registers;
      j["spill_bytes"] = r.spill_bytes;
      j["wgmma_serialized"] = wgmma_serialized;
      j["compile_seconds"] = r.seconds;
      j["from_cache"] = r.from_cache;
      report.push_back(j);
    }
    progress.finish("");
    std::cout << ok << " of " << reqs.size() << " configurations compiled (" << spills
              << " with spills, " << serialized << " with serialized wgmma), max registers " << max_regs << ", " << seconds << " s of compile time on "
              << pool.threads() << " threads; cache " << cache.dir().string() << "\n";
    if (ok != reqs.size()) return kExitFailedVerdicts;
  }
  if (!a.out.empty()) write_file_atomically(a.out, report.dump(1) + "\n");
  return kExitOk;
}

}  // namespace

void add_kernels(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<KernelsArgs>();
  auto* cmd = app.add_subcommand("kernels", "List gemmforge's kernel configurations, or compile them all (no GPU needed)");
  cmd->footer(
      "Examples:\n"
      "  gemmforge kernels --acc both                      list the valid Hopper configurations\n"
      "  gemmforge kernels --compile --acc both --out k.json   compile them all through NVRTC (cached)\n"
      "  gemmforge kernels --configs sm80 --layout both --compile --sm80-arch sm_80   the mma.sync family, for A100\n"
      "  gemmforge kernels --table tables/h200.json --compile   every kernel the table serves, so first calls\n"
      "                                                     load cubins instead of compiling them\n"
      "The cubin cache is $GEMMFORGE_CACHE_DIR, else ~/.cache/gemmforge/kernels.");
  cmd->add_option("--configs", args->configs,
                  "all (the Hopper space), sm80 (the mma.sync family's), or a JSON file with an array of configs")
      ->capture_default_str();
  cmd->add_option("--layout", args->layout, "nn, tn or both")->capture_default_str();
  cmd->add_option("--acc", args->acc, "f32, f16 or both")->capture_default_str();
  cmd->add_flag("--compile", args->compile, "compile every configuration for sm_90a and report failures");
  cmd->add_option("--sm80-arch", args->sm80_arch, "architecture the sm80-family configs compile for (sm_90a, sm_80, ...)")
      ->capture_default_str();
  cmd->add_option("--table", args->table,
                  "instead of --configs: the kernels this dispatch table serves (exact entries, builds for one "
                  "shape included, and class rules); the table must match these kernel sources")
      ->excludes(cmd->get_option("--configs"));
  cmd->add_option("--out", args->out, "write the list (with compile results) as JSON");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace gemmforge::cli
