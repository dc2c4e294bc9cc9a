// One row-major HGEMM problem described to cuBLASLt once (matmul and matrix-layout descriptors),
// the heuristic's algorithms for it, and the call on any stream and workspace. Shared by the
// cuBLASLt baselines and the runtime library's fallback.
//
// cuBLASLt is column-major: a row-major C[M×N] is a column-major N×M matrix, so we ask for
// Cᵀ = Bᵀ·Aᵀ with B as the first operand. In `tn`, B is stored N×K row-major = K×N column-major,
// and the first operand is transposed ("T"); in `nn` it is not ("N").
#pragma once
#include <string>
#include <vector>

#include <cublasLt.h>

#include "core/staging.hpp"
#include "eval/buffers.hpp"
#include "eval/gemm_impl.hpp"

namespace gemmforge {

class LtMatmul {
 public:
  LtMatmul(cublasLtHandle_t, const Problem&);  // throws Error naming the failed cuBLASLt call
  // Operands whose rows are `pitches` elements apart (core/staging.hpp), not packed.
  LtMatmul(cublasLtHandle_t, const Problem&, const Pitches&);
  ~LtMatmul();
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;

  // Up to `count` algorithms, best first, that need at most `workspace_bytes` and work with
  // operands aligned to `alignment` bytes (cuBLASLt assumes 256 unless told). Under f32, split-K
  // partial sums may be reduced in fp32 workspace only, never in the fp16 output. Throws Error
  // when cuBLASLt returns none.
  std::vector<cublasLtMatmulHeuristicResult_t> heuristic(int count, size_t workspace_bytes,
                                                         uint32_t alignment = 256) const;
  void run(const cublasLtMatmulAlgo_t&, const Operands&, void* workspace, size_t workspace_bytes,
           cudaStream_t) const;
  const Problem& problem() const { return p_; }

  // The algorithm's config as cuBLASLt reports it: id, tile, stages, cluster (enum values of
  // cublasLt.h; scripts/cublaslt_algo.py names them), split-K, CTA swizzle; "?" where unreported.
  static std::string describe(const cublasLtMatmulAlgo_t&);

 private:
  void release();
  cublasLtHandle_t lt_;
  Problem p_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  float f32_one_ = 1.f, f32_zero_ = 0.f;
  unsigned short f16_one_ = 0x3C00, f16_zero_ = 0;  // fp16 bit patterns of 1 and 0
};

}  // namespace gemmforge
