#include "jit/code_fingerprint.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "gemmforge/types.hpp"
#include "jit/hash.hpp"

namespace gemmforge::jit {
namespace {

template <class T>
T read_at(const std::vector<char>& b, uint64_t offset) {
  if (offset > b.size() || sizeof(T) > b.size() - offset) throw Error("cubin: an ELF field lies outside the file");
  T v;
  std::memcpy(&v, b.data() + offset, sizeof(T));
  return v;
}

bool is_debug_section(std::string_view name) {
  for (std::string_view prefix : {".debug", ".rel.debug", ".rela.debug", ".nv_debug"})
    if (name.substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace

std::string code_fingerprint(const std::vector<char>& cubin) {
  if (cubin.size() < 64 || std::memcmp(cubin.data(), "\x7f" "ELF", 4) != 0 || cubin[4] != 2 || cubin[5] != 1)
    throw Error("cubin: not a 64-bit little-endian ELF file");
  // ELF64 header: e_shoff at 0x28, e_shentsize, e_shnum, e_shstrndx at 0x3a.
  const auto shoff = read_at<uint64_t>(cubin, 0x28);
  const auto shentsize = read_at<uint16_t>(cubin, 0x3a), shnum = read_at<uint16_t>(cubin, 0x3c),
             shstrndx = read_at<uint16_t>(cubin, 0x3e);
  if (shentsize < 64 || shstrndx >= shnum) throw Error("cubin: a damaged ELF section table");
  struct Section {
    uint32_t name, type;
    uint64_t flags, offset, size;
  };
  auto section = [&](uint64_t i) {
    const uint64_t at = shoff + i * shentsize;
    return Section{read_at<uint32_t>(cubin, at), read_at<uint32_t>(cubin, at + 4), read_at<uint64_t>(cubin, at + 8),
                   read_at<uint64_t>(cubin, at + 24), read_at<uint64_t>(cubin, at + 32)};
  };
  const Section names = section(shstrndx);
  auto bytes_of = [&](const Section& s) -> std::string_view {
    constexpr uint32_t kNoBits = 8;  // SHT_NOBITS: a size, no bytes in the file
    if (s.type == kNoBits) return {};
    if (s.offset > cubin.size() || s.size > cubin.size() - s.offset) throw Error("cubin: a section lies outside the file");
    return {cubin.data() + s.offset, s.size};
  };
  const std::string_view name_table = bytes_of(names);
  Hasher h;
  for (uint64_t i = 0; i < shnum; ++i) {
    const Section s = section(i);
    if (s.name >= name_table.size() && !(s.name == 0 && name_table.empty()))
      throw Error("cubin: a section name lies outside the name table");
    const std::string_view rest = name_table.substr(std::min<size_t>(s.name, name_table.size()));
    const std::string_view name = rest.substr(0, rest.find('\0'));
    if (is_debug_section(name)) continue;
    h.add(name).add(&s.type, sizeof s.type).add(&s.flags, sizeof s.flags).add(bytes_of(s));
  }
  return h.hex();
}

}  // namespace gemmforge::jit
