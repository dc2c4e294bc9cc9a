// Host entry points for the kernels that measure hardware ceilings (gemmforge ceilings): an
// empty kernel for launch latency, streams of 16-byte loads or stores for HBM and L2 bandwidth,
// and wgmma alone (no memory traffic) for the tensor cores' rate.
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

namespace gemmforge::ceiling_ops {

// One block of one warp that does nothing: what any kernel launch costs at least. Through the
// runtime (<<< >>>), and through the driver's cuLaunchKernelEx, the path of gemmforge's JIT
// kernels, which costs the host less per call; `programmatic`: with the PDL attribute, which lets
// a launch start before the kernel ahead of it in the stream has finished.
void launch_empty(cudaStream_t);
void launch_empty_driver(cudaStream_t, bool programmatic);
// The path of stream_read's loads. l1: ld.global.nc, cached in L1 (one pass over a buffer far
// larger than L2: HBM's rate). l2_only: ld.global.cg, L2 and not L1; several passes over a buffer
// L2 holds then measure L2 itself, where through L1 each thread would re-read the words it read
// the pass before and its SM's L1 would serve part of them (a quarter of L2 is ~114 KiB per SM).
// l1_rotated: through L1, the blocks shifted by one each pass so no SM re-reads its own words
// (a check on the other two).
enum class ReadPath { l1, l2_only, l1_rotated };
// Reads `bytes` (a multiple of 16) `passes` times with 16-byte loads over `blocks` blocks. The
// loaded words are folded per thread and the result is stored to *sink only if it equals `key`,
// so the compiler must keep every load and almost no bytes are written.
void stream_read(const void* src, size_t bytes, int passes, unsigned key, unsigned* sink, int blocks, cudaStream_t,
                 ReadPath path);
// Writes `bytes` (a multiple of 16) `passes` times with 16-byte stores over `blocks` blocks, pass
// p storing `word` + p in every 32-bit lane (several passes over a buffer L2 holds measure L2).
void stream_write(void* dst, size_t bytes, int passes, unsigned word, int blocks, cudaStream_t);

// Distributed shared memory: `ctas` CTAs (an even number) in clusters of two, each with `bytes` of
// shared memory that its partner reads `passes` times with 16-byte ld.shared::cluster loads.
// Needs sm_90; the kernel is empty when built for older architectures.
void read_partner_smem(int ctas, int threads, int bytes, int passes, unsigned key, unsigned* sink, cudaStream_t);

// The tensor cores alone: `ctas` CTAs of two warpgroups, each warpgroup issuing `k_blocks` × 4
// back-to-back wgmma m64n256k16 (f32 accumulation; 128×256×64 per CTA and k-block, the
// cooperative 128×256 tile's main loop without its loads) on fp16 operands that sit in shared
// memory the whole time, filled once with pseudo-random values so the tensor cores toggle as
// they do on real data. What a GEMM's tensor work costs with nothing else on the chip drawing
// power. The accumulators go to `sink` (kTensorLoopSinkFloats) only when `key` is 1. Needs sm_90a;
// the kernel is empty when built for older architectures.
void tensor_loop(int ctas, int k_blocks, unsigned key, float* sink, cudaStream_t);
inline constexpr int kTensorLoopSinkFloats = 256 * 128;
inline constexpr int kTensorLoopSmemBytes = (128 + 256) * 64 * 2;  // A 128×64, B 256×64, fp16
inline constexpr double kTensorLoopFlopsPerCtaKBlock = 2.0 * 128 * 256 * 64;

// TMA alone: `ctas` CTAs (one per SM), each one thread keeping `in_flight` loads of box_rows × 64
// fp16 boxes outstanding, `boxes` per CTA, from the 2-D tensor `tensor_map` (a CUtensorMap of
// k_boxes × 64 columns and row_boxes × box_rows rows, boxes of box_rows × 64). `share`: groups of
// that many consecutive CTAs walk the same boxes, each group its own (1: every CTA its own; 0: all
// the same ones). The rate at which TMA delivers tiles to an SM. Needs sm_90; empty when built
// for older ones.
void tma_stream(const void* tensor_map, int ctas, int box_rows, int k_boxes, int row_boxes, int in_flight, int boxes,
                int share, unsigned key, unsigned* sink, cudaStream_t);
inline constexpr int kTmaMaxInFlight = 16;
// The same walk with each box multicast inside clusters of `cluster` (2 or 4) CTAs, one per SM:
// each CTA loads box_rows / cluster of every box's rows into the same slot of every CTA of its
// cluster (`slice_map`: the tensor with boxes of box_rows / cluster rows), so L2 serves each line
// once per cluster while every SM receives whole boxes; the clusters walk distinct boxes.
// tma_multicast_active_clusters: how many such clusters can be resident at once.
void tma_multicast_stream(const void* slice_map, int cluster, int ctas, int box_rows, int k_boxes, int row_boxes,
                          int in_flight, int boxes, unsigned key, unsigned* sink, cudaStream_t);
int tma_multicast_active_clusters(int cluster, int ctas, int box_rows, int in_flight);
// TMA stores alone: `ctas` CTAs (one per SM), each one thread storing groups of
// `boxes_per_group` (1..4) boxes of 64 rows × 64 fp16 (kTmaStoreBoxBytes, 128-byte swizzle, the
// Hopper epilogue's box) from shared memory through `tensor_map` (64-row tiles of
// boxes_per_group × 64 columns, `tiles_per_row` across, `tiles` in all), one bulk group per tile,
// `groups_in_flight` (1, 2, 4, 8 or 16) outstanding: waiting for their reads of shared memory or,
// with `wait_writes`, for their writes. `groups` tiles per CTA, CTA c taking tiles c, c + ctas, ...
// The rate at which an SM's stores leave it, by depth. Needs sm_90.
inline constexpr int kTmaStoreBoxBytes = 64 * 128;
void tma_store_stream(const void* tensor_map, int ctas, int boxes_per_group, int groups_in_flight, bool wait_writes,
                      int tiles_per_row, int tiles, int groups, unsigned word, cudaStream_t);
// The same walk with plain loads: `threads` (128, 256 or 384) per CTA copying each box with 16-byte
// cp.async from `tensor` (rows of `row_bytes`, box_rows × 128 bytes a box); no swizzle (it moves no
// byte more).
void cp_async_stream(const void* tensor, int row_bytes, int ctas, int threads, int box_rows, int k_boxes,
                     int row_boxes, int in_flight, int boxes, bool spread, unsigned key, unsigned* sink,
                     cudaStream_t);

inline constexpr int kStreamThreads = 256;
// 8 blocks of 256 threads per SM: the full 2048 threads an SM holds, each with four 16-byte
// accesses in flight per loop step, far more than HBM latency × bandwidth needs.
inline constexpr int kStreamBlocksPerSm = 8;

}  // namespace gemmforge::ceiling_ops
