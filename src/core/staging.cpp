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

namespace {
// Rows of each operand as stored: A has M, B has K (nn) or N (tn), C has M.
int64_t b_rows(const Shape& s, Layout layout) { return layout == Layout::tn ? s.N : s.K; }
size_t round_256(size_t bytes) { return (bytes + 255) / 256 * 256; }
}  // namespace

size_t Staging::staged_bytes(const Shape& s, Layout layout) const {
  size_t bytes = 0;
  if (a) bytes += round_256(size_t(s.M) * size_t(pitches.a) * 2);
  if (b) bytes += round_256(size_t(b_rows(s, layout)) * size_t(pitches.b) * 2);
  if (c) bytes += round_256(size_t(s.M) * size_t(pitches.c) * 2);
  return bytes;
}

double Staging::copied_bytes(const Shape& s, Layout layout) const {
  const Pitches packed = packed_pitches(s, layout);
  double bytes = 0;
  if (a) bytes += 2.0 * double(s.M) * double(packed.a) * 2;
  if (b) bytes += 2.0 * double(b_rows(s, layout)) * double(packed.b) * 2;
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
