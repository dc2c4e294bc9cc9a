// Session 22's probe: what publishing split-K partial sums costs by stores to a slot per part
// (the kernels' sliced reduction) against red.global.add into one f32 tile per output tile (a
// reduction that is not deterministic), outside any GEMM. 128 CTAs, `parts` per output tile,
// each CTA holding `wg` warpgroups × 128 threads × `pairs` f32 pairs (the 128×128 cooperative
// tile: 2 × 32, 64 KiB; the 64×64 one-consumer tile: 1 × 16, 16 KiB). Every CTA publishes,
// arrives on its tile's counter, waits for the tile's other parts, then sums and stores its
// slice as fp16 (sliced: from every part's slot; red: from the one tile, zeroing it after).
// Built: nvcc -O3 -std=c++17 -arch=sm_90a reduction_probe.cu -o reduction_probe
// Prints CSV: variant, wg, pairs, parts, per-launch µs (median of graph replays), and the
// phases' medians over CTAs from %globaltimer (publish+arrive, wait, slice+depart).
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

// kSyncGen, kStoreGen (call 4): kSync and kStore with a generation word in place of the departure
// count: the last to arrive resets the arrivals and bumps the generation the others wait on, so
// nobody departs (one atomic round trip fewer at the end).
enum Variant { kSync = 0, kStore = 1, kRed = 2, kSyncGen = 3, kStoreGen = 4 };
constexpr int kCtas = 128;

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t;
}
__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ unsigned atom_add_release(unsigned* p, unsigned v) {
  unsigned old; asm volatile("atom.add.release.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory"); return old;
}
__device__ __forceinline__ unsigned atom_add_acq_rel(unsigned* p, unsigned v) {
  unsigned old; asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory"); return old;
}
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v; asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void wg_sync(int wg) { asm volatile("bar.sync %0, 128;" :: "r"(wg + 1) : "memory"); }

