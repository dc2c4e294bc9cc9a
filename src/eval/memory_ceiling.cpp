// The memory term of the floor: read-only, write-only and copy bandwidth of HBM, on buffers far
// larger than L2 so that every pass streams from and to device memory; and read and write
// bandwidth of L2, from a slice of a quarter of L2 read or written many times in one launch.
// L2's read rate is taken with loads that skip L1 (ld.global.cg): through L1 each SM re-read its
// own ~114 KiB of the slice every pass and its L1 served part of them; the two L1 variants
// (the same words per SM each pass, and rotated between SMs) are recorded beside the value.
#include <algorithm>

#include "eval/buffers.hpp"
#include "eval/ceiling_kernels.hpp"
#include "eval/ceilings.hpp"
#include "eval/shuffled_rounds.hpp"

namespace gemmforge {
namespace {

enum Pass { kRead, kWrite, kCopy, kL2Pass, kL2WritePass, kDsmemPass, kL2PassThroughL1, kL2PassRotated, kPassCount };
// The kinds printed as measurements; the L1 variants of the L2 read go into its detail.
constexpr int kMeasuredKinds = kL2PassThroughL1;
// Distributed shared memory: CTAs in pairs, each with this much shared memory, which is more than
// half of an SM's 227 KiB so that no two CTAs share an SM and every read crosses between SMs.
constexpr int kDsmemBytes = 128 << 10, kDsmemThreads = 512;

// Any value the XOR of the buffer's words does not take (memset 0x5A folds to 0), so the read
// kernel never stores; the compiler cannot know that and keeps every load.
constexpr unsigned kNeverKey = 0x9E3779B9u;
constexpr unsigned kWriteWord = 0x3C003C00u;  // two fp16 ones

// Two buffers (the copy needs a source and a destination) of the requested size, halved until
// they fit; never below `min_bytes`, under which L2 would serve part of each pass.
size_t allocate_pair(DeviceBuffer& src, DeviceBuffer& dst, size_t bytes, size_t min_bytes) {
  for (;;) {
    try {
      src = DeviceBuffer(bytes);
      dst = DeviceBuffer(bytes);
      return bytes;
    } catch (const Error& e) {
      src = DeviceBuffer();
      dst = DeviceBuffer();
      if (bytes / 2 < min_bytes)
        throw Error("HBM bandwidth: cannot allocate two buffers of " + std::to_string(bytes >> 20) +
                    " MiB, and smaller ones would not be 4x L2: " + e.what());
      bytes /= 2;
    }
  }
}

}  // namespace

std::vector<CeilingMeasurement> measure_memory_bandwidth(DeviceContext& ctx, const CeilingOptions& o) {
  const size_t min_bytes = 4 * ctx.info().l2_bytes;
  if (o.hbm_buffer_bytes < min_bytes)
    throw UsageError("the HBM buffers must be at least 4x L2 (" + std::to_string(min_bytes >> 20) +
                     " MiB on this GPU) so that L2 cannot serve them; asked for " +
                     std::to_string(o.hbm_buffer_bytes >> 20) + " MiB");
  DeviceBuffer src, dst, sink(sizeof(unsigned));
  // 16-byte accesses cover whole buffers: keep the size a multiple of 1 MiB.
  const size_t bytes = allocate_pair(src, dst, o.hbm_buffer_bytes / (1 << 20) * (1 << 20), min_bytes);
  const cudaStream_t s = ctx.stream();
  GF_CUDA(cudaMemsetAsync(src.get(), 0x5A, bytes, s));
  GF_CUDA(cudaMemsetAsync(dst.get(), 0, bytes, s));
  const int blocks = ctx.info().sm_count * ceiling_ops::kStreamBlocksPerSm;
  // The L2 slice: a quarter of L2 (in whole MiB), read as many times as the HBM buffer is long so
  // that one sample is as long as an HBM one; its first pass fills L2 and the rest hit.
  const size_t l2_slice = std::max<size_t>(1 << 20, size_t(ctx.info().l2_bytes) / 4 / (1 << 20) * (1 << 20));
  const int l2_passes = int(std::max<size_t>(2, bytes / l2_slice));
  // DSMEM (sm_90 clusters): every SM's CTA reads its partner's buffer as often as makes a sample
  // about as long as an HBM one. Only sm_90: the build's other target (compute_80) has an empty
  // kernel, which would time nothing on a newer GPU.
  const bool has_dsmem = ctx.info().cc_major == 9;
  const int dsmem_ctas = ctx.info().sm_count / 2 * 2;
  const int dsmem_passes = int(std::max<size_t>(2, bytes / (size_t(dsmem_ctas) * kDsmemBytes)));
  auto pass = [&](int kind) {
    switch (kind) {
      case kRead:
        ceiling_ops::stream_read(src.get(), bytes, 1, kNeverKey, static_cast<unsigned*>(sink.get()), blocks, s,
                                 ceiling_ops::ReadPath::l1);
        break;
      case kL2Pass:
      case kL2PassThroughL1:
      case kL2PassRotated: {
        const auto path = kind == kL2Pass             ? ceiling_ops::ReadPath::l2_only
                          : kind == kL2PassThroughL1 ? ceiling_ops::ReadPath::l1
                                                     : ceiling_ops::ReadPath::l1_rotated;
        ceiling_ops::stream_read(src.get(), l2_slice, l2_passes, kNeverKey, static_cast<unsigned*>(sink.get()), blocks, s,
                                 path);
        break;
      }
      case kWrite: ceiling_ops::stream_write(dst.get(), bytes, 1, kWriteWord, blocks, s); break;
      case kL2WritePass: ceiling_ops::stream_write(dst.get(), l2_slice, l2_passes, kWriteWord, blocks, s); break;
      case kCopy: GF_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s)); break;
      case kDsmemPass:
        ceiling_ops::read_partner_smem(dsmem_ctas, kDsmemThreads, kDsmemBytes, dsmem_passes, kNeverKey,
                                       static_cast<unsigned*>(sink.get()), s);
        break;
    }
  };
  std::vector<int> order = {kRead, kWrite, kCopy, kL2Pass, kL2WritePass, kL2PassThroughL1, kL2PassRotated};
  if (has_dsmem) order.push_back(kDsmemPass);
  for (int k : order) pass(k);  // untimed: first touch, clocks up
  GF_CUDA(cudaDeviceSynchronize());

  const auto us = time_in_shuffled_rounds(std::vector<size_t>(order.begin(), order.end()), kPassCount, o.rounds, o.seed,
                                          s, [&](size_t k) { pass(int(k)); });
  const NvmlReading clocks = Nvml::instance(ctx.info().pci_bus_id).read();

  const std::string stream_grid =
      std::to_string(blocks) + " blocks x " + std::to_string(ceiling_ops::kStreamThreads) + " threads";
  const std::string dsmem_grid =
      std::to_string(dsmem_ctas) + " CTAs x " + std::to_string(kDsmemThreads) + " threads, clusters of 2";
  const struct {
    CeilingField field;
    size_t buffer_bytes;  // per pass (DSMEM: per CTA)
    int passes;           // over the buffer, in one sample
    size_t bytes_moved;   // per sample
    std::string grid;     // empty for the copy engine
    const char* method;
  } kinds[kMeasuredKinds] = {
      {kHbmRead, bytes, 1, bytes, stream_grid,
       "a kernel of 16-byte loads over the whole buffer (grid-stride, 4 loads in flight per thread, XOR-reduced "
       "so no load can be dropped); one pass per sample, event-timed"},
      {kHbmWrite, bytes, 1, bytes, stream_grid,
       "a kernel of 16-byte stores over the whole buffer (grid-stride); one pass per sample, event-timed"},
      {kHbmCopy, bytes, 1, 2 * bytes, "",
       "cudaMemcpyAsync device to device of the whole buffer; bytes counted read + write; one copy per sample, "
       "event-timed"},
      {kL2Read, l2_slice, l2_passes, l2_slice * size_t(l2_passes), stream_grid,
       "the read kernel over a slice of a quarter of L2, many passes in one launch (the first fills L2), its loads "
       "through L2 only (ld.global.cg: through L1 an SM re-reads its own words each pass and L1 serves part of "
       "them; those variants are in the detail, not the value); one launch per sample, event-timed"},
      {kL2Write, l2_slice, l2_passes, l2_slice * size_t(l2_passes), stream_grid,
       "the write kernel over a slice of a quarter of L2, many passes in one launch (each pass a different "
       "word; the lines stay in L2, written back when evicted); one launch per sample, event-timed"},
      {kDsmemRead, size_t(kDsmemBytes), dsmem_passes, size_t(dsmem_ctas) * kDsmemBytes * size_t(dsmem_passes),
       dsmem_grid,
       "one CTA per SM (128 KiB of shared memory each) in two-CTA clusters, each reading its partner's shared "
       "memory many times with 16-byte ld.shared::cluster loads, four in flight per thread; bytes counted over "
       "all CTAs; one launch per sample, event-timed"},
  };
  std::vector<CeilingMeasurement> out;
  const double l2_pass_bytes = double(l2_slice) * l2_passes;
  for (int k = 0; k < kMeasuredKinds; ++k) {  // a fixed order for the printed table
    if (k == kDsmemPass && !has_dsmem) continue;
    const auto& kind = kinds[k];
    CeilingMeasurement m;
    m.field = kind.field;
    m.time_us = summarize(us[size_t(k)]);
    m.value = double(kind.bytes_moved) / m.time_us.median / 1e3;  // bytes per µs / 1e3 = GB/s
    m.method = std::string(kind.method) + "; the kinds interleaved in shuffled rounds; median over the samples";
    m.detail["buffer_bytes"] = kind.buffer_bytes;
    if (kind.passes > 1) m.detail["passes"] = kind.passes;
    m.detail["bytes_per_sample"] = kind.bytes_moved;
    m.detail["l2_bytes"] = ctx.info().l2_bytes;
    if (!kind.grid.empty()) m.detail["grid"] = kind.grid;
    if (k == kDsmemPass) m.detail["per_sm_gbps"] = m.value / dsmem_ctas;
    if (k == kL2Pass) {
      m.detail["loads"] = "ld.global.cg";
      m.detail["through_l1_gbps"] = l2_pass_bytes / summarize(us[kL2PassThroughL1]).median / 1e3;
      m.detail["through_l1_rotated_gbps"] = l2_pass_bytes / summarize(us[kL2PassRotated]).median / 1e3;
    }
    m.note_clocks(clocks);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace gemmforge
