// The runtime library's handle (include/gemmforge/gemm.hpp): plans per (M, N, K, layout), made on
// first use from the dispatch table, and the calls on the caller's stream.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/env_switch.hpp"
#include "core/shape.hpp"
#include "core/staging.hpp"
#include "eval/cuda_check.hpp"
#include "eval/device.hpp"
#include "eval/graph_exec.hpp"
#include "eval/lt_matmul.hpp"
#include "gemmforge/gemm.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/plan_measurement.hpp"
#include "runtime/replay_book.hpp"
#include "runtime/stream_recency.hpp"
#include "runtime/sm80_kernel.hpp"
#include "runtime/sm90_kernel.hpp"
#include "runtime/staged_operands.hpp"
#include "runtime/table.hpp"
#include "runtime/table_choice.hpp"

namespace gemmforge {

namespace {

// cuBLASLt for one problem: with workspace, the algorithm the table names (autotuned when the
// table was made, for 256-byte aligned operands) or else the heuristic's first; and one without
// workspace for calls captured on a stream that has none yet (no device allocation then).
static_assert(kLtWorkspaceBytes == DeviceContext::kWorkspaceBytes,
              "the runtime asks cuBLASLt for algorithms exactly as the tuner's baseline did");

struct LtPlan {
  std::unique_ptr<LtMatmul> lt;
  cublasLtMatmulAlgo_t with_workspace{}, without_workspace{};
  bool has_without = false;
  std::string picked = "heuristic's first";

  LtPlan(cublasLtHandle_t handle, const Problem& p, uint32_t alignment, int table_algo, const Pitches& pitches)
      : lt(std::make_unique<LtMatmul>(handle, p, pitches)) {
    if (table_algo >= 0 && alignment == 256) {
      const auto list = lt->heuristic(kLtHeuristicCount, kLtWorkspaceBytes, alignment);
      // The same request gives the same list; a shorter one (another library version) falls back.
      if (size_t(table_algo) < list.size()) {
        with_workspace = list[size_t(table_algo)].algo;
        picked = "autotuned pick " + std::to_string(table_algo + 1) + " of " + std::to_string(list.size());
      } else {
        with_workspace = list.front().algo;
      }
    } else {
      with_workspace = lt->heuristic(1, kLtWorkspaceBytes, alignment)[0].algo;
    }
    try {
      without_workspace = lt->heuristic(1, 0, alignment)[0].algo;
      has_without = true;
    } catch (const Error&) {
      // every algorithm for this shape needs workspace: a captured first call must fail clearly
    }
  }
};

struct PlanKey {
  int64_t M, N, K;
  Layout layout;
  bool operator==(const PlanKey&) const = default;
};
struct PlanKeyHash {
  size_t operator()(const PlanKey& k) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the four fields
    for (uint64_t v : {uint64_t(k.M), uint64_t(k.N), uint64_t(k.K), uint64_t(k.layout)}) h = (h ^ v) * 1099511628211ull;
    return size_t(h);
  }
};

uint64_t next_handle_serial() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

// How many of the nearest tuned shapes' kernels a new shape's measurement tries.
constexpr size_t kMeasuredNeighbors = 4;

struct Plan {
  std::unique_ptr<Sm90Kernel> kernel;  // a gemmforge Hopper kernel from the table, if one serves it
  std::unique_ptr<Sm80Kernel> sm80;    // or a kernel of the sm80 family
  int cublaslt_algo = -1;              // cuBLASLt's algorithm the table names (256-byte operands)
  // The kernel's workspace (split-K's or stream-K's sums and counters, the dynamic walk's tile
  // counter), one per stream, zeroed when made. Per plan because its layout (where the counters
  // end and the partial sums begin) depends on the problem: a workspace shared between shapes
  // would leave one shape's partial sums where another keeps its counters.
  // Never freed while the handle lives: graphs captured from a stream keep pointing at it.
  std::map<cudaStream_t, DeviceBuffer> kernel_workspaces;
  // cuBLASLt, per operand alignment (256, 128, ..., 2 bytes): made when first needed.
  std::map<uint32_t, std::unique_ptr<LtPlan>> lt;
  // A call whose row strides TMA cannot take (core/staging.hpp): the operands it copies, and
  // where, per stream (in the handle's staging buffer of that stream).
  Staging staging;
  std::map<cudaStream_t, StagedOperands> staged;
  // The row strides the plan's backend sees: the staged ones, or the caller's packed ones.
  Pitches pitches(const Problem& p) const { return staging.any() ? staging.pitches : packed_pitches(p.shape, p.layout); }
  // Graphs of repeated calls (HandleOptions::replay); freed after the device is idle (~Impl).
  ReplayBook<GraphExec> replays;
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
  bool table_of_other_gpu = false;  // HandleOptions::table_from_other_gpu let it in
  std::unique_ptr<jit::KernelCache> cache;
  std::map<std::string, std::shared_ptr<jit::LoadedKernel>> loaded;  // by config name
  // Looked up on every call: hashed, and node-based so that a Plan& stays valid as plans are added.
  std::unordered_map<PlanKey, Plan, PlanKeyHash> plans;
  const uint64_t serial = next_handle_serial();  // tells this handle from any earlier one
  std::map<cudaStream_t, void*> workspaces;
  // Per stream, the buffers staged calls copy into, the largest last: shared by the stream's plans
  // (its calls run in order), made outside a capture, kept for the handle's life (graphs point at them).
  std::map<cudaStream_t, std::vector<DeviceBuffer>> staging_buffers;
  cudaStream_t capture_stream = nullptr;  // where replayed calls are captured, made when first needed
  StreamRecency<> recent;                 // when the last call on each stream returned (Replay::except_pdl_back_to_back)
  std::mutex mu;

