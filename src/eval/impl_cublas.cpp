// Baselines through the vendor libraries (design.md section 7), called the way a careful user
// would: real workspace, both layouts native, no transposing copies.
//
// cuBLAS is column-major: a row-major C[M×N] is a column-major N×M matrix, so we ask for
// Cᵀ = Bᵀ·Aᵀ with B as the first operand (see eval/lt_matmul.hpp).
#include <cuda_fp16.h>

#include "eval/fastest_of.hpp"
#include "eval/gemm_impl.hpp"
#include "eval/lt_matmul.hpp"

namespace gemmforge {
namespace {

struct Scalars {  // alpha = 1, beta = 0 in the type the compute mode wants
  float f32_one = 1.f, f32_zero = 0.f;
  __half f16_one = __float2half(1.f), f16_zero = __float2half(0.f);
  const void* one(Accum a) const { return a == Accum::f32 ? (const void*)&f32_one : (const void*)&f16_one; }
  const void* zero(Accum a) const { return a == Accum::f32 ? (const void*)&f32_zero : (const void*)&f16_zero; }
};

class CublasGemmEx final : public GemmImpl {
 public:
  explicit CublasGemmEx(DeviceContext& ctx) : ctx_(ctx) {}
  std::string name() const override { return "cublas"; }
  void prepare(const Problem& p, const std::vector<Operands>&) override { p_ = p; }
  void run(const Operands& o) override {
    const auto& s = p_.shape;
    const bool tn = p_.layout == Layout::tn;
    GF_CUBLAS(cublasGemmEx(ctx_.cublas(), tn ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, int(s.N), int(s.M),
                           int(s.K), scalars_.one(p_.acc), o.B, CUDA_R_16F, int(tn ? s.K : s.N), o.A,
                           CUDA_R_16F, int(s.K), scalars_.zero(p_.acc), o.C, CUDA_R_16F, int(s.N),
                           p_.acc == Accum::f32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_16F,
                           CUBLAS_GEMM_DEFAULT));
  }

 private:
  DeviceContext& ctx_;
  Problem p_;
  Scalars scalars_;
};

// cuBLASLt: `autotune` asks the heuristic for up to 100 algorithms, times each on the real
// operands, and keeps the fastest; otherwise the heuristic's first answer is used as is.
class CublasLt final : public GemmImpl {
 public:
  CublasLt(DeviceContext& ctx, bool autotune) : ctx_(ctx), autotune_(autotune) {}
  std::string name() const override { return autotune_ ? "cublaslt-autotune" : "cublaslt-heuristic"; }
  std::string note() const override { return note_; }

  void prepare(const Problem& p, const std::vector<Operands>& sets) override {
    lt_.reset();
    lt_ = std::make_unique<LtMatmul>(ctx_.cublaslt(), p);
    p_ = p;
    const auto found = lt_->heuristic(autotune_ ? 100 : 1, ctx_.workspace_bytes());
    algo_ = found[0].algo;
    note_ = "heuristic algo 1 of " + std::to_string(found.size());
    if (autotune_ && found.size() > 1) pick_fastest(found, sets);
    note_ += "; " + LtMatmul::describe(algo_);
  }

  void run(const Operands& o) override { launch(algo_, o); }

 private:
  void launch(const cublasLtMatmulAlgo_t& algo, const Operands& o) {
    lt_->run(algo, o, ctx_.workspace(), ctx_.workspace_bytes(), ctx_.stream());
  }

  // Times every algorithm the heuristic returned (eval/fastest_of.hpp) and keeps the fastest.
  void pick_fastest(const std::vector<cublasLtMatmulHeuristicResult_t>& found, const std::vector<Operands>& sets) {
    std::vector<Launch> launches;
    for (const auto& f : found)
      launches.push_back([this, algo = f.algo](const Operands& o, cudaStream_t) { launch(algo, o); });
    const auto fastest = fastest_of(launches, sets, ctx_.stream());
    if (!fastest) throw Error("cuBLASLt autotune: no algorithm ran for " + to_string(p_.shape));
    algo_ = found[fastest->index].algo;
    note_ = "algo " + std::to_string(fastest->index + 1) + " of " + std::to_string(found.size()) + " returned, " +
            std::to_string(fastest->timed) + " timed in interleaved rounds" +
            (fastest->by_device_time ? " (device time)" : " (host-launched calls)");
  }

  DeviceContext& ctx_;
  bool autotune_;
  Problem p_;
  std::unique_ptr<LtMatmul> lt_;
  cublasLtMatmulAlgo_t algo_{};
  std::string note_;
};

}  // namespace

std::unique_ptr<GemmImpl> make_cublas(DeviceContext& ctx) { return std::make_unique<CublasGemmEx>(ctx); }
std::unique_ptr<GemmImpl> make_cublaslt(DeviceContext& ctx, bool autotune) {
  return std::make_unique<CublasLt>(ctx, autotune);
}

}  // namespace gemmforge
