#include "runtime/sm90_kernel.hpp"

#include <algorithm>

#include "core/shape.hpp"

namespace gemmforge {

std::string kernel_include_dir() { return find_data_file("kernels/sm90/hgemm_ws.cuh").parent_path().parent_path().string(); }

jit::CompileRequest compile_request(const KernelConfig& c) {
  jit::CompileRequest r;
  r.name = c.name();
  r.source = jit_source(c);
  r.arch = "sm_90a";
  r.include_dirs = {kernel_include_dir()};
  return r;
}

std::string why_not_supported(const KernelConfig& c, const Problem& p) {
  if (c.layout != p.layout) return "config is for layout " + to_string(c.layout);
  if (c.acc != p.acc) return "config accumulates in " + to_string(c.acc);
  // TMA needs every row stride to be a multiple of 16 bytes: A rows are K fp16 long, B rows are
  // K long in tn and N long in nn.
  if (p.shape.K % 8 != 0) return "K = " + std::to_string(p.shape.K) + " is not a multiple of 8 (TMA needs 16-byte row strides)";
  if (p.layout == Layout::nn && p.shape.N % 8 != 0)
    return "N = " + std::to_string(p.shape.N) + " is not a multiple of 8 (TMA needs 16-byte rows of B in layout nn)";
  if (p.shape.M > (int64_t(1) << 31) - 1 || p.shape.N > (int64_t(1) << 31) - 1) return "dimension too large for int indexing";
  return {};
}

std::shared_ptr<jit::LoadedKernel> Sm90Kernel::load(const KernelConfig& c, const std::vector<char>& cubin) {
  auto k = std::make_shared<jit::LoadedKernel>(jit::LoadedKernel::load(cubin, kJitKernelName));
  k->set_max_dynamic_shared(c.shared_bytes());
  return k;
}

Sm90Kernel::Sm90Kernel(DeviceContext& ctx, KernelConfig c, LaunchKnobs knobs, std::shared_ptr<jit::LoadedKernel> k)
    : ctx_(ctx), config_(c), knobs_(knobs), kernel_(std::move(k)) {}

void Sm90Kernel::prepare(const Problem& p, const std::vector<Operands>&) {
  if (auto why = why_not_supported(config_, p); !why.empty()) throw Error(config_.name() + ": " + why);
  problem_ = p;
  maps_.clear();
  const int64_t tiles = ((p.shape.M + config_.block_m - 1) / config_.block_m) *
                        ((p.shape.N + config_.block_n - 1) / config_.block_n);
  const int64_t ctas = knobs_.persistent ? std::min<int64_t>(tiles, ctx_.info().sm_count) : tiles;
  grid_ = dim3(unsigned(ctas), 1, 1);
}

const Sm90Kernel::Maps& Sm90Kernel::maps_for(const Operands& o) {
  const auto key = std::make_pair(static_cast<const void*>(o.A), static_cast<const void*>(o.B));
  if (auto it = maps_.find(key); it != maps_.end()) return it->second;
  const auto& s = problem_.shape;
  // TMA needs 16-byte aligned bases; the epilogue's paired stores need a 4-byte aligned C.
  auto misaligned = [](const void* p, uintptr_t a) { return reinterpret_cast<uintptr_t>(p) % a != 0; };
  if (misaligned(o.A, 16) || misaligned(o.B, 16) || misaligned(o.C, 4))
    throw Error(config_.name() + ": operands must be 16-byte (A, B) and 4-byte (C) aligned");
  // 2-D maps, innermost dimension first. Boxes are 64 fp16 (128 bytes) wide, with the 128-byte
  // swizzle the wgmma descriptors expect; reads past the matrix edge come back as zeros.
  // K-major operands (A; B in tn): {K, rows}, one box per stage. N-major B (nn): {N, K}, boxes of
  // 64 columns × block_k rows, block_n / 64 of them per stage.
  auto operand_map = [&](const void* base, int64_t inner, int64_t outer, int box_outer) {
    const cuuint64_t dims[2] = {cuuint64_t(inner), cuuint64_t(outer)};
    const cuuint64_t strides[1] = {cuuint64_t(inner) * 2};
    const cuuint32_t box[2] = {64, cuuint32_t(box_outer)};
    const cuuint32_t elem[2] = {1, 1};
    return jit::encode_tensor_map_tiled(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, const_cast<void*>(base), dims, strides,
                                        box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  const bool n_major = problem_.layout == Layout::nn;
  Maps m{operand_map(o.A, s.K, s.M, config_.block_m),
         n_major ? operand_map(o.B, s.N, s.K, config_.block_k) : operand_map(o.B, s.K, s.N, config_.block_n)};
  return maps_.emplace(key, m).first->second;
}

void Sm90Kernel::run(const Operands& o) {
  const Maps& m = maps_for(o);
  void* c = o.C;
  int M = int(problem_.shape.M), N = int(problem_.shape.N), K = int(problem_.shape.K), group = knobs_.group_m;
  void* args[] = {const_cast<CUtensorMap*>(&m.a), const_cast<CUtensorMap*>(&m.b), &c, &M, &N, &K, &group};
  jit::launch(*kernel_, grid_, dim3(unsigned(config_.threads()), 1, 1), dim3(1, 1, 1), config_.shared_bytes(),
              ctx_.stream(), args);
}

}  // namespace gemmforge