  explicit Impl(const HandleOptions& o) : options(o) {
    override_switch("GEMMFORGE_MEASURE_NEW_SHAPES", options.measure_new_shapes);
    override_switch("GEMMFORGE_TABLE_FROM_OTHER_GPU", options.table_from_other_gpu);
    override_switch("GEMMFORGE_STAGE_UNALIGNED", options.stage_unaligned);
    if (const char* env = std::getenv("GEMMFORGE_REPLAY"); env && *env) {
      const std::string v = env;
      if (v == "off") options.replay = HandleOptions::Replay::off;
      else if (v == "except-pdl") options.replay = HandleOptions::Replay::except_pdl;
      else if (v == "except-pdl-back-to-back") options.replay = HandleOptions::Replay::except_pdl_back_to_back;
      else if (v == "all") options.replay = HandleOptions::Replay::all;
      else throw UsageError("GEMMFORGE_REPLAY must be off, except-pdl, except-pdl-back-to-back or all, got '" + v + "'");
    }
    TableChoice chosen = choose_table(o.table, ctx.info().name,
                                      [&] { return table_expectation(ctx.info(), options.table_from_other_gpu); });
    table = std::move(chosen.table);
    table_of_other_gpu = chosen.of_other_gpu;
    table_status = std::move(chosen.status);
  }

  ~Impl() {
    // Work enqueued by this handle may still run, and its kernels' modules are about to be
    // unloaded: wait for the device first (teardown has no one to report an error to).
    cudaSetDevice(ctx.info().device);
    cudaDeviceSynchronize();
    for (auto& [stream, ws] : workspaces) cudaFree(ws);
    if (capture_stream) cudaStreamDestroy(capture_stream);
  }

  // A kernel's module, compiled (or taken from the disk cache) and loaded once per handle; with
  // `constants`, the build for that one shape.
  std::shared_ptr<jit::LoadedKernel> load(const KernelConfig& c, const ShapeConstants& constants = std::nullopt) {
    return load_as(c.name() + specialization_suffix(constants), compile_request(c, constants),
                   [&](const std::vector<char>& cubin) { return Sm90Kernel::load(c, cubin); });
  }
  std::shared_ptr<jit::LoadedKernel> load(const Sm80Config& c, const ShapeConstants& constants) {
    const std::string arch = sm80_family_arch(ctx.info().cc_major, ctx.info().cc_minor);
    return load_as(c.name() + specialization_suffix(constants), compile_request(c, arch, constants),
                   [&](const std::vector<char>& cubin) { return Sm80Kernel::load(c, cubin); });
  }
  template <class LoadCubin>
  std::shared_ptr<jit::LoadedKernel> load_as(const std::string& name, const jit::CompileRequest& request,
                                             LoadCubin load_cubin) {
    if (auto it = loaded.find(name); it != loaded.end()) return it->second;
    if (!cache) cache = std::make_unique<jit::KernelCache>();
    const auto compiled = jit::compile_cached(request, *cache);
    if (!compiled.ok) throw Error("kernel " + name + " does not compile: " + compiled.log.substr(0, 300));
    auto k = load_cubin(compiled.cubin);
    loaded.emplace(name, k);
    return k;
  }

