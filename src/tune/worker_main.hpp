// The worker process's side of the tuner: owns the CUDA context, one shape's buffers and
// correctness gate at a time, and the loaded kernel modules; gates every candidate before it is
// timed; answers worker_protocol requests on stdin/stdout until its input ends.
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/kernel_candidate.hpp"
#include "eval/gemm_impl.hpp"

namespace gemmforge::tune {

// Makes the implementation of one candidate (not yet prepared for a problem); throws Error when
// it cannot. A test build puts planted kernels behind special configs through this.
using CandidateFactory =
    std::function<std::unique_ptr<GemmImpl>(DeviceContext&, const KernelCandidate&, const std::string& cubin_key)>;

// The real candidates: the cubin is read from the kernel cache under its key (the tuner
// compiled it; the worker never compiles) and launched as an Sm90Kernel or an Sm80Kernel, built for
// any shape or for the one it names (which it then refuses to run on any other). Loaded modules are kept
// for later shapes (the most recently used 256).
CandidateFactory kernel_cache_factory(const std::filesystem::path& cache_dir);

// The worker loop on stdin/stdout. Returns the process exit code: 0 at the end of input, 3
// without a usable GPU, 4 when the CUDA context was lost (after saying so in a reply).
int run_worker(const CandidateFactory&);

}  // namespace gemmforge::tune
