#include "runtime/library_impl.hpp"

#include <cstdlib>
#include <utility>

#include "eval/cuda_check.hpp"
#include "eval/gemm_impl.hpp"
#include "gemmforge/gemm.hpp"

namespace gemmforge {

namespace {

class LibraryImpl final : public GemmImpl {
 public:
  LibraryImpl(DeviceContext& ctx, std::string name, HandleOptions o) : ctx_(ctx), name_(std::move(name)), handle_(o) {}
  std::string name() const override { return name_; }
  // Asked again each time: the plan's detail counts the replays made since.
  std::string note() const override {
    PlanInfo now = info_;
    if (!info_.backend.empty()) try {
        now = handle_.plan(problem_.shape.M, problem_.shape.N, problem_.shape.K, problem_.layout);
      } catch (const Error&) {
        // the plan made at prepare() stands
      }
    return now.backend + ": " + now.detail;
  }

  void prepare(const Problem& p, const std::vector<Operands>& sets) override {
    if (p.acc != Accum::f32) throw Error("the runtime library accumulates in f32 only");
    problem_ = p;
    info_ = handle_.plan(p.shape.M, p.shape.N, p.shape.K, p.layout);
    // One call outside any capture, as a user's first call would be: it gives the stream its
    // workspaces, so the graph the gpu mode captures needs no allocation.
    if (!sets.empty()) {
      run(sets.front());
      GF_CUDA(cudaStreamSynchronize(ctx_.stream()));
    }
  }

  void run(const Operands& o) override {
    const auto& s = problem_.shape;
    handle_.hgemm(s.M, s.N, s.K, o.A, o.B, o.C, problem_.layout, ctx_.stream());
  }

 private:
  DeviceContext& ctx_;
  std::string name_;
  mutable Handle handle_;  // the table from $GEMMFORGE_TABLE, as a user's handle would have it (note() asks it)
  Problem problem_;
  PlanInfo info_;
};

}  // namespace

std::string library_table_problem() {
  if (const char* env = std::getenv("GEMMFORGE_TABLE"); env && std::string(env) == "none") return "";
  const Handle handle;
  return handle.has_table() ? "" : handle.table_status();
}

void register_library_impl() {
  register_impl(kLibraryImplName, [](DeviceContext& ctx) { return std::make_unique<LibraryImpl>(ctx, kLibraryImplName, HandleOptions{}); });
  register_impl(kMeasuringLibraryImplName, [](DeviceContext& ctx) {
    HandleOptions o;
    o.measure_new_shapes = true;
    return std::make_unique<LibraryImpl>(ctx, kMeasuringLibraryImplName, o);
  });
  // $GEMMFORGE_REPLAY would override what these are named for.
  auto with_replay = [](const char* name, HandleOptions::Replay r) {
    register_impl(name, [name, r](DeviceContext& ctx) -> std::unique_ptr<GemmImpl> {
      if (const char* env = std::getenv("GEMMFORGE_REPLAY"); env && *env)
        throw UsageError(std::string(name) + " sets its own replays: unset GEMMFORGE_REPLAY (it is '" + env + "')");
      HandleOptions o;
      o.replay = r;
      return std::make_unique<LibraryImpl>(ctx, name, o);
    });
  };
  with_replay(kDirectLibraryImplName, HandleOptions::Replay::off);
  with_replay(kExceptPdlLibraryImplName, HandleOptions::Replay::except_pdl);
  with_replay(kReplayAllLibraryImplName, HandleOptions::Replay::all);
}

}  // namespace gemmforge
