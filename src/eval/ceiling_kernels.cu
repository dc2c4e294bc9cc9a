#include "eval/ceiling_kernels.hpp"

#include <cuda.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "eval/cuda_check.hpp"
#include "ptx/cluster.cuh"
#include "ptx/mbarrier.cuh"
#include "ptx/tma.cuh"
#include "ptx/wgmma.cuh"

namespace gemmforge::ceiling_ops {
namespace {

__global__ void empty_kernel() {}

__device__ __forceinline__ unsigned fold(const uint4& v) { return v.x ^ v.y ^ v.z ^ v.w; }

// Grid-stride over n 16-byte words, `passes` times, four independent loads per step so each
// thread keeps several requests in flight. The loads' path is kPath (ReadPath): through L1
// (ld.global.nc), which on a buffer read many times lets each SM hit in its own L1 what it read
// the pass before, since a thread reads the same words every pass; through L2 only
// (ld.global.cg); or through L1 with the blocks rotated by one each pass, so that no SM reads in a
// pass what it read in the last (a check on the other two).
template <ReadPath kPath>
__device__ __forceinline__ uint4 load_word(const uint4* p) {
  if constexpr (kPath == ReadPath::l2_only) return __ldcg(p);
  else return *p;
}

template <ReadPath kPath>
__global__ void read_words(const uint4* __restrict__ src, size_t n, int passes, unsigned key, unsigned* sink) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  unsigned acc = 0;
  for (int p = 0; p < passes; ++p) {
    const unsigned block =
        kPath == ReadPath::l1_rotated ? (blockIdx.x + unsigned(p)) % gridDim.x : blockIdx.x;
    size_t i = size_t(block) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const uint4 a = load_word<kPath>(src + i), b = load_word<kPath>(src + i + stride),
                  c = load_word<kPath>(src + i + 2 * stride), d = load_word<kPath>(src + i + 3 * stride);
      acc ^= fold(a) ^ fold(b) ^ fold(c) ^ fold(d);
    }
    for (; i < n; i += stride) acc ^= fold(load_word<kPath>(src + i));
    acc = acc * 33u + unsigned(p);  // a different fold per pass: no pass is a repeat the compiler may skip
  }
  if (acc == key) *sink = acc;
}

// Grid-stride stores over n 16-byte words, `passes` times, each pass a different word (so no pass
// stores what the last one left).
__global__ void write_words(uint4* __restrict__ dst, size_t n, int passes, unsigned word) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    const unsigned w = word + unsigned(p);
    const uint4 v = make_uint4(w, w, w, w);
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = v;
  }
}

// Each CTA of a two-CTA cluster fills its own shared buffer, then reads its partner's `passes`
// times with 16-byte ld.shared::cluster loads (distributed shared memory), folding what it reads
// so no load can be dropped. The cluster barriers order the fill before the reads and keep a CTA
// alive until its partner has finished reading it.
__global__ void read_partner_words(int words, int passes, unsigned key, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 own[];
  for (int i = int(threadIdx.x); i < words; i += int(blockDim.x)) own[i] = make_uint4(i, i * 3u, i * 5u, i * 7u);
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  unsigned rank = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const unsigned local = unsigned(__cvta_generic_to_shared(own));
  unsigned partner = 0;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(partner) : "r"(local), "r"(rank ^ 1u));
  // Four independent loads per step, issued before any is used, so each warp keeps four requests
  // in flight (one at a time would measure latency, not bandwidth).
  auto load = [partner](int i, unsigned& folded) {
    unsigned x, y, z, w;
    asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(partner + unsigned(i) * 16u));
    folded = x ^ y ^ z ^ w;
  };
  const int stride = int(blockDim.x);
  unsigned acc = 0;
  for (int p = 0; p < passes; ++p) {
    int i = int(threadIdx.x);
    for (; i + 3 * stride < words; i += 4 * stride) {
      unsigned a, b, c, d;
      load(i, a), load(i + stride, b), load(i + 2 * stride, c), load(i + 3 * stride, d);
      acc ^= a ^ b ^ c ^ d;
    }
    for (; i < words; i += stride) {
      unsigned a;
      load(i, a);
      acc ^= a;
    }
    acc = acc * 33u + unsigned(p);
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  if (acc == key) *sink = acc;
#else
  (void)words, (void)passes, (void)key, (void)sink;
#endif
}

