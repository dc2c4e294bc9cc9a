#include "runtime/library_impl.hpp"

#include <cstdlib>

#include "eval/cuda_check.hpp"
#include "eval/gemm_impl.hpp"
#include "gemmforge/gemm.hpp"

namespace gemmforge {

namespace {

class LibraryImpl final : public GemmImpl {
 public:
  LibraryImpl(DeviceContext& ctx, bool measure_new_shapes)
      : ctx_(ctx), measure_(measure_new_shapes), handle_(options(measure_new_shapes)) {}
  std::string name() const override { return measure_ ? kMeasuringLibraryImplName : kLibraryImplName; }
  std::string note() const override { return info_.backend + ": " + info_.detail; }

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
  static HandleOptions options(bool measure_new_shapes) {
    HandleOptions o;
    o.measure_new_shapes = measure_new_shapes;
    return o;
  }

  DeviceContext& ctx_;
  bool measure_;
  Handle handle_;  // the table from $GEMMFORGE_TABLE, as a user's handle would have it
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
  register_impl(kLibraryImplName, [](DeviceContext& ctx) { return std::make_unique<LibraryImpl>(ctx, false); });
  register_impl(kMeasuringLibraryImplName,
                [](DeviceContext& ctx) { return std::make_unique<LibraryImpl>(ctx, true); });
}

}  // namespace gemmforge
