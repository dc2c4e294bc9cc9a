// `gemmforge trace`'s two halves that need no GPU: the traced build (stamps compiled in only on
// request) and the arithmetic that turns a read-back buffer into phases.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/kernel_config.hpp"
#include "core/trace_summary.hpp"
#include "gemmforge/types.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "sass.hpp"
#include "sm90/ablation.cuh"
#include "sm90/trace_layout.cuh"

namespace gemmforge {
namespace {

namespace tr = sm90::trace;

bool has_bytes(const std::vector<char>& blob, const std::string& text) {
  return std::search(blob.begin(), blob.end(), text.begin(), text.end()) != blob.end();
}

TEST(Trace, StampsAreCompiledInOnlyWhenAskedFor) {
  KernelConfig c;  // a one-consumer tile with TMA stores: the producer, the walk and the epilogue
  c.block_m = c.block_n = 64;
  c.stages = 8;
  c.consumers = 1;
  c.tma_store = true;
  ASSERT_TRUE(is_valid(c));
  jit::CompileRequest plain;
  plain.name = c.name();
  plain.source = jit_source(c);
  plain.include_dirs = {std::string(GEMMFORGE_SOURCE_DIR) + "/kernels"};
  jit::CompileRequest traced = plain;
  traced.extra_options = {"-DGEMMFORGE_TRACE"};
  const auto p = jit::compile(plain), t = jit::compile(traced);
  ASSERT_TRUE(p.ok) << p.log;
  ASSERT_TRUE(t.ok) << t.log;
  EXPECT_EQ(t.spill_bytes, 0) << t.log;
  EXPECT_TRUE(has_bytes(t.cubin, kTraceBufferSymbol));
  EXPECT_FALSE(has_bytes(p.cubin, kTraceBufferSymbol));
  if (!testing::can_disassemble()) GTEST_SKIP() << "no cuobjdump here: the SASS half of this test did not run";
  const auto plain_sass = testing::sass_of(p.cubin, "trace_plain"), traced_sass = testing::sass_of(t.cubin, "trace_traced");
  EXPECT_NE(traced_sass.find("SR_GLOBALTIMER"), std::string::npos);
  EXPECT_EQ(plain_sass.find("SR_GLOBALTIMER"), std::string::npos);
  EXPECT_EQ(plain_sass.find("SR_CLOCK"), std::string::npos);
  // The per-k-block stamps come only with their own define: more clock reads (in the main loop).
  jit::CompileRequest kblocks = traced;
  kblocks.extra_options.push_back("-DGEMMFORGE_TRACE_KBLOCKS");
  const auto k = jit::compile(kblocks);
  ASSERT_TRUE(k.ok) << k.log;
  auto clock_reads = [](const std::string& sass) {
    int n = 0;
    for (size_t at = sass.find("SR_CLOCK"); at != std::string::npos; at = sass.find("SR_CLOCK", at + 1)) ++n;
    return n;
  };
  EXPECT_GT(clock_reads(testing::sass_of(k.cubin, "trace_kblocks")), clock_reads(traced_sass));
}

// `gemmforge trace --ablate`'s builds (kernels/sm90/ablation.cuh): each leaves out exactly its part
// of a ping-pong tile's epilogue or main loop, in the SASS, and nothing else of it.
TEST(Trace, AblatedBuildsLeaveOutTheirPartOnly) {
  KernelConfig c;  // 128x176 ping-pong: two alternating staging buffers of 16 columns
  c.block_m = 128;
  c.block_n = 176;
  c.stages = 4;
  c.consumers = 2;
  c.mode = ConsumerMode::pingpong;
  c.tma_store = true;
  ASSERT_TRUE(is_valid(c));
  if (!testing::can_disassemble()) GTEST_SKIP() << "no cuobjdump here: this test reads SASS";
  auto sass = [&](int part) {
    jit::CompileRequest r;
    r.name = c.name();
    r.source = jit_source(c);
    r.include_dirs = {std::string(GEMMFORGE_SOURCE_DIR) + "/kernels"};
    r.extra_options = {"-DGEMMFORGE_TRACE"};
    if (part > 0) r.extra_options.push_back("-DGEMMFORGE_ABLATE=" + std::to_string(part));
    const auto built = jit::compile(r);
    EXPECT_TRUE(built.ok) << built.log;
    EXPECT_EQ(built.spill_bytes, 0) << built.log;
    return testing::sass_of(built.cubin, "ablate_" + std::to_string(part));
  };
  const auto count = testing::count_of;
  // A TMA store, an stmatrix and a proxy fence per 16-column block (11), and wgmma in every build.
  const std::string kStore = "UTMASTG", kStage = "STSM", kFence = "FENCE.VIEW.ASYNC.S", kMma = "HGMMA";
  namespace ab = sm90::ablation;
  const std::string complete = sass(ab::kNone), whole = sass(ab::kWholeEpilogue), no_store = sass(ab::kStoreIssue),
                    no_staging = sass(ab::kStaging), no_fence = sass(ab::kProxyFence);
  const int stores = count(complete, kStore), stages = count(complete, kStage), fences = count(complete, kFence);
  EXPECT_GE(stores, 11);
  EXPECT_GE(stages, 11);
  EXPECT_GE(fences, 11);
  for (const auto* s : {&complete, &whole, &no_store, &no_staging, &no_fence}) EXPECT_GT(count(*s, kMma), 0);
  EXPECT_EQ(count(whole, kStore), 0);
  EXPECT_EQ(count(whole, kStage), 0);
  EXPECT_EQ(count(no_store, kStore), 0);
  EXPECT_EQ(count(no_store, kStage), stages);
  EXPECT_EQ(count(no_store, kFence), fences);
  EXPECT_EQ(count(no_staging, kStore), stores);
  EXPECT_EQ(count(no_staging, kStage), 0);
  EXPECT_EQ(count(no_fence, kStore), stores);
  EXPECT_EQ(count(no_fence, kStage), stages);
  EXPECT_LE(count(no_fence, kFence), fences - 11);  // the fences left are the walk's, not the epilogue's
  // The main loop's two sides: no wgmma at all, or no TMA load (the epilogue's stores stay).
  const std::string no_mma = sass(ab::kMma), no_loads = sass(ab::kLoads);
  const std::string kLoad = "UTMALDG";
  EXPECT_GT(count(complete, kLoad), 0);
  // ptxas keeps an empty wgmma (no registers, no descriptors) where a group is committed.
  const std::string kEmptyMma = "HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ";
  EXPECT_EQ(count(complete, kEmptyMma), 0);
  EXPECT_EQ(count(no_mma, kMma), count(no_mma, kEmptyMma));
  EXPECT_EQ(count(no_mma, kLoad), count(complete, kLoad));
  EXPECT_EQ(count(no_mma, kStore), stores);
  EXPECT_EQ(count(no_loads, kLoad), 0);
  EXPECT_EQ(count(no_loads, kMma), count(complete, kMma));
  EXPECT_EQ(count(no_loads, kStore), stores);
}

// A buffer as two CTAs of a launch at 1500 MHz would leave it: clocks and nanoseconds agree.
std::vector<uint64_t> two_cta_buffer() {
  std::vector<uint64_t> w(size_t(tr::kCtas) * tr::kSlotsPerCta, 0);
  auto put = [&](int cta, int slot, uint64_t v) { w[size_t(cta) * tr::kSlotsPerCta + size_t(slot)] = v; };
  auto unit = [&](int cta, int u, int slot, uint64_t v) { put(cta, tr::kCtaSlots + u * tr::kUnitSlots + slot, v); };
  for (int cta = 0; cta < 2; ++cta) {
    const uint64_t clock0 = 1000000 * (cta + 1), ns0 = 5000000 + 300 * cta;  // CTA 1 enters 0.3 µs later
    put(cta, tr::kEntryNs, ns0);
    put(cta, tr::kEntryClock, clock0);
    put(cta, tr::kSmId, 10 + cta);
    put(cta, tr::kGridWaitClock, clock0 + 1500);        // 1 µs of set-up
    put(cta, tr::kProducerFirstClock, clock0 + 1800);
    put(cta, tr::kProducerWaitClocks, 3000);            // 2 µs
    for (int u = 0; u < 2; ++u) {
      const uint64_t base = clock0 + 3000 + u * 30000;
      unit(cta, u, tr::kUnitShape, 16 | (uint64_t(1) << 32));
      unit(cta, u, tr::kUnitStart, base);
      unit(cta, u, tr::kUnitFirstData, base + 300);     // 0.2 µs
      unit(cta, u, tr::kUnitMainDone, base + 300 + 16 * 1200);  // 1200 clocks per k-block
      unit(cta, u, tr::kUnitDone, base + 300 + 16 * 1200 + 750);  // 0.5 µs epilogue
    }
    const uint64_t end_clock = clock0 + 3000 + 30000 + 300 + 16 * 1200 + 750 + 150;  // 0.1 µs store wait
    put(cta, tr::kConsumerEndClock, end_clock);
    put(cta, tr::kConsumerEndNs, ns0 + (end_clock - clock0) * 2 / 3);
    put(cta, tr::kExitClock, end_clock + 15);
    put(cta, tr::kUnitsWalked, 2);
    put(cta, tr::kEpiCalls, 2);
    put(cta, tr::kEpiStoreWaitClocks, 600);  // 0.2 µs per epilogue
    put(cta, tr::kEpiBarrierClocks, 300);
    put(cta, tr::kEpiStageClocks, 900);
    put(cta, tr::kEpiIssueClocks, 150);
  }
  // CTA 0 also stamped two split-K reductions; CTA 1 none.
  put(0, tr::kRedCalls, 2);
  put(0, tr::kRedPublishClocks, 1200);  // 0.4 µs per reduction
  put(0, tr::kRedArriveClocks, 30);
  put(0, tr::kRedWaitClocks, 3000);
  put(0, tr::kRedSliceClocks, 1800);
  put(0, tr::kRedDepartClocks, 600);
  return w;
}

TEST(Trace, SummaryConvertsStampsToPhases) {
  const TraceSummary s = summarize_trace(two_cta_buffer(), 2);
  EXPECT_EQ(s.ctas, 2);
  EXPECT_NEAR(s.clock_mhz, 1500, 1);
  EXPECT_NEAR(s.entry_skew_us, 0.3, 1e-9);
  ASSERT_EQ(s.per_cta.size(), 2u);
  EXPECT_EQ(s.per_cta[1].sm, 11);
  EXPECT_NEAR(s.per_cta[0].setup_us, 1.0, 1e-3);
  EXPECT_NEAR(s.per_cta[0].first_load_us, 1.0, 1e-3);  // producer at +1800, first stage at +3300
  EXPECT_NEAR(s.per_cta[0].producer_wait_us, 2.0, 1e-3);
  EXPECT_NEAR(s.per_cta[0].store_wait_us, 0.1, 1e-3);
  EXPECT_NEAR(s.per_cta[0].drain_us, 0.01, 1e-3);
  EXPECT_NEAR(s.per_cta[0].epi_store_wait_us, 0.2, 1e-3);
  EXPECT_NEAR(s.per_cta[0].epi_barrier_us, 0.1, 1e-3);
  EXPECT_NEAR(s.per_cta[0].epi_stage_us, 0.3, 1e-3);
  EXPECT_NEAR(s.per_cta[0].epi_issue_us, 0.05, 1e-3);
  EXPECT_EQ(s.per_cta[0].reductions, 2);
  EXPECT_NEAR(s.per_cta[0].red_publish_us, 0.4, 1e-3);
  EXPECT_NEAR(s.per_cta[0].red_arrive_us, 0.01, 1e-3);
  EXPECT_NEAR(s.per_cta[0].red_wait_us, 1.0, 1e-3);
  EXPECT_NEAR(s.per_cta[0].red_slice_us, 0.6, 1e-3);
  EXPECT_NEAR(s.per_cta[0].red_depart_us, 0.2, 1e-3);
  EXPECT_EQ(s.per_cta[1].reductions, 0);
  ASSERT_EQ(s.units.size(), 4u);
  for (const auto& u : s.units) {
    EXPECT_EQ(u.k_blocks, 16);
    EXPECT_EQ(u.parts, 1);
    EXPECT_NEAR(u.wait_us, 0.2, 1e-3);
    EXPECT_NEAR(u.clocks_per_k_block, 1200, 1e-6);
    EXPECT_NEAR(u.finish_us, 0.5, 1e-3);
    EXPECT_EQ(u.has_gap, u.walked == 0);  // the last unit has no next one
  }
  // Unit 1's first stage at +33300, unit 0's main loop done at +22500: 10800 clocks.
  EXPECT_NEAR(s.units[0].gap_us, 7.2, 1e-3);
  const auto j = trace_phases_json(s);
  EXPECT_NEAR(j["phases"]["clocks_per_k_block"]["median"].get<double>(), 1200, 1e-6);
  EXPECT_EQ(j["phases"]["unit_gap_us"]["n"].get<int>(), 2);
  EXPECT_EQ(j["phases"]["red_wait_us"]["n"].get<int>(), 1);  // over the CTAs that reduced
  EXPECT_NE(trace_phases_table(s).find("unit_finish_us"), std::string::npos);
  const std::string csv = trace_units_csv(s);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);  // a header and four units
}

// A walk of six two-k-block units whose fifth (walk index kKbFirstUnit) has its k-blocks stamped:
// each k-block's stamps come back relative to the unit's first stage full, and the per-position
// table reads them.
TEST(Trace, KBlockStampsAreRelativeToTheUnitsFirstStage) {
  std::vector<uint64_t> w(size_t(tr::kSlotsPerCta), 0);
  auto put = [&](int slot, uint64_t v) { w[size_t(slot)] = v; };
  auto unit = [&](int u, int slot, uint64_t v) { put(tr::kCtaSlots + u * tr::kUnitSlots + slot, v); };
  auto kblock = [&](int u, int kb, int slot, uint64_t v) {
    put(tr::kKbBase + ((u - tr::kKbFirstUnit) * tr::kKbMax + kb) * tr::kKbSlots + slot, v);
  };
  put(tr::kEntryNs, 1000);
  put(tr::kEntryClock, 100000);
  put(tr::kConsumerEndNs, 1000 + 20000);
  put(tr::kConsumerEndClock, 100000 + 30000);  // 1500 MHz
  put(tr::kUnitsWalked, 6);
  for (int u = 0; u < 6; ++u) {
    const uint64_t first = 101000 + 4000 * uint64_t(u);
    unit(u, tr::kUnitShape, 2 | (uint64_t(1) << 32));
    unit(u, tr::kUnitStart, first - 100);
    unit(u, tr::kUnitFirstData, first);
    unit(u, tr::kUnitMainDone, first + 2000);
    unit(u, tr::kUnitDone, first + 3000);
  }
  const uint64_t first = 101000 + 4000 * uint64_t(tr::kKbFirstUnit);
  kblock(tr::kKbFirstUnit, 0, tr::kKbLoaded, first - 700);
  kblock(tr::kKbFirstUnit, 0, tr::kKbFull, first);
  kblock(tr::kKbFirstUnit, 0, tr::kKbRetired, first + 1300);
  kblock(tr::kKbFirstUnit, 1, tr::kKbLoaded, first - 200);
  kblock(tr::kKbFirstUnit, 1, tr::kKbFull, first + 600);
  kblock(tr::kKbFirstUnit, 1, tr::kKbRetired, first + 2000);
  const TraceSummary s = summarize_trace(w, 1);
  ASSERT_EQ(s.kblocks.size(), 2u);  // only the stamped unit's k-blocks
  EXPECT_EQ(s.kblocks[0].walked, tr::kKbFirstUnit);
  EXPECT_EQ(s.kblocks[0].full, 0);
  EXPECT_EQ(s.kblocks[0].loaded, -700);
  EXPECT_EQ(s.kblocks[1].kb, 1);
  EXPECT_EQ(s.kblocks[1].full, 600);
  EXPECT_EQ(s.kblocks[1].retired, 2000);
  const std::string table = trace_kblocks_table(s);
  EXPECT_NE(table.find("        0              600           1300                 700"), std::string::npos) << table;
  EXPECT_NE(trace_kblocks_csv(s).find("0,4,1,600,2000,-200"), std::string::npos);
}

TEST(Trace, AnUnstampedBufferIsAnError) {
  const std::vector<uint64_t> zeros(size_t(tr::kSlotsPerCta) * 4, 0);
  EXPECT_THROW(summarize_trace(zeros, 4), Error);
}

}  // namespace
}  // namespace gemmforge
