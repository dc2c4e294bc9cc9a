// A 128-bit content hash for cache keys: two 64-bit lanes of different structure, each finished
// with a full-avalanche mix. Not cryptographic: it names kernels whose inputs nobody crafts to
// collide, and 128 bits keep accidental collisions out of reach.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gemmforge::jit {

class Hasher {
 public:
  // Each piece is length-prefixed, so add("ab").add("c") and add("a").add("bc") differ.
  Hasher& add(std::string_view bytes);
  Hasher& add(const void* data, size_t size) { return add(std::string_view(static_cast<const char*>(data), size)); }
  std::string hex() const;  // 32 lowercase hex digits

 private:
  void mix(const unsigned char* p, size_t n);
  uint64_t a_ = 0xcbf29ce484222325ull;  // FNV-1a 64 offset basis
  uint64_t b_ = 0x6a09e667f3bcc909ull;  // an unrelated start (sqrt(2) fraction bits)
};

std::string hash128_hex(std::string_view bytes);

}  // namespace gemmforge::jit
