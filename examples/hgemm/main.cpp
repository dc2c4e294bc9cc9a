// C = A·B with gemmforge's runtime library: A and B all ones, so every element of C must be K.
// Exits 0 when it checks out, 1 when it does not, 3 without a GPU.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <gemmforge/gemm.hpp>

int main() {
  const int64_t M = 512, N = 768, K = 1024;
  try {
    gemmforge::Handle handle;  // $GEMMFORGE_TABLE, if set, names the dispatch table
    std::printf("%s\n", handle.table_status().c_str());
    const auto plan = handle.plan(M, N, K, gemmforge::Layout::tn);
    std::printf("%lldx%lldx%lld tn: %s (%s)\n", (long long)M, (long long)N, (long long)K, plan.backend.c_str(),
                plan.detail.c_str());

    const std::vector<__half> ones(size_t(K) * size_t(std::max(M, N)), __float2half(1.f));
    __half *A = nullptr, *B = nullptr, *C = nullptr;
    if (cudaMalloc(&A, M * K * 2) != cudaSuccess || cudaMalloc(&B, N * K * 2) != cudaSuccess ||
        cudaMalloc(&C, M * N * 2) != cudaSuccess) {
      std::fprintf(stderr, "cudaMalloc failed\n");
      return 1;
    }
    cudaMemcpy(A, ones.data(), M * K * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(B, ones.data(), N * K * 2, cudaMemcpyHostToDevice);
    cudaStream_t stream = nullptr;
    cudaStreamCreate(&stream);
    handle.hgemm(M, N, K, A, B, C, gemmforge::Layout::tn, stream);  // B is N×K: C = A·Bᵀ
    std::vector<__half> c(size_t(M * N));
    cudaMemcpyAsync(c.data(), C, M * N * 2, cudaMemcpyDeviceToHost, stream);
    if (cudaStreamSynchronize(stream) != cudaSuccess) {
      std::fprintf(stderr, "the call failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    size_t wrong = 0;
    for (const __half& v : c) wrong += __half2float(v) != float(K);
    std::printf("%zu of %lld elements differ from K = %lld\n", wrong, (long long)(M * N), (long long)K);
    cudaFree(A), cudaFree(B), cudaFree(C), cudaStreamDestroy(stream);
    return wrong == 0 ? 0 : 1;
  } catch (const gemmforge::NoGpuError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 3;
  } catch (const gemmforge::Error& e) {
    std::fprintf(stderr, "gemmforge: %s\n", e.what());
    return 1;
  }
}
