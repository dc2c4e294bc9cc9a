#include "eval/fastest_of.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/stats.hpp"
#include "eval/cuda_check.hpp"
#include "eval/event_pair.hpp"
#include "eval/graph_exec.hpp"

namespace gemmforge {

namespace {

constexpr int kRounds = 7;
constexpr double kBatchTargetUs = 200;
constexpr int kMaxBatch = 256;

int batch_for(double us_per_call) {
  return int(std::clamp(kBatchTargetUs / std::max(us_per_call, 0.5), 1.0, double(kMaxBatch)));
}

// A batch of one candidate's calls captured into a CUDA graph: replaying it runs the calls back
// to back on the device whatever the host does meanwhile. The calls use the operand sets in turn
// from `first`, as host-launched batches do (with a cold L2 every call finds its operands out of
// L2). Empty when the calls cannot be captured (the legacy default stream, a call that
// synchronizes).
GraphExec capture_batch(const Launch& launch, int calls, const std::vector<Operands>& sets, size_t first,
                        cudaStream_t stream) {
  return GraphExec::capture(stream, [&](cudaStream_t s) {
    for (int c = 0; c < calls; ++c) launch(sets[(first + size_t(c)) % sets.size()], s);
  });
}

}  // namespace

std::optional<Fastest> fastest_of(const std::vector<Launch>& candidates, const std::vector<Operands>& sets,
                                  cudaStream_t stream) {
  if (sets.empty()) throw Error("fastest_of: no operand sets");
  EventPair events;
  size_t next = 0;
  // Time per call of one sample: `batch` calls launched from the host, or one replay of a graph.
  auto time_batch = [&](const Launch& launch, int batch) {
    GF_CUDA(cudaEventRecord(events.begin, stream));
    for (int b = 0; b < batch; ++b) launch(sets[next++ % sets.size()], stream);
    GF_CUDA(cudaEventRecord(events.end, stream));
    GF_CUDA(cudaEventSynchronize(events.end));
    return events.elapsed_us() / batch;
  };
  auto time_graph = [&](const GraphExec& g, int batch) {
    GF_CUDA(cudaEventRecord(events.begin, stream));
    g.launch(stream);
    GF_CUDA(cudaEventRecord(events.end, stream));
    GF_CUDA(cudaEventSynchronize(events.end));
    return events.elapsed_us() / batch;
  };
  struct Survivor {
    size_t index;
    int batch;
    GraphExec graph;
    std::vector<double> samples;
  };
  std::vector<Survivor> alive;
  for (size_t i = 0; i < candidates.size(); ++i) {
    try {
      for (int w = 0; w < 2; ++w) candidates[i](sets[next++ % sets.size()], stream);
      const double us = time_batch(candidates[i], 1);
      alive.push_back({i, batch_for(us), {}, {}});
    } catch (const Error&) {
      // This candidate cannot launch here: drop it. A sticky error (a faulted context) would
      // throw again from the synchronize below and reach the caller.
      cudaGetLastError();
    }
  }
  // By device time where every survivor can be captured: timed from the host, calls of a few µs
  // measure how fast the host launches them, and the pick is then not the fastest kernel (calls
  // under 10 µs: the heuristic's first algorithm ran 3.3% faster on the device than the pick made
  // so, bench/NOTES.md, seventh session). The batch is sized from one replay's device time.
  bool by_device_time = !alive.empty();
  std::vector<int> device_batch(alive.size());  // applied only if every survivor is captured
  for (size_t k = 0; k < alive.size() && by_device_time; ++k) {
    Survivor& a = alive[k];
    GraphExec probe = capture_batch(candidates[a.index], 4, sets, next, stream);
    if (!probe) {
      by_device_time = false;
      break;
    }
    probe.launch(stream);  // the first replay uploads the graph: not timed
    device_batch[k] = batch_for(time_graph(probe, 4));
    a.graph = capture_batch(candidates[a.index], device_batch[k], sets, next, stream);
    if (!a.graph) {
      by_device_time = false;
      break;
    }
    a.graph.launch(stream);
    GF_CUDA(cudaStreamSynchronize(stream));  // `probe` is destroyed next: its replays must be done
  }
  if (by_device_time) {
    for (size_t k = 0; k < alive.size(); ++k) alive[k].batch = device_batch[k];
  } else {
    GF_CUDA(cudaStreamSynchronize(stream));  // no graph is destroyed while its replay runs
    for (auto& a : alive) a.graph = GraphExec{};
  }
  for (int r = 0; r < kRounds; ++r)
    for (size_t k = 0; k < alive.size(); ++k) {
      Survivor& a = alive[(k + size_t(r)) % alive.size()];
      a.samples.push_back(by_device_time ? time_graph(a.graph, a.batch) : time_batch(candidates[a.index], a.batch));
    }
  GF_CUDA(cudaStreamSynchronize(stream));
  if (alive.empty()) return std::nullopt;
  Fastest f;
  f.by_device_time = by_device_time;
  f.medians_us.assign(candidates.size(), std::numeric_limits<double>::quiet_NaN());
  f.timed = alive.size();
  f.median_us = std::numeric_limits<double>::infinity();
  for (const auto& a : alive) {
    const double m = summarize(a.samples).median;
    f.medians_us[a.index] = m;
    if (m < f.median_us) {
      f.median_us = m;
      f.index = a.index;
    }
  }
  return f;
}

}  // namespace gemmforge
