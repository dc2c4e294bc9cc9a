// The tuner's worker with planted kernels behind the configs of planted_tune_configs.hpp, and
// the real kernels (from the kernel cache) behind every other config: the same worker loop as
// `gemmforge worker`. Test code only; the tuner reaches it through WorkerBackend's command.
#include <sys/resource.h>

#include <cstdio>
#include <string>

#include "planted_tune_configs.hpp"
#include "tune/worker_main.hpp"

int main(int argc, char** argv) {
  using namespace gemmforge;
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // the planted host crash should not leave a core file
  std::string cache_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "worker") continue;
    if (a == "--cache-dir" && i + 1 < argc) {
      cache_dir = argv[++i];
      continue;
    }
    std::fprintf(stderr, "gemmforge_planted_worker: unknown argument '%s'\n", a.c_str());
    return 2;
  }
  if (cache_dir.empty()) {
    std::fprintf(stderr, "gemmforge_planted_worker: --cache-dir DIR is required\n");
    return 2;
  }
  const tune::CandidateFactory real = tune::kernel_cache_factory(cache_dir);
  return tune::run_worker(
      [&real](DeviceContext& ctx, const KernelCandidate& c, const std::string& key) -> std::unique_ptr<GemmImpl> {
        if (const auto* k = c.hopper())
          if (const auto flaw = testing::planted_flaw(*k)) return testing::make_planted(*flaw, ctx);
        return real(ctx, c, key);
      });
}
