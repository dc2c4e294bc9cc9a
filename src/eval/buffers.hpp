// Device memory for one problem shape: the guarded operands the correctness gate checks, and the
// extra operand sets that cold-L2 timing rotates through.
#pragma once
#include <cstddef>
#include <cuda_fp16.h>
#include <vector>

#include "gemmforge/types.hpp"

namespace gemmforge {

// Owning cudaMalloc'd bytes (move-only).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) { o.ptr_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// The three operands of one GEMM call.
struct Operands {
  const __half* A = nullptr;  // M×K row-major
  const __half* B = nullptr;  // K×N (nn) or N×K (tn) row-major
  __half* C = nullptr;        // M×N row-major
};

// An fp16 matrix with a band of sentinel bytes on each side: any byte of a band that changes
// is an out-of-bounds write (design.md section 6.5).
class GuardedMatrix {
 public:
  static constexpr unsigned char kSentinel = 0xA5;
  GuardedMatrix(size_t elements, size_t guard_bytes);
  __half* data() const { return reinterpret_cast<__half*>(static_cast<char*>(mem_.get()) + guard_); }
  size_t elements() const { return elements_; }
  void reset_guards(cudaStream_t) const;
  // Number of changed bytes in both bands; synchronizes the stream.
  unsigned long long changed_guard_bytes(cudaStream_t) const;

 private:
  DeviceBuffer mem_;
  size_t elements_, guard_;
  DeviceBuffer counter_;
};

// Everything one shape needs: guarded A, B, C for the gate (set 0), and for cold L2, more sets
// so that the sets together are at least twice the L2 size.
class ShapeBuffers {
 public:
  ShapeBuffers(const Shape&, bool cold_l2, size_t l2_bytes, cudaStream_t);
  const Shape& shape() const { return shape_; }
  GuardedMatrix& a() { return a_; }
  GuardedMatrix& b() { return b_; }
  GuardedMatrix& c() { return c_; }
  Operands guarded() const { return {a_.data(), b_.data(), c_.data()}; }
  // Random normal A and B for timing. The gate leaves its last probe pattern (mostly zeros)
  // behind, and zeros run faster and cooler than real data (design.md section 6).
  void fill_for_timing(uint64_t seed, cudaStream_t) const;
  size_t set_count() const { return 1 + extra_.size(); }
  Operands set(size_t i) const { return i == 0 ? guarded() : extra_[i - 1]; }

 private:
  Shape shape_;
  GuardedMatrix a_, b_, c_;
  DeviceBuffer slab_;
  std::vector<Operands> extra_;
};

// Writes 2× L2 of bytes so whatever the next call reads comes from device memory.
class L2Flusher {
 public:
  explicit L2Flusher(size_t l2_bytes) : scratch_(2 * l2_bytes) {}
  void flush(cudaStream_t) const;

 private:
  DeviceBuffer scratch_;
};

}  // namespace gemmforge