  // The shape a table entry's kernel is built for: its own, when the entry is specialized (only
  // exact entries can be, so that shape is the problem's).
  static ShapeConstants built_for(const TableEntry& e, const Problem& p) {
    return e.specialized ? ShapeConstants(p.shape) : std::nullopt;
  }

  // How the library launches a table's kernel: as the tuner measured it. (A sliced reduction, where
  // the parts of a tile wait for one another, is launched cooperatively, which guarantees they
  // all run at once even while other streams' kernels hold SMs: src/runtime/sm90_kernel.cpp.)
  // A class rule's split count was chosen for one tuned shape: for this one it is recomputed, and
  // the kernel is the rule's config as that launch builds it (config_for_launch).
  KernelCandidate served_launch(const TableEntry& e, const Problem& p) const {
    if (!e.from_rule) return {*e.config, e.knobs};
    const LaunchKnobs knobs =
        knobs_for_shape(*e.config, e.knobs, p.shape.M, p.shape.N, p.shape.K, ctx.info().residency());
    return {config_for_launch(*e.config, knobs), knobs};
  }

  struct NearbyKernel {
    std::unique_ptr<Sm90Kernel> kernel;
    const char* source;  // where in the table it came from, for the plan's detail
  };
  // The Hopper kernels worth timing or serving for a shape the table does not name, as this shape
  // launches them at these row strides: those of the entry or class rule of `looked_up` (the shape
  // itself, or a staged call's aligned neighbour), then the nearest tuned shapes', at most `count`.
  // staged: the call is staged, so cuBLASLt's alternative is its kernel without TMA, several
  // times slower (session 33): where an entry names cuBLASLt, our fastest kernel there counts
  // where it serves staged calls (FastestKernel::serves_staged_calls_at).
  // `unusable` collects the kernels that could not be built or prepared here, with the reason.
  std::vector<NearbyKernel> nearby_kernels(const Problem& p, const Shape& looked_up, const Pitches& pitches,
                                           bool staged, size_t count, std::vector<std::string>& unusable) {
    std::vector<NearbyKernel> out;
    if (!table || !options.use_gemmforge_kernels || ctx.info().cc_major != 9) return out;
    std::vector<std::pair<TableEntry, const char*>> entries;
    const bool neighbour = !(looked_up == p.shape);
    const auto e = table->lookup(looked_up, p.layout, p.acc);
    if (e && e->config)
      entries.emplace_back(*e, e->from_rule ? (neighbour ? "its neighbour's class rule" : "its class rule")
                                            : (neighbour ? "its neighbour's entry" : "its entry"));
    else if (staged && e && e->fastest && e->fastest->serves_staged_calls_at(0))
      entries.emplace_back(*e->as_fastest(), neighbour ? "its neighbour's fastest kernel (cuBLASLt is served there)"
                                         : "its fastest kernel (cuBLASLt is served there)");
    else if (e && e->sm80)  // measure_choice times Hopper kernels against cuBLASLt only
      unusable.push_back("the class rule's sm80 kernel " + e->sm80->name() + " is not timed at plan time");
    for (auto& near : table->nearest_kernels(looked_up, p.layout, p.acc, kMeasuredNeighbors, staged))
      entries.emplace_back(near, "a nearby shape's kernel");
    std::set<std::string> names;
    for (const auto& [e, source] : entries) {
      if (out.size() >= count) break;
      const KernelCandidate served = served_launch(e, p);
      if (!why_not_supported(served.config, p, pitches).empty()) continue;
      if (!names.insert(served.name()).second) continue;
      try {
        auto k = std::make_unique<Sm90Kernel>(ctx, served.config, served.knobs, load(served.config));
        k->use_caller_workspace();
        k->set_pitches(pitches);
        k->prepare(p, {});
        out.push_back({std::move(k), source});
      } catch (const Error& err) {  // not a candidate; the plan's detail says why
        unusable.push_back(err.what());
      }
    }
    return out;
  }

