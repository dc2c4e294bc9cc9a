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

size_t round_256(size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

StagedOperands::StagedOperands(const Staging& st, const Shape& s, Layout layout)
    : staging_(st), shape_(s), layout_(layout), buffer_(st.staged_bytes(s, layout)) {
  auto* next = static_cast<char*>(buffer_.get());
  auto take = [&](bool staged, int64_t rows, int64_t pitch) -> __half* {
    if (!staged) return nullptr;
    auto* p = reinterpret_cast<__half*>(next);
    next += round_256(size_t(rows) * size_t(pitch) * 2);
    return p;
  };
  const int64_t b_rows = layout == Layout::tn ? s.N : s.K;
  a_ = take(st.a, s.M, st.pitches.a);
  b_ = take(st.b, b_rows, st.pitches.b);
  c_ = take(st.c, s.M, st.pitches.c);
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
    const bool tn = layout_ == Layout::tn;
    copy_rows(caller.B, packed.b, b_, staging_.pitches.b, tn ? shape_.N : shape_.K, tn ? shape_.K : shape_.N, stream);
  }
}

void StagedOperands::copy_out(__half* caller_c, cudaStream_t stream) const {
  if (c_) copy_rows(c_, staging_.pitches.c, caller_c, shape_.N, shape_.M, shape_.N, stream);
}

}  // namespace gemmforge
