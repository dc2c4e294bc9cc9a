#include "core/staging.hpp"

namespace gemmforge {

Pitches packed_pitches(const Shape& s, Layout layout) { return {s.K, layout == Layout::tn ? s.K : s.N, s.N}; }

Staging staging_for(const Shape& s, Layout layout) {
  Staging st;
  st.pitches = packed_pitches(s, layout);
  auto stage = [](int64_t& pitch) {
    if (pitch % 8 == 0) return false;
    pitch = pitch_aligned(pitch);
    return true;
  };
  st.a = stage(st.pitches.a);
  st.b = stage(st.pitches.b);
  st.c = stage(st.pitches.c);
  return st;
}

bool worth_staging(const Shape& s, Layout layout) {
  const Staging st = staging_for(s, layout);
  if (!st.any() || s.flops() < kStagingMinFlops) return false;
  const double unaligned_us = s.flops() / kUnalignedCublasLtFlopsPerUs;
  return st.copied_bytes(s, layout) / kStagingCopyBytesPerUs <= 0.5 * unaligned_us;
}

StagedLayout Staging::layout_of(const Shape& s, Layout layout) const {
  StagedLayout out;
  auto take = [&](bool staged, int64_t rows, int64_t pitch, int64_t& offset) {
    if (!staged) return;
    offset = int64_t(out.bytes);
    out.bytes += (size_t(rows) * size_t(pitch) * 2 + 255) / 256 * 256;
  };
  take(a, s.M, pitches.a, out.a);
  take(b, rows_of_b(s, layout), pitches.b, out.b);
  take(c, s.M, pitches.c, out.c);
  return out;
}

double Staging::copied_bytes(const Shape& s, Layout layout) const {
  const Pitches packed = packed_pitches(s, layout);
  double bytes = 0;
  if (a) bytes += 2.0 * double(s.M) * double(packed.a) * 2;
  if (b) bytes += 2.0 * double(rows_of_b(s, layout)) * double(packed.b) * 2;
  if (c) bytes += 2.0 * double(s.M) * double(packed.c) * 2;
  return bytes;
}

std::string Staging::describe() const {
  if (!any()) return "none";
  const char* in = a && b ? "A and B copied in" : a ? "A copied in" : b ? "B copied in" : nullptr;
  std::string s = in ? in : "";
  if (c) s += in ? ", C copied out" : "C copied out";
  return s + " at 16-byte row strides";
}

}  // namespace gemmforge
