// The runtime library's handle (include/gemmforge/gemm.hpp): plans per (M, N, K, layout), made on
// first use from the dispatch table, and the calls on the caller's stream.
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>

#include "eval/cuda_check.hpp"
#include "eval/device.hpp"
#include "eval/lt_matmul.hpp"
#include "gemmforge/gemm.hpp"
#include "jit/cache_key.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/table.hpp"

namespace gemmforge {

namespace {

// The cuBLASLt fallback's workspace per stream: enough for its split-K algorithms.
constexpr size_t kLtWorkspaceBytes = size_t(32) << 20;

// cuBLASLt for one problem: the heuristic's first algorithm with workspace, and one without for
// calls captured on a stream that has none yet (no device allocation is allowed then).
struct LtPlan {
  std::unique_ptr<LtMatmul> lt;
  cublasLtMatmulAlgo_t with_workspace{}, without_workspace{};
  bool has_without = false;

  LtPlan(cublasLtHandle_t handle, const Problem& p, uint32_t alignment) : lt(std::make_unique<LtMatmul>(handle, p)) {
    with_workspace = lt->heuristic(1, kLtWorkspaceBytes, alignment)[0].algo;
    try {
      without_workspace = lt->heuristic(1, 0, alignment)[0].algo;
      has_without = true;
    } catch (const Error&) {
      // every algorithm for this shape needs workspace: a captured first call must fail clearly
    }
  }
};

struct Plan {
  std::unique_ptr<Sm90Kernel> kernel;  // a gemmforge kernel from the table, if one serves it
  // cuBLASLt, per operand alignment (256, 128, ..., 2 bytes): made when first needed.
  std::map<uint32_t, std::unique_ptr<LtPlan>> lt;
  PlanInfo info;
};

// The alignment every operand has, as cuBLASLt's heuristic wants it: a power of two, at most 256.
uint32_t common_alignment(const void* a, const void* b, const void* c) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b) | reinterpret_cast<uintptr_t>(c);
  uint32_t align = 256;
  while (align > 2 && bits % align != 0) align /= 2;
  return align;
}

}  // namespace

struct Handle::Impl {
  HandleOptions options;
  DeviceContext ctx;  // throws NoGpuError without a GPU
  std::optional<Table> table;
  std::string table_status = "no table: every call goes to cuBLASLt";
  std::unique_ptr<jit::KernelCache> cache;
  std::map<std::string, std::shared_ptr<jit::LoadedKernel>> loaded;  // by config name
  std::map<std::tuple<int64_t, int64_t, int64_t, Layout>, Plan> plans;
  std::map<cudaStream_t, void*> workspaces;
  std::mutex mu;

  explicit Impl(const HandleOptions& o) : options(o) {
    std::string path = o.table;
    if (path.empty())
      if (const char* env = std::getenv("GEMMFORGE_TABLE"); env && *env) path = env;
    if (path.empty()) return;
    try {
      const auto& info = ctx.info();
      const TableExpectation want{info.name, "sm_" + std::to_string(info.cc_major) + std::to_string(info.cc_minor) + "a",
                                  jit::include_dirs_fingerprint({kernel_include_dir()})};
      table = load_table(path, want);
      table_status = "table " + path + ": " + std::to_string(table->exact.size()) + " shapes, " +
                     std::to_string(table->rules.size()) + " class rules";
    } catch (const Error& e) {
      table_status = std::string("table not used, every call goes to cuBLASLt: ") + e.what();
    }
  }

  ~Impl() {
    // Work enqueued by this handle may still run, and its kernels' modules are about to be
    // unloaded: wait for the device first (teardown has no one to report an error to).
    cudaSetDevice(ctx.info().device);
    cudaDeviceSynchronize();
    for (auto& [stream, ws] : workspaces) cudaFree(ws);
  }

  std::shared_ptr<jit::LoadedKernel> load(const KernelConfig& c) {
    if (auto it = loaded.find(c.name()); it != loaded.end()) return it->second;
    if (!cache) cache = std::make_unique<jit::KernelCache>();
    const auto compiled = jit::compile_cached(compile_request(c), *cache);
    if (!compiled.ok) throw Error("kernel " + c.name() + " does not compile: " + compiled.log.substr(0, 300));
    auto k = Sm90Kernel::load(c, compiled.cubin);
    loaded.emplace(c.name(), k);
    return k;
  }

