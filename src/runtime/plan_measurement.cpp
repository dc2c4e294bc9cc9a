#include "runtime/plan_measurement.hpp"

#include <cmath>
#include <sstream>

#include "eval/check_ops.hpp"
#include "eval/fastest_of.hpp"
#include "eval/lt_matmul.hpp"
#include "runtime/table.hpp"

namespace gemmforge {

static_assert(kLtWorkspaceBytes == DeviceContext::kWorkspaceBytes,
              "plans are measured with the workspace the library gives cuBLASLt");

std::string MeasuredChoice::describe() const {
  std::ostringstream s;
  s.precision(3);
  s << "measured at plan time (" << timed << " candidates): cuBLASLt's best " << cublaslt_us << " us (algo "
    << cublaslt_algo + 1 << " of " << cublaslt_algos << ")";
  if (kernel_us) s << ", gemmforge's best " << *kernel_us << " us";
  return s.str();
}

MeasuredChoice measure_choice(DeviceContext& ctx, const Problem& p, const std::vector<Sm90Kernel*>& kernels) {
  const Shape& s = p.shape;
  const size_t b_elems = size_t(s.K) * size_t(s.N);
  DeviceBuffer a(size_t(s.M) * size_t(s.K) * 2), b(b_elems * 2), c(size_t(s.M) * size_t(s.N) * 2);
  // Random normal operands: zeros run faster and cooler than real data (design.md section 6).
  check_ops::fill_normal_bytes(a.get(), size_t(s.M) * size_t(s.K), 1, ctx.stream());
  check_ops::fill_normal_bytes(b.get(), b_elems, 2, ctx.stream());
  const Operands o{static_cast<const __half*>(a.get()), static_cast<const __half*>(b.get()),
                   static_cast<__half*>(c.get())};

  std::vector<Launch> launches;
  std::vector<DeviceBuffer> splitk_workspaces;
  for (Sm90Kernel* k : kernels) {
    splitk_workspaces.emplace_back(std::max<size_t>(k->workspace_bytes(), 16));
    GF_CUDA(cudaMemsetAsync(splitk_workspaces.back().get(), 0, splitk_workspaces.back().bytes(), ctx.stream()));
    launches.push_back([k, ws = splitk_workspaces.back().get()](const Operands& x, cudaStream_t st) { k->run_on(x, st, ws); });
  }
  LtMatmul lt(ctx.cublaslt(), p);
  const auto algos = lt.heuristic(kLtHeuristicCount, kLtWorkspaceBytes, 256);
  for (const auto& r : algos)
    launches.push_back([&lt, &ctx, algo = r.algo](const Operands& x, cudaStream_t st) {
      lt.run(algo, x, ctx.workspace(), ctx.workspace_bytes(), st);
    });

  const auto fastest = fastest_of(launches, {o}, ctx.stream());
  if (!fastest) throw Error("no candidate ran for " + to_string(s));
  MeasuredChoice m;
  m.cublaslt_algos = algos.size();
  m.timed = fastest->timed;
  auto best_in = [&](size_t from, size_t to) {
    std::optional<size_t> best;
    for (size_t i = from; i < to; ++i)
      if (!std::isnan(fastest->medians_us[i]) && (!best || fastest->medians_us[i] < fastest->medians_us[*best])) best = i;
    return best;
  };
  const auto best_kernel = best_in(0, kernels.size());
  const auto best_lt = best_in(kernels.size(), launches.size());
  if (best_kernel) m.kernel_us = fastest->medians_us[*best_kernel];
  if (!best_lt) {  // cuBLASLt offered algorithms but none ran: only a kernel can serve
    m.kernel = best_kernel;
    return m;
  }
  m.cublaslt_algo = int(*best_lt - kernels.size());
  m.cublaslt_us = fastest->medians_us[*best_lt];
  if (best_kernel && *m.kernel_us < m.cublaslt_us * (1 - kMeasuredTieBand)) m.kernel = best_kernel;
  return m;
}

}  // namespace gemmforge
