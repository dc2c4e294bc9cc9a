// How much of an operand a warm L2 keeps: the read kernel over footprints from 8 MiB to 1.5× L2,
// several passes per launch (the first fills L2, the rest hit whatever it kept). On the H200 a
// warm L2 of 60 MiB kept about 40 MiB of a matmul's operand between calls (bench/NOTES.md,
// fifteenth session), so the floor's L2 term must not assume the whole L2.
#include <algorithm>
#include <cmath>

#include "eval/buffers.hpp"
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/shuffled_rounds.hpp"

namespace gemmforge {
namespace {

constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kStepBytes = 4 * kMiB, kSmallestBytes = 8 * kMiB;
constexpr size_t kBytesPerSample = 512 * kMiB;  // passes × footprint: a sample of ~0.03-0.15 ms
constexpr unsigned kNeverKey = 0x9E3779B9u;     // a fold the buffer's words never give: nothing is stored

}  // namespace

CeilingMeasurement measure_l2_residency(DeviceContext& ctx, const CeilingOptions& o) {
  const size_t l2 = size_t(ctx.info().l2_bytes);
  const size_t largest = (l2 + l2 / 2) / kStepBytes * kStepBytes;
  if (largest <= kSmallestBytes) throw Error("L2 residency: the L2 (" + std::to_string(l2 >> 20) + " MiB) is too small to sweep");
  std::vector<size_t> footprints;
  for (size_t f = kSmallestBytes; f <= largest; f += kStepBytes) footprints.push_back(f);
  DeviceBuffer buffer(largest), sink(sizeof(unsigned));
  const cudaStream_t s = ctx.stream();
  GF_CUDA(cudaMemsetAsync(buffer.get(), 0x5A, largest, s));
  const int blocks = ctx.info().sm_count * ceiling_ops::kStreamBlocksPerSm;
  auto passes_of = [](size_t f) { return int(std::max<size_t>(4, kBytesPerSample / f)); };
  auto pass = [&](size_t f) {
    // Through L2 only: through L1 the small footprints (8 MiB is 62 KiB per SM) would be partly
    // L1's, raising the curve's top and with it the threshold.
    ceiling_ops::stream_read(buffer.get(), f, passes_of(f), kNeverKey, static_cast<unsigned*>(sink.get()), blocks, s,
                             ceiling_ops::ReadPath::l2_only);
  };
  for (size_t f : footprints) pass(f);  // untimed: first touch, clocks up
  GF_CUDA(cudaDeviceSynchronize());

  const auto us = time_in_shuffled_rounds(all_kinds(footprints.size()), footprints.size(), o.rounds, o.seed, s,
                                          [&](size_t i) { pass(footprints[i]); });
  const NvmlReading clocks = Nvml::instance(ctx.info().pci_bus_id).read();

  std::vector<double> gbps(footprints.size());
  for (size_t i = 0; i < footprints.size(); ++i)
    gbps[i] = double(footprints[i]) * passes_of(footprints[i]) / summarize(us[i]).median / 1e3;
  // Kept: the largest footprint still read at least halfway (geometrically) from the smallest
  // footprint's rate (all in L2) to the largest one's (mostly HBM): past it, most lines miss.
  const double threshold = std::sqrt(gbps.front() * gbps.back());
  size_t kept = 0;
  for (size_t i = 0; i < footprints.size(); ++i)
    if (gbps[i] >= threshold) kept = i;
  CeilingMeasurement m;
  m.field = kL2Resident;
  m.value = double(footprints[kept]) / kMiB;
  m.time_us = summarize(us[kept]);
  m.method = "the read kernel (loads through L2 only, ld.global.cg) over footprints from 8 MiB to 1.5x L2 in 4 MiB steps, passes x footprint = 512 MiB "
             "per launch (the first pass fills L2, the others hit what it keeps); one launch per sample, event-timed, "
             "footprints in shuffled rounds; the value is the largest footprint read at or above the geometric mean "
             "of the smallest footprint's rate and the largest one's";
  nlohmann::json curve = nlohmann::json::array();
  for (size_t i = 0; i < footprints.size(); ++i)
    curve.push_back({{"mib", footprints[i] / kMiB}, {"passes", passes_of(footprints[i])}, {"gbps", gbps[i]}});
  m.detail["curve"] = curve;
  m.detail["threshold_gbps"] = threshold;
  m.detail["l2_bytes"] = ctx.info().l2_bytes;
  m.detail["grid"] = std::to_string(blocks) + " blocks x " + std::to_string(ceiling_ops::kStreamThreads) + " threads";
  m.note_clocks(clocks);
  return m;
}

}  // namespace gemmforge
