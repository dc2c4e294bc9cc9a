#include "eval/lt_matmul.hpp"

#include "eval/cuda_check.hpp"

namespace gemmforge {

LtMatmul::LtMatmul(cublasLtHandle_t lt, const Problem& p) : LtMatmul(lt, p, packed_pitches(p.shape, p.layout)) {}

LtMatmul::LtMatmul(cublasLtHandle_t lt, const Problem& p, const Pitches& pitches) : lt_(lt), p_(p) {
  const auto& s = p.shape;
  const bool tn = p.layout == Layout::tn;
  const bool f32 = p.acc == Accum::f32;
  try {
    GF_CUBLAS(cublasLtMatmulDescCreate(&desc_, f32 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_16F, f32 ? CUDA_R_32F : CUDA_R_16F));
    const cublasOperation_t op_b = tn ? CUBLAS_OP_T : CUBLAS_OP_N, op_n = CUBLAS_OP_N;
    GF_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &op_b, sizeof op_b));
    GF_CUBLAS(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &op_n, sizeof op_n));
    // First operand = B (N×K after op), second = A (K×M column-major), C is N×M column-major.
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&b_, CUDA_R_16F, tn ? s.K : s.N, tn ? s.N : s.K, pitches.b));
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&a_, CUDA_R_16F, s.K, s.M, pitches.a));
    GF_CUBLAS(cublasLtMatrixLayoutCreate(&c_, CUDA_R_16F, s.N, s.M, pitches.c));
  } catch (...) {
    release();
    throw;
  }
}

LtMatmul::~LtMatmul() { release(); }

void LtMatmul::release() {
  if (desc_) cublasLtMatmulDescDestroy(desc_);
  if (a_) cublasLtMatrixLayoutDestroy(a_);
  if (b_) cublasLtMatrixLayoutDestroy(b_);
  if (c_) cublasLtMatrixLayoutDestroy(c_);
  desc_ = nullptr;
  a_ = b_ = c_ = nullptr;
}

std::vector<cublasLtMatmulHeuristicResult_t> LtMatmul::heuristic(int count, size_t workspace_bytes,
                                                                  uint32_t alignment) const {
  cublasLtMatmulPreference_t pref = nullptr;
  GF_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                           &workspace_bytes, sizeof workspace_bytes);
  const uint32_t schemes =
      p_.acc == Accum::f32 ? uint32_t(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) : uint32_t(CUBLASLT_REDUCTION_SCHEME_MASK);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &schemes, sizeof schemes);
  for (auto attr : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    if (st == CUBLAS_STATUS_SUCCESS) st = cublasLtMatmulPreferenceSetAttribute(pref, attr, &alignment, sizeof alignment);
  std::vector<cublasLtMatmulHeuristicResult_t> found(size_t(std::max(count, 1)));
  int n = 0;
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulAlgoGetHeuristic(lt_, desc_, b_, a_, c_, c_, pref, int(found.size()), found.data(), &n);
  cublasLtMatmulPreferenceDestroy(pref);
  GF_CUBLAS(st);
  if (n == 0) throw Error("cuBLASLt returned no algorithm for " + to_string(p_.shape));
  found.resize(size_t(n));
  return found;
}

void LtMatmul::run(const cublasLtMatmulAlgo_t& algo, const Operands& o, void* workspace, size_t workspace_bytes,
                   cudaStream_t stream) const {
  const bool f32 = p_.acc == Accum::f32;
  const void* one = f32 ? static_cast<const void*>(&f32_one_) : static_cast<const void*>(&f16_one_);
  const void* zero = f32 ? static_cast<const void*>(&f32_zero_) : static_cast<const void*>(&f16_zero_);
  GF_CUBLAS(cublasLtMatmul(lt_, desc_, one, o.B, b_, o.A, a_, zero, o.C, c_, o.C, c_, &algo, workspace,
                           workspace_bytes, stream));
}

std::string LtMatmul::describe(const cublasLtMatmulAlgo_t& algo) {
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

}  // namespace gemmforge