  // A new shape's plan by measurement (plan_measurement.hpp); nullopt, with the reason in `why`,
  // if it failed.
  // staged: the candidates are the aligned neighbour's nearby_kernels, each timed and gated as a staged call
  // (copies included) against cuBLASLt on the operands as they are.
  std::optional<Plan> measured_plan(const Problem& p, std::string& why, bool staged = false) {
    try {
      RelaxedCapture relaxed;
      std::vector<std::string> unusable;
      const Staging staging = staged ? staging_for(p.shape, p.layout) : Staging{};
      auto kernels = nearby_kernels(p, staged ? aligned_neighbour(p.shape) : p.shape,
                                    staged ? staging.pitches : packed_pitches(p.shape, p.layout), staged,
                                    1 + kMeasuredNeighbors, unusable);
      std::vector<Sm90Kernel*> raw;
      for (auto& k : kernels) raw.push_back(k.kernel.get());
      const MeasuredChoice m = measure_choice(ctx, p, raw, staging);
      std::string detail = m.describe();
      if (!unusable.empty())
        detail += "; " + std::to_string(unusable.size()) + " nearby kernel(s) unusable here, first: " + unusable.front();
      Plan plan;
      // cuBLASLt's fastest also serves the calls whose operands the kernel cannot take.
      plan.cublaslt_algo = m.cublaslt_algo;
      if (m.kernel) {
        plan.kernel = std::move(kernels[*m.kernel].kernel);
        plan.info = {"gemmforge", plan.kernel->note() + "; " + detail};
        if (staged) {
          plan.staging = staging;
          plan.info.detail += staged_note(staging, p, kernels[*m.kernel].source);
        }
        return plan;
      }
      auto lt = std::make_unique<LtPlan>(ctx.cublaslt(), p, 256, plan.cublaslt_algo, plan.pitches(p));
      plan.info = {"cublaslt", LtMatmul::describe(lt->with_workspace) + "; " + detail};
      plan.lt.emplace(256, std::move(lt));
      return plan;
    } catch (const Error& e) {
      // A candidate that faulted leaves the context unusable: that must reach the caller, not
      // hide behind a fallback plan that would fail on its first call.
      if (const cudaError_t sticky = cudaStreamQuery(ctx.stream()); sticky != cudaSuccess && sticky != cudaErrorNotReady)
        throw Error(std::string("measuring a plan for ") + to_string(p.shape) + " left the GPU in error (" +
                    cudaGetErrorString(sticky) + "): " + e.what());
      why = std::string("; measuring it failed: ") + e.what();
      return std::nullopt;
    }
  }

  Plan make_plan(const Problem& p, bool may_measure) {
    const auto exact = table ? table->exact.find({p.shape.M, p.shape.N, p.shape.K, p.layout, p.acc})
                             : decltype(table->exact.end()){};
    const bool in_table = table && exact != table->exact.end();
    // A call whose rows TMA cannot take is staged where that pays and a Hopper kernel of the
    // table takes its rows (measured, as a staged call, when new shapes are measured). Its own
    // entry decides instead only if it names a kernel: the tuner times packed operands, so an
    // entry naming cuBLASLt for such a shape never saw a staged kernel.
    const bool staged = !(in_table && exact->second.names_a_kernel()) && staged_problem(p);
    std::string measure_note;
    // Another GPU's table decided nothing for this one: every plan is measured.
    if ((options.measure_new_shapes && !in_table) || table_of_other_gpu) {
      if (!may_measure) measure_note = "; not measured: its plan was made during a graph capture";
      else if (auto measured = measured_plan(p, measure_note, staged)) return std::move(*measured);
    }
    std::string why_not_staged;
    if (staged)
      if (auto plan = staged_plan(p, why_not_staged)) {
        plan->info.detail += measure_note;
        return std::move(*plan);
      }
    Plan plan = unmeasured_plan(p, why_not_staged);
    plan.info.detail += measure_note;
    return plan;
  }

