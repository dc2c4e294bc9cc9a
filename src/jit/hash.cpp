#include "jit/hash.hpp"

namespace gemmforge::jit {

namespace {

// MurmurHash3's 64-bit finalizer: every input bit flips each output bit with probability ~1/2.
uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

}  // namespace

void Hasher::mix(const unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    // Lane a: plain FNV-1a 64 (sparse prime). Lane b: a dense odd multiplier and a rotation, so
    // the two lanes do not share FNV's structure and a collision in one is not one in the other.
    a_ = (a_ ^ p[i]) * 0x100000001b3ull;
    b_ = (b_ ^ p[i]) * 0x9e3779b97f4a7c15ull;
    b_ = (b_ << 29) | (b_ >> 35);
  }
}

Hasher& Hasher::add(std::string_view bytes) {
  unsigned char len[8];
  uint64_t n = bytes.size();
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));
  mix(len, sizeof len);
  mix(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return *this;
}

std::string Hasher::hex() const {
  static const char digits[] = "0123456789abcdef";
  const uint64_t lanes[2] = {fmix64(a_), fmix64(b_)};
  std::string out;
  out.reserve(32);
  for (uint64_t v : lanes)
    for (int shift = 60; shift >= 0; shift -= 4) out += digits[(v >> shift) & 0xf];
  return out;
}

std::string hash128_hex(std::string_view bytes) { return Hasher().add(bytes).hex(); }

}  // namespace gemmforge::jit