// Two warpgroups, each a 64×256 slice of a 128×256 tile, on a 128×64 A tile and a 256×64 B tile
// (K-major, 128-byte swizzle, as the Hopper kernels stage them) that never change: k_blocks × 4
// wgmma m64n256k16 each, in groups of four (one k-block) with one group kept in flight, as the
// main loop keeps them. The accumulators are stored to `sink` only when `key` is 1, which the
// compiler cannot rule out, so no wgmma is dropped; folding them into one word instead made ptxas
// serialize the wgmmas ("insufficient register resources for the wgmma pipeline").
__global__ void __launch_bounds__(256, 1) tensor_words(int k_blocks, unsigned key, float* sink) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using namespace gemmforge::ptx;
  extern __shared__ __align__(1024) unsigned char tiles[];
  // fp16 values in [-1, 1) with random mantissas: a hash of the index into sign, a small
  // exponent and 10 mantissa bits.
  u32* words = reinterpret_cast<u32*>(tiles);
  for (int i = int(threadIdx.x); i < kTensorLoopSmemBytes / 4; i += int(blockDim.x)) {
    u32 h = u32(i) * 2654435761u + blockIdx.x * 40503u;
    h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
    const u32 lo = (h & 0x83FFu) | 0x3800u, hi = ((h >> 16) & 0x83FFu) | 0x3400u;  // |x| in [0.5, 1) and [0.25, 0.5)
    words[i] = lo | (hi << 16);
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic writes, before wgmma reads them
  const int warpgroup = int(threadIdx.x) / 128;
  const u64 a = make_kmajor_sw128_desc(tiles + warpgroup * 64 * 128);
  const u64 b = make_kmajor_sw128_desc(tiles + 128 * 128);
  float acc[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.f;
  for (int kb = 0; kb < k_blocks; ++kb) {
    fence_registers(acc);  // as the main loop does: without it ptxas waits after every wgmma
    wgmma_fence();
#pragma unroll
    for (int k = 0; k < 4; ++k) Wgmma<256, true, 0>::mma(advance_desc_k(a, k * 16), advance_desc_k(b, k * 16), acc, 1);
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  fence_registers(acc);
  if (key == 1u)
    for (int i = 0; i < 128; ++i) sink[threadIdx.x * 128 + i] = acc[i];
#else
  (void)k_blocks, (void)key, (void)sink;
#endif
}

// The walk the two box kernels share: the next box (along K first, as a tile's main loop reads,
// wrapping around; `share` consecutive CTAs start at the same box and groups of them at their
// own, as the CTAs of a tile row read the same A boxes at once; 0: every CTA at the first), `in_flight` of them outstanding, each slot refilled
// once its barrier completes. load(slot, kb, rb) starts box (kb, rb)'s copy into the slot, to
// arrive on full[slot]; before_refill() runs after a box has landed and before its slot is
// reused. The next box is advanced without divisions, which would lengthen the issuing loop this
// measures. Returns a fold of one word per box, so no copy can be dropped.
template <class Load, class BeforeRefill>
__device__ unsigned walk_ring(unsigned long long* full, const unsigned char* ring, unsigned box_bytes, int k_boxes,
                              int row_boxes, int in_flight, int boxes, int share, Load&& load,
                              BeforeRefill&& before_refill) {
  using namespace gemmforge::ptx;
  const int first = share > 0 ? int((long long)(blockIdx.x / unsigned(share)) * boxes % (k_boxes * row_boxes)) : 0;
  int kb = first % k_boxes, rb = first / k_boxes, slot = 0;
  auto issue = [&] {
    load(slot, kb, rb);
    if (++kb == k_boxes) kb = 0, rb = rb + 1 == row_boxes ? 0 : rb + 1;
    slot = slot + 1 == in_flight ? 0 : slot + 1;
  };
  for (int i = 0; i < in_flight && i < boxes; ++i) issue();
  unsigned folded = 0;
  u32 phase = 0;
  for (int i = 0, f = 0; i < boxes; ++i) {
    mbarrier_wait(&full[f], phase);
    folded ^= *reinterpret_cast<const volatile u32*>(ring + size_t(f) * box_bytes + (threadIdx.x + i) % 32 * 4);
    before_refill();
    if (i + in_flight < boxes) issue();  // into slot f, which just completed
    if (++f == in_flight) f = 0, phase ^= 1u;
  }
  return folded;
}

// One thread per CTA keeps `in_flight` TMA loads of box_rows × 64 fp16 boxes (128-byte swizzle,
// as the Hopper kernels load their tiles) outstanding into a ring of shared memory, `boxes` in
// all. Nothing consumes the data but one word per box, so this is the rate at which TMA delivers
// tiles to one SM, which a GEMM's main loop cannot exceed.
__global__ void __launch_bounds__(32, 1) tma_boxes(const __grid_constant__ gemmforge::ptx::TensorMap map, int box_rows,
                                                  int k_boxes, int row_boxes, int in_flight, int boxes, int share,
                                                  unsigned key, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace gemmforge::ptx;
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ u64 full[kTmaMaxInFlight];
  if (threadIdx.x != 0) return;
  const u32 box_bytes = u32(box_rows) * 128;
  for (int f = 0; f < in_flight; ++f) mbarrier_init(&full[f], 1);
  fence_barrier_init();
  const unsigned folded = walk_ring(
      full, ring, box_bytes, k_boxes, row_boxes, in_flight, boxes, share,
      [&](int slot, int kb, int rb) {
        mbarrier_arrive_expect_tx(&full[slot], box_bytes);
        tma_load_2d(ring + size_t(slot) * box_bytes, &map, &full[slot], kb * 64, rb * box_rows);
      },
      [] {});
  if (folded == key) *sink = folded;
#else
  (void)map, (void)box_rows, (void)k_boxes, (void)row_boxes, (void)in_flight, (void)boxes, (void)share, (void)key,
      (void)sink;
#endif
}

// The same walk with the boxes multicast inside clusters of kCluster CTAs (one per SM): each CTA
// loads 1/kCluster of every box's rows (through `slice_map`, boxes of box_rows / kCluster rows)
// into the same slot of every CTA of its cluster, so the cluster reads each line from L2 once and
// every SM still receives whole boxes. A slot is refilled once every CTA of the cluster has read
// it (an empty barrier per slot, one arrival from each). Two warps, as a GEMM's producer and
// consumer: warp 0's first lane issues, running up to `in_flight` boxes ahead; warp 1's first
// lane waits for each box, reads a word of it and frees the slot in every CTA. (In one thread,
// as the first version of this walk had it, each refill waited for the cluster's round trip on
// the slot just read, ~250 ns a box whatever the depth: session 23, calls 1-2.) Whether multicast
// lets an SM receive more than L2 serves for distinct lines (tma_boxes: 64 GB/s per SM).
template <int kCluster>
__global__ void __launch_bounds__(64, 1) tma_boxes_multicast(const __grid_constant__ gemmforge::ptx::TensorMap slice_map,
                                                            int box_rows, int k_boxes, int row_boxes, int in_flight,
                                                            int boxes, unsigned key, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace gemmforge::ptx;
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ u64 full[kTmaMaxInFlight], empty[kTmaMaxInFlight];
  const u32 rank = cluster_cta_rank();
  if (threadIdx.x == 0) {
    for (int f = 0; f < in_flight; ++f) mbarrier_init(&full[f], 1), mbarrier_init(&empty[f], kCluster);
    fence_barrier_init();
  }
  cluster_sync();  // every CTA's barriers initialized before any multicast or remote arrival reaches them
  const u32 box_bytes = u32(box_rows) * 128;
  if (threadIdx.x == 0) {  // producer
    const u32 slice_rows = u32(box_rows / kCluster);
    constexpr u16 kMask = u16((1u << kCluster) - 1);
    // The clusters walk distinct boxes: cluster c starts at box c · boxes, along K first.
    const int first = int((long long)(blockIdx.x / kCluster) * boxes % (k_boxes * row_boxes));
    int kb = first % k_boxes, rb = first / k_boxes;
    for (int i = 0, slot = 0, round = 0; i < boxes; ++i) {
      if (round > 0) mbarrier_wait(&empty[slot], u32(round - 1) & 1u);  // every CTA has read its last box
      mbarrier_arrive_expect_tx(&full[slot], box_bytes);  // the whole box, from all kCluster slices
      tma_load_2d_multicast(ring + size_t(slot) * box_bytes + rank * slice_rows * 128, &slice_map, &full[slot],
                            kb * 64, rb * box_rows + int(rank * slice_rows), kMask);
      if (++kb == k_boxes) kb = 0, rb = rb + 1 == row_boxes ? 0 : rb + 1;
      if (++slot == in_flight) slot = 0, ++round;
    }
  } else if (threadIdx.x == 32) {  // consumer
    unsigned folded = 0;
    for (int i = 0, slot = 0; i < boxes; ++i) {
      mbarrier_wait(&full[slot], u32(i / in_flight) & 1u);
      folded ^= *reinterpret_cast<const volatile u32*>(ring + size_t(slot) * box_bytes + i % 32 * 4);
      for (u32 c = 0; c < u32(kCluster); ++c) mbarrier_arrive_cluster(&empty[slot], c);  // free it in every CTA
      if (++slot == in_flight) slot = 0;
    }
    if (folded == key) *sink = folded;
  }
  cluster_sync();  // no CTA leaves while its slices or arrivals may still reach another
#else
  (void)slice_map, (void)box_rows, (void)k_boxes, (void)row_boxes, (void)in_flight, (void)boxes, (void)key, (void)sink;
#endif
}

// The same walk with plain loads: the CTA's threads (one to three warpgroups) copy each box into
// the ring with 16-byte cp.async (through L2 only, as the sm80 kernels load), one row's 128 bytes
// per 8 threads, and every thread's copies arrive on the box's barrier when they land
// (cp.async.mbarrier.arrive: one arrival per thread completes it). What a producer of plain loads
// would receive, beside TMA's rate; the warps it takes, from how the rate moves with them. The
// thread count is a template constant: as a run-time value (with launch bounds of 384) one
// warpgroup ran 28% slower (session 19), which would confound the comparison.
template <int kThreads>
__global__ void __launch_bounds__(kThreads, 1) cp_async_boxes(const unsigned char* __restrict__ tensor, int row_bytes,
                                                        int box_rows, int k_boxes, int row_boxes, int in_flight,
                                                        int boxes, int spread, unsigned key, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace gemmforge::ptx;
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ u64 full[kTmaMaxInFlight];
  const u32 box_bytes = u32(box_rows) * 128;
  if (threadIdx.x == 0)
    for (int f = 0; f < in_flight; ++f) mbarrier_init(&full[f], u32(kThreads));
  __syncthreads();
  const int t = int(threadIdx.x);
  const unsigned folded = walk_ring(
      full, ring, box_bytes, k_boxes, row_boxes, in_flight, boxes, spread != 0 ? 1 : 0,
      [&](int slot, int kb, int rb) {
        unsigned char* dst = ring + size_t(slot) * box_bytes;
        const unsigned char* src = tensor + size_t(rb) * box_rows * row_bytes + size_t(kb) * 128;
        for (int c = t; c < box_rows * 8; c += kThreads)  // chunk c: row c / 8, its 16 bytes c % 8
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst + c * 16)),
                       "l"(static_cast<u64>(__cvta_generic_to_global(src + size_t(c / 8) * row_bytes + (c % 8) * 16)))
                       : "memory");
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_addr(&full[slot])) : "memory");
      },
      // Every thread has seen the box land before any refills its slot.
      [] { asm volatile("bar.sync 1, %0;" ::"n"(kThreads) : "memory"); });
  if (folded == key) *sink = folded;
