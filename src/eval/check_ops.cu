#include "eval/check_ops.hpp"

#include "../../kernels/reference/check_kernels.cuh"

#include <algorithm>

#include "eval/buffers.hpp"
#include "eval/cuda_check.hpp"

namespace gemmforge::check_ops {
namespace {

constexpr int kThreads = 256;
unsigned blocks_for(int64_t n) {
  return unsigned(std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1, 132 * 16));
}

}  // namespace

void fill(__half* dst, int64_t rows, int64_t cols, bool store_transposed, FillPattern p, uint64_t seed,
          bool k_is_col, cudaStream_t s) {
  check::fill_matrix<<<blocks_for(rows * cols), kThreads, 0, s>>>(dst, rows, cols, store_transposed, p,
                                                                 seed, k_is_col);
  GF_CHECK_LAUNCH();
}

void fill_normal_bytes(void* dst, size_t halves, uint64_t seed, cudaStream_t s) {
  fill(static_cast<__half*>(dst), 1, int64_t(halves), false, FillPattern::normal, seed, true, s);
}

void reference_gemm(const __half* A, const __half* B, float* C, int64_t M, int64_t N, int64_t K,
                    cudaStream_t s) {
  const dim3 grid(unsigned((N + check::kRefTile - 1) / check::kRefTile),
                  unsigned((M + check::kRefTile - 1) / check::kRefTile));
  if (grid.y > 65535) throw Error("reference GEMM: M too large for the grid");
  check::reference_gemm_f32<<<grid, check::kRefThreads, 0, s>>>(A, B, C, M, N, K);
  GF_CHECK_LAUNCH();
}

CompareStats compare(const __half* C, const float* ref, float expected, int64_t n, float rel_tol,
                     float abs_tol, bool exact, cudaStream_t s) {
  static thread_local DeviceBuffer stats_buf(sizeof(CompareStats));
  auto* d = static_cast<CompareStats*>(stats_buf.get());
  CompareStats init{};
  init.first_bad = ~0ull;
  GF_CUDA(cudaMemcpyAsync(d, &init, sizeof init, cudaMemcpyHostToDevice, s));
  check::compare_output<<<blocks_for(n), kThreads, 0, s>>>(C, ref, expected, n, rel_tol, abs_tol, exact, d);
  GF_CHECK_LAUNCH();
  CompareStats out{};
  GF_CUDA(cudaMemcpyAsync(&out, d, sizeof out, cudaMemcpyDeviceToHost, s));
  GF_CUDA(cudaStreamSynchronize(s));
  return out;
}

void count_changed_bytes(const void* p, size_t bytes, unsigned char sentinel,
                         unsigned long long* counter, cudaStream_t s) {
  check::count_changed_bytes<<<blocks_for(int64_t(bytes)), kThreads, 0, s>>>(static_cast<const uint8_t*>(p),
                                                                            int64_t(bytes), sentinel, counter);
  GF_CHECK_LAUNCH();
}

}  // namespace gemmforge::check_ops
