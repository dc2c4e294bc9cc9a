// What a cubin executes, apart from where its lines came from: a hash of every ELF section but
// the debug ones. Two builds of one kernel from headers that differ only in lines it never
// compiles (or in comments, or line numbers) have the same fingerprint, while their cubins
// differ in .debug_line (-lineinfo); a measurement of one is a measurement of the other.
#pragma once
#include <string>
#include <vector>

namespace gemmforge::jit {

// 32 hex digits over the name, type, flags and bytes of each section whose name does not start
// with .debug, .rel.debug, .rela.debug or .nv_debug, in file order. Throws Error when the bytes
// are not a 64-bit little-endian ELF file whose section table lies inside them.
std::string code_fingerprint(const std::vector<char>& cubin);

}  // namespace gemmforge::jit
