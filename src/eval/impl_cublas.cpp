// Baselines through the vendor libraries (design.md section 7), called the way a careful user
// would: real workspace, both layouts native, no transposing copies.
//
// cuBLAS is column-major: a row-major C[M×N] is a column-major N×M matrix, so we ask for
// Cᵀ = Bᵀ·Aᵀ with B as the first operand. In `tn`, B is stored N×K row-major = K×N column-major,
// and the first operand is transposed ("T"); in `nn` it is not ("N").
#include <chrono>
#include <cuda_fp16.h>

#include "core/stats.hpp"
#include "eval/gemm_impl.hpp"

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

// What cuBLASLt chose, as the numbers its algorithm config holds: algorithm id, tile, stages,
// cluster shape (enum values of cublasLt.h; scripts/cublaslt_algo.py names them), split-K and
// CTA swizzle. An attribute the library does not report is written as "?".
std::string describe_algo(const cublasLtMatmulAlgo_t& algo) {
  auto get = [&](cublasLtMatmulAlgoConfigAttributes_t attr, auto zero) {
    decltype(zero) v = zero;
    size_t written = 0;
    const cublasStatus_t st = cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &v, sizeof v, &written);
    return st == CUBLAS_STATUS_SUCCESS && written == sizeof v ? std::to_string(v) : std::string("?");
  };
  return "id " + get(CUBLASLT_ALGO_CONFIG_ID, int32_t(0)) + " tile " + get(CUBLASLT_ALGO_CONFIG_TILE_ID, uint32_t(0)) +
         " stages " + get(CUBLASLT_ALGO_CONFIG_STAGES_ID, uint32_t(0)) + " cluster " +
         get(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, uint16_t(0)) + " splitk " +
         get(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, int32_t(0)) + " swizzle " +
         get(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, uint32_t(0));
}

// cuBLASLt: `autotune` asks the heuristic for up to 100 algorithms, times each on the real
// operands, and keeps the fastest; otherwise the heuristic's first answer is used as is.
class CublasLt final : public GemmImpl {
 public:
  CublasLt(DeviceContext& ctx, bool autotune) : ctx_(ctx), autotune_(autotune) {}
  ~CublasLt() override { release(); }
  std::string name() const override { return autotune_ ? "cublaslt-autotune" : "cublaslt-heuristic"; }
  std::string note() const override { return note_; }

