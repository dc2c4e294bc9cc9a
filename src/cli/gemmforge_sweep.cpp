#include "cli/gemmforge_sweep.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "core/progress.hpp"
#include "jit/compile_pool.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge::cli {

std::vector<KernelConfig> read_configs(const std::string& arg, const std::vector<Layout>& layouts, Accum acc) {
  std::vector<KernelConfig> out;
  if (arg == "all") {
    for (Layout l : layouts) {
      auto s = config_space(l, acc);
      out.insert(out.end(), s.begin(), s.end());
    }
    if (out.empty())
      throw Error("--configs all: no valid " + to_string(acc) + " kernel configuration for the layouts asked for (" +
                  "layout nn is not implemented yet)");
    return out;
  }
  std::ifstream f(arg);
  if (!f) throw Error("cannot read config file '" + arg + "'");
  nlohmann::json j;
  try {
    f >> j;
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + arg + "' is not valid JSON: " + e.what());
  }
  if (!j.is_array()) throw Error("'" + arg + "' must hold a JSON array of kernel configs");
  for (size_t i = 0; i < j.size(); ++i) {
    KernelConfig c = KernelConfig::from_json(j[i]);
    if (auto p = validity_problems(c); !p.empty())
      throw Error(arg + ": config " + std::to_string(i) + " (" + c.name() + ") is not valid: " + p.front());
    out.push_back(c);
  }
  if (out.empty()) throw Error("'" + arg + "' holds no configs");
  return out;
}

nlohmann::json setup_gemmforge_sweep(BenchOptions& o, DeviceContext& ctx, const std::vector<KernelConfig>& configs,
                                     const std::vector<int>& group_m) {
  struct Compiled {
    KernelConfig config;
    std::vector<char> cubin;
    std::shared_ptr<jit::LoadedKernel> loaded;  // loaded on first use, shared by every shape
  };
  auto compiled = std::make_shared<std::vector<Compiled>>();
  jit::KernelCache cache;
  jit::CompilePool pool(0, &cache);
  std::vector<jit::CompileRequest> reqs;
  for (const auto& c : configs) reqs.push_back(compile_request(c));
  Progress progress("compile", reqs.size());
  size_t failed = 0;
  const auto results = pool.compile_all(reqs, [&](size_t done, size_t, size_t, const jit::CompileResult& r) {
    progress.update(done, std::string(r.from_cache ? "cached" : "compiled") + ", failures so far " + std::to_string(failed));
  });
  nlohmann::json failures = nlohmann::json::array();
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].ok && results[i].spill_bytes <= 0) {
      compiled->push_back({configs[i], results[i].cubin, nullptr});
      continue;
    }
    ++failed;
    const std::string why = results[i].ok ? "spills " + std::to_string(results[i].spill_bytes) + " bytes to local memory"
                                          : results[i].log.substr(0, 400);
    failures.push_back({{"config", configs[i].name()}, {"why", why}});
    std::cerr << "gemmforge: config " << configs[i].name() << " left out: " << why << "\n";
  }
  progress.finish(std::to_string(compiled->size()) + " compiled, " + std::to_string(failed) + " left out; cache " +
                  cache.dir().string());
  if (compiled->empty()) throw Error("no gemmforge kernel configuration compiled");

  DeviceContext* device = &ctx;
  o.gemmforge_candidates = [compiled, device, group_m](const Problem& p, const std::vector<Operands>& sets) {
    std::vector<std::unique_ptr<GemmImpl>> out;
    for (auto& c : *compiled) {
      if (!why_not_supported(c.config, p).empty()) continue;
      if (!c.loaded) c.loaded = Sm90Kernel::load(c.config, c.cubin);
      for (int g : group_m) {
        LaunchKnobs knobs;
        knobs.group_m = g;
        auto k = std::make_unique<Sm90Kernel>(*device, c.config, knobs, c.loaded);
        k->prepare(p, sets);
        out.push_back(std::move(k));
      }
    }
    return out;
  };
  return {{"configs_requested", configs.size()}, {"configs_compiled", compiled->size()}, {"left_out", failures},
          {"group_m", group_m}};
}

}  // namespace gemmforge::cli
