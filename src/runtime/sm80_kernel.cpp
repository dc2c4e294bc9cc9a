#include "runtime/sm80_kernel.hpp"

#include <cstdint>
#include <limits>

#include "core/shape.hpp"

namespace gemmforge {

namespace {

// Where the kernel headers are, for NVRTC's include path (the repository's kernels/).
std::string sm80_kernel_include_dir() {
  return find_data_file("kernels/sm80/hgemm_mma.cuh").parent_path().parent_path().string();
}

}  // namespace

std::string sm80_family_arch(int cc_major, int cc_minor) {
  if (cc_major < 8)
    throw Error("the sm80 kernel family needs compute capability 8.0 or newer (mma.sync m16n8k16, cp.async); this GPU is " +
                std::to_string(cc_major) + "." + std::to_string(cc_minor));
  // sm_90a like the Hopper family, so one architecture names everything compiled for an H100/H200
  // (an sm_90 cubin would run as well; an sm_80 one would not load).
  if (cc_major == 9 && cc_minor == 0) return "sm_90a";
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}

jit::CompileRequest compile_request(const Sm80Config& c, std::string arch, const ShapeConstants& constants) {
  jit::CompileRequest r;
  r.name = c.name() + specialization_suffix(constants);
  r.source = sm80_jit_source(c, constants);
  r.arch = std::move(arch);
  r.include_dirs = {sm80_kernel_include_dir()};
  return r;
}

std::string why_not_supported(const Sm80Config& c, const Problem& p) {
  if (c.layout != p.layout) return "config is for layout " + to_string(c.layout);
  if (c.acc != p.acc) return "config accumulates in " + to_string(c.acc);
  const auto& s = p.shape;
  if (s.M < 1 || s.N < 1 || s.K < 1) return "every dimension must be at least 1";
  // Indices inside the kernel are ints; a k-block may reach up to block_k past K.
  constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();
  if (s.M > kIntMax || s.N > kIntMax || s.K > kIntMax - 128) return "dimension too large for int indexing";
  const int64_t tiles = ((s.M + c.block_m - 1) / c.block_m) * ((s.N + c.block_n - 1) / c.block_n);
  if (tiles > kIntMax) return "more than 2^31 - 1 output tiles (the grid is one CTA per tile)";
  // A 16-byte load is one whole chunk of 8 fp16 in or out of the matrix, from a 16-byte aligned
  // row: rows of A (and B in tn) are K long, rows of B in nn are N long.
  if (c.vec16 && s.K % 8 != 0)
    return "K = " + std::to_string(s.K) + " is not a multiple of 8 (16-byte loads need 16-byte row strides): use a v2 config";
  if (c.vec16 && p.layout == Layout::nn && s.N % 8 != 0)
    return "N = " + std::to_string(s.N) + " is not a multiple of 8 (16-byte loads of B in layout nn need 16-byte rows): use a v2 config";
  return {};
}

std::shared_ptr<jit::LoadedKernel> Sm80Kernel::load(const Sm80Config& c, const std::vector<char>& cubin) {
  auto k = std::make_shared<jit::LoadedKernel>(jit::LoadedKernel::load(cubin, kSm80JitKernelName));
  k->set_max_dynamic_shared(c.shared_bytes());
  return k;
}

Sm80Kernel::Sm80Kernel(DeviceContext& ctx, Sm80Config c, std::shared_ptr<jit::LoadedKernel> k, ShapeConstants constants)
    : ctx_(ctx),
      config_(c),
      kernel_(std::move(k)),
      constants_(constants),
      block_(unsigned(c.threads()), 1, 1),
      smem_bytes_(c.shared_bytes()) {
  if (!kernel_) throw Error(config_.name() + ": no loaded kernel");
}

bool Sm80Kernel::accepts(const Operands& o) const {
  const uintptr_t need = config_.vec16 ? 16 : 2;
  auto aligned = [&](const void* p, uintptr_t a) { return p != nullptr && reinterpret_cast<uintptr_t>(p) % a == 0; };
  // C is written in pairs only when the kernel sees that it is 4-byte aligned (and N even).
  return aligned(o.A, need) && aligned(o.B, need) && aligned(o.C, 2);
}

void Sm80Kernel::prepare(const Problem& p, const std::vector<Operands>&) {
  if (auto why = why_not_supported(config_, p); !why.empty()) throw Error(note() + ": " + why);
  if (auto why = why_not_specialized_for(constants_, p.shape); !why.empty()) throw Error(note() + ": " + why);
  problem_ = p;
  const int64_t tiles = ((p.shape.M + config_.block_m - 1) / config_.block_m) *
                        ((p.shape.N + config_.block_n - 1) / config_.block_n);
  grid_ = dim3(unsigned(tiles), 1, 1);
  prepared_ = true;
}

std::string Sm80Kernel::launch_detail() const {
  return "grid " + std::to_string(grid_.x) + " CTAs of " + std::to_string(block_.x) + " threads, " +
         std::to_string(smem_bytes_) + " B shared memory";
}

void Sm80Kernel::run(const Operands& o) { run_on(o, ctx_.stream()); }

void Sm80Kernel::run_on(const Operands& o, cudaStream_t stream) {
  if (!prepared_) throw Error(config_.name() + ": run before prepare");
  if (!accepts(o))
    throw Error(config_.name() + ": operands must be " + (config_.vec16 ? "16" : "2") +
                "-byte aligned (A, B) and 2-byte aligned (C)" + (config_.vec16 ? "; use a v2 config for others" : ""));
  const void* a = o.A;
  const void* b = o.B;
  void* c = o.C;
  int M = int(problem_.shape.M), N = int(problem_.shape.N), K = int(problem_.shape.K);
  void* args[] = {&a, &b, &c, &M, &N, &K};
  jit::launch(*kernel_, grid_, block_, dim3(1, 1, 1), smem_bytes_, stream, args);
}

}  // namespace gemmforge