#else
  (void)tensor, (void)row_bytes, (void)box_rows, (void)k_boxes, (void)row_boxes, (void)in_flight, (void)boxes,
      (void)spread, (void)key, (void)sink;
#endif
}

// TMA stores alone, as the Hopper kernels' epilogues issue them: one thread per CTA storing
// groups of `boxes_per_group` boxes of 64 rows × 64 fp16 (128-byte swizzle; four side by side are
// a 64×256 tile) from shared memory to the tensor `map` (`tiles` tiles of 64 rows × boxes_per_group
// × 64 columns, tiles_per_row of them across), one bulk group per tile, kGroups outstanding: after each
// commit it waits until at most kGroups − 1 are still reading shared memory (kWaitWrites: still
// writing global memory). Tile t of the walk is CTA + t · CTAs (a persistent GEMM's order),
// wrapping over the tensor. The ring is filled once and never rewritten, so nothing but the
// stores' own pace limits this: what the store path takes from one SM at each depth.
template <int kGroups, bool kWaitWrites>
__global__ void __launch_bounds__(32, 1) tma_store_boxes(const __grid_constant__ gemmforge::ptx::TensorMap map,
                                                        int boxes_per_group, int tiles_per_row, int tiles, int groups,
                                                        unsigned word) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace gemmforge::ptx;
  extern __shared__ __align__(1024) unsigned char ring[];
  const int ring_words = kGroups * boxes_per_group * kTmaStoreBoxBytes / 4;
  for (int i = int(threadIdx.x); i < ring_words; i += 32) reinterpret_cast<u32*>(ring)[i] = word ^ u32(i);
  fence_proxy_async_shared();  // the generic-proxy writes above, before TMA reads them
  __syncwarp();
  if (threadIdx.x != 0) return;
  int tile = int(blockIdx.x) % tiles;
  for (int g = 0, slot = 0; g < groups; ++g) {
    const int row = tile / tiles_per_row, col = tile % tiles_per_row;
    const unsigned char* src = ring + size_t(slot) * boxes_per_group * kTmaStoreBoxBytes;
    for (int b = 0; b < boxes_per_group; ++b)
      tma_store_2d(&map, src + b * kTmaStoreBoxBytes, (col * boxes_per_group + b) * 64, row * 64);
    tma_store_commit();
    if constexpr (kWaitWrites) tma_store_wait_all<kGroups - 1>();
    else tma_store_wait_read<kGroups - 1>();
    tile += int(gridDim.x);
    if (tile >= tiles) tile -= tiles;  // the host keeps tiles >= CTAs
    slot = slot + 1 == kGroups ? 0 : slot + 1;
  }
  tma_store_wait_all<0>();  // every write done before the kernel counts as finished
