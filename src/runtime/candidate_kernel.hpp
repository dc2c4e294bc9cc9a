// A KernelCandidate of either family as something to compile and run: its NVRTC request, whether
// it can serve a problem, and its evaluator implementation from a loaded cubin. Shared by the
// tuner (compile-ahead, worker) and `bench --specialize`, so both build a candidate alike.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_candidate.hpp"
#include "eval/gemm_impl.hpp"
#include "jit/driver_api.hpp"
#include "jit/kernel_cache.hpp"

namespace gemmforge {

// The cubin of the candidate's kernel (its launch knobs do not change it). sm80_arch: what the
// sm80 family compiles for on the GPU that will run it (sm80_family_arch); unused for Hopper.
jit::CompileRequest compile_request(const KernelCandidate&, const std::string& sm80_arch);

// Why the candidate cannot serve this problem: its config's reasons, or a build for another
// shape; empty when it can.
std::string why_not_supported(const KernelCandidate&, const Problem&);

// Loads a cubin of compile_request(candidate) (once per cubin: launches share the module).
std::shared_ptr<jit::LoadedKernel> load_candidate(const KernelCandidate&, const std::vector<char>& cubin);
// The candidate as an implementation to prepare and time: an Sm90Kernel or an Sm80Kernel.
std::unique_ptr<GemmImpl> make_candidate_kernel(DeviceContext&, const KernelCandidate&, std::shared_ptr<jit::LoadedKernel>);
// The candidate a gemmforge kernel implementation runs; nullopt for anything else.
std::optional<KernelCandidate> candidate_of(const GemmImpl&);

}  // namespace gemmforge
