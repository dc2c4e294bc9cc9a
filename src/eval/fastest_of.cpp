#include "eval/fastest_of.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/stats.hpp"
#include "eval/cuda_check.hpp"
#include "eval/event_pair.hpp"

namespace gemmforge {

namespace {

constexpr int kRounds = 7;
constexpr double kBatchTargetUs = 200;
constexpr int kMaxBatch = 256;

}  // namespace

std::optional<Fastest> fastest_of(const std::vector<Launch>& candidates, const std::vector<Operands>& sets,
                                  cudaStream_t stream) {
  if (sets.empty()) throw Error("fastest_of: no operand sets");
  EventPair events;
  size_t next = 0;
  auto time_batch = [&](const Launch& launch, int batch) {
    GF_CUDA(cudaEventRecord(events.begin, stream));
    for (int b = 0; b < batch; ++b) launch(sets[next++ % sets.size()], stream);
    GF_CUDA(cudaEventRecord(events.end, stream));
    GF_CUDA(cudaEventSynchronize(events.end));
    return events.elapsed_us() / batch;
  };
  struct Survivor {
    size_t index;
    int batch;
    std::vector<double> samples;
  };
  std::vector<Survivor> alive;
  for (size_t i = 0; i < candidates.size(); ++i) {
    try {
      for (int w = 0; w < 2; ++w) candidates[i](sets[next++ % sets.size()], stream);
      const double us = time_batch(candidates[i], 1);
      alive.push_back({i, int(std::clamp(kBatchTargetUs / std::max(us, 0.5), 1.0, double(kMaxBatch))), {}});
    } catch (const Error&) {
      // This candidate cannot launch here: drop it. A sticky error (a faulted context) would
      // throw again from the synchronize below and reach the caller.
      cudaGetLastError();
    }
  }
  for (int r = 0; r < kRounds; ++r)
    for (size_t k = 0; k < alive.size(); ++k) {
      Survivor& a = alive[(k + size_t(r)) % alive.size()];
      a.samples.push_back(time_batch(candidates[a.index], a.batch));
    }
  GF_CUDA(cudaStreamSynchronize(stream));
  if (alive.empty()) return std::nullopt;
  Fastest f;
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