// workspace: counters (2 per tile·wg), then either parts slots per tile·wg (store) or one (red).
__global__ void __launch_bounds__(256, 1) reduce_probe(int variant, int pairs, int parts, unsigned* counters,
    unsigned long long* slots, float2* tiles, __half2* C, unsigned long long* stamps, unsigned* gens) {
  const unsigned long long t0 = now();
  const int w = threadIdx.x / 128, t = threadIdx.x % 128, wgs = blockDim.x / 128;
  const int tile = blockIdx.x / parts, part = blockIdx.x % parts, tw = tile * wgs + w;
  const int n = pairs * 128;  // pairs of one warpgroup's tile part
  unsigned* arrive = counters + 2 * tw;
  unsigned* depart = arrive + 1;
  const bool gen_variant = variant == kSyncGen || variant == kStoreGen;
  unsigned* gen = gens + tw;
  const unsigned gen0 = gen_variant && t == 0 ? ld_relaxed(gen) : 0u;  // no part of this launch can have bumped it yet
  if (variant == kStore || variant == kStoreGen) {
    unsigned long long* mine = slots + (size_t(tw) * parts + part) * n + t;
    for (int c = 0; c < pairs; ++c) {
      float2 v = make_float2(float(part + 1), float(c % 4));
      asm volatile("st.global.cg.v2.f32 [%0], {%1, %2};" :: "l"(mine + c * 128), "f"(v.x), "f"(v.y) : "memory");
    }
  } else if (variant == kRed) {
    float2* mine = tiles + size_t(tw) * n + t;
    for (int c = 0; c < pairs; ++c)
      asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" :: "l"(mine + c * 128), "f"(float(part + 1)), "f"(float(c % 4)) : "memory");
  }
  wg_sync(w);
  unsigned long long t1;
  if (gen_variant) {
    if (t == 0) {
      if (atom_add_acq_rel(arrive, 1u) == unsigned(parts - 1)) {
        *arrive = 0u;  // nobody else touches it again in this launch
        st_release(gen, gen0 + 1);
      } else {
        while (ld_acquire(gen) == gen0) __nanosleep(32);
      }
    }
    t1 = now();
  } else {
    if (t == 0) atom_add_release(arrive, 1u);
    t1 = now();
    if (t == 0) while (ld_acquire(arrive) < unsigned(parts)) __nanosleep(32);
  }
  wg_sync(w);
  const unsigned long long t2 = now();
  // The slice: elements [part·n/parts, (part+1)·n/parts) of this tile part, thread-strided.
  const int begin = int((long long)part * n / parts), end = int((long long)(part + 1) * n / parts);
  __half2* out = C + size_t(tw) * n;
  if (variant == kStore || variant == kStoreGen) {
    const unsigned long long* all = slots + size_t(tw) * parts * n;
    for (int i = begin + t; i < end; i += 128) {
      float lo = 0, hi = 0;
      for (int p = 0; p < parts; ++p) {
        float a, b;
        asm volatile("ld.global.cg.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "l"(all + size_t(p) * n + i) : "memory");
        lo += a, hi += b;
      }
      out[i] = __floats2half2_rn(lo, hi);
    }
  } else if (variant == kRed) {
    float2* mine = tiles + size_t(tw) * n;
    for (int i = begin + t; i < end; i += 128) {
      float a, b;
      asm volatile("ld.global.cg.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "l"(mine + i) : "memory");
      out[i] = __floats2half2_rn(a, b);
      asm volatile("st.global.cg.v2.f32 [%0], {%1, %1};" :: "l"(mine + i), "f"(0.f) : "memory");
    }
  }
  wg_sync(w);
  if (!gen_variant && t == 0 && atomicAdd(depart, 1u) == unsigned(parts - 1)) { *arrive = 0u; *depart = 0u; }
  const unsigned long long t3 = now();
  if (stamps && t == 0) {
    unsigned long long* s = stamps + (size_t(blockIdx.x) * wgs + w) * 4;
    s[0] = t0, s[1] = t1, s[2] = t2, s[3] = t3;
  }
}

int main() {
  const char* names[] = {"sync", "store", "red", "sync_gen", "store_gen"};
  struct Tile { int wg, pairs; } tiles_kinds[] = {{2, 32}, {1, 16}};
  const int parts_list[] = {4, 8, 16, 32};
  size_t max_pairs = size_t(kCtas) * 2 * 32 * 128;
  unsigned* counters; unsigned* gens; unsigned long long* slots; float2* tiles; __half2* C; unsigned long long* stamps;
  CK(cudaMalloc(&counters, 2 * kCtas * 2 * sizeof(unsigned)));
  CK(cudaMalloc(&gens, kCtas * 2 * sizeof(unsigned)));
  CK(cudaMemset(gens, 0, kCtas * 2 * sizeof(unsigned)));
  CK(cudaMalloc(&slots, max_pairs * 8));
  CK(cudaMalloc(&tiles, max_pairs * 8));
  CK(cudaMalloc(&C, max_pairs * 4));
  CK(cudaMalloc(&stamps, kCtas * 2 * 4 * 8));
  CK(cudaMemset(counters, 0, 2 * kCtas * 2 * sizeof(unsigned)));
  CK(cudaMemset(tiles, 0, max_pairs * 8));
  cudaStream_t s; CK(cudaStreamCreate(&s));
  constexpr int kPerGraph = 20, kReplays = 31;
  std::printf("variant,wg,pairs,parts,kib_per_cta,launch_us,publish_us,wait_us,slice_us,span_us,check\n");
  for (int round = 0; round < 2; ++round)
  for (auto tk : tiles_kinds)
    for (int parts : parts_list)
      for (int v = 0; v < 5; ++v) {
        const int threads = tk.wg * 128;
        cudaGraph_t g; cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < kPerGraph; ++i)
          reduce_probe<<<kCtas, threads, 0, s>>>(v, tk.pairs, parts, counters, slots, tiles, C, nullptr, gens);
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        CK(cudaGraphLaunch(ge, s)); CK(cudaStreamSynchronize(s));
        cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
        std::vector<float> us;
        for (int r = 0; r < kReplays; ++r) {
          CK(cudaEventRecord(a, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(b, s));
          CK(cudaEventSynchronize(b));
          float ms; CK(cudaEventElapsedTime(&ms, a, b)); us.push_back(ms * 1000.f / kPerGraph);
        }
        std::sort(us.begin(), us.end());
        // One stamped launch, then check C: every element is sum(p+1) and parts·(c%4).
        CK(cudaMemset(C, 0, max_pairs * 4));
        reduce_probe<<<kCtas, threads, 0, s>>>(v, tk.pairs, parts, counters, slots, tiles, C, stamps, gens);
        CK(cudaGetLastError()); CK(cudaStreamSynchronize(s));
        const int rows = kCtas * tk.wg;
        std::vector<unsigned long long> st(size_t(rows) * 4);
        CK(cudaMemcpy(st.data(), stamps, st.size() * 8, cudaMemcpyDeviceToHost));
        unsigned long long lo = ~0ull, hi = 0;
        std::vector<double> ph[3];
        for (int r = 0; r < rows; ++r) {
          lo = std::min(lo, st[r * 4]); hi = std::max(hi, st[r * 4 + 3]);
          for (int k = 0; k < 3; ++k) ph[k].push_back((st[r * 4 + k + 1] - st[r * 4 + k]) / 1000.0);
        }
        for (auto& p : ph) std::sort(p.begin(), p.end());
        const char* check = "-";
        if (v != kSync && v != kSyncGen) {
          const size_t n = size_t(rows / parts) * tk.pairs * 128;  // pairs per tile·wg over all tiles
          std::vector<__half2> h(n);
          CK(cudaMemcpy(h.data(), C, n * 4, cudaMemcpyDeviceToHost));
          bool ok = true;
          const float want_lo = float(parts) * (parts + 1) / 2;
          for (size_t i = 0; i < n && ok; ++i) {
            const int c = int(i % (tk.pairs * 128)) / 128;
            float2 f = __half22float2(h[i]);
            ok = f.x == want_lo && f.y == float(parts * (c % 4));
          }
          check = ok ? "ok" : "WRONG";
        }
        std::printf("%s,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%s\n", names[v], tk.wg, tk.pairs, parts,
                    tk.wg * tk.pairs * 128 * 8 / 1024, us[us.size() / 2], ph[0][rows / 2], ph[1][rows / 2],
                    ph[2][rows / 2], (hi - lo) / 1000.0, check);
        CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
        CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
      }
  return 0;
}
