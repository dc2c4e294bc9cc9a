// One gemmforge Hopper kernel (a KernelConfig) as an implementation the evaluator can gate and
// time: compiled through the JIT (cached), loaded with the driver API, launched with tensor maps.
#pragma once
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "core/kernel_candidate.hpp"
#include "core/staging.hpp"
#include "eval/device.hpp"
#include "eval/gemm_impl.hpp"
#include "jit/driver_api.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/table.hpp"

namespace gemmforge {

// Where the kernel headers are, for NVRTC's include path (the repository's kernels/).
std::string kernel_include_dir();
// What a dispatch table must match to serve on this GPU with these kernel headers (reads them).
TableExpectation table_expectation(const GpuInfo&, bool other_gpu_allowed);
// constants: compiled for that shape only (JIT shape specialization).
jit::CompileRequest compile_request(const KernelConfig&, const ShapeConstants& constants = std::nullopt);

// Why this config cannot serve this problem (layout, accumulator, or strides TMA cannot take);
// empty when it can.
std::string why_not_supported(const KernelConfig&, const Problem&);
// The same for operands whose rows are `pitches` elements apart (a staged call, core/staging.hpp).
std::string why_not_supported(const KernelConfig&, const Problem&, const Pitches&);

class Sm90Kernel final : public GemmImpl {
 public:
  // Loads the cubin of compile_cached(compile_request(config)) once; shapes share the module.
  static std::shared_ptr<jit::LoadedKernel> load(const KernelConfig&, const std::vector<char>& cubin);
  // constants: the shape the cubin was compiled for (prepare refuses any other), or nullopt.
  Sm90Kernel(DeviceContext&, KernelConfig, LaunchKnobs, std::shared_ptr<jit::LoadedKernel>,
             ShapeConstants constants = std::nullopt);
  std::string name() const override { return "gemmforge"; }
  // The config's name, its launch knobs that differ from the defaults, and the shape it was
  // compiled for if it was specialized.
  std::string note() const override { return KernelCandidate{config_, knobs_}.name() + specialization_suffix(constants_); }
  std::string launch_detail() const override;
  void prepare(const Problem&, const std::vector<Operands>& sets) override;
  void run(const Operands&) override;
  // Whether these operand addresses suit the kernel's TMA maps and stores (16-byte A and B; C
  // 16-byte for TMA stores, else 4-byte). run() throws on ones that do not.
  bool accepts(const Operands&) const;
  // Encodes the TMA maps for these operands now (run_on would on first use): a caller that
  // enqueues other work with the launch can meet a refusal before enqueueing any of it.
  void ready_for(const Operands& o) { maps_for(o); }
  // The same launch on another stream (the runtime library runs on its caller's streams), with a
  // workspace of at least workspace_bytes() that no other stream uses at the same time and
  // that was zeroed before its first use (every launch leaves it zeroed).
  void run_on(const Operands&, cudaStream_t, void* workspace);
  // The caller passes the workspace to run_on (the runtime library keeps one per stream):
  // prepare() then allocates none of its own. Call before prepare().
  void use_caller_workspace() { caller_workspace_ = true; }
  // Operands whose rows are these pitches apart, not packed (a staged call: core/staging.hpp). A
  // C wider than N is written as C' of that width, its extra columns zero. Call before prepare().
  void set_pitches(const Pitches& p) { requested_pitches_ = p; }
  const Pitches& pitches() const { return pitches_; }  // of the prepared problem
  // Diagnostics only (`gemmforge trace --smem-pad`): launch with `bytes` of dynamic shared memory
  // beyond what the config uses (untouched by the kernel), so a CTA's footprint, and with it the
  // L1 share of the SM, can be changed without changing the code. Call before prepare(). Throws
  // Error when the total passes what a CTA can have.
  void pad_shared_memory(int bytes);
  // Workspace the prepared launch needs (split-K's or stream-K's sums and counters, the dynamic
  // walk's counter); 0 when it needs none.
  size_t workspace_bytes() const { return workspace_bytes_; }
  // Whether the prepared launch takes tiles with the dynamic walk (KernelConfig::dynamic_walk).
  bool dynamic_walk() const { return dynamic_walk_; }
  unsigned grid_ctas() const { return grid_.x; }  // of the prepared launch
  const KernelConfig& config() const { return config_; }
  const LaunchKnobs& knobs() const { return knobs_; }
  const ShapeConstants& constants() const { return constants_; }

 private:
  struct Maps {
    CUtensorMap a, b, c;  // c is left zero unless the config stores through TMA
  };
  Maps& maps_for(const Operands&);  // encoded once per operand address triple

  DeviceContext& ctx_;
  KernelConfig config_;
  LaunchKnobs knobs_;
  std::shared_ptr<jit::LoadedKernel> kernel_;
  ShapeConstants constants_;
  Problem problem_;  // the caller's (C's real width)
  std::optional<Pitches> requested_pitches_;
  Pitches pitches_;
  dim3 grid_{1, 1, 1}, block_{1, 1, 1}, cluster_{1, 1, 1};
  int smem_bytes_ = 0;
  int resident_clusters_ = 0;  // how many clusters fit at once (queried once per kernel)
  int group_m_ = 1;            // raster group the launch uses
  int splits_ = 1;             // split-K parts the launch uses
  int launch_flags_ = 0;       // sm90::LaunchFlags the kernel gets
  bool cooperative_ = false;   // launched so that every CTA runs at once (the sliced reduction)
  bool dynamic_walk_ = false;  // kFlagDynamicWalk: tiles from the workspace's counter
  int64_t kernel_m_ = 0, kernel_n_ = 0;  // the problem's M and N as the kernel sees them (swap-AB)
  size_t workspace_bytes_ = 0;
  bool caller_workspace_ = false;
  DeviceBuffer own_workspace_;  // what run() uses on the context's stream
  std::map<std::tuple<const void*, const void*, const void*>, Maps> maps_;
};

}  // namespace gemmforge
