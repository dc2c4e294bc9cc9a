// The launch term of the floor: an empty kernel timed by the evaluator's own ShapeTimer, so a
// launch costs here exactly what the protocol of each mode charges any GEMM call (graph length,
// batch size, idle gaps, waits on the whole device).
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/timing.hpp"

namespace gemmforge {
namespace {

class EmptyKernel final : public GemmImpl {
 public:
  EmptyKernel(DeviceContext& ctx, bool driver_api) : ctx_(ctx), driver_api_(driver_api) {}
  std::string name() const override { return driver_api_ ? "empty-kernel (cuLaunchKernel)" : "empty-kernel (<<<>>>)"; }
  void prepare(const Problem&, const std::vector<Operands>&) override {}
  void run(const Operands&) override {
    if (driver_api_) ceiling_ops::launch_empty_driver(ctx_.stream());
    else ceiling_ops::launch_empty(ctx_.stream());
  }

 private:
  DeviceContext& ctx_;
  bool driver_api_;
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
  // Both launch paths, interleaved; the ceiling is the cheaper one in each mode.
  EmptyKernel runtime(ctx, false), driver(ctx, true);
  const std::vector<GemmImpl*> impls = {&runtime, &driver};
  const std::vector<ShapeTimer::Estimate> est = {timer.estimate(runtime), timer.estimate(driver)};
  timer.warm_up(impls, t.light_warmup_s);
  auto& nvml = Nvml::instance(ctx.info().pci_bus_id);
  std::vector<CeilingMeasurement> out;
  for (const auto& lm : kLaunchModes) {
    const std::vector<Timed> both = timer.measure(impls, est, lm.mode);
    const size_t cheaper = both[1].wall.median < both[0].wall.median ? 1 : 0;
    const Timed& timed = both[cheaper];
    CeilingMeasurement m;
    m.field = lm.field;
    m.value = timed.wall.median;
    m.time_us = timed.wall;
    m.method = std::string(lm.method) + "; launched with <<<>>> and with cuLaunchKernel, interleaved, the cheaper kept";
    m.detail["launch_path"] = impls[cheaper]->name();
    m.detail["median_us_per_path"] = {{impls[0]->name(), both[0].wall.median}, {impls[1]->name(), both[1].wall.median}};
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
