// The configuration of one gemmforge Hopper kernel (kernels/sm90/), its validity rules, the
// space the tuner searches, and the JIT source of one instantiation. Host-only: no GPU needed.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/residency.hpp"
#include "core/shape_constants.hpp"
#include "gemmforge/types.hpp"

namespace gemmforge {

// How two consumer warpgroups share the work: cooperative, they split each tile's rows; ping-pong,
// they take alternate tiles; ksplit, they take alternate k-blocks of every tile (each its own
// stages: an even ring) and the second hands its partial sums to the first through shared memory,
// so a 64-row tile gets two warpgroups' wgmma issue (cuBLAS's skinny kernels run 384 threads on
// 64x32 tiles; one warpgroup spends ~230 clocks a k-block on a 64x32 tile: bench/NOTES.md,
// session 36).
enum class ConsumerMode { cooperative, pingpong, ksplit };

// Compile-time knobs: each distinct value is a distinct cubin.
struct KernelConfig {
  Layout layout = Layout::tn;  // tn: B is N×K (K-major, wgmma's native B); nn: B is K×N (MN-major)
  Accum acc = Accum::f32;
  int block_m = 128;           // rows of C per CTA tile
  int block_n = 128;           // columns of C per CTA tile: wgmma N, 8..256
  int block_k = 64;            // K per stage: one 128-byte swizzle row of fp16 (fixed)
  int stages = 4;              // shared-memory pipeline depth
  int consumers = 2;           // consumer warpgroups (plus one TMA producer warpgroup)
  ConsumerMode mode = ConsumerMode::cooperative;
  int cluster_m = 1, cluster_n = 1;  // CTAs per cluster along M and N (sides 1, 2, 4, 8; at most 8 CTAs)
  bool multicast = false;      // TMA multicast inside the cluster: A along its rows, B along its columns
  bool tma_store = false;      // epilogue through shared memory and a TMA store
  // Swap-AB: compute Cᵀ = B·Aᵀ (layout tn: both operands K-major), so C's N runs along the tile's
  // rows and a small M along wgmma's N, stored to C transposed. The kernel's M and N are N and M.
  bool swap_ab = false;
  // Split launches only: a tile's parts run on CTAs `tiles` apart instead of side by side, so the
  // CTAs that start together share a K range and read the A and B boxes they have in common at the
  // same time (L2 then serves each SM about twice what it serves for lines no one else reads:
  // bench/NOTES.md, session 23). The kernel keeps a tile's parts together where it cannot (sums
  // inside a cluster, or more units than CTAs). Not in the default space: the tuner measures it
  // as a twin of split finalists (tune --parts-apart).
  bool parts_apart = false;
  // Launches whose parts are summed inside a cluster only: each CTA pushes its partial sums into
  // the shared memory of the CTAs that sum them (st.async, counted on the owner's mbarrier)
  // instead of every CTA pulling them through the cluster window between two cluster barriers.
  // One consumer warpgroup; the buffer (cluster_push_bytes) is shared memory beside the ring. Not
  // in the default space: the tuner measures it as a twin of in-cluster finalists (tune --cluster-push).
  bool cluster_push = false;
  // Multicast clusters only: the CTAs meet at a relaxed cluster barrier after setting up their
  // rings and at none at the end (each producer waits until its partners freed every stage it
  // filled; kernels/sm90/optional_knobs.cuh). Full barriers cost a 1x2 kernel ~0.3-0.5 µs a call,
  // 2% of a skinny call (bench/NOTES.md, session 39). The default space builds every multicast
  // config so; configs without it are the code the shipped tables were measured with.
  bool lean_cluster_sync = false;
  // The tile walk between units divides by multiply and shift instead of integer division (~0.3
  // µs a unit on a cooperative tile; +1.1% on cooperative 128x256, +1.8% at K = 1024, level
  // elsewhere: bench/NOTES.md, session 31). The default space builds every config so (its builds
  // pass the GPU tests, session 41); configs without it, which most shipped table entries name,
  // build the code they were measured with.
  bool fast_walk = false;
  // The warpgroup index broadcast from lane 0, so the compiler keeps what depends on it (stage
  // positions, wgmma descriptors) in uniform registers instead of moving four values into them
  // before every wgmma (kernels/sm90/optional_knobs.cuh; bench/NOTES.md, session 43): 1.7-1.9%
  // faster on 128x256 cooperative and 128x176 ping-pong tiles. Not in the default space: 12 of the
  // covering sample's 100 configs (ping-pong and f16 tiles most) spill registers with it. The
  // tuner measures it as a twin of two-consumer finalists (tune --uniform-warpgroup-twins).
  bool uniform_warpgroup = false;
  // Clusters take their next tile from a counter in the workspace when they are ready for one
  // (kernels/sm90/unit_feed.cuh), as cuBLAS's kernels do, instead of a fixed share of the walk:
  // the tiles that start together are then neighbours in the walk and read the boxes they share
  // at the same time, which L2 serves once (bench/NOTES.md, session 46). Unsplit persistent
  // launches only (others walk statically); 104 bytes of shared memory. Not in the default space.
  bool dynamic_walk = false;
  // Raster groups of cluster-tile columns, n fastest inside a group and odd groups walking m from
  // the last row up (kernels/sm90/walk_along_n.cuh): the order cuBLAS's Hopper kernels visit
  // their tiles in (bench/NOTES.md, session 46), where the default walk groups rows with m
  // fastest. M and N are the kernel's: with swap_ab its columns are the caller's rows.
  // LaunchKnobs::group_m then counts columns. Not in the default space: the tuner measures it as
  // a twin of finalists (tune --walk-n-twins).
  bool walk_n = false;

