#include "eval/buffers.hpp"

#include <algorithm>

#include "eval/check_ops.hpp"
#include "eval/cuda_check.hpp"

namespace gemmforge {

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  cudaError_t e = cudaMalloc(&ptr_, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw Error("cannot allocate " + std::to_string(bytes >> 20) + " MiB on the GPU: " +
                cudaGetErrorString(e));
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

GuardedMatrix::GuardedMatrix(size_t elements, size_t guard_bytes)
    : mem_(2 * guard_bytes + elements * sizeof(__half)),
      elements_(elements),
      guard_(guard_bytes),
      counter_(sizeof(unsigned long long)) {}

void GuardedMatrix::reset_guards(cudaStream_t s) const {
  char* base = static_cast<char*>(mem_.get());
  GF_CUDA(cudaMemsetAsync(base, kSentinel, guard_, s));
  GF_CUDA(cudaMemsetAsync(base + guard_ + elements_ * sizeof(__half), kSentinel, guard_, s));
}

unsigned long long GuardedMatrix::changed_guard_bytes(cudaStream_t s) const {
  char* base = static_cast<char*>(mem_.get());
  auto* counter = static_cast<unsigned long long*>(counter_.get());
  GF_CUDA(cudaMemsetAsync(counter, 0, sizeof *counter, s));
  check_ops::count_changed_bytes(base, guard_, kSentinel, counter, s);
  check_ops::count_changed_bytes(base + guard_ + elements_ * sizeof(__half), guard_, kSentinel,
                                 counter, s);
  unsigned long long n = 0;
  GF_CUDA(cudaMemcpyAsync(&n, counter, sizeof n, cudaMemcpyDeviceToHost, s));
  GF_CUDA(cudaStreamSynchronize(s));
  return n;
}

namespace {

// A band wider than one output row, so a kernel that writes row M (or row -1) lands in it.
size_t guard_bytes_for(const Shape& s) {
  const size_t row = size_t(std::max({s.M, s.N, s.K})) * sizeof(__half);
  return std::max<size_t>(64 << 10, (2 * row + 255) / 256 * 256);
}

size_t align256(size_t b) { return (b + 255) / 256 * 256; }

}  // namespace

ShapeBuffers::ShapeBuffers(const Shape& s, bool cold_l2, size_t l2_bytes, cudaStream_t stream)
    : shape_(s),
      a_(size_t(s.M * s.K), guard_bytes_for(s)),
      b_(size_t(s.K * s.N), guard_bytes_for(s)),
      c_(size_t(s.M * s.N), guard_bytes_for(s)) {
  const size_t a_bytes = align256(size_t(s.M * s.K) * 2), b_bytes = align256(size_t(s.K * s.N) * 2),
               c_bytes = align256(size_t(s.M * s.N) * 2);
  const size_t set_bytes = a_bytes + b_bytes + c_bytes;
  size_t sets = 1;
  if (cold_l2) sets = std::max<size_t>(1, (2 * l2_bytes + set_bytes - 1) / set_bytes);
  if (sets > 1) {
    slab_ = DeviceBuffer((sets - 1) * set_bytes);
    char* p = static_cast<char*>(slab_.get());
    for (size_t i = 1; i < sets; ++i, p += set_bytes)
      extra_.push_back({reinterpret_cast<__half*>(p), reinterpret_cast<__half*>(p + a_bytes),
                        reinterpret_cast<__half*>(p + a_bytes + b_bytes)});
    // Timing on zeros would flatter every kernel (design.md): fill the extra sets with data.
    check_ops::fill_normal_bytes(slab_.get(), slab_.bytes() / 2, 0xC01DC0FFEEull, stream);
  }
  a_.reset_guards(stream);
  b_.reset_guards(stream);
  c_.reset_guards(stream);
  fill_for_timing(uint64_t(s.M * 7919 + s.N * 104729 + s.K), stream);  // cuBLASLt autotune times on these
}

void ShapeBuffers::fill_for_timing(uint64_t seed, cudaStream_t s) const {
  check_ops::fill_normal_bytes(a_.data(), a_.elements(), seed * 2 + 11, s);
  check_ops::fill_normal_bytes(b_.data(), b_.elements(), seed * 2 + 12, s);
  GF_CUDA(cudaStreamSynchronize(s));
}

void L2Flusher::flush(cudaStream_t s) const {
  GF_CUDA(cudaMemsetAsync(scratch_.get(), 0x3C, scratch_.bytes(), s));
}

}  // namespace gemmforge
