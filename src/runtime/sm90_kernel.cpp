#include "runtime/sm90_kernel.hpp"

#include <algorithm>
#include <limits>

#include "core/shape.hpp"
#include "eval/cuda_check.hpp"
#include "jit/cache_key.hpp"
#include "sm90/work_division.cuh"  // the kernel's launch flags

namespace gemmforge {

std::string kernel_include_dir() { return find_data_file("kernels/sm90/hgemm_ws.cuh").parent_path().parent_path().string(); }

TableExpectation table_expectation(const GpuInfo& gpu, bool other_gpu_allowed) {
  return {gpu.name, "sm_" + std::to_string(gpu.cc_major) + std::to_string(gpu.cc_minor) + "a",
          jit::include_dirs_fingerprint({kernel_include_dir()}), other_gpu_allowed};
}

jit::CompileRequest compile_request(const KernelConfig& c, const ShapeConstants& constants) {
  jit::CompileRequest r;
  r.name = c.name() + specialization_suffix(constants);
  r.source = jit_source(c, constants);
  r.arch = "sm_90a";
  r.include_dirs = {kernel_include_dir()};
  return r;
}

std::string why_not_supported(const KernelConfig& c, const Problem& p) {
  return why_not_supported(c, p, packed_pitches(p.shape, p.layout));
}

std::string why_not_supported(const KernelConfig& c, const Problem& p, const Pitches& pitch) {
  if (c.layout != p.layout) return "config is for layout " + to_string(c.layout);
  if (c.acc != p.acc) return "config accumulates in " + to_string(c.acc);
  const Pitches packed = packed_pitches(p.shape, p.layout);
  if (pitch.a < packed.a || pitch.b < packed.b || pitch.c < packed.c) return "a row stride is shorter than its row";
  // TMA needs every row stride to be a multiple of 16 bytes: A rows are K fp16 long, B rows are
  // K long in tn and N long in nn (packed; core/staging.hpp pads them).
  auto apart = [](const char* operand, int64_t pitch) {
    return std::string(operand) + "'s rows are " + std::to_string(pitch) +
           " elements apart, not a multiple of 8 (TMA needs 16-byte row strides)";
  };
  if (pitch.a % 8 != 0)
    return pitch.a == p.shape.K ? "K = " + std::to_string(p.shape.K) + " is not a multiple of 8 (TMA needs 16-byte row strides)"
                                : apart("A", pitch.a);
  if (pitch.b % 8 != 0)
    return pitch.b == p.shape.N && p.layout == Layout::nn
               ? "N = " + std::to_string(p.shape.N) + " is not a multiple of 8 (TMA needs 16-byte rows of B in layout nn)"
               : apart("B", pitch.b);
  if (c.tma_store && pitch.c % 8 != 0)
    return "N = " + std::to_string(p.shape.N) + " is not a multiple of 8 (the TMA-store epilogue needs 16-byte rows of C)";
  // The kernel takes C's row stride as its N (a staged C' is written pad columns and all), and
  // swap-AB stores Cᵀ with rows of its own M: it cannot write C at another stride.
  if (c.swap_ab && pitch.c != p.shape.N) return "swap-AB cannot store C at a row stride other than N";
  if (p.shape.M > (int64_t(1) << 31) - 1 || pitch.c > (int64_t(1) << 31) - 1 || p.shape.K > (int64_t(1) << 31) - 128)
    return "dimension too large for int indexing";
  return {};
}

std::shared_ptr<jit::LoadedKernel> Sm90Kernel::load(const KernelConfig& c, const std::vector<char>& cubin) {
  auto k = std::make_shared<jit::LoadedKernel>(jit::LoadedKernel::load(cubin, kJitKernelName));
  k->set_max_dynamic_shared(c.shared_bytes());
  return k;
}

Sm90Kernel::Sm90Kernel(DeviceContext& ctx, KernelConfig c, LaunchKnobs knobs, std::shared_ptr<jit::LoadedKernel> k,
                       ShapeConstants constants)
    : ctx_(ctx),
      config_(c),
      knobs_(knobs),
      kernel_(std::move(k)),
      constants_(constants),
      block_(unsigned(c.threads()), 1, 1),
      cluster_(unsigned(c.cluster_m * c.cluster_n), 1, 1),
      smem_bytes_(c.shared_bytes()) {}

void Sm90Kernel::pad_shared_memory(int bytes) {
  if (bytes < 0) throw Error("a shared-memory pad cannot be negative");
  const int total = config_.shared_bytes() + bytes;
  if (total > kMaxSharedBytesPerCta)
    throw Error("the config uses " + std::to_string(config_.shared_bytes()) + " bytes of shared memory; with a pad of " +
                std::to_string(bytes) + " that is more than the " + std::to_string(kMaxSharedBytesPerCta) +
                " a CTA can have");
  kernel_->set_max_dynamic_shared(total);
  smem_bytes_ = total;
}

bool Sm90Kernel::accepts(const Operands& o) const {
  auto aligned = [](const void* p, uintptr_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; };
  // Swap-AB stores single fp16 elements; direct stores pair them (4 bytes); TMA stores need 16.
  return aligned(o.A, 16) && aligned(o.B, 16) && aligned(o.C, config_.tma_store ? 16 : (config_.swap_ab ? 2 : 4));
}

void Sm90Kernel::prepare(const Problem& caller, const std::vector<Operands>&) {
  pitches_ = requested_pitches_ ? *requested_pitches_ : packed_pitches(caller.shape, caller.layout);
  if (auto why = why_not_supported(config_, caller, pitches_); !why.empty()) throw Error(config_.name() + ": " + why);
  if (auto why = launch_problem(config_, knobs_); !why.empty()) throw Error(KernelCandidate{config_, knobs_}.name() + ": " + why);
  if (auto why = why_not_specialized_for(constants_, caller.shape); !why.empty()) throw Error(note() + ": " + why);
  problem_ = caller;
  // The problem as launched: a C whose rows are wider than N (staged) is computed as C' of that
  // width, its columns past N read as zeros from B (the maps keep B's real extent).
  Problem p = caller;
  p.shape.N = pitches_.c;
  if (p.shape.N != caller.shape.N && constants_)
    throw Error(note() + ": a kernel compiled for one shape cannot write C at a row stride other than N");
  maps_.clear();
  const int cluster = config_.cluster_m * config_.cluster_n;
  // The kernel's M and N: the caller's, or swapped when it computes Cᵀ.
  kernel_m_ = config_.swap_ab ? p.shape.N : p.shape.M;
  kernel_n_ = config_.swap_ab ? p.shape.M : p.shape.N;
  const int64_t tiles = cluster_tiles(config_, p.shape.M, p.shape.N);
  splits_ = effective_splits(config_, p.shape.K, knobs_.splits);
  const int64_t k_blocks = (p.shape.K + config_.block_k - 1) / config_.block_k;
  // Stream-K needs a CTA per SM, each with at least one K iteration.
  const int64_t units = knobs_.stream_k ? tiles * k_blocks : tiles * splits_;
  int64_t clusters = units;
  if (knobs_.persistent) {
    if (resident_clusters_ == 0)
      resident_clusters_ = cluster == 1 ? ctx_.info().sm_count
                                        : jit::max_active_clusters(*kernel_, block_, cluster_, smem_bytes_);
    if (resident_clusters_ < 1) throw Error(config_.name() + ": no cluster of this kernel fits on the GPU");
    clusters = std::min<int64_t>(units, resident_clusters_);
  }
  if (clusters * cluster > int64_t(std::numeric_limits<int>::max()))
    throw Error(config_.name() + ": " + to_string(p.shape) + " needs more CTAs than one launch takes");
  grid_ = dim3(unsigned(clusters * cluster), 1, 1);
  group_m_ = launch_group(config_, knobs_.group_m, int(clusters), kernel_m_, kernel_n_);
  // A sliced reduction waits for every part of a tile. A persistent grid has every part in it,
  // and a cooperative launch guarantees they all run at once even when other kernels hold SMs
  // (without it, a CTA could spin on a part that waits for the SM the spinner holds).
  cooperative_ = knobs_.sliced_reduction && knobs_.persistent && (splits_ > 1 || knobs_.stream_k);
  // Only if each of a tile's parts has a cluster of its own: with more parts than clusters in the
  // grid, a cluster would wait in the sum for a part it holds for later, and never return (16
  // parts in clusters of 8, of which fewer than 16 fit on the H200: bench/NOTES.md, session 25).
  if (cooperative_ && splits_ > clusters)
    throw Error(KernelCandidate{config_, knobs_}.name() + ": a sliced split-K sum needs every part of a tile running at once: " +
                std::to_string(splits_) + " parts, " + std::to_string(clusters) + " clusters of " + std::to_string(cluster) +
                " CTAs resident (fewer parts, smaller clusters, or the last-arriver sum)");
  // Reducing inside a cluster: the parts of a tile are consecutive CTAs (tile_scheduler.cuh), so
  // clusters of `splits` CTAs along the grid hold one tile each, rank = part. K too short to
  // split leaves one part: an ordinary launch.
  const bool in_cluster = knobs_.cluster_reduction && splits_ > 1;
  cluster_ = in_cluster ? dim3(unsigned(splits_), 1, 1) : dim3(unsigned(cluster), 1, 1);
  if (in_cluster) {
    if (splits_ > 8) kernel_->set_attribute(CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (jit::max_active_clusters(*kernel_, block_, cluster_, smem_bytes_) < 1)
      throw Error(KernelCandidate{config_, knobs_}.name() + ": no cluster of " + std::to_string(splits_) +
                  " CTAs of this kernel fits on the GPU");
  }
  dynamic_walk_ = walks_dynamically(config_, knobs_, splits_);
  launch_flags_ = (knobs_.stream_k ? sm90::kFlagStreamK : 0) | (cooperative_ ? sm90::kFlagSlicedReduction : 0) |
                  (in_cluster ? sm90::kFlagClusterReduction : 0) | (dynamic_walk_ ? sm90::kFlagDynamicWalk : 0);
  workspace_bytes_ = in_cluster       ? 0
                     : knobs_.stream_k ? streamk_workspace_bytes(config_, p.shape.M, p.shape.N, p.shape.K, int(grid_.x))
                     : dynamic_walk_   ? kDynamicWalkWorkspaceBytes
                                       : splitk_workspace_bytes(config_, p.shape.M, p.shape.N, p.shape.K, splits_);
  if (!caller_workspace_ && workspace_bytes_ > 0) {
    if (own_workspace_.bytes() < workspace_bytes_) own_workspace_ = DeviceBuffer(workspace_bytes_);
    // Zeroed on every prepare: the counters of this problem may sit where the partial sums of
    // the one prepared before were. On the stream run() uses, so the zeroing comes after the
    // launches before and before the next (the legacy stream orders neither: ctx_'s stream is
    // non-blocking).
    GF_CUDA(cudaMemsetAsync(own_workspace_.get(), 0, workspace_bytes_, ctx_.stream()));
  }
}

std::string Sm90Kernel::launch_detail() const {
  return "grid " + std::to_string(grid_.x) + " CTAs, raster groups of " + std::to_string(group_m_) +
         (config_.walk_n ? " tile columns, n fastest, serpentine in m" : " tile rows") +
         (splits_ > 1 ? ", K split in " + std::to_string(splits_) : std::string()) +
         (knobs_.stream_k ? ", stream-K for the last partial wave" : std::string()) +
         (cooperative_ ? ", shared tiles summed in slices (cooperative launch)" : std::string()) +
         (dynamic_walk_ ? ", tiles taken from a counter as clusters free up" : std::string()) +
         ((launch_flags_ & sm90::kFlagClusterReduction) ? ", each tile's parts summed in a cluster of " +
                                                              std::to_string(cluster_.x) + " CTAs"
                                                        : std::string()) +
         (workspace_bytes_ > 0 ? " (workspace " + std::to_string(workspace_bytes_ >> 10) + " KiB)" : std::string()) +
         (config_.cluster_m * config_.cluster_n > 1 ? ", at most " + std::to_string(resident_clusters_) + " clusters resident"
                                                    : std::string());
}

Sm90Kernel::Maps& Sm90Kernel::maps_for(const Operands& o) {
  const auto key = std::make_tuple(static_cast<const void*>(o.A), static_cast<const void*>(o.B), static_cast<const void*>(o.C));
  if (auto it = maps_.find(key); it != maps_.end()) return it->second;
  if (maps_.size() >= 64) maps_.clear();  // a caching allocator hands out many buffers: stay small
  const auto& s = problem_.shape;
  const auto& c = config_;
  // TMA needs 16-byte aligned bases; the direct epilogue's paired stores need a 4-byte aligned C.
  if (!accepts(o))
    throw Error(c.name() + ": operands must be 16-byte (A, B) and " + (c.tma_store ? "16" : (c.swap_ab ? "2" : "4")) +
                "-byte (C) aligned");
  // 2-D maps, innermost dimension first; reads past the matrix edge come back as zeros and
  // stores past it are clipped. A box is the part of a tile one TMA instruction moves: with
  // multicast, each CTA of the pair loads half of the shared operand's tile.
  auto map = [](const void* base, int64_t inner, int64_t outer, int64_t pitch, int box_inner, int box_outer,
                CUtensorMapSwizzle sw) {
    const cuuint64_t dims[2] = {cuuint64_t(inner), cuuint64_t(outer)};
    const cuuint64_t strides[1] = {cuuint64_t(pitch) * 2};
    const cuuint32_t box[2] = {cuuint32_t(box_inner), cuuint32_t(box_outer)};
    const cuuint32_t elem[2] = {1, 1};
    return jit::encode_tensor_map_tiled(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<void*>(base), dims, strides, box,
                                        elem, CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  // With multicast a CTA loads its slice of each tile it shares: A with its cluster row (cluster_n
  // CTAs), B with its column (cluster_m CTAs), as kernels/sm90/hgemm_traits.cuh cuts them.
  const bool multicast_a = c.multicast && c.cluster_n > 1, multicast_b = c.multicast && c.cluster_m > 1;
  // K-major operands (A; B in tn) are {K, rows} in boxes of 64 × rows; N-major B (nn) is {N, K}
  // in boxes of 64 columns × block_k rows, block_n / 64 of them per stage.
  // Swap-AB (tn only): the kernel's A is the caller's B (N×K) and its B the caller's A (M×K).
  const void* kernel_a = c.swap_ab ? static_cast<const void*>(o.B) : o.A;
  const void* kernel_b = c.swap_ab ? static_cast<const void*>(o.A) : o.B;
  // The maps span the operands' real extents (reads past them are zeros) at their row strides.
  const int64_t kernel_a_rows = c.swap_ab ? s.N : s.M, kernel_b_rows = c.swap_ab ? s.M : s.N;
  const int64_t kernel_a_pitch = c.swap_ab ? pitches_.b : pitches_.a, kernel_b_pitch = c.swap_ab ? pitches_.a : pitches_.b;
  Maps m{};
  m.a = map(kernel_a, s.K, kernel_a_rows, kernel_a_pitch, 64, multicast_a ? c.block_m / c.cluster_n : c.block_m,
            CU_TENSOR_MAP_SWIZZLE_128B);
  if (problem_.layout == Layout::nn)
    m.b = map(kernel_b, s.N, s.K, pitches_.b, 64, multicast_b ? c.block_k / c.cluster_m : c.block_k, CU_TENSOR_MAP_SWIZZLE_128B);
  else
    m.b = map(kernel_b, s.K, kernel_b_rows, kernel_b_pitch, 64, multicast_b ? c.block_n / c.cluster_m : c.block_n,
              CU_TENSOR_MAP_SWIZZLE_128B);
  if (c.tma_store) {
    // The epilogue's column blocks, swizzled as wide as they are (kernels/sm90/epilogue.cuh).
    const int cols = c.epilogue_block_cols();
    const CUtensorMapSwizzle sw =
        cols == 64 ? CU_TENSOR_MAP_SWIZZLE_128B : (cols == 32 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_32B);
    m.c = map(o.C, pitches_.c, s.M, pitches_.c, cols, c.epilogue_store_rows(), sw);  // the box of one TMA store
  }
  return maps_.emplace(key, m).first->second;
}

void Sm90Kernel::run(const Operands& o) { run_on(o, ctx_.stream(), own_workspace_.get()); }

void Sm90Kernel::run_on(const Operands& o, cudaStream_t stream, void* workspace) {
  Maps& m = maps_for(o);
  if (workspace_bytes_ > 0 && !workspace)
    throw Error(config_.name() + (dynamic_walk_ ? ": the dynamic walk needs a workspace" : ": split-K needs a workspace"));
  void* c = o.C;
  int M = int(kernel_m_), N = int(kernel_n_), K = int(problem_.shape.K), group = group_m_, splits = splits_;
  int flags = launch_flags_;
  void* args[] = {&m.a, &m.b, &m.c, &c, &M, &N, &K, &group, &splits, &flags, &workspace};
  jit::launch(*kernel_, grid_, block_, cluster_, smem_bytes_, stream, args, knobs_.pdl, cooperative_);
}

}  // namespace gemmforge
