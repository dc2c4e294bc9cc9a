// The configuration of one sm80-family kernel (kernels/sm80/: mma.sync + cp.async multistage,
// one CTA per tile), its validity rules, the space the tuner searches, and the JIT source of one
// instantiation. This family serves tiny problems and every shape or pointer the Hopper (TMA)
// kernels refuse. Host-only: no GPU needed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/shape_constants.hpp"
#include "gemmforge/types.hpp"

namespace gemmforge {

// Compile-time knobs: each distinct value is a distinct cubin.
struct Sm80Config {
  Layout layout = Layout::tn;  // tn: B is N×K; nn: B is K×N (read with ldmatrix.trans)
  Accum acc = Accum::f32;
  int block_m = 64, block_n = 64, block_k = 32;  // the CTA tile of C and the K depth of one stage
  int warps_m = 2, warps_n = 2;                  // warps tiling the CTA tile
  int stages = 3;                                // shared-memory ring depth
  // 16-byte cp.async loads (needs K % 8 == 0, in nn N % 8 == 0, and 16-byte aligned A and B), or
  // guarded 2-byte loads that take any shape and pointer.
  bool vec16 = true;

  bool operator==(const Sm80Config&) const = default;
  std::string name() const;  // e.g. "sm80_tn_f32_64x64x32_w2x2_s3_v16" ("_v2" without vec16)
  // The inverse of name(); throws Error naming the part it cannot read.
  static Sm80Config from_name(const std::string&);
  nlohmann::json to_json() const;  // with "family": "sm80"
  // Throws Error on bad or missing fields, or a "family" other than sm80.
  static Sm80Config from_json(const nlohmann::json&);

  int threads() const { return warps_m * warps_n * 32; }
  int warp_tile_m() const { return warps_m > 0 ? block_m / warps_m : 0; }
  int warp_tile_n() const { return warps_n > 0 ? block_n / warps_n : 0; }
  int shared_bytes() const;  // dynamic shared memory per CTA: the stage ring
  int accumulator_registers() const;  // per thread
  // A rough count of the registers a thread needs: accumulators, one k-step's fragments, the
  // global addresses of its load chunks (and the scalar path's staged chunks), and a fixed
  // allowance for offsets and indices. The rules keep it under kSm80RegisterBudget; ptxas has
  // the last word (the compile tests check for spills).
  int register_estimate() const;

  // Every reason the config cannot be built or run; empty means valid. Each rule says why.
  std::vector<std::string> validity_problems() const;
  bool valid() const { return validity_problems().empty(); }
};

// 163 KB: the most an A100 CTA can have (an H100/H200 allows 227 KB), so every config runs on both.
inline constexpr int kSm80MaxSharedBytes = 166912;
// Of the 255 registers a thread may have, what the estimate may claim: the rest is slack for
// ptxas's own temporaries. A spill costs more than the occupancy a smaller tile would win.
inline constexpr int kSm80RegisterBudget = 200;

// The values each knob takes in the search space (a few hundred configs per layout and
// accumulator; see sm80_config_space for what it leaves out and why).
struct Sm80SpaceAxes {
  std::vector<int> block_m = {16, 32, 64, 128};
  std::vector<int> block_n = {16, 32, 64, 128};
  std::vector<int> block_k = {32, 64};
  std::vector<std::pair<int, int>> warps = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4}, {4, 1}, {2, 4}, {4, 2}};
  std::vector<int> stages = {2, 3, 4};
  std::vector<bool> vec16 = {true, false};
};

// Every config of the space for one layout and accumulator, valid, in a fixed order.
std::vector<Sm80Config> sm80_config_space(Layout, Accum, const Sm80SpaceAxes& = {});
// A reproducible sample that contains every value of every knob that occurs in `space`.
std::vector<Sm80Config> sm80_covering_sample(const std::vector<Sm80Config>& space, size_t count, uint64_t seed);

// The complete CUDA source of one instantiation for NVRTC: includes the kernel header (found
// through -I<repo>/kernels) and wraps it in extern "C" __global__ `kSm80JitKernelName`; with
// `constants`, specialized for that shape (see jit_source). Throws Error for an invalid config.
inline constexpr const char* kSm80JitKernelName = "gemmforge_hgemm_sm80";
std::string sm80_jit_source(const Sm80Config&, const ShapeConstants& constants = std::nullopt);

// Whether a config file entry is an Sm80Config: "family": "sm80", or a name starting "sm80_"
// (as an object's "name" or as a bare string).
bool is_sm80_config_json(const nlohmann::json&);

}  // namespace gemmforge
