#include "cli/gemmforge_sweep.hpp"

#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "cli/common_options.hpp"
#include "core/json_file.hpp"
#include "core/progress.hpp"
#include "jit/compile_pool.hpp"
#include "runtime/candidate_kernel.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge::cli {

namespace {

// A --configs file: a JSON array of configs of either family (gemmforge kernels --out).
nlohmann::json read_config_file(const std::string& path) {
  const nlohmann::json j = read_json_file(path, "config file");
  if (!j.is_array()) throw Error("'" + path + "' must hold a JSON array of kernel configs");
  return j;
}

// One family's configs compiled up front in a pool (progress line on stderr); the ones that fail
// or spill are reported and left out. Returns the compiled ones with their cubins, and fills
// `failures` with why the others were left out.
template <class Config>
struct Compiled {
  Config config;
  std::vector<char> cubin;
  std::shared_ptr<jit::LoadedKernel> loaded;  // loaded on first use, shared by every shape
};

template <class Config, class RequestOf>
std::shared_ptr<std::vector<Compiled<Config>>> compile_configs(const std::vector<Config>& configs, RequestOf request_of,
                                                               const std::string& label, nlohmann::json& failures) {
  auto compiled = std::make_shared<std::vector<Compiled<Config>>>();
  jit::KernelCache cache;
  jit::CompilePool pool(0, &cache);
  std::vector<jit::CompileRequest> reqs;
  for (const auto& c : configs) reqs.push_back(request_of(c));
  Progress progress(label, reqs.size());
  size_t failed = 0;
  const auto results = pool.compile_all(reqs, [&](size_t done, size_t, size_t, const jit::CompileResult& r) {
    progress.update(done, std::string(r.from_cache ? "cached" : "compiled") + ", failures so far " + std::to_string(failed));
  });
  failures = nlohmann::json::array();
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
  return compiled;
}

}  // namespace

std::vector<KernelConfig> read_configs(const std::string& arg, const std::vector<Layout>& layouts, Accum acc) {
  std::vector<KernelConfig> out;
  if (arg == "sm80") return out;  // the sm80 family's space alone (read_sm80_configs)
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
  const nlohmann::json j = read_config_file(arg);
  for (size_t i = 0; i < j.size(); ++i) {
    if (is_sm80_config_json(j[i])) continue;  // read_sm80_configs takes these
    KernelConfig c = KernelConfig::from_json(j[i]);
    if (auto p = validity_problems(c); !p.empty())
      throw Error(arg + ": config " + std::to_string(i) + " (" + c.name() + ") is not valid: " + p.front());
    out.push_back(c);
  }
  if (j.empty()) throw Error("'" + arg + "' holds no configs");
  return out;
}

std::vector<LaunchKnobs> swept_launches(const KernelConfig& c, const std::set<int>& parts, const LaunchSweep& sweep) {
  std::vector<LaunchKnobs> out;
  for (int g : sweep.group_m)
    for (int k : parts)
      for (bool programmatic : sweep.pdl)
        for (bool in_cluster : sweep.cluster_reduction)
          for (bool sliced : sweep.sliced_reduction) {
            LaunchKnobs knobs;
            knobs.group_m = g;
            knobs.splits = k == kStreamK ? 1 : k;
            knobs.stream_k = k == kStreamK;
            knobs.pdl = programmatic;
            knobs.sliced_reduction = sliced;
            const bool shares_tiles = knobs.splits > 1 || knobs.stream_k;
            if (!sliced && (!shares_tiles || in_cluster)) continue;
            if (in_cluster) {
              if (knobs.splits < 2 || knobs.splits > kMaxClusterSplits) continue;
              knobs = cluster_reduced(knobs);
              if (!launch_problem(c, knobs).empty()) continue;
            }
            out.push_back(knobs);
          }
  return out;
}

nlohmann::json setup_gemmforge_sweep(BenchOptions& o, DeviceContext& ctx, const std::vector<KernelConfig>& configs,
                                     const LaunchSweep& sweep) {
  nlohmann::json failures;
  const auto compiled = compile_configs(configs, [](const KernelConfig& c) { return compile_request(c); }, "compile", failures);
  if (compiled->empty()) throw Error("no gemmforge kernel configuration compiled");

  DeviceContext* device = &ctx;
  o.gemmforge_candidates = [compiled, device, sweep](const Problem& p, const std::vector<Operands>& sets) {
    std::vector<std::unique_ptr<GemmImpl>> out;
    const auto& s = p.shape;
    for (auto& c : *compiled) {
      if (!why_not_supported(c.config, p).empty()) continue;
      if (!c.loaded) c.loaded = Sm90Kernel::load(c.config, c.cubin);
      // Effective split counts, so that 'auto' and an equal number run once; stream-K as -1.
      std::set<int> parts;
      for (int k : sweep.splits) {
        if (k == kStreamK) {
          if (launch_problem(c.config, LaunchKnobs{.stream_k = true}).empty()) parts.insert(kStreamK);
          continue;
        }
        parts.insert(effective_splits(c.config, s.K, k > 0 ? k : auto_splits(c.config, s.M, s.N, s.K, device->info().residency())));
      }
      for (const LaunchKnobs& knobs : swept_launches(c.config, parts, sweep)) {
        auto impl = std::make_unique<Sm90Kernel>(*device, c.config, knobs, c.loaded);
        try {
          impl->prepare(p, sets);
        } catch (const Error& e) {
          // What the rules cannot know before the GPU is asked (e.g. no cluster of 16 of
          // this kernel fits) costs this candidate only, never the shape's other configs.
          std::cerr << "gemmforge: " << KernelCandidate{c.config, knobs}.name() << " left out on "
                    << to_string(s) << ": " << e.what() << "\n";
          continue;
        }
        out.push_back(std::move(impl));
      }
    }
    return out;
  };
  return {{"configs_requested", configs.size()}, {"configs_compiled", compiled->size()}, {"left_out", failures},
          {"group_m", sweep.group_m}, {"splits", sweep.splits}, {"pdl", sweep.pdl},
          {"cluster_reduction", sweep.cluster_reduction}, {"sliced_reduction", sweep.sliced_reduction}};
}

