// What TMA moves for one SM, each way. tma_read: one thread per SM keeping several box loads of
// a tile's shape (box_rows × 64 fp16, 128-byte swizzle) in flight from a tensor that L2 holds,
// nothing consuming them. Session 11 found the Hopper kernels' small tiles (64×64, 64×128,
// 128×64) receiving ~48-60 bytes per clock per SM whatever the ring's depth and with or without
// multicast (bench/NOTES.md); this says whether that is what TMA itself gives an SM. tma_write:
// one thread per SM storing epilogue-shaped boxes at several depths, to a tensor far larger than
// L2 (as a small-K call's C) and to one L2 holds; small-K calls write C at 2.8-3.7 TB/s of the
// 4.3 that plain stores reach (session 16), and this says what the store path gives at each depth.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <cuda.h>

#include "eval/buffers.hpp"
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/shuffled_rounds.hpp"
#include "jit/driver_api.hpp"

namespace gemmforge {
namespace {

constexpr unsigned kNeverKey = 0x9E3779B9u;  // a fold the tensor's words never give: nothing is stored
constexpr int kCols = 4096;                  // fp16 columns of the tensor: 64 boxes along K
constexpr size_t kBytesPerLaunch = size_t(1) << 30;
constexpr int kRingLimitBytes = 200 << 10;   // of the 227 KiB a CTA may have
const int kBoxRows[] = {64, 128, 256};
const int kInFlight[] = {2, 4, 8, 12};

// A 2-D fp16 tensor map over `tensor` (cols × rows, row-major, boxes of box_cols × box_rows),
// encoded as the kernels' maps are (jit/driver_api).
CUtensorMap tile_map(void* tensor, int cols, int rows, int box_cols, int box_rows, bool swizzle, const char* what) {
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(cols) * 2};
  const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  try {
    return jit::encode_tensor_map_tiled(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, tensor, dims, strides, box, element_strides,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE,
                                        swizzle ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  } catch (const NoGpuError&) {
    throw;
  } catch (const Error& e) {
    throw Error(std::string(what) + ": " + e.what());
  }
}

// Each variant once untimed (clocks up, L2 filled), then all in shuffled rounds; the medians'
// rates in GB/s for the bytes each moves, and the stats.
template <class V, class Pass, class Bytes>
std::pair<std::vector<double>, std::vector<SampleStats>> rates_in_rounds(const std::vector<V>& variants,
                                                                         const CeilingOptions& o, cudaStream_t s,
                                                                         Pass&& pass, Bytes&& bytes_moved) {
  for (const auto& v : variants) pass(v);
  GF_CUDA(cudaDeviceSynchronize());
  const auto us = time_in_shuffled_rounds(all_kinds(variants.size()), variants.size(), o.rounds, o.seed, s,
                                          [&](size_t i) { pass(variants[i]); });
  std::vector<double> gbps(variants.size());
  std::vector<SampleStats> stats(variants.size());
  for (size_t i = 0; i < variants.size(); ++i) {
    stats[i] = summarize(us[i]);
    gbps[i] = bytes_moved(variants[i]) / stats[i].median / 1e3;
  }
  return {gbps, stats};
}

struct Variant {
  int box_rows, in_flight;
  bool swizzle = true;  // 128-byte swizzle, as the kernels' tiles; else none
  bool spread = true;   // each CTA (or group of `share`) its own boxes; else all the same ones
  bool plain = false;   // cp.async by `threads` threads instead of TMA (beside it; not the value)
  int threads = 128;    // cp.async only
  int cluster = 1;      // > 1: each box multicast inside clusters of this many CTAs (TMA only)
  int share = 1;        // TMA without multicast: consecutive CTAs walking the same boxes at once
  CUtensorMap map{};    // cluster > 1: boxes of box_rows / cluster rows (one CTA's slice)
  int boxes = 0;        // per CTA and launch
  int ctas = 0;         // one per SM; in clusters, as many whole clusters as can be resident
};

}  // namespace

std::optional<CeilingMeasurement> measure_tma_read(DeviceContext& ctx, const CeilingOptions& o) {
  if (ctx.info().cc_major != 9) return std::nullopt;  // the kernel is built for sm_90 only
  // A quarter of L2 (whole 256-row blocks), so every box after the first pass is an L2 hit.
  const int rows = std::max(256, int(size_t(ctx.info().l2_bytes) / 4 / (size_t(kCols) * 2) / 256 * 256));
  const size_t bytes = size_t(rows) * kCols * 2;
  DeviceBuffer tensor(bytes), sink(sizeof(unsigned));
  const cudaStream_t s = ctx.stream();
  GF_CUDA(cudaMemsetAsync(tensor.get(), 0x5A, bytes, s));
  const int ctas = ctx.info().sm_count;

  std::vector<Variant> variants;
  auto add = [&](Variant v) {
    v.ctas = ctas;
    if (v.cluster > 1)
      v.ctas = std::min(ctas / v.cluster,
                        ceiling_ops::tma_multicast_active_clusters(v.cluster, ctas / v.cluster * v.cluster, v.box_rows,
                                                                   v.in_flight)) *
               v.cluster;
    if (v.ctas < 1) throw Error("TMA read: no cluster of " + std::to_string(v.cluster) + " CTAs can be resident");
    v.boxes = int(kBytesPerLaunch / size_t(v.ctas) / (size_t(v.box_rows) * 128));
    v.map = tile_map(tensor.get(), kCols, rows, 64, v.box_rows / v.cluster, v.swizzle, "TMA read");
    variants.push_back(v);
  };
  for (int box_rows : kBoxRows)
    for (int in_flight : kInFlight)
      if (in_flight * box_rows * 128 <= kRingLimitBytes) add({box_rows, in_flight});
  // What might hold the rate back besides the bytes in flight: the swizzle, and whether the SMs
  // read distinct lines or the same ones (the CTAs of a tile row share their A boxes).
  for (int in_flight : {4, 12}) {
    add({128, in_flight, /*swizzle=*/false, /*spread=*/true});
    add({128, in_flight, /*swizzle=*/true, /*spread=*/false});
  }
  // The same walks with plain loads, for what a cp.async producer would receive instead.
  for (int in_flight : {4, 8, 12}) add({128, in_flight, /*swizzle=*/false, /*spread=*/true, /*plain=*/true});
  add({128, 8, /*swizzle=*/false, /*spread=*/false, /*plain=*/true});
  // One warpgroup of cp.async received less than TMA (session 18): whether more warps get more.
  for (int threads : {256, 384}) add({128, 8, /*swizzle=*/false, /*spread=*/true, /*plain=*/true, threads});
  // Multicast: whether an SM can receive more than L2 serves for distinct lines when the CTAs of
  // a cluster share each line (beside the value, not in it: a GEMM shares only one operand so).
  // Groups of 2 and 4 CTAs reading the same boxes at the same time, without multicast: what a
  // GEMM's CTAs along a tile row or column share through L2 alone, beside what multicast gives.
  for (int share : {2, 4}) {
    Variant v{128, 8};
    v.share = share;
    add(v);
  }
  // Box size and depth, per cluster size (session 23: with the walk in one thread, 16 KiB boxes
  // stayed at ~65 GB/s per SM whatever the depth and 32 KiB ones reached 96-120).
  for (int cluster : {2, 4}) {
    for (int in_flight : {4, 8, 12}) add({128, in_flight, /*swizzle=*/true, /*spread=*/true, /*plain=*/false, 128, cluster});
    for (int in_flight : {3, 4, 6}) add({256, in_flight, /*swizzle=*/true, /*spread=*/true, /*plain=*/false, 128, cluster});
  }
  auto pass = [&](const Variant& v) {
    if (v.plain) {
      ceiling_ops::cp_async_stream(tensor.get(), kCols * 2, ctas, v.threads, v.box_rows, kCols / 64, rows / v.box_rows, v.in_flight,
                                   v.boxes, v.spread, kNeverKey, static_cast<unsigned*>(sink.get()), s);
      return;
    }
    if (v.cluster > 1) {
      ceiling_ops::tma_multicast_stream(&v.map, v.cluster, v.ctas, v.box_rows, kCols / 64, rows / v.box_rows,
                                        v.in_flight, v.boxes, kNeverKey, static_cast<unsigned*>(sink.get()), s);
      return;
    }
    ceiling_ops::tma_stream(&v.map, ctas, v.box_rows, kCols / 64, rows / v.box_rows, v.in_flight, v.boxes,
                            v.spread ? v.share : 0, kNeverKey, static_cast<unsigned*>(sink.get()), s);
  };
  const auto [gbps, stats] = rates_in_rounds(variants, o, s, pass, [&](const Variant& v) {
    return double(v.ctas) * v.boxes * v.box_rows * 128;
  });
  const NvmlReading clocks = Nvml::instance(ctx.info().pci_bus_id).read();

  CeilingMeasurement m;
  m.field = kTmaRead;
  nlohmann::json per_variant = nlohmann::json::array();
  size_t best = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    const auto& v = variants[i];
    if (!v.plain && v.cluster == 1 && gbps[i] > gbps[best]) best = i;
    nlohmann::json row = {{"box_rows", v.box_rows}, {"box_bytes", v.box_rows * 128}, {"in_flight", v.in_flight},
                          {"path", v.plain ? "cp.async" : "tma"}, {"swizzle", v.swizzle ? "128B" : "none"},
                          {"spread", v.spread},
                          {"gbps", gbps[i]}, {"per_sm_gbps", gbps[i] / v.ctas}, {"ctas", v.ctas}};
    if (clocks.sm_clock_mhz) row["per_sm_bytes_per_clock"] = gbps[i] / v.ctas / (*clocks.sm_clock_mhz * 1e-3);
    if (v.plain) row["threads"] = v.threads;
    if (v.share > 1) row["share"] = v.share;
    if (v.cluster > 1) {
      row["path"] = "tma multicast";
      row["cluster"] = v.cluster;
      row["l2_lines_gbps"] = gbps[i] / v.cluster;  // each line is read from L2 once per cluster
    }
    per_variant.push_back(row);
  }
  m.value = gbps[best];
  m.time_us = stats[best];
  m.method = "one thread per SM keeping 2-12 TMA loads of box_rows x 64 fp16 boxes (128-byte swizzle, the Hopper "
             "kernels' tile loads; a few variants without swizzle, or with every SM reading the same boxes) in flight "
             "from a tensor of a quarter of L2 (L2 hits after the first pass), nothing consuming them; 1 GiB per "
             "launch, event-timed, the variants in shuffled rounds; the value is the fastest TMA variant's median "
             "over all SMs; beside them (path cp.async, not in the value) the same walks copied by 128 threads with "
             "16-byte cp.async, and by 256 and 384 at 8 boxes in flight; and (path tma multicast, not in the value) "
             "each box (16 or 32 KiB, 3-12 in flight) multicast inside clusters of 2 or 4 CTAs, each CTA loading its "
             "slice of the rows for all, the clusters walking distinct boxes";
  m.detail["variants"] = per_variant;
  m.detail["best_box_rows"] = variants[best].box_rows;
  m.detail["best_in_flight"] = variants[best].in_flight;
  m.detail["best_spread"] = variants[best].spread;
  m.detail["per_sm_gbps"] = gbps[best] / ctas;
  m.detail["tensor_bytes"] = bytes;
  m.detail["ctas"] = ctas;
  m.note_clocks(clocks);
  return m;
}