  // Builds the table's kernel into `slot` and prepares it for `p`; false, with the reason in
  // `why_lt`, when it cannot be built or launched here (cuBLASLt serves then).
  template <class Kernel, class Make>
  static bool install(Plan& plan, std::unique_ptr<Kernel>& slot, const Problem& p, std::string& why_lt, Make make) {
    try {
      slot = make();
      slot->prepare(p, {});
      plan.info = {"gemmforge", slot->note()};
      return true;
    } catch (const Error& e) {
      slot.reset();
      why_lt = std::string("the table's kernel is unusable here: ") + e.what();
      return false;
    }
  }

  // Not with another GPU's table, whose every plan is to be measured: measured staged plans
  // (measured_plan) would serve it, but that pairing has not run on a GPU yet.
  bool staged_problem(const Problem& p) const {
    return options.stage_unaligned && options.use_gemmforge_kernels && table && !table_of_other_gpu &&
           ctx.info().cc_major == 9 && worth_staging(p.shape, p.layout);
  }

  static std::string staged_note(const Staging& st, const Problem& p, const char* source) {
    return std::string("; ") + source + ", staged: " + st.describe() + " (" +
           std::to_string(int64_t(st.copied_bytes(p.shape, p.layout) / 1e6 + 0.5)) + " MB copied per call)";
  }

  // A call whose row strides TMA cannot take, staged (core/staging.hpp) and served by the first of
  // its aligned neighbour's nearby_kernels that takes the staged rows. cuBLASLt gains nothing from
  // staged rows (it kept its unaligned kernel at padded strides: session 33's call 2), so without
  // such a kernel the call is not staged; nullopt then, with the reason in `why`.
  std::optional<Plan> staged_plan(const Problem& p, std::string& why) {
    Plan plan;
    plan.staging = staging_for(p.shape, p.layout);
    std::vector<std::string> unusable;
    auto kernels = nearby_kernels(p, aligned_neighbour(p.shape), plan.staging.pitches, true, 1, unusable);
    if (kernels.empty()) {
      why = unusable.empty() ? "no Hopper kernel of the table takes its staged rows"
                             : "the table's kernel is unusable here: " + unusable.front();
      return std::nullopt;
    }
    plan.kernel = std::move(kernels.front().kernel);
    plan.info = {"gemmforge", plan.kernel->note() + staged_note(plan.staging, p, kernels.front().source)};
    return plan;
  }

  // The table's entry or rule, else cuBLASLt's heuristic. why_not_staged: why a call that could
  // have been staged was not (empty: it was not one), for the plan's detail.
  Plan unmeasured_plan(const Problem& p, const std::string& why_not_staged = {}) {
    Plan plan;
    std::string why_lt = "not in the table";
    if (!options.use_gemmforge_kernels) {
      why_lt = "gemmforge kernels switched off";
    } else if (!table) {
      why_lt = "no table";
    } else if (const auto entry = table->lookup(p.shape, p.layout, p.acc); !entry) {
      why_lt = "not in the table";
    } else if (!entry->names_a_kernel()) {
      why_lt = "the table names cuBLASLt for this shape";
      plan.cublaslt_algo = entry->cublaslt_algo;
    } else if (entry->sm80) {
      // The sm80 family takes any shape and alignment its config allows, on compute capability 8.0+.
      if (auto why = why_not_supported(*entry->sm80, p); !why.empty()) {
        why_lt = why;
      } else if (install(plan, plan.sm80, p, why_lt, [&] {
                   const ShapeConstants shape = built_for(*entry, p);
                   return std::make_unique<Sm80Kernel>(ctx, *entry->sm80, load(*entry->sm80, shape), shape);
                 })) {
        return plan;
      }
    } else if (auto why = why_not_supported(*entry->config, p); !why.empty()) {
      why_lt = why;
    } else if (ctx.info().cc_major != 9) {
      why_lt = "gemmforge's kernels need an sm_90 GPU";
    } else if (install(plan, plan.kernel, p, why_lt, [&] {
                 const ShapeConstants shape = built_for(*entry, p);
                 const KernelCandidate served = served_launch(*entry, p);
                 auto k = std::make_unique<Sm90Kernel>(ctx, served.config, served.knobs, load(served.config, shape), shape);
                 k->use_caller_workspace();
                 return k;
               })) {
      return plan;
    }
    if (!why_not_staged.empty()) why_lt += "; not staged: " + why_not_staged;
    auto lt = std::make_unique<LtPlan>(ctx.cublaslt(), p, 256, plan.cublaslt_algo, plan.pitches(p));
    plan.info = {"cublaslt", lt->picked + ": " + LtMatmul::describe(lt->with_workspace) + "; " + why_lt};
    plan.lt.emplace(256, std::move(lt));
    return plan;
  }

