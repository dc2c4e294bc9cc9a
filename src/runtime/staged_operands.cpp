#include "runtime/staged_operands.hpp"

#include "eval/cuda_check.hpp"

namespace gemmforge {

namespace {

// A rows × cols fp16 matrix from one row pitch to another (elements).
void copy_rows(const __half* src, int64_t src_pitch, __half* dst, int64_t dst_pitch, int64_t rows, int64_t cols,
               cudaStream_t stream) {
  GF_CUDA(cudaMemcpy2DAsync(dst, size_t(dst_pitch) * 2, src, size_t(src_pitch) * 2, size_t(cols) * 2, size_t(rows),
                            cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

StagedOperands::StagedOperands(const Staging& st, const Shape& s, Layout layout, void* buffer)
    : staging_(st), shape_(s), layout_(layout) {
  const StagedLayout at = st.layout_of(s, layout);
  auto* base = static_cast<char*>(buffer);
  auto place = [&](int64_t offset) { return offset < 0 ? nullptr : reinterpret_cast<__half*>(base + offset); };
  a_ = place(at.a);
  b_ = place(at.b);
  c_ = place(at.c);
}

Operands StagedOperands::operands_for(const Operands& caller) const {
  Operands inner = caller;
  if (a_) inner.A = a_;
  if (b_) inner.B = b_;
  if (c_) inner.C = c_;
  return inner;
}

void StagedOperands::copy_in(const Operands& caller, cudaStream_t stream) const {
  const Pitches packed = packed_pitches(shape_, layout_);
  if (a_) copy_rows(caller.A, packed.a, a_, staging_.pitches.a, shape_.M, shape_.K, stream);
  if (b_) {
    const int64_t rows = rows_of_b(shape_, layout_);
    copy_rows(caller.B, packed.b, b_, staging_.pitches.b, rows, packed.b, stream);
  }
}

void StagedOperands::copy_out(__half* caller_c, cudaStream_t stream) const {
  if (c_) copy_rows(c_, staging_.pitches.c, caller_c, shape_.N, shape_.M, shape_.N, stream);
}

}  // namespace gemmforge