  void prepare(const Problem& p, const std::vector<Operands>& sets) override {
    release();
    p_ = p;
    const auto& s = p.shape;
    const bool tn = p.layout == Layout::tn;
    const bool f32 = p.acc == Accum::f32;
    GF_CUBLAS(cublasLtMatmulDescCreate(&desc_, f32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_16F,
                                       f32 ? CUDA_R_32F : CUDA_R_16F));
    const cublasOperation_t op_b = tn ? CUBLAS_OP_T : CUBLAS_OP_N, op_n = CUBLAS_OP_N;
    GF_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &op_b, sizeof op_b));
    GF_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &op_n, sizeof op_n));
    // First operand = B (N×K after op), second = A (K×M column-major), C is N×M column-major.
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&b_layout_, CUDA_R_16F, tn ? s.K : s.N, tn ? s.N : s.K, tn ? s.K : s.N));
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&a_layout_, CUDA_R_16F, s.K, s.M, s.K));
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&c_layout_, CUDA_R_16F, s.N, s.M, s.N));
    cublasLtMatmulPreference_t pref = nullptr;
    GF_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    const size_t ws = ctx_.workspace_bytes();
    cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    // Under f32, split-K partial sums may be reduced in fp32 workspace only, never in the fp16
    // output (the same rule cuBLAS gets through DISALLOW_REDUCED_PRECISION_REDUCTION).
    const uint32_t schemes = f32 ? uint32_t(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) : uint32_t(CUBLASLT_REDUCTION_SCHEME_MASK);
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &schemes, sizeof schemes);
    std::vector<cublasLtMatmulHeuristicResult_t> found(autotune_ ? 100 : 1);
    int n = 0;
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmulAlgoGetHeuristic(ctx_.cublaslt(), desc_, b_layout_, a_layout_, c_layout_, c_layout_,
                                          pref, int(found.size()), found.data(), &n);
    cublasLtMatmulPreferenceDestroy(pref);
    GF_CUBLAS(st);
    if (n == 0) throw Error("cuBLASLt returned no algorithm for " + to_string(s));
    found.resize(size_t(n));
    algo_ = found[0].algo;
    note_ = "heuristic algo 1 of " + std::to_string(n);
    if (autotune_ && n > 1) pick_fastest(found, sets);
    note_ += "; " + describe_algo(algo_);
  }

  void run(const Operands& o) override { launch(algo_, o); }

 private:
  void launch(const cublasLtMatmulAlgo_t& algo, const Operands& o) {
    GF_CUBLAS(cublasLtMatmul(ctx_.cublaslt(), desc_, scalars_.one(p_.acc), o.B, b_layout_, o.A, a_layout_,
                             scalars_.zero(p_.acc), o.C, c_layout_, o.C, c_layout_, &algo, ctx_.workspace(),
                             ctx_.workspace_bytes(), ctx_.stream()));
  }

  // Each algorithm gets two warm-up calls and one timed call (an algorithm that fails to launch
  // is dropped, never chosen). Then seven rounds visit the survivors in rotating order, each
  // timing a batch of about 200 µs, so drift and warm-up hit every algorithm alike; the lowest
  // median per call wins.
  void pick_fastest(const std::vector<cublasLtMatmulHeuristicResult_t>& found, const std::vector<Operands>& sets) {
    cudaEvent_t e0, e1;
    GF_CUDA(cudaEventCreate(&e0));
    GF_CUDA(cudaEventCreate(&e1));
    size_t next = 0;
    auto time_batch = [&](size_t i, int batch) {
      GF_CUDA(cudaEventRecord(e0, ctx_.stream()));
      for (int b = 0; b < batch; ++b) launch(found[i].algo, sets[next++ % sets.size()]);
      GF_CUDA(cudaEventRecord(e1, ctx_.stream()));
      GF_CUDA(cudaEventSynchronize(e1));
      float ms = 0;
      GF_CUDA(cudaEventElapsedTime(&ms, e0, e1));
      return double(ms) * 1e3 / batch;
    };
    struct Survivor {
      size_t index;
      int batch;
      std::vector<double> samples;
    };
    std::vector<Survivor> alive;
    for (size_t i = 0; i < found.size(); ++i) {
      try {
        for (int w = 0; w < 2; ++w) launch(found[i].algo, sets[next++ % sets.size()]);
        const double us = time_batch(i, 1);
        alive.push_back({i, int(std::clamp(200.0 / std::max(us, 0.5), 1.0, 256.0)), {}});
      } catch (const Error&) {
        cudaGetLastError();  // a launch failure of this algorithm only; try the next one
      }
    }
    constexpr int kRounds = 7;
    for (int r = 0; r < kRounds; ++r)
      for (size_t k = 0; k < alive.size(); ++k) {
        Survivor& a = alive[(k + size_t(r)) % alive.size()];
        a.samples.push_back(time_batch(a.index, a.batch));
      }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    GF_CUDA(cudaStreamSynchronize(ctx_.stream()));
    if (alive.empty()) throw Error("cuBLASLt autotune: no algorithm ran for " + to_string(p_.shape));
    const Survivor* best = &alive[0];
    double best_us = summarize(best->samples).median;
    for (const auto& a : alive)
      if (double m = summarize(a.samples).median; m < best_us) {
        best_us = m;
        best = &a;
      }
    algo_ = found[best->index].algo;
    note_ = "algo " + std::to_string(best->index + 1) + " of " + std::to_string(found.size()) + " returned, " +
            std::to_string(alive.size()) + " timed in " + std::to_string(kRounds) + " interleaved rounds";
  }

  void release() {
    if (desc_) cublasLtMatmulDescDestroy(desc_);
    if (a_layout_) cublasLtMatrixLayoutDestroy(a_layout_);
    if (b_layout_) cublasLtMatrixLayoutDestroy(b_layout_);
    if (c_layout_) cublasLtMatrixLayoutDestroy(c_layout_);
    desc_ = nullptr;
    a_layout_ = b_layout_ = c_layout_ = nullptr;
  }

  DeviceContext& ctx_;
  bool autotune_;
  Problem p_;
  Scalars scalars_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_layout_ = nullptr, b_layout_ = nullptr, c_layout_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  std::string note_;
};

}  // namespace

std::unique_ptr<GemmImpl> make_cublas(DeviceContext& ctx) { return std::make_unique<CublasGemmEx>(ctx); }
std::unique_ptr<GemmImpl> make_cublaslt(DeviceContext& ctx, bool autotune) {
  return std::make_unique<CublasLt>(ctx, autotune);
}

}  // namespace gemmforge