  Plan* find_plan(const Problem& p) {
    auto it = plans.find(PlanKey{p.shape.M, p.shape.N, p.shape.K, p.layout});
    return it == plans.end() ? nullptr : &it->second;
  }

  // may_measure: false while the caller's stream is being captured (measuring synchronizes).
  Plan& plan_for(const Problem& p, bool may_measure) {
    if (Plan* plan = find_plan(p)) return *plan;
    return plans.emplace(PlanKey{p.shape.M, p.shape.N, p.shape.K, p.layout}, make_plan(p, may_measure)).first->second;
  }

  LtPlan& lt_plan(Plan& plan, const Problem& p, uint32_t alignment) {
    auto& lt = plan.lt[alignment];
    if (!lt) lt = std::make_unique<LtPlan>(ctx.cublaslt(), p, alignment, plan.cublaslt_algo, plan.pitches(p));
    return *lt;
  }

  // cuBLASLt's workspace on `stream`, made on the stream's first uncaptured call; nullptr while
  // the stream is being captured before it has one.
  void* lt_workspace(cudaStream_t stream) {
    if (auto it = workspaces.find(stream); it != workspaces.end()) return it->second;
    if (is_capturing(stream)) return nullptr;
    RelaxedCapture relaxed;
    void* ws = nullptr;
    GF_CUDA(cudaMalloc(&ws, kLtWorkspaceBytes));
    return workspaces.emplace(stream, ws).first->second;
  }

  // Throws when cuBLASLt cannot run this call: it needs workspace, and the stream has none yet.
  static void require_lt_runs(const LtPlan& lt, const Problem& p, const void* ws) {
    if (!ws && !lt.has_without)
      throw Error("cuBLASLt needs workspace for " + to_string(p.shape) +
                  ", and the first call on this stream is being captured: make one call on it before capturing");
  }

  static void run_lt_on(const LtPlan& lt, const Problem& p, const Operands& o, void* ws, cudaStream_t s) {
    require_lt_runs(lt, p, ws);
    if (ws) lt.lt->run(lt.with_workspace, o, ws, kLtWorkspaceBytes, s);
    else lt.lt->run(lt.without_workspace, o, nullptr, 0, s);
  }

  void run_lt(Plan& plan, const Problem& p, const Operands& o, cudaStream_t stream, std::chrono::steady_clock::time_point now) {
    const LtPlan& lt = lt_plan(plan, p, common_alignment(o.A, o.B, o.C));
    if (void* ws = lt_workspace(stream))
      launch(plan, o, stream, replays_now(nullptr, stream, now), [&](cudaStream_t s) { run_lt_on(lt, p, o, ws, s); });
    else
      run_lt_on(lt, p, o, nullptr, stream);
  }

  // The plan's staged copies on `stream`, placed (outside a capture only) on first use in the
  // stream's staging buffer, which grows by half again when a larger one is needed.
  const StagedOperands& staged_operands(Plan& plan, const Problem& p, cudaStream_t stream) {
    if (auto it = plan.staged.find(stream); it != plan.staged.end()) return it->second;
    if (is_capturing(stream))
      throw Error("this shape's operands are staged at 16-byte row strides (" + plan.staging.describe() +
                  "), in buffers placed on the stream's first call of it, and this stream is being captured: make "
                  "one call of this shape on the stream before capturing");
    const size_t bytes = plan.staging.staged_bytes(p.shape, p.layout);
    auto& held = staging_buffers[stream];
    if (held.empty() || held.back().bytes() < bytes) {
      RelaxedCapture relaxed;
      held.emplace_back(held.empty() ? bytes : std::max(bytes, held.back().bytes() + held.back().bytes() / 2));
    }
    return plan.staged.emplace(stream, StagedOperands(plan.staging, p.shape, p.layout, held.back().get())).first->second;
  }

