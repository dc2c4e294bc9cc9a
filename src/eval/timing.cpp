#include "eval/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "eval/event_pair.hpp"

namespace gemmforge {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A graph of n calls of one candidate; instantiated once, replayed once per sample.
struct CallGraph {
  cudaGraphExec_t exec = nullptr;
  ~CallGraph() {
    if (exec) cudaGraphExecDestroy(exec);
  }
};

// Busy-waits: sleeping would let the CPU clock down and add wake-up jitter to the next call.
void idle_for_us(double us) {
  const auto until = Clock::now() + std::chrono::duration<double, std::micro>(us);
  while (Clock::now() < until) {
  }
}

}  // namespace

std::string to_string(Mode m) {
  switch (m) {
    case Mode::gpu: return "gpu";
    case Mode::offline: return "offline";
    case Mode::server: return "server";
  }
  return "?";
}

Mode parse_mode(std::string_view s) {
  if (s == "gpu") return Mode::gpu;
  if (s == "offline") return Mode::offline;
  if (s == "server") return Mode::server;
  throw Error("unknown mode '" + std::string(s) + "': use gpu, offline or server");
}

ShapeTimer::ShapeTimer(DeviceContext& ctx, const ShapeBuffers& buf, const TimingOptions& opt, const L2Flusher* f)
    : ctx_(ctx), buf_(buf), opt_(opt), flusher_(f),
      rng_(opt.seed ^ (uint64_t(buf.shape().M) << 40) ^ (uint64_t(buf.shape().N) << 20) ^ uint64_t(buf.shape().K)) {}

void ShapeTimer::call(GemmImpl& impl) { impl.run(buf_.set(next_set_++ % buf_.set_count())); }

ShapeTimer::Estimate ShapeTimer::estimate(GemmImpl& impl) {
  EventPair ev;
  call(impl);
  call(impl);
  GF_CUDA(cudaEventRecord(ev.begin, ctx_.stream()));
  for (int i = 0; i < 3; ++i) call(impl);
  GF_CUDA(cudaEventRecord(ev.end, ctx_.stream()));
  GF_CUDA(cudaDeviceSynchronize());
  Estimate e;
  e.api_us = e.device_us = ev.elapsed_us() / 3;
  if (e.api_us > opt_.heavy_call_us) return e;  // device-bound already
  CallGraph g;
  g.exec = capture(impl, 10);
  GF_CUDA(cudaGraphLaunch(g.exec, ctx_.stream()));
  GF_CUDA(cudaEventRecord(ev.begin, ctx_.stream()));
  GF_CUDA(cudaGraphLaunch(g.exec, ctx_.stream()));
  GF_CUDA(cudaEventRecord(ev.end, ctx_.stream()));
  GF_CUDA(cudaDeviceSynchronize());
  e.device_us = ev.elapsed_us() / 10;
  return e;
}

cudaGraphExec_t ShapeTimer::capture(GemmImpl& impl, int calls) {
  cudaGraph_t g = nullptr;
  GF_CUDA(cudaStreamBeginCapture(ctx_.stream(), cudaStreamCaptureModeGlobal));
  try {
    for (int c = 0; c < calls; ++c) call(impl);
  } catch (...) {
    cudaStreamEndCapture(ctx_.stream(), &g);
    if (g) cudaGraphDestroy(g);
    cudaGetLastError();
    throw;
  }
  GF_CUDA(cudaStreamEndCapture(ctx_.stream(), &g));
  cudaGraphExec_t exec = nullptr;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  GF_CUDA(e);
  return exec;
}

void ShapeTimer::warm_up(const std::vector<GemmImpl*>& impls, double seconds) {
  if (impls.empty()) return;
  const auto start = Clock::now();
  size_t i = 0;
  do {
    // Bounded queue: sync every few calls so the host clock tracks the device.
    for (int k = 0; k < 8; ++k) call(*impls[i++ % impls.size()]);
    GF_CUDA(cudaStreamSynchronize(ctx_.stream()));
  } while (seconds_since(start) < seconds);
}

int ShapeTimer::calls_per_sample(double est_us) const {
  int n = int(std::ceil(opt_.min_sample_us / std::max(est_us, 0.5)));
  n = std::clamp(n, 1, 256);
  // Cold L2: one sample walks through every operand set, so no call finds its data in L2.
  if (opt_.cold_l2) n = std::max<int>(n, int(buf_.set_count()));
  return n;
}

std::vector<Timed> ShapeTimer::measure(const std::vector<GemmImpl*>& impls, const std::vector<Estimate>& est,
                                       Mode mode) {
  const size_t n_impl = impls.size();
  std::vector<Timed> out(n_impl);
  std::vector<std::vector<double>> wall(n_impl), event(n_impl);
  std::vector<int> calls(n_impl);
  for (size_t i = 0; i < n_impl; ++i)
    calls[i] = mode == Mode::server ? 1 : calls_per_sample(mode == Mode::gpu ? est[i].device_us : est[i].api_us);

  std::vector<CallGraph> graphs(mode == Mode::gpu ? n_impl : 0);
  for (size_t i = 0; i < graphs.size(); ++i) {
    graphs[i].exec = capture(*impls[i], calls[i]);
    GF_CUDA(cudaGraphLaunch(graphs[i].exec, ctx_.stream()));  // first replay uploads; not timed
  }
  GF_CUDA(cudaDeviceSynchronize());

  const int rounds = mode == Mode::server ? opt_.server_calls : opt_.rounds;
  std::vector<size_t> order(n_impl);
  for (size_t i = 0; i < n_impl; ++i) order[i] = i;
  std::exponential_distribution<double> gap(1.0 / std::max(opt_.server_gap_us, 1.0));
  EventPair ev;
  for (int r = 0; r < rounds; ++r) {
    std::shuffle(order.begin(), order.end(), rng_);
    for (size_t i : order) {
      switch (mode) {
        case Mode::gpu:
          GF_CUDA(cudaEventRecord(ev.begin, ctx_.stream()));
          GF_CUDA(cudaGraphLaunch(graphs[i].exec, ctx_.stream()));
          GF_CUDA(cudaEventRecord(ev.end, ctx_.stream()));
          GF_CUDA(cudaDeviceSynchronize());
          wall[i].push_back(ev.elapsed_us() / calls[i]);
          break;
        case Mode::offline:
          GF_CUDA(cudaEventRecord(ev.begin, ctx_.stream()));
          for (int c = 0; c < calls[i]; ++c) call(*impls[i]);
          GF_CUDA(cudaEventRecord(ev.end, ctx_.stream()));
          GF_CUDA(cudaDeviceSynchronize());
          wall[i].push_back(ev.elapsed_us() / calls[i]);
          break;
        case Mode::server: {
          if (flusher_) {
            flusher_->flush(ctx_.stream());
            GF_CUDA(cudaDeviceSynchronize());
          }
          idle_for_us(gap(rng_));
          const auto t0 = Clock::now();
          GF_CUDA(cudaEventRecord(ev.begin, ctx_.stream()));
          call(*impls[i]);
          GF_CUDA(cudaEventRecord(ev.end, ctx_.stream()));
          GF_CUDA(cudaDeviceSynchronize());
          wall[i].push_back(seconds_since(t0) * 1e6);
          event[i].push_back(ev.elapsed_us());
          break;
        }
      }
    }
  }
  for (size_t i = 0; i < n_impl; ++i) {
    out[i].wall = summarize(wall[i]);
    if (mode == Mode::server) out[i].event = summarize(event[i]);
    out[i].calls_per_sample = calls[i];
  }
  return out;
}

}  // namespace gemmforge