  bool operator==(const KernelConfig&) const = default;
  std::string name() const;    // e.g. "sm90_tn_f32_128x128x64_s4_c2_coop_1x1[_mc][_tmastore][_swap][_fw][_uw][_dw][_wn][_pa][_push][_lean]" (mode coop, pingpong or ksplit)
  nlohmann::json to_json() const;
  static KernelConfig from_json(const nlohmann::json&);  // throws Error on bad or missing fields
  // The inverse of name(); throws Error naming the part it cannot read.
  static KernelConfig from_name(const std::string&);

  // Derived quantities the rules and the launcher use.
  int threads() const { return (consumers + 1) * 128; }
  int shared_bytes() const;        // dynamic shared memory per CTA
  int shared_bytes_beside_epilogue() const;  // the stage ring, its barriers and the alignment slack
  int stage_ring_bytes() const;    // the A and B tiles of every pipeline stage
  int wg_rows() const;             // rows of C per consumer warpgroup and tile
  int tile_parts() const;          // warpgroups that each hold a part of a tile's sums: cooperative consumers, else 1
  int epilogue_warpgroups() const; // warpgroups that store C: all but ksplit's second
  int exchange_bytes() const;      // ksplit: the second consumer's partial sums, handed over in shared memory
  int epilogue_block_cols() const; // TMA-store column block: the widest of 64/32/16 dividing block_n
  int epilogue_buffers() const;    // TMA-store staging buffers per consumer: a tile's blocks if more than 2 and they fit, else 2 (0: no TMA store)
  int epilogue_store_rows() const; // rows of C one TMA store writes: 16 where each warp stores its slices (kEpiPerWarp), else wg_rows()
  int accumulator_registers() const;  // per consumer thread
};

inline constexpr int kMaxSplits = 32;
// Most CTAs in a cluster of the kernel's own (multicast) clusters: the portable size.
inline constexpr int kMaxClusterCtas = 8;
// Most split-K parts summed inside one cluster (its largest size, 16 being non-portable).
inline constexpr int kMaxClusterSplits = 16;
// The dynamic walk's workspace: its tile counter, padded to the 256 bytes split-K's counters take.
inline constexpr size_t kDynamicWalkWorkspaceBytes = 256;

// Run-time knobs: the same cubin serves every value.
struct LaunchKnobs {
  bool persistent = true;  // grid = min(tiles, SMs) CTAs walking tiles; else one CTA per tile
  // Tile-rows per raster group (columns in builds that walk along N, KernelConfig::walk_n). 0 =
  // auto: the rows (columns) that make one wave of resident CTAs cover a square of C, so each wave
  // reads the least of A and B from DRAM (auto_group).
  int group_m = 0;
  // Split-K: each output tile's K range is cut into `splits` parts computed by different CTAs;
  // the last part to finish adds the others' partial sums (from a workspace, in split order, so
  // the result is deterministic) and writes C. 1 = no split. Needs a workspace (splitk_workspace_bytes).
  int splits = 1;
  // Stream-K (kernels/sm90/work_division.cuh): the tiles of whole waves go one per CTA; the K
  // iterations of the tiles left over are dealt evenly to every CTA, and shared tiles are reduced
  // like split-K (deterministically). Excludes splits > 1; needs 1x1 clusters and a persistent grid.
  bool stream_k = false;
  // Programmatic dependent launch: the kernel may start while the previous kernel of the stream
  // finishes (its set-up overlaps that kernel's tail); it waits for it before touching memory.
  bool pdl = false;
  // How a tile shared by several CTAs (split-K, stream-K) is summed: sliced (each CTA sums and
  // stores a slice of it, waiting for the others: persistent grids only) or by the CTA that
  // finishes last (no waiting; one SM reads every partial tile). Both add in a fixed order.
  bool sliced_reduction = true;
  // Split-K reduced inside a cluster: the `splits` parts of a tile run as the CTAs of one cluster
  // (cluster size = parts, at most kMaxClusterSplits) and sum each other's partial sums through
  // distributed shared memory, in rank order (deterministic), with no workspace and no trips
  // through global memory. One unit per CTA, so the grid is not persistent; 1x1 configs only.
  bool cluster_reduction = false;

