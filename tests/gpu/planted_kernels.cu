#include "planted_kernels.hpp"

#include <chrono>
#include <map>
#include <thread>
#include <tuple>

#include "eval/cuda_check.hpp"

namespace gemmforge::testing {
namespace {

// One thread per output element, K walked in order. Slow and simple on purpose.
template <bool kHalfAccumulator>
__global__ void naive_gemm(const __half* A, const __half* B, __half* C, int64_t M, int64_t N, int64_t K, bool tn,
                           Flaw flaw) {
  const int64_t col = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t row = blockIdx.y * int64_t(blockDim.y) + threadIdx.y;
  if (row >= M || col >= N) return;
  if (flaw == Flaw::skip_last_row && row == M - 1) return;
  float acc = 0.f;
  __half hacc = __float2half(0.f);
  for (int64_t k = 0; k < K; ++k) {
    const __half a = A[row * K + k], b = tn ? B[col * K + k] : B[k * N + col];
    if constexpr (kHalfAccumulator) hacc = __hfma(a, b, hacc);
    else acc = fmaf(__half2float(a), __half2float(b), acc);
  }
  C[row * N + col] = kHalfAccumulator ? hacc : __float2half_rn(acc);
  if (flaw == Flaw::write_past_end && row == 0 && col == 0) C[M * N] = __float2half(0.f);
}

// The kernels of the flaws that take the worker down.
// The null page is never mapped on the device either.
__global__ void write_wild() { reinterpret_cast<__half*>(uintptr_t(16))[threadIdx.x] = __float2half(1.f); }
__global__ void trap_now() { __trap(); }
__global__ void spin_on(const volatile unsigned* flag) {
  while (*flag == 0) {
  }
}

class Planted final : public GemmImpl {
 public:
  Planted(Flaw f, DeviceContext& ctx) : flaw_(f), ctx_(ctx) {}
  ~Planted() override {
    for (auto& [key, buf] : cache_) cudaFree(buf);
    if (flag_) cudaFree(flag_);
  }
  std::string name() const override { return "planted"; }
  void prepare(const Problem& p, const std::vector<Operands>&) override {
    p_ = p;
    if (flaw_ == Flaw::hang && !flag_) {
      GF_CUDA(cudaMalloc(&flag_, sizeof(unsigned)));
      GF_CUDA(cudaMemset(flag_, 0, sizeof(unsigned)));
    }
  }

  void run(const Operands& o) override {
    switch (flaw_) {
      case Flaw::illegal_address: write_wild<<<1, 32, 0, ctx_.stream()>>>(); GF_CHECK_LAUNCH(); return;
      case Flaw::device_trap: trap_now<<<1, 1, 0, ctx_.stream()>>>(); GF_CHECK_LAUNCH(); return;
      case Flaw::hang: spin_on<<<1, 1, 0, ctx_.stream()>>>(flag_); GF_CHECK_LAUNCH(); return;
      case Flaw::host_crash: {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
        return;
      }
      default: break;
    }
    const auto& s = p_.shape;
    const size_t bytes = size_t(s.M * s.N) * sizeof(__half);
    if (flaw_ == Flaw::cache_by_address) {
      const auto key = std::make_tuple(o.A, o.B, o.C);
      if (auto it = cache_.find(key); it != cache_.end()) {
        GF_CUDA(cudaMemcpyAsync(o.C, it->second, bytes, cudaMemcpyDeviceToDevice, ctx_.stream()));
        return;
      }
      launch(o);
      void* copy = nullptr;
      GF_CUDA(cudaMalloc(&copy, bytes));
      GF_CUDA(cudaMemcpyAsync(copy, o.C, bytes, cudaMemcpyDeviceToDevice, ctx_.stream()));
      cache_[key] = copy;
      return;
    }
    launch(o);
    if (flaw_ == Flaw::leave_thread) std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(3)); }).detach();
  }

 private:
  void launch(const Operands& o) {
    const auto& s = p_.shape;
    const dim3 block(16, 16), grid(unsigned((s.N + 15) / 16), unsigned((s.M + 15) / 16));
    const bool tn = p_.layout == Layout::tn;
    if (flaw_ == Flaw::fp16_accumulate)
      naive_gemm<true><<<grid, block, 0, ctx_.stream()>>>(o.A, o.B, o.C, s.M, s.N, s.K, tn, flaw_);
    else
      naive_gemm<false><<<grid, block, 0, ctx_.stream()>>>(o.A, o.B, o.C, s.M, s.N, s.K, tn, flaw_);
    GF_CHECK_LAUNCH();
  }

  Flaw flaw_;
  DeviceContext& ctx_;
  Problem p_;
  std::map<std::tuple<const void*, const void*, const void*>, void*> cache_;
  unsigned* flag_ = nullptr;
};

}  // namespace

std::unique_ptr<GemmImpl> make_planted(Flaw f, DeviceContext& ctx) { return std::make_unique<Planted>(f, ctx); }

}  // namespace gemmforge::testing