  Plan make_plan(const Problem& p) {
    Plan plan;
    std::string why_lt = "not in the table";
    if (!options.use_gemmforge_kernels) {
      why_lt = "gemmforge kernels switched off";
    } else if (!table) {
      why_lt = "no table";
    } else if (const auto entry = table->lookup(p.shape, p.layout, p.acc); !entry) {
      why_lt = "not in the table";
    } else if (!entry->config) {
      why_lt = "the table names cuBLASLt for this shape";
    } else if (auto why = why_not_supported(*entry->config, p); !why.empty()) {
      why_lt = why;
    } else if (ctx.info().cc_major != 9) {
      why_lt = "gemmforge's kernels need an sm_90 GPU";
    } else {
      try {
        plan.kernel = std::make_unique<Sm90Kernel>(ctx, *entry->config, LaunchKnobs{}, load(*entry->config));
        plan.kernel->prepare(p, {});
        plan.info = {"gemmforge", entry->config->name()};
        return plan;
      } catch (const Error& e) {  // a kernel that cannot be built or launched here: cuBLASLt serves
        plan.kernel.reset();
        why_lt = std::string("the table's kernel is unusable here: ") + e.what();
      }
    }
    auto lt = std::make_unique<LtPlan>(ctx.cublaslt(), p, 256);
    plan.info = {"cublaslt", LtMatmul::describe(lt->with_workspace) + "; " + why_lt};
    plan.lt.emplace(256, std::move(lt));
    return plan;
  }

  Plan& plan_for(const Problem& p) {
    const auto key = std::make_tuple(p.shape.M, p.shape.N, p.shape.K, p.layout);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
    return plans.emplace(key, make_plan(p)).first->second;
  }

  void run_lt(Plan& plan, const Problem& p, const Operands& o, cudaStream_t stream) {
    const uint32_t alignment = common_alignment(o.A, o.B, o.C);
    auto& lt = plan.lt[alignment];
    if (!lt) lt = std::make_unique<LtPlan>(ctx.cublaslt(), p, alignment);
    auto it = workspaces.find(stream);
    if (it == workspaces.end()) {
      cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
      GF_CUDA(cudaStreamIsCapturing(stream, &capturing));
      if (capturing == cudaStreamCaptureStatusNone) {
        // This stream is not capturing, but another may be (any thread, in global mode): a
        // relaxed capture mode keeps this allocation from invalidating that capture.
        cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
        GF_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
        void* ws = nullptr;
        const cudaError_t e = cudaMalloc(&ws, kLtWorkspaceBytes);
        GF_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
        GF_CUDA(e);
        it = workspaces.emplace(stream, ws).first;
      }
    }
    if (it != workspaces.end()) {
      lt->lt->run(lt->with_workspace, o, it->second, kLtWorkspaceBytes, stream);
    } else if (lt->has_without) {
      lt->lt->run(lt->without_workspace, o, nullptr, 0, stream);
    } else {
      throw Error("cuBLASLt needs workspace for " + to_string(p.shape) +
                  ", and the first call on this stream is being captured: make one call on it before capturing");
    }
  }

  // Calls must come from a thread whose current device is the handle's; the driver-API launches
  // also need its primary context current, which cudaSetDevice makes so.
  void enter_device() const {
    int current = -1;
    GF_CUDA(cudaGetDevice(&current));
    if (current != ctx.info().device)
      throw UsageError("this gemmforge handle belongs to CUDA device " + std::to_string(ctx.info().device) +
                       ", and the calling thread's current device is " + std::to_string(current));
    GF_CUDA(cudaSetDevice(current));
  }
};

Handle::Handle(const HandleOptions& o) : impl_(std::make_unique<Impl>(o)) {}
Handle::~Handle() = default;

namespace {

Problem checked_problem(int64_t M, int64_t N, int64_t K, Layout layout) {
  if (M < 1 || N < 1 || K < 1)
    throw UsageError("hgemm: dimensions must be at least 1, got " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                     std::to_string(K));
  if (layout != Layout::nn && layout != Layout::tn) throw UsageError("hgemm: unknown layout");
  return Problem{Shape{M, N, K}, layout, Accum::f32};
}

}  // namespace

void Handle::hgemm(int64_t M, int64_t N, int64_t K, const __half* A, const __half* B, __half* C, Layout layout,
                   cudaStream_t stream) {
  const Problem p = checked_problem(M, N, K, layout);
  if (!A || !B || !C) throw UsageError("hgemm: A, B and C must not be null");
  const Operands o{A, B, C};
  impl_->enter_device();
  std::lock_guard lock(impl_->mu);
  Plan& plan = impl_->plan_for(p);
  // Addresses the kernel's TMA maps cannot take are served by cuBLASLt rather than refused.
  if (plan.kernel && plan.kernel->accepts(o)) {
    plan.kernel->run_on(o, stream);
    return;
  }
  impl_->run_lt(plan, p, o, stream);
}

PlanInfo Handle::plan(int64_t M, int64_t N, int64_t K, Layout layout) {
  const Problem p = checked_problem(M, N, K, layout);
  impl_->enter_device();
  std::lock_guard lock(impl_->mu);
  return impl_->plan_for(p).info;
}

std::string Handle::table_status() const { return impl_->table_status; }

}  // namespace gemmforge