#else
  (void)map, (void)boxes_per_group, (void)tiles_per_row, (void)tiles, (void)groups, (void)word;
#endif
}

}  // namespace

void cp_async_stream(const void* tensor, int row_bytes, int ctas, int threads, int box_rows, int k_boxes,
                     int row_boxes, int in_flight, int boxes, bool spread, unsigned key, unsigned* sink,
                     cudaStream_t s) {
  if (in_flight < 1 || in_flight > kTmaMaxInFlight)
    throw Error("cp_async_stream: in_flight must be 1.." + std::to_string(kTmaMaxInFlight));
  if (threads != 128 && threads != 256 && threads != 384)
    throw Error("cp_async_stream: threads must be 128, 256 or 384, not " + std::to_string(threads));
  const int smem = in_flight * box_rows * 128;
  auto launch = [&](auto kernel) {
    GF_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kernel<<<unsigned(ctas), unsigned(threads), size_t(smem), s>>>(static_cast<const unsigned char*>(tensor),
                                                                   row_bytes, box_rows, k_boxes, row_boxes, in_flight,
                                                                   boxes, spread ? 1 : 0, key, sink);
  };
  if (threads == 128) launch(cp_async_boxes<128>);
  else if (threads == 256) launch(cp_async_boxes<256>);
  else launch(cp_async_boxes<384>);
  GF_CHECK_LAUNCH();
}

