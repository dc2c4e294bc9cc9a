// The launch term of the floor: an empty kernel timed by the evaluator's own ShapeTimer, so a
// launch costs here exactly what the protocol of each mode charges any GEMM call (graph length,
// batch size, idle gaps, waits on the whole device).
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/graph_exec.hpp"
#include "eval/timing.hpp"

namespace gemmforge {
namespace {

// The launch paths a GEMM call may take: cudart's <<<>>>, the driver's cuLaunchKernelEx (our JIT
// kernels), the same with programmatic dependent launch (our kernels' PDL knob), and a graph of
// one such launch replayed (the runtime library's repeated calls, HandleOptions::replay).
enum class LaunchPath { runtime, driver, driver_pdl, graph };

class EmptyKernel final : public GemmImpl {
 public:
  EmptyKernel(DeviceContext& ctx, LaunchPath path) : ctx_(ctx), path_(path) {}
  std::string name() const override {
    switch (path_) {
      case LaunchPath::runtime: return "empty-kernel (<<<>>>)";
      case LaunchPath::driver: return "empty-kernel (cuLaunchKernelEx)";
      case LaunchPath::driver_pdl: return "empty-kernel (cuLaunchKernelEx, PDL)";
      case LaunchPath::graph: return "empty-kernel (cudaGraphLaunch of one cuLaunchKernelEx)";
    }
    return "empty-kernel";
  }
  void prepare(const Problem&, const std::vector<Operands>&) override {
    if (path_ != LaunchPath::graph || graph_) return;
    std::string why;
    graph_ = GraphExec::capture(ctx_.stream(), [](cudaStream_t s) { ceiling_ops::launch_empty_driver(s, false); }, &why);
    if (!graph_) throw Error("the empty kernel cannot be captured in a graph: " + why);
  }
  void run(const Operands&) override {
    if (path_ == LaunchPath::runtime) return ceiling_ops::launch_empty(ctx_.stream());
    // Inside the gpu mode's own graph a replay is what the kernel launch is there: launch that.
    if (path_ == LaunchPath::graph && !is_capturing(ctx_.stream())) return graph_.launch(ctx_.stream());
    ceiling_ops::launch_empty_driver(ctx_.stream(), path_ == LaunchPath::driver_pdl);
  }

 private:
  DeviceContext& ctx_;
  LaunchPath path_;
  GraphExec graph_;
};

struct LaunchMode {
  Mode mode;
  CeilingField field;
  const char* method;
};

const LaunchMode kLaunchModes[] = {
    {Mode::gpu, kLaunchGpu,
     "an empty kernel (1 block of 32 threads) timed as bench --mode gpu times a call: a CUDA graph of "
     "calls_per_sample back-to-back launches, replayed; device time per launch, median over the replays"},
    {Mode::offline, kLaunchOffline,
     "an empty kernel launched back to back from the host, timed as bench --mode offline times a call: events "
     "around a batch of calls_per_sample launches, then a wait on the whole device; per launch, median over "
     "the batches"},
    {Mode::server, kLaunchServer,
     "an empty kernel timed as bench --mode server times a call: one launch after a random idle gap "
     "(exponential, mean gap_us_mean), host wall clock until the whole device is idle; median over the calls"},
};

}  // namespace

std::vector<CeilingMeasurement> measure_launch_latency(DeviceContext& ctx, const CeilingOptions& o) {
  // ShapeTimer hands operands to every call; the empty kernel ignores them.
  ShapeBuffers buf(Shape{1, 1, 1}, false, ctx.info().l2_bytes, ctx.stream());
  TimingOptions t;
  t.rounds = o.rounds;
  t.server_calls = o.server_calls;
  t.server_gap_us = o.server_gap_us;
  t.seed = o.seed;
  ShapeTimer timer(ctx, buf, t, nullptr);
  // Every launch path, interleaved. The ceiling is the fastest sample of the fastest path: a
  // floor must not be above what any call can take, and a sample is already an average over
  // many launches (a graph, a batch) except in server mode.
  EmptyKernel runtime(ctx, LaunchPath::runtime), driver(ctx, LaunchPath::driver), pdl(ctx, LaunchPath::driver_pdl),
      graph(ctx, LaunchPath::graph);
  const std::vector<GemmImpl*> impls = {&runtime, &driver, &pdl, &graph};
  for (GemmImpl* k : impls) k->prepare(Problem{Shape{1, 1, 1}, Layout::tn, Accum::f32}, {});
  std::vector<ShapeTimer::Estimate> est;
  for (GemmImpl* k : impls) est.push_back(timer.estimate(*k));
  timer.warm_up(impls, t.light_warmup_s);
  auto& nvml = Nvml::instance(ctx.info().pci_bus_id);
  std::vector<CeilingMeasurement> out;
  for (const auto& lm : kLaunchModes) {
    const std::vector<Timed> paths = timer.measure(impls, est, lm.mode);
    size_t fastest = 0;
    for (size_t i = 1; i < paths.size(); ++i)
      if (paths[i].wall.min < paths[fastest].wall.min) fastest = i;
    const Timed& timed = paths[fastest];
    CeilingMeasurement m;
    m.field = lm.field;
    m.value = timed.wall.min;
    m.time_us = timed.wall;
    m.method = std::string(lm.method) + "; launched through <<<>>>, cuLaunchKernelEx, cuLaunchKernelEx with PDL and a "
               "replayed graph of one launch, interleaved; the value is the fastest sample of the fastest path";
    m.detail["launch_path"] = impls[fastest]->name();
    m.detail["per_path_us"] = nlohmann::json::object();
    for (size_t i = 0; i < paths.size(); ++i)
      m.detail["per_path_us"][impls[i]->name()] = {{"median", paths[i].wall.median}, {"min", paths[i].wall.min}};
    m.detail["calls_per_sample"] = timed.calls_per_sample;
    if (lm.mode == Mode::server) {
      m.detail["gap_us_mean"] = o.server_gap_us;
      if (timed.event) m.detail["event_median_us"] = timed.event->median;
    }
    m.note_clocks(nvml.read());
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace gemmforge
