#include "runtime/plan_measurement.hpp"

#include <cmath>
#include <sstream>

#include "eval/fastest_of.hpp"
#include "eval/lt_matmul.hpp"
#include "eval/verify.hpp"
#include "runtime/staged_operands.hpp"
#include "runtime/table.hpp"

namespace gemmforge {

static_assert(kLtWorkspaceBytes == DeviceContext::kWorkspaceBytes,
              "plans are measured with the workspace the library gives cuBLASLt");

namespace {

// One kernel's call on `stream`: staged (the copies in, the kernel, the copy out) when `staged`.
void run_kernel(Sm90Kernel& k, const StagedOperands* staged, const Operands& o, cudaStream_t stream, void* workspace) {
  if (!staged) return k.run_on(o, stream, workspace);
  staged->run(o, stream, [&](const Operands& inner, cudaStream_t s) { k.run_on(inner, s, workspace); });
}

// The kernel as the gate sees it: launched on the gate's stream, with its measurement workspace.
class GatedKernel final : public GemmImpl {
 public:
  GatedKernel(Sm90Kernel& k, const StagedOperands* staged, void* workspace, cudaStream_t stream)
      : k_(k), staged_(staged), workspace_(workspace), stream_(stream) {}
  std::string name() const override { return "gemmforge"; }
  void prepare(const Problem&, const std::vector<Operands>&) override {}
  void run(const Operands& o) override { run_kernel(k_, staged_, o, stream_, workspace_); }

 private:
  Sm90Kernel& k_;
  const StagedOperands* staged_;
  void* workspace_;
  cudaStream_t stream_;
};

std::optional<size_t> fastest(const std::vector<double>& medians) {
  std::optional<size_t> best;
  for (size_t i = 0; i < medians.size(); ++i)
    if (!std::isnan(medians[i]) && (!best || medians[i] < medians[*best])) best = i;
  return best;
}

}  // namespace

std::string MeasuredChoice::describe() const {
  std::ostringstream s;
  s.precision(3);
  s << "measured at plan time (" << timed << " candidates): ";
  if (cublaslt_us > 0)
    s << "cuBLASLt's best " << cublaslt_us << " us (algo " << cublaslt_algo + 1 << " of " << cublaslt_algos << ")";
  else
    s << "none of cuBLASLt's " << cublaslt_algos << " algorithms ran";
  if (kernel_us) s << ", gemmforge's best " << *kernel_us << " us";
  if (!kernel_verdict.empty()) s << " (correctness gate: " << kernel_verdict << ")";
  return s.str();
}

MeasuredPick pick_measured(const std::vector<double>& kernel_medians, const std::vector<double>& cublaslt_medians) {
  MeasuredPick p;
  const auto kernel = fastest(kernel_medians);
  p.cublaslt = fastest(cublaslt_medians);
  if (kernel && (!p.cublaslt || kernel_medians[*kernel] < cublaslt_medians[*p.cublaslt] * (1 - kMeasuredTieBand)))
    p.kernel = kernel;
  return p;
}

MeasuredChoice measure_choice(DeviceContext& ctx, const Problem& p, const std::vector<Sm90Kernel*>& kernels,
                              const Staging& staging) {
  const Shape& s = p.shape;
  // The operands the gate also uses, timed with random normal data as the bench times them.
  ShapeBuffers buf(s, false, ctx.info().l2_bytes, ctx.stream());
  buf.fill_for_timing(1, ctx.stream());
  const Operands o = buf.guarded();
  DeviceBuffer staging_buffer(staging.any() ? staging.staged_bytes(s, p.layout) : 0);
  std::optional<StagedOperands> staged;
  if (staging.any()) staged.emplace(staging, s, p.layout, staging_buffer.get());
  const StagedOperands* staged_ptr = staged ? &*staged : nullptr;

  std::vector<Launch> launches;
  std::vector<DeviceBuffer> splitk_workspaces;
  for (Sm90Kernel* k : kernels) {
    splitk_workspaces.emplace_back(std::max<size_t>(k->workspace_bytes(), 16));
    GF_CUDA(cudaMemsetAsync(splitk_workspaces.back().get(), 0, splitk_workspaces.back().bytes(), ctx.stream()));
    launches.push_back([k, staged_ptr, ws = splitk_workspaces.back().get()](const Operands& x, cudaStream_t st) {
      run_kernel(*k, staged_ptr, x, st, ws);
    });
  }
  LtMatmul lt(ctx.cublaslt(), p);
  const auto algos = lt.heuristic(kLtHeuristicCount, kLtWorkspaceBytes, 256);
  for (const auto& r : algos)
    launches.push_back([&lt, &ctx, algo = r.algo](const Operands& x, cudaStream_t st) {
      lt.run(algo, x, ctx.workspace(), ctx.workspace_bytes(), st);
    });

  const auto timed = fastest_of(launches, {o}, ctx.stream());
  if (!timed) throw Error("no candidate ran for " + to_string(s));
  const auto& medians = timed->medians_us;
  const std::vector<double> kernel_medians(medians.begin(), medians.begin() + std::ptrdiff_t(kernels.size()));
  const std::vector<double> lt_medians(medians.begin() + std::ptrdiff_t(kernels.size()), medians.end());
  MeasuredPick pick = pick_measured(kernel_medians, lt_medians);
  MeasuredChoice m;
  m.cublaslt_algos = algos.size();
  m.timed = timed->timed;
  if (const auto k = fastest(kernel_medians)) m.kernel_us = kernel_medians[*k];
  if (pick.cublaslt) {
    m.cublaslt_algo = int(*pick.cublaslt);
    m.cublaslt_us = lt_medians[*pick.cublaslt];
  }
  if (pick.kernel) {
    GatedKernel gated(*kernels[*pick.kernel], staged_ptr, splitk_workspaces[*pick.kernel].get(), ctx.stream());
    CorrectnessGate gate(ctx, buf, p.acc, GateOptions{});
    const Verdict v = gate.check({{&gated, p.layout}})[0];
    m.kernel_verdict = v.text();
    if (v.passed()) m.kernel = pick.kernel;
    else if (!pick.cublaslt) throw Error("the only candidate that ran, a gemmforge kernel, failed the gate: " + v.text());
  }
  return m;
}

}  // namespace gemmforge
