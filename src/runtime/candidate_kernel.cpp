#include "runtime/candidate_kernel.hpp"

#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge {

jit::CompileRequest compile_request(const KernelCandidate& c, const std::string& sm80_arch) {
  if (const auto* k = c.sm80_config()) {
    if (sm80_arch.empty()) throw Error("cannot compile " + c.name() + ": no architecture given for the sm80 family");
    return compile_request(*k, sm80_arch, c.built_for);
  }
  return compile_request(c.config, c.built_for);
}

std::string why_not_supported(const KernelCandidate& c, const Problem& p) {
  if (auto why = why_not_specialized_for(c.built_for, p.shape); !why.empty()) return why;
  if (const auto* k = c.sm80_config()) return why_not_supported(*k, p);
  return why_not_supported(c.config, p);
}

std::shared_ptr<jit::LoadedKernel> load_candidate(const KernelCandidate& c, const std::vector<char>& cubin) {
  if (const auto* k = c.sm80_config()) return Sm80Kernel::load(*k, cubin);
  return Sm90Kernel::load(c.config, cubin);
}

std::unique_ptr<GemmImpl> make_candidate_kernel(DeviceContext& ctx, const KernelCandidate& c,
                                                std::shared_ptr<jit::LoadedKernel> module) {
  if (const auto* k = c.sm80_config()) return std::make_unique<Sm80Kernel>(ctx, *k, std::move(module), c.built_for);
  return std::make_unique<Sm90Kernel>(ctx, c.config, c.knobs, std::move(module), c.built_for);
}

std::optional<KernelCandidate> candidate_of(const GemmImpl& impl) {
  if (const auto* k = dynamic_cast<const Sm90Kernel*>(&impl)) {
    KernelCandidate c{k->config(), k->knobs()};
    c.built_for = k->constants();
    return c;
  }
  if (const auto* k = dynamic_cast<const Sm80Kernel*>(&impl)) {
    KernelCandidate c = sm80_candidate(k->config());
    c.built_for = k->constants();
    return c;
  }
  return std::nullopt;
}

}  // namespace gemmforge