std::vector<Sm80Config> read_sm80_configs(const std::string& arg, const std::vector<Layout>& layouts, Accum acc) {
  std::vector<Sm80Config> out;
  if (arg == "sm80") {
    for (Layout l : layouts) {
      auto s = sm80_config_space(l, acc);
      out.insert(out.end(), s.begin(), s.end());
    }
    return out;
  }
  if (arg == "all") return out;  // "all" is the Hopper space; "sm80" names this one
  const nlohmann::json j = read_config_file(arg);
  for (size_t i = 0; i < j.size(); ++i) {
    if (!is_sm80_config_json(j[i])) continue;
    Sm80Config c;
    try {
      c = Sm80Config::from_json(j[i]);
    } catch (const Error& e) {
      throw Error(arg + ": config " + std::to_string(i) + ": " + e.what());
    }
    if (auto p = c.validity_problems(); !p.empty())
      throw Error(arg + ": config " + std::to_string(i) + " (" + c.name() + ") is not valid: " + p.front());
    out.push_back(c);
  }
  return out;
}

nlohmann::json add_sm80_sweep(BenchOptions& o, DeviceContext& ctx, const std::vector<Sm80Config>& configs) {
  const std::string arch = sm80_family_arch(ctx.info().cc_major, ctx.info().cc_minor);
  nlohmann::json failures;
  const auto compiled =
      compile_configs(configs, [&](const Sm80Config& c) { return compile_request(c, arch); }, "compile sm80 (" + arch + ")", failures);
  if (compiled->empty()) throw Error("no sm80 kernel configuration compiled");

  // Appended to whatever candidates are already installed (the Hopper configs of the same file).
  DeviceContext* device = &ctx;
  auto previous = o.gemmforge_candidates;
  o.gemmforge_candidates = [previous, compiled, device](const Problem& p, const std::vector<Operands>& sets) {
    std::vector<std::unique_ptr<GemmImpl>> out;
    if (previous) out = previous(p, sets);
    for (auto& c : *compiled) {
      if (!why_not_supported(c.config, p).empty()) continue;
      if (!c.loaded) c.loaded = Sm80Kernel::load(c.config, c.cubin);
      auto impl = std::make_unique<Sm80Kernel>(*device, c.config, c.loaded);
      impl->prepare(p, sets);
      out.push_back(std::move(impl));
    }
    return out;
  };
  return {{"arch", arch}, {"configs_requested", configs.size()}, {"configs_compiled", compiled->size()},
          {"left_out", failures}};
}

void enable_shape_specialization(BenchOptions& o, DeviceContext& ctx) {
  DeviceContext* device = &ctx;
  const std::string sm80_arch = sm80_family_arch(ctx.info().cc_major, ctx.info().cc_minor);
  o.specialize_finalists = [device, sm80_arch](const Problem& p, const std::vector<const GemmImpl*>& finalists,
                                                const std::vector<Operands>& sets) {
    std::vector<std::unique_ptr<GemmImpl>> out;
    // Any failure here costs the specialized builds, never the sweep's generic winner.
    try {
      // What each build is: the finalist's family, config and launch, with this shape compiled in.
      struct Build {
        KernelCandidate candidate;
        size_t request = 0;  // finalists that differ only in launch knobs share one cubin
      };
      std::vector<Build> builds;
      std::vector<jit::CompileRequest> reqs;
      std::map<std::string, size_t> request_of;
      for (const GemmImpl* f : finalists) {
        const auto c = candidate_of(*f);
        if (!c || c->specialized()) continue;
        const KernelCandidate built = c->specialized_for(p.shape);
        auto [it, added] = request_of.emplace(built.build_name(), reqs.size());
        if (added) reqs.push_back(compile_request(built, sm80_arch));
        builds.push_back({built, it->second});
      }
      if (reqs.empty()) return out;
      jit::KernelCache cache;
      jit::CompilePool pool(0, &cache);
      const auto results = pool.compile_all(reqs);
      std::vector<bool> built(results.size());
      for (size_t i = 0; i < results.size(); ++i) {
        built[i] = results[i].ok && results[i].spill_bytes <= 0;
        if (!built[i])
          std::cerr << "gemmforge: shape-specialized " << reqs[i].name << " left out: "
                    << (results[i].ok ? "spills " + std::to_string(results[i].spill_bytes) + " bytes"
                                      : results[i].log.substr(0, 300))
                    << "\n";
      }
      std::vector<std::shared_ptr<jit::LoadedKernel>> loaded(results.size());  // one module per cubin
      for (const Build& b : builds) {
        if (!built[b.request]) continue;
        try {
          auto& module = loaded[b.request];
          if (!module) module = load_candidate(b.candidate, results[b.request].cubin);
          std::unique_ptr<GemmImpl> impl = make_candidate_kernel(*device, b.candidate, module);
          impl->prepare(p, sets);
          out.push_back(std::move(impl));
        } catch (const Error& e) {
          std::cerr << "gemmforge: shape-specialized " << reqs[b.request].name << " left out: " << e.what() << "\n";
        }
      }
    } catch (const std::exception& e) {
      std::cerr << "gemmforge: no shape-specialized builds for " << to_string(p.shape) << ": " << e.what() << "\n";
    }
    return out;
  };
}

}  // namespace gemmforge::cli