  bool operator==(const LaunchKnobs&) const = default;
  // "" for the defaults, else e.g. "_g8_k4" or "_sk": appended to a config name to name a candidate.
  std::string suffix() const;
  nlohmann::json to_json() const;
  static LaunchKnobs from_json(const nlohmann::json&);  // missing fields keep their defaults
  // The inverse of suffix(); throws Error naming the part it cannot read.
  static LaunchKnobs from_suffix(const std::string&);
};

// A Hopper candidate's name (config name + launch-knob suffix, as KernelCandidate names it) read
// back into its two halves; throws Error on anything else.
std::pair<KernelConfig, LaunchKnobs> parse_hopper_candidate_name(const std::string&);

// Split-K as the kernel runs it: `splits` clamped to the K blocks, so no part is empty.
int effective_splits(const KernelConfig&, int64_t K, int splits);
// Whether a launch of `c` with `knobs`, its K cut in `splits` parts (effective_splits), takes its
// tiles with the dynamic walk (KernelConfig::dynamic_walk): unsplit persistent launches of builds
// with it. The others walk statically (kernels/sm90/unit_feed.cuh).
bool walks_dynamically(const KernelConfig& c, const LaunchKnobs& knobs, int splits);
// Device workspace a split-K launch needs (kernels/sm90/split_k.cuh: counters, then a slot of
// partial sums per CTA tile, consumer part and split); 0 when it does not split. It must be zeroed
// once before its first use; each launch leaves it zeroed again.
size_t splitk_workspace_bytes(const KernelConfig&, int64_t M, int64_t N, int64_t K, int splits);
// The same for stream-K on a grid of `ctas` CTAs; 0 when the tiles come in whole waves.
size_t streamk_workspace_bytes(const KernelConfig&, int64_t M, int64_t N, int64_t K, int ctas);
// Why these launch knobs cannot run this config; empty when they can.
std::string launch_problem(const KernelConfig&, const LaunchKnobs&);
// Shared memory a split-K reduction inside a cluster needs in each CTA: one f32 (or f16) slot of
// partial sums per consumer part, written over the stage ring (which must be at least this big).
int cluster_reduction_bytes(const KernelConfig&);
// Shared memory a cluster_push config adds beside everything else: where its parts' sums arrive.
int cluster_push_bytes(const KernelConfig&);
// A cluster-reduced variant of split-K knobs: the same parts (at most kMaxClusterSplits), each CTA
// one unit. Check the result with launch_problem: not every config can take it.
LaunchKnobs cluster_reduced(LaunchKnobs split);

// The split-K parts that fill the GPU when the output tiles alone do not: the most whose units
// (cluster tiles × parts) still fit the resident clusters of the config's size in one wave (at
// most kMaxSplits), each part at least kMinSplitKBlocks of K so its prologue and epilogue stay a
// small share; 1 when the tiles fill more than half the GPU (two parts would start a second
// wave). Counted in clusters, a sliced sum's parts all fit at once where the residency was
// measured (Residency::clusters).
inline constexpr int kMinSplitKBlocks = 4;
// Swap-AB serves a small M (it lands on the tile's block_n): wider tiles are the unswapped kernel.
inline constexpr int kMaxSwapBlockN = 128;
int auto_splits(const KernelConfig&, int64_t M, int64_t N, int64_t K, const Residency&);
// The cluster tiles C (M×N, the caller's) takes in this config, swapped when it computes Cᵀ:
// whole clusters of tiles, as the kernel pads the edges.
int64_t cluster_tiles(const KernelConfig&, int64_t M, int64_t N);
// How knobs tuned on one shape launch the config on another (a class rule serving an unseen
// shape, a class winner tried on a new one): the same knobs, with a split-K count recomputed
// for this shape (at most kMaxClusterSplits when reduced in a cluster). The runtime serves rules so, and the tuner measures their evidence so.
LaunchKnobs knobs_for_shape(const KernelConfig&, LaunchKnobs tuned, int64_t M, int64_t N, int64_t K, const Residency&);
// The config such knobs launch: the same, without the knobs built for one kind of launch only
// (parts apart: a split summed through global memory; cluster_push: a sum inside a cluster) when
// the recomputed knobs are another kind (one part, or tiles that fill the GPU). Else the rule's
// kernel would be refused on such a shape and the library would serve cuBLASLt there.
KernelConfig config_for_launch(KernelConfig, const LaunchKnobs&);

// The raster group (in cluster-tile rows) for which `resident` clusters cover about as many rows
// of C as columns: sqrt(resident · tile width / tile height), within 1..tile rows.
int auto_group_m(const KernelConfig&, int resident_clusters, int64_t M);
// The launch's automatic raster group: auto_group_m, or for a build that walks along N the
// columns for which the resident clusters cover a square, sqrt(resident · tile height / tile
// width), within 1..tile columns. M and N as the kernel sees them (swapped by swap-AB).
int auto_group(const KernelConfig&, int resident_clusters, int64_t M, int64_t N);
// A launch's raster group: `group` (LaunchKnobs::group_m), or auto_group where that is 0. A group
// wider than the grid walks as one as wide as it, so it is clamped to the grid's tile rows
// (columns in the walk along N), which keeps the kernel's group · tiles within an int.
int launch_group(const KernelConfig&, int group, int resident_clusters, int64_t M, int64_t N);

inline constexpr int kMaxSharedBytesPerCta = 232448;  // 227 KB on sm_90
// Accumulator registers a consumer thread may hold, of the 232-240 it gets. f16 accumulators need
// more headroom: NVRTC 13.0 spilled 32 bytes at 192 of them (192x256 tiles, one consumer).
inline constexpr int kConsumerAccumulatorBudgetF32 = 192;
inline constexpr int kConsumerAccumulatorBudgetF16 = 160;
// The TMA-store epilogue's staging needs registers beside the accumulators: compiling the whole
// space (NVRTC 13.0) spilled every f32 config with 192 accumulators and f16 ones with 144-160.
inline constexpr int kTmaStoreAccumulatorBudgetF32 = 176;
inline constexpr int kTmaStoreAccumulatorBudgetF16 = 128;

// Every reason the config cannot be built or run; empty means valid. Each rule says why.
std::vector<std::string> validity_problems(const KernelConfig&);
inline bool is_valid(const KernelConfig& c) { return validity_problems(c).empty(); }

// The values each knob takes in the search space.
struct ConfigSpaceAxes {
  std::vector<int> block_m = {64, 128, 192, 256};
  std::vector<int> block_n = {16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256};
  std::vector<int> stages = {2, 3, 4, 5, 6, 7, 8};
  std::vector<int> consumers = {1, 2};
  std::vector<ConsumerMode> modes = {ConsumerMode::cooperative, ConsumerMode::pingpong};
  std::vector<std::pair<int, int>> clusters = {{1, 1}, {2, 1}, {1, 2}};
  std::vector<bool> multicast = {false, true};
  std::vector<bool> tma_store = {false, true};
  std::vector<bool> swap_ab = {false, true};
};

// The config with the optional knobs the default space sets on what it builds: the fast walk, and
// lean cluster sync on multicast ones. A config without them (the shipped tables' and the tune databases' older
// candidates) builds the code it was measured with.
KernelConfig with_space_knobs(KernelConfig);
// Every valid config for one layout and accumulator, in a fixed order, with_space_knobs.
std::vector<KernelConfig> config_space(Layout, Accum, const ConfigSpaceAxes& = {});
// A reproducible sample that still contains every value of every knob that occurs in `space`.
std::vector<KernelConfig> covering_sample(const std::vector<KernelConfig>& space, size_t count, uint64_t seed);

// The complete CUDA source of one instantiation for NVRTC: includes the kernel header (found
// through -I<repo>/kernels) and wraps it in extern "C" __global__ `kJitKernelName`. With
// `constants`, the body gets that shape's M, N and K as constants (the wrapper's own M, N and K
// parameters are then ignored: the host launches it for that shape only).
inline constexpr const char* kJitKernelName = "gemmforge_hgemm";
std::string jit_source(const KernelConfig&, const ShapeConstants& constants = std::nullopt);

}  // namespace gemmforge