namespace {

constexpr int kStoreCols = 16384;  // C's columns, as in the small-K calls that write the most
struct StoreVariant {
  bool beyond_l2;          // to a 1 GiB tensor (as a small-K call's C), else to a quarter of L2
  int boxes_per_group;     // 1, or 4 (a 64×256 tile, one bulk group, as a consumer's epilogue commits it)
  int groups_in_flight;
  bool wait_writes = false;  // wait for the writes, not only the reads of shared memory
  CUtensorMap map{};
  int tiles_per_row = 0, tiles = 0, groups = 0;
};

}  // namespace

std::optional<CeilingMeasurement> measure_tma_write(DeviceContext& ctx, const CeilingOptions& o) {
  if (ctx.info().cc_major != 9) return std::nullopt;  // the kernel is built for sm_90 only
  const size_t big_bytes = kBytesPerLaunch;
  const int big_rows = int(big_bytes / (size_t(kStoreCols) * 2));
  // A quarter of L2 in whole 64-row tiles, so after the first pass every line is L2's.
  const int small_rows = std::max(64, int(size_t(ctx.info().l2_bytes) / 4 / (size_t(kStoreCols) * 2) / 64 * 64));
  DeviceBuffer big(big_bytes), small(size_t(small_rows) * kStoreCols * 2);
  const cudaStream_t s = ctx.stream();
  GF_CUDA(cudaMemsetAsync(big.get(), 0, big_bytes, s));
  GF_CUDA(cudaMemsetAsync(small.get(), 0, small.bytes(), s));
  const int ctas = ctx.info().sm_count;

  std::vector<StoreVariant> variants;
  auto add = [&](StoreVariant v) {
    const int rows = v.beyond_l2 ? big_rows : small_rows;
    v.map = tile_map(v.beyond_l2 ? big.get() : small.get(), kStoreCols, rows, 64, 64, /*swizzle=*/true, "TMA write");
    v.tiles_per_row = kStoreCols / (64 * v.boxes_per_group);
    v.tiles = rows / 64 * v.tiles_per_row;
    v.groups = int(kBytesPerLaunch / size_t(ctas) / (size_t(v.boxes_per_group) * ceiling_ops::kTmaStoreBoxBytes));
    if (v.tiles < ctas) throw Error("TMA write: the tensor has fewer tiles than SMs");
    variants.push_back(v);
  };
  for (int depth : {1, 2, 4, 8, 16}) add({true, 1, depth});
  for (int depth : {1, 2, 4}) add({true, 4, depth});
  for (int depth : {1, 2, 4}) add({true, 4, depth, /*wait_writes=*/true});
  for (int depth : {1, 4, 16}) add({false, 1, depth});
  for (int depth : {1, 4}) add({false, 4, depth});
  unsigned word = 0x3C003C00u;  // a different word per launch: no launch stores what the last one left
  auto pass = [&](const StoreVariant& v) {
    ceiling_ops::tma_store_stream(&v.map, ctas, v.boxes_per_group, v.groups_in_flight, v.wait_writes, v.tiles_per_row,
                                  v.tiles, v.groups, ++word, s);
  };
  const auto [gbps, stats] = rates_in_rounds(variants, o, s, pass, [&](const StoreVariant& v) {
    return double(ctas) * v.groups * v.boxes_per_group * ceiling_ops::kTmaStoreBoxBytes;
  });
  const NvmlReading clocks = Nvml::instance(ctx.info().pci_bus_id).read();

  CeilingMeasurement m;
  m.field = kTmaWrite;
  nlohmann::json per_variant = nlohmann::json::array();
  size_t best = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    const auto& v = variants[i];
    const int group_bytes = v.boxes_per_group * ceiling_ops::kTmaStoreBoxBytes;
    if (v.beyond_l2 && gbps[i] > gbps[best]) best = i;
    nlohmann::json row = {{"destination", v.beyond_l2 ? "beyond_l2" : "l2"},
                          {"boxes_per_group", v.boxes_per_group},
                          {"group_bytes", group_bytes},
                          {"in_flight", v.groups_in_flight},
                          {"bytes_in_flight", v.groups_in_flight * group_bytes},
                          {"wait", v.wait_writes ? "writes" : "reads"},
                          {"gbps", gbps[i]},
                          {"per_sm_gbps", gbps[i] / ctas}};
    if (clocks.sm_clock_mhz) row["per_sm_bytes_per_clock"] = gbps[i] / ctas / (*clocks.sm_clock_mhz * 1e-3);
    per_variant.push_back(row);
  }
  m.value = gbps[best];
  m.time_us = stats[best];
  m.method = "one thread per SM storing 64 x 64 fp16 boxes (128-byte swizzle, the Hopper epilogue's box) from "
             "shared memory with TMA, one bulk group per box or per four side by side (a 64x256 tile), 1-16 groups "
             "outstanding (waiting for their reads of shared memory, or for their writes), tile t of a CTA being "
             "CTA + t x SMs; to a 1 GiB tensor of 16384 columns (a small-K call's C; the value: the fastest such "
             "variant's median over all SMs) and to a quarter of L2; 1 GiB per launch, event-timed up to the last "
             "write, the variants in shuffled rounds";
  m.detail["variants"] = per_variant;
  m.detail["best_in_flight"] = variants[best].groups_in_flight;
  m.detail["best_boxes_per_group"] = variants[best].boxes_per_group;
  m.detail["per_sm_gbps"] = gbps[best] / ctas;
  m.detail["tensor_bytes"] = big_bytes;
  m.detail["l2_tensor_bytes"] = small.bytes();
  m.detail["ctas"] = ctas;
  m.note_clocks(clocks);
  return m;
}

}  // namespace gemmforge