  // A staged call: the copies in, the aligned call, the copy out, enqueued together on the
  // caller's stream (and captured together when replayed).
  void run_staged(Plan& plan, const Problem& p, const Operands& o, cudaStream_t stream,
                  std::chrono::steady_clock::time_point now) {
    const StagedOperands& staged = staged_operands(plan, p, stream);
    const Operands inner = staged.operands_for(o);
    // Whatever can refuse the call does so before a copy is enqueued (a capture keeps no half).
    if (plan.kernel && plan.kernel->accepts(inner)) {
      void* ws = plan.kernel->workspace_bytes() > 0 ? kernel_workspace(plan, stream) : nullptr;
      plan.kernel->ready_for(inner);
      launch(plan, o, stream, replays_now(plan.kernel.get(), stream, now), [&](cudaStream_t s) {
        staged.run(o, s, [&](const Operands& x, cudaStream_t st) { plan.kernel->run_on(x, st, ws); });
      });
      return;
    }
    const LtPlan& lt = lt_plan(plan, p, common_alignment(inner.A, inner.B, inner.C));
    void* ws = lt_workspace(stream);
    require_lt_runs(lt, p, ws);
    launch(plan, o, stream, replays_now(nullptr, stream, now), [&](cudaStream_t s) {
      staged.run(o, s, [&](const Operands& x, cudaStream_t st) { run_lt_on(lt, p, x, ws, st); });
    });
  }

  // Enqueues one call on `stream`: replayed from its graph if the plan has one for these operands
  // (made now if this is their second call), else directly. `enqueue(s)` puts the call on s, the
  // caller's stream or, to capture it, the handle's own (the workspaces it names stay the
  // caller stream's, as the graph is launched there).
  template <class Enqueue>
  void launch(Plan& plan, const Operands& o, cudaStream_t stream, bool replayable, Enqueue&& enqueue) {
    if (!replayable || plan.replays.off() || is_capturing(stream)) return enqueue(stream);
    const GraphExec* graph = plan.replays.graph_for(ReplayKey{stream, o.A, o.B, o.C}, [&] {
      RelaxedCapture relaxed;  // instantiating must not invalidate another thread's global-mode capture
      if (!capture_stream) GF_CUDA(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking));
      std::string why;
      const auto start = std::chrono::steady_clock::now();
      GraphExec g = GraphExec::capture(capture_stream, enqueue, &why);
      plan.replays.add_capture_time(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      if (!g) plan.replays.switch_off(why);
      return g;
    });
    if (graph) graph->launch(stream);
    else enqueue(stream);
  }

  // Whether calls of `kernel` (nullptr: of cuBLASLt or an sm80 kernel) are replayed from graphs
  // (HandleOptions::replay): never, always, or (a PDL kernel's) unless back to back on a stream.
  enum class Replays { never, always, unless_back_to_back };
  Replays replays(const Sm90Kernel* kernel) const {
    using R = HandleOptions::Replay;
    if (options.replay == R::all) return Replays::always;
    if (options.replay == R::off) return Replays::never;
    if (!(kernel && kernel->knobs().pdl)) return Replays::always;
    return options.replay == R::except_pdl ? Replays::never : Replays::unless_back_to_back;
  }
  // Whether this call, which starts at `now`, is replayed if a graph serves it.
  bool replays_now(const Sm90Kernel* kernel, cudaStream_t stream, std::chrono::steady_clock::time_point now) const {
    const Replays r = replays(kernel);
    return r == Replays::always || (r == Replays::unless_back_to_back && !recent.back_to_back(stream, now));
  }

  // The plan's workspace on `stream`, made (outside a capture only) on first use.
  void* kernel_workspace(Plan& plan, cudaStream_t stream) {
    const size_t bytes = plan.kernel->workspace_bytes();
    if (auto it = plan.kernel_workspaces.find(stream); it != plan.kernel_workspaces.end()) return it->second.get();
    if (is_capturing(stream))
      throw Error("this shape's kernel needs " + std::to_string(bytes) + " bytes of workspace (" +
                  (plan.kernel->dynamic_walk() ? "the dynamic walk's tile counter" : "the partial sums and counters of its shared tiles") +
                  ") on this stream, which is being captured: make one call of this shape on the stream before "
                  "capturing");
    RelaxedCapture relaxed;
    DeviceBuffer ws(bytes);
    GF_CUDA(cudaMemsetAsync(ws.get(), 0, bytes, stream));
    return plan.kernel_workspaces.emplace(stream, std::move(ws)).first->second.get();
  }

