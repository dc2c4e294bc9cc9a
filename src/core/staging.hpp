// Staged operands: how a call whose row strides TMA (and cuBLASLt's fast kernels) cannot take is
// served at full speed. TMA needs every row stride to be a multiple of 16 bytes (8 fp16); with K
// or N not a multiple of 8, cuBLASLt falls back to kernels 4-5x slower per FLOP (H100, session 33:
// 4095^3 895 us against 4096^3's 205). A staged call copies each such operand once into a buffer
// whose rows are padded to a multiple of 8 elements (A and B in, C out), and runs the aligned call
// on the padded rows: the problem's dimensions stay what they are, only the pitches change.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "gemmforge/types.hpp"

namespace gemmforge {

// Row strides, in elements, of A (M×K), B (K×N in nn, N×K in tn) and C (M×N), all row-major.
struct Pitches {
  int64_t a = 0, b = 0, c = 0;
  bool operator==(const Pitches&) const = default;
};

// The pitches of packed operands (what hgemm's callers pass): K, N or K, and N.
Pitches packed_pitches(const Shape&, Layout);

// Rows of B as stored: K×N in nn, N×K in tn.
constexpr int64_t rows_of_b(const Shape& s, Layout layout) { return layout == Layout::tn ? s.N : s.K; }

// Where the staged copies A', B' and C' sit in one buffer (each at a 256-byte boundary; -1: not
// staged), and the buffer's size.
struct StagedLayout {
  int64_t a = -1, b = -1, c = -1;
  size_t bytes = 0;
};

// Which operands a call copies, and the pitches the aligned call then sees.
struct Staging {
  bool a = false, b = false, c = false;  // A and B copied in, C copied out
  Pitches pitches;                       // packed pitches where nothing is copied
  bool any() const { return a || b || c; }
  StagedLayout layout_of(const Shape&, Layout) const;
  // Bytes of the staged buffers (A', B', C'), each rounded up to 256 bytes.
  size_t staged_bytes(const Shape& s, Layout l) const { return layout_of(s, l).bytes; }
  // Bytes a call moves to stage its operands: each copied operand read once and written once.
  double copied_bytes(const Shape&, Layout) const;
  // "A, B in and C out at 16-byte row strides", or "none".
  std::string describe() const;
};

// Rounds n up to a multiple of 8 elements (16 bytes of fp16).
constexpr int64_t pitch_aligned(int64_t n) { return (n + 7) / 8 * 8; }

// The aligned neighbour whose table decision a staged call takes: M × N8 × K8.
constexpr Shape aligned_neighbour(const Shape& s) { return {s.M, pitch_aligned(s.N), pitch_aligned(s.K)}; }

// What a call of this shape and layout must stage: A when K is not a multiple of 8; B when its row
// (K in tn, N in nn) is not; C when N is not.
Staging staging_for(const Shape&, Layout);

// Measured on the H100 (session 33, bench/results/2026-12-06-session33): cuBLASLt's kernel for
// unaligned rows (algorithm 24) ran 4095³-8191³ at 137-161 TFLOP/s, and cudaMemcpy2DAsync copied
// odd-pitched rows at ~2 TB/s (read + write counted) with ~2 µs per copy. Small calls
// (under 0.5 GFLOP) are served by cuBLASLt as they are: there the copies' fixed cost decides.
inline constexpr double kUnalignedCublasLtFlopsPerUs = 150e6;
inline constexpr double kStagingCopyBytesPerUs = 2e6;
inline constexpr double kStagingMinFlops = 0.5e9;
// Whether a call is worth staging: large enough, and its copies estimated at no more than half
// of what cuBLASLt's unaligned kernel would take for the whole call. (Not staged: a decode-sized
// LM head, 1×50257×768, and nn heads with few rows, whose copy of B costs more than it saves.)
bool worth_staging(const Shape&, Layout);

}  // namespace gemmforge
