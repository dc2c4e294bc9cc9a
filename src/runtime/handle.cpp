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

  LtPlan(cublasLtHandle_t handle, const Problem& p) : lt(std::make_unique<LtMatmul>(handle, p)) {
    with_workspace = lt->heuristic(1, kLtWorkspaceBytes)[0].algo;
    try {
      without_workspace = lt->heuristic(1, 0)[0].algo;
      has_without = true;
    } catch (const Error&) {
      // every algorithm for this shape needs workspace: a captured first call must fail clearly
    }
  }
};

struct Plan {
  std::unique_ptr<Sm90Kernel> kernel;  // a gemmforge kernel from the table, if one serves it
  std::unique_ptr<LtPlan> lt;          // cuBLASLt: the fallback, made when first needed
  PlanInfo info;
};

bool aligned(const void* p, uintptr_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

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
    for (auto& [stream, ws] : workspaces) cudaFree(ws);  // teardown: nothing left to report to
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
      plan.kernel = std::make_unique<Sm90Kernel>(ctx, *entry->config, LaunchKnobs{}, load(*entry->config));
      plan.kernel->prepare(p, {});
      plan.info = {"gemmforge", entry->config->name()};
      return plan;
    }
    plan.lt = std::make_unique<LtPlan>(ctx.cublaslt(), p);
    plan.info = {"cublaslt", LtMatmul::describe(plan.lt->with_workspace) + "; " + why_lt};
    return plan;
  }

  Plan& plan_for(const Problem& p) {
    const auto key = std::make_tuple(p.shape.M, p.shape.N, p.shape.K, p.layout);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
    return plans.emplace(key, make_plan(p)).first->second;
  }

  void run_lt(Plan& plan, const Problem& p, const Operands& o, cudaStream_t stream) {
    if (!plan.lt) plan.lt = std::make_unique<LtPlan>(ctx.cublaslt(), p);
    auto it = workspaces.find(stream);
    if (it == workspaces.end()) {
      cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
      GF_CUDA(cudaStreamIsCapturing(stream, &capturing));
      if (capturing == cudaStreamCaptureStatusNone) {
        void* ws = nullptr;
        GF_CUDA(cudaMalloc(&ws, kLtWorkspaceBytes));
        it = workspaces.emplace(stream, ws).first;
      }
    }
    if (it != workspaces.end()) {
      plan.lt->lt->run(plan.lt->with_workspace, o, it->second, kLtWorkspaceBytes, stream);
    } else if (plan.lt->has_without) {
      plan.lt->lt->run(plan.lt->without_workspace, o, nullptr, 0, stream);
    } else {
      throw Error("cuBLASLt needs workspace for " + to_string(p.shape) +
                  ", and the first call on this stream is being captured: make one call on it before capturing");
    }
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
  std::lock_guard lock(impl_->mu);
  Plan& plan = impl_->plan_for(p);
  // The TMA kernels need 16-byte aligned A and B (and C for TMA stores); other pointers are
  // served by cuBLASLt rather than refused.
  if (plan.kernel && aligned(A, 16) && aligned(B, 16) && aligned(C, 16)) {
    plan.kernel->run_on(o, stream);
    return;
  }
  impl_->run_lt(plan, p, o, stream);
}

PlanInfo Handle::plan(int64_t M, int64_t N, int64_t K, Layout layout) {
  const Problem p = checked_problem(M, N, K, layout);
  std::lock_guard lock(impl_->mu);
  return impl_->plan_for(p).info;
}

std::string Handle::table_status() const { return impl_->table_status; }

}  // namespace gemmforge