void tma_store_stream(const void* tensor_map, int ctas, int boxes_per_group, int groups_in_flight, bool wait_writes,
                      int tiles_per_row, int tiles, int groups, unsigned word, cudaStream_t s) {
  if (boxes_per_group < 1 || boxes_per_group > 4) throw Error("tma_store_stream: 1..4 boxes per group");
  const int smem = groups_in_flight * boxes_per_group * kTmaStoreBoxBytes;
  gemmforge::ptx::TensorMap map;
  std::memcpy(&map, tensor_map, sizeof map);
  auto launch = [&](auto kernel) {
    GF_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kernel<<<unsigned(ctas), 32, size_t(smem), s>>>(map, boxes_per_group, tiles_per_row, tiles, groups, word);
  };
  // The depth is an immediate of cp.async.bulk.wait_group: a kernel per depth.
  auto at_depth = [&](auto wait_writes_constant) {
    constexpr bool kW = decltype(wait_writes_constant)::value;
    switch (groups_in_flight) {
      case 1: launch(tma_store_boxes<1, kW>); break;
      case 2: launch(tma_store_boxes<2, kW>); break;
      case 4: launch(tma_store_boxes<4, kW>); break;
      case 8: launch(tma_store_boxes<8, kW>); break;
      case 16: launch(tma_store_boxes<16, kW>); break;
      default: throw Error("tma_store_stream: groups in flight must be 1, 2, 4, 8 or 16, not " + std::to_string(groups_in_flight));
    }
  };
  if (wait_writes) at_depth(std::true_type{});
  else at_depth(std::false_type{});
  GF_CHECK_LAUNCH();
}