  static bool is_capturing(cudaStream_t stream) { return gemmforge::is_capturing(stream); }

  // This stream is not capturing, but another may be (any thread, in global mode): a relaxed
  // capture mode keeps this thread's allocations from invalidating that capture.
  struct RelaxedCapture {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    RelaxedCapture() { GF_CUDA(cudaThreadExchangeStreamCaptureMode(&mode)); }
    ~RelaxedCapture() { cudaThreadExchangeStreamCaptureMode(&mode); }  // restores the caller's mode
  };

  // Calls must come from a thread whose current device is the handle's; the driver-API launches
  // also need its primary context current, which cudaSetDevice makes so. That is done once per
  // thread and handle: per call it cost measurable host time on µs-sized shapes (offline mode).
  void enter_device() const {
    int current = -1;
    GF_CUDA(cudaGetDevice(&current));
    if (current != ctx.info().device)
      throw UsageError("this gemmforge handle belongs to CUDA device " + std::to_string(ctx.info().device) +
                       ", and the calling thread's current device is " + std::to_string(current));
    thread_local uint64_t entered = 0;
    if (entered == serial) return;
    GF_CUDA(cudaSetDevice(current));
    entered = serial;
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
  const auto now = std::chrono::steady_clock::now();
  // The next call's back_to_back counts from here: when this one returns (any backend, any exit).
  struct NoteReturn {
    StreamRecency<>& recent;
    cudaStream_t stream;
    ~NoteReturn() { recent.returned(stream, std::chrono::steady_clock::now()); }
  } note_return{impl_->recent, stream};
  Plan* found = impl_->find_plan(p);
  Plan& plan = found ? *found : impl_->plan_for(p, !Impl::is_capturing(stream));
  if (plan.staging.any()) return impl_->run_staged(plan, p, o, stream, now);
  // Addresses the kernel's TMA maps cannot take are served by cuBLASLt rather than refused.
  if (plan.kernel && plan.kernel->accepts(o)) {
    void* ws = plan.kernel->workspace_bytes() > 0 ? impl_->kernel_workspace(plan, stream) : nullptr;
    impl_->launch(plan, o, stream, impl_->replays_now(plan.kernel.get(), stream, now),
                  [&](cudaStream_t s) { plan.kernel->run_on(o, s, ws); });
    return;
  }
  if (plan.sm80 && plan.sm80->accepts(o)) {
    impl_->launch(plan, o, stream, impl_->replays_now(nullptr, stream, now), [&](cudaStream_t s) { plan.sm80->run_on(o, s); });
    return;
  }
  impl_->run_lt(plan, p, o, stream, now);
}

PlanInfo Handle::plan(int64_t M, int64_t N, int64_t K, Layout layout) {
  const Problem p = checked_problem(M, N, K, layout);
  impl_->enter_device();
  std::lock_guard lock(impl_->mu);
  Plan& plan = impl_->plan_for(p, true);
  PlanInfo info = plan.info;
  if (const auto when = impl_->replays(plan.kernel.get()); when != Impl::Replays::never) {
    const auto& r = plan.replays;
    char capture[64] = "";
    if (r.captures() > 0) std::snprintf(capture, sizeof capture, " in %.0f us each", r.capture_time_us() / double(r.captures()));
    const std::string unless = when == Impl::Replays::unless_back_to_back ? ", unless back to back" : "";
    info.detail += r.off() ? "; repeated calls not replayed: " + r.why_off()
                           : "; repeated calls replayed from CUDA graphs" + unless + " (" + std::to_string(r.captures()) +
                                 " made" + capture + ", " + std::to_string(r.replays()) + " replays so far)";
  }
  return info;
}

std::string Handle::table_status() const { return impl_->table_status; }
bool Handle::has_table() const { return impl_->table.has_value(); }

}  // namespace gemmforge
