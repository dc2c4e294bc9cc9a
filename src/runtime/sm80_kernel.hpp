// One gemmforge sm80-family kernel (an Sm80Config: mma.sync + cp.async, one CTA per tile) as an
// implementation the evaluator can gate and time: compiled through the JIT (cached), loaded
// with the driver API, launched with plain pointers. It runs on any GPU of compute capability
// 8.0 or newer, compiled for the device's own architecture (an sm_80 cubin does not load on
// sm_90).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/sm80_config.hpp"
#include "eval/gemm_impl.hpp"
#include "jit/driver_api.hpp"
#include "jit/kernel_cache.hpp"

namespace gemmforge {

// The NVRTC architecture for a device: "sm_90a" on compute capability 9.0, "sm_80" on 8.0,
// "sm_<major><minor>" elsewhere. Throws Error below 8.0 (no mma.sync m16n8k16, no cp.async).
std::string sm80_family_arch(int cc_major, int cc_minor);

// arch: "sm_90a" (H100/H200), "sm_80" (A100), ... — see sm80_family_arch.
// constants: compiled for that shape only (JIT shape specialization).
jit::CompileRequest compile_request(const Sm80Config&, std::string arch, const ShapeConstants& constants = std::nullopt);

// Why this config cannot serve this problem (layout, accumulator, or row strides the 16-byte
// loads cannot take); empty when it can.
std::string why_not_supported(const Sm80Config&, const Problem&);

class Sm80Kernel final : public GemmImpl {
 public:
  // Loads the cubin of compile_cached(compile_request(config, arch)) once; shapes share the module.
  static std::shared_ptr<jit::LoadedKernel> load(const Sm80Config&, const std::vector<char>& cubin);
  // constants: the shape the cubin was compiled for (prepare refuses any other), or nullopt.
  Sm80Kernel(DeviceContext&, Sm80Config, std::shared_ptr<jit::LoadedKernel>, ShapeConstants constants = std::nullopt);
  std::string name() const override { return "gemmforge"; }
  std::string note() const override { return config_.name() + specialization_suffix(constants_); }
  std::string launch_detail() const override;
  void prepare(const Problem&, const std::vector<Operands>& sets) override;
  void run(const Operands&) override;
  // Whether these operand addresses suit the kernel: 16-byte aligned A and B for vec16 configs,
  // 2-byte (any fp16 pointer) otherwise. run() throws on ones that do not.
  bool accepts(const Operands&) const;
  // The same launch on another stream (the runtime library runs on its caller's streams).
  void run_on(const Operands&, cudaStream_t);
  const Sm80Config& config() const { return config_; }
  const ShapeConstants& constants() const { return constants_; }

 private:
  DeviceContext& ctx_;
  Sm80Config config_;
  std::shared_ptr<jit::LoadedKernel> kernel_;
  ShapeConstants constants_;
  Problem problem_;
  bool prepared_ = false;
  dim3 grid_{1, 1, 1}, block_{1, 1, 1};
  int smem_bytes_ = 0;
};

}  // namespace gemmforge