void tma_stream(const void* tensor_map, int ctas, int box_rows, int k_boxes, int row_boxes, int in_flight, int boxes,
                int share, unsigned key, unsigned* sink, cudaStream_t s) {
  if (in_flight < 1 || in_flight > kTmaMaxInFlight) throw Error("tma_stream: in_flight must be 1.." + std::to_string(kTmaMaxInFlight));
  const int smem = in_flight * box_rows * 128;
  GF_CUDA(cudaFuncSetAttribute(tma_boxes, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  gemmforge::ptx::TensorMap map;
  std::memcpy(&map, tensor_map, sizeof map);
  tma_boxes<<<unsigned(ctas), 32, size_t(smem), s>>>(map, box_rows, k_boxes, row_boxes, in_flight, boxes, share, key,
                                                      sink);
  GF_CHECK_LAUNCH();
}

namespace {

// The multicast walk's launch configuration: `ctas` CTAs in clusters of `cluster`, `smem` bytes each.
template <int kCluster>
cudaLaunchConfig_t multicast_config(int ctas, int smem, cudaStream_t s, cudaLaunchAttribute& attribute) {
  GF_CUDA(cudaFuncSetAttribute(tma_boxes_multicast<kCluster>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(ctas), 1, 1);
  config.blockDim = dim3(64, 1, 1);  // a producer warp and a consumer warp
  config.dynamicSmemBytes = size_t(smem);
  config.stream = s;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = unsigned(kCluster);
  attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

template <int kCluster>
int active_clusters(int ctas, int smem) {
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = multicast_config<kCluster>(ctas, smem, nullptr, attribute);
  int n = 0;
  GF_CUDA(cudaOccupancyMaxActiveClusters(&n, tma_boxes_multicast<kCluster>, &config));
  return n;
}

template <int kCluster>
void launch_multicast(const gemmforge::ptx::TensorMap& map, int ctas, int smem, int box_rows, int k_boxes,
                      int row_boxes, int in_flight, int boxes, unsigned key, unsigned* sink, cudaStream_t s) {
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = multicast_config<kCluster>(ctas, smem, s, attribute);
  GF_CUDA(cudaLaunchKernelEx(&config, tma_boxes_multicast<kCluster>, map, box_rows, k_boxes, row_boxes, in_flight,
                             boxes, key, sink));
}

void check_multicast(int cluster, int ctas, int box_rows, int in_flight) {
  if (cluster != 2 && cluster != 4) throw Error("tma multicast: clusters of 2 or 4, not " + std::to_string(cluster));
  if (ctas % cluster != 0) throw Error("tma multicast: the CTAs must fill whole clusters");
  if (box_rows % (8 * cluster) != 0) throw Error("tma multicast: each slice must be whole 8-row swizzle atoms");
  if (in_flight < 1 || in_flight > kTmaMaxInFlight) throw Error("tma multicast: in_flight out of range");
}

}  // namespace

int tma_multicast_active_clusters(int cluster, int ctas, int box_rows, int in_flight) {
  check_multicast(cluster, ctas, box_rows, in_flight);
  const int smem = in_flight * box_rows * 128;
  return cluster == 2 ? active_clusters<2>(ctas, smem) : active_clusters<4>(ctas, smem);
}

void tma_multicast_stream(const void* slice_map, int cluster, int ctas, int box_rows, int k_boxes, int row_boxes,
                          int in_flight, int boxes, unsigned key, unsigned* sink, cudaStream_t s) {
  check_multicast(cluster, ctas, box_rows, in_flight);
  const int smem = in_flight * box_rows * 128;
  gemmforge::ptx::TensorMap map;
  std::memcpy(&map, slice_map, sizeof map);
  if (cluster == 2) launch_multicast<2>(map, ctas, smem, box_rows, k_boxes, row_boxes, in_flight, boxes, key, sink, s);
  else launch_multicast<4>(map, ctas, smem, box_rows, k_boxes, row_boxes, in_flight, boxes, key, sink, s);
}

void tensor_loop(int ctas, int k_blocks, unsigned key, float* sink, cudaStream_t s) {
  static const bool attribute_set = [] {
    GF_CUDA(cudaFuncSetAttribute(tensor_words, cudaFuncAttributeMaxDynamicSharedMemorySize, kTensorLoopSmemBytes));
    return true;
  }();
  (void)attribute_set;
  tensor_words<<<unsigned(ctas), 256, kTensorLoopSmemBytes, s>>>(k_blocks, key, sink);
  GF_CHECK_LAUNCH();
}

void read_partner_smem(int ctas, int threads, int bytes, int passes, unsigned key, unsigned* sink, cudaStream_t s) {
  GF_CUDA(cudaFuncSetAttribute(read_partner_words, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(ctas), 1, 1);
  config.blockDim = dim3(unsigned(threads), 1, 1);
  config.dynamicSmemBytes = size_t(bytes);
  config.stream = s;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  GF_CUDA(cudaLaunchKernelEx(&config, read_partner_words, bytes / 16, passes, key, sink));
}

void launch_empty(cudaStream_t s) {
  empty_kernel<<<1, 32, 0, s>>>();
  GF_CHECK_LAUNCH();
}

void launch_empty_driver(cudaStream_t s, bool programmatic) {
  // Looked up once: cuLaunchKernelEx through cudart's entry-point table (no libcuda link), and
  // the empty kernel's driver handle.
  static const auto launch = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    GF_CUDA(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", &p, CUDART_VERSION, cudaEnableDefault, &status));
    if (status != cudaDriverEntryPointSuccess || !p) throw Error("the CUDA driver has no cuLaunchKernelEx");
    return reinterpret_cast<decltype(&cuLaunchKernelEx)>(p);
  }();
  static const CUfunction function = [] {
    cudaFunction_t f = nullptr;
    GF_CUDA(cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(&empty_kernel)));
    return reinterpret_cast<CUfunction>(f);
  }();
  CUlaunchAttribute pdl{};
  pdl.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  pdl.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config{};
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 32;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = s;
  config.attrs = programmatic ? &pdl : nullptr;
  config.numAttrs = programmatic ? 1 : 0;
  if (const CUresult r = launch(&config, function, nullptr, nullptr); r != CUDA_SUCCESS)
    throw Error("cuLaunchKernelEx of the empty kernel failed with CUresult " + std::to_string(int(r)));
}

void stream_read(const void* src, size_t bytes, int passes, unsigned key, unsigned* sink, int blocks, cudaStream_t s,
                 ReadPath path) {
  auto launch = [&](auto kernel) {
    kernel<<<unsigned(blocks), kStreamThreads, 0, s>>>(static_cast<const uint4*>(src), bytes / sizeof(uint4), passes,
                                                       key, sink);
  };
  switch (path) {
    case ReadPath::l1: launch(read_words<ReadPath::l1>); break;
    case ReadPath::l2_only: launch(read_words<ReadPath::l2_only>); break;
    case ReadPath::l1_rotated: launch(read_words<ReadPath::l1_rotated>); break;
  }
  GF_CHECK_LAUNCH();
}

void stream_write(void* dst, size_t bytes, int passes, unsigned word, int blocks, cudaStream_t s) {
  write_words<<<unsigned(blocks), kStreamThreads, 0, s>>>(static_cast<uint4*>(dst), bytes / sizeof(uint4), passes,
                                                          word);
  GF_CHECK_LAUNCH();
}

}  // namespace gemmforge::ceiling_ops
