// Staged calls (core/staging.hpp): which operands a shape's call copies to 16-byte row strides,
// how large the buffers are, and which Hopper configs can then serve it (runtime/sm90_kernel.hpp).
#include <gtest/gtest.h>

#include "core/staging.hpp"
#include "runtime/sm90_kernel.hpp"

namespace gemmforge {
namespace {

TEST(Staging, AlignedShapesStageNothing) {
  for (Layout l : {Layout::nn, Layout::tn}) {
    const Staging st = staging_for({4096, 4096, 4096}, l);
    EXPECT_FALSE(st.any());
    EXPECT_EQ(st.pitches, packed_pitches({4096, 4096, 4096}, l));
    EXPECT_EQ(st.staged_bytes({4096, 4096, 4096}, l), 0u);
    EXPECT_EQ(st.describe(), "none");
  }
  // M has no row of its own: any M is aligned.
  EXPECT_FALSE(staging_for({77, 4096, 4096}, Layout::nn).any());
  EXPECT_FALSE(staging_for({4095, 4096, 4096}, Layout::tn).any());
}

TEST(Staging, AnOddKStagesAAndBInEitherLayoutAnOddNStagesC) {
  const Staging k_tn = staging_for({4096, 4096, 4095}, Layout::tn);
  EXPECT_TRUE(k_tn.a && k_tn.b && !k_tn.c);
  EXPECT_EQ(k_tn.pitches, (Pitches{4096, 4096, 4096}));
  const Staging k_nn = staging_for({4096, 4096, 4095}, Layout::nn);
  EXPECT_TRUE(k_nn.a && !k_nn.b && !k_nn.c);  // B's rows (K×N) are N long: aligned
  EXPECT_EQ(k_nn.pitches, (Pitches{4096, 4096, 4096}));
  // The GPT-2 head, x·Wᵀ: W (N×K) has aligned rows; only C's rows of 50257 need staging.
  const Staging head_tn = staging_for({512, 50257, 768}, Layout::tn);
  EXPECT_TRUE(!head_tn.a && !head_tn.b && head_tn.c);
  EXPECT_EQ(head_tn.pitches, (Pitches{768, 768, 50264}));
  EXPECT_EQ(head_tn.describe(), "C copied out at 16-byte row strides");
  const Staging head_nn = staging_for({512, 50257, 768}, Layout::nn);
  EXPECT_TRUE(!head_nn.a && head_nn.b && head_nn.c);
  EXPECT_EQ(head_nn.pitches, (Pitches{768, 50264, 50264}));
  EXPECT_EQ(head_nn.describe(), "B copied in, C copied out at 16-byte row strides");
  const Staging all = staging_for({7, 7, 7}, Layout::nn);
  EXPECT_TRUE(all.a && all.b && all.c);
  EXPECT_EQ(all.pitches, (Pitches{8, 8, 8}));
  EXPECT_EQ(all.describe(), "A and B copied in, C copied out at 16-byte row strides");
}

TEST(Staging, BuffersAndCopiedBytesFollowThePaddedAndPackedRows) {
  const Shape s{512, 50257, 768};
  const Staging nn = staging_for(s, Layout::nn);
  // B' is K × 50264, C' is M × 50264, each rounded up to 256 bytes.
  auto r256 = [](size_t b) { return (b + 255) / 256 * 256; };
  EXPECT_EQ(nn.staged_bytes(s, Layout::nn), r256(768u * 50264 * 2) + r256(512u * 50264 * 2));
  // Each copied operand is read and written once, at its packed size.
  EXPECT_DOUBLE_EQ(nn.copied_bytes(s, Layout::nn), 2.0 * 768 * 50257 * 2 + 2.0 * 512 * 50257 * 2);
  // One buffer: A', B', C' in that order, each from a 256-byte boundary; absent ones take no room.
  const StagedLayout at = nn.layout_of(s, Layout::nn);
  EXPECT_EQ(at.a, -1);
  EXPECT_EQ(at.b, 0);
  EXPECT_EQ(at.c, int64_t(r256(768u * 50264 * 2)));
  EXPECT_EQ(at.bytes, nn.staged_bytes(s, Layout::nn));
  const StagedLayout all = staging_for({7, 7, 7}, Layout::tn).layout_of({7, 7, 7}, Layout::tn);
  EXPECT_EQ(all.a, 0);
  EXPECT_EQ(all.b, 256);
  EXPECT_EQ(all.c, 512);
  EXPECT_EQ(all.bytes, 768u);
  EXPECT_EQ(aligned_neighbour({4095, 50257, 4095}), (Shape{4095, 50264, 4096}));  // M keeps its value
  EXPECT_EQ(pitch_aligned(1), 8);
  EXPECT_EQ(pitch_aligned(8), 8);
  EXPECT_EQ(pitch_aligned(50257), 50264);
}

TEST(Staging, OnlyCallsWhoseCopiesCostLittleBesideCublasLtsUnalignedKernelAreStaged) {
  EXPECT_FALSE(worth_staging({4096, 4096, 4096}, Layout::tn));  // nothing to stage
  EXPECT_TRUE(worth_staging({4095, 4095, 4095}, Layout::tn));
  EXPECT_TRUE(worth_staging({512, 50257, 768}, Layout::tn));  // C only: 103 MB against a 263 µs estimate
  EXPECT_TRUE(worth_staging({77, 50257, 768}, Layout::tn));
  EXPECT_FALSE(worth_staging({77, 50257, 768}, Layout::nn));  // B's 154 MB of copies: more than they save
  EXPECT_FALSE(worth_staging({8, 50257, 4096}, Layout::nn));
  EXPECT_TRUE(worth_staging({8, 50257, 4096}, Layout::tn));
  EXPECT_FALSE(worth_staging({1, 50257, 768}, Layout::tn));   // under 0.5 GFLOP: the copies' fixed cost decides
  EXPECT_FALSE(worth_staging({512, 512, 511}, Layout::tn));
  EXPECT_TRUE(worth_staging({1000, 1000, 999}, Layout::tn));
  // The rule as written: copies at 2 TB/s within half of the call at 150 TFLOP/s.
  const Shape s{2048, 2048, 2047};
  const double copies_us = staging_for(s, Layout::tn).copied_bytes(s, Layout::tn) / kStagingCopyBytesPerUs;
  EXPECT_EQ(worth_staging(s, Layout::tn), copies_us <= 0.5 * s.flops() / kUnalignedCublasLtFlopsPerUs);
}

KernelConfig hopper(Layout l, bool tma_store, bool swap_ab = false) {
  KernelConfig c;
  c.layout = l;
  c.block_m = 128, c.block_n = swap_ab ? 64 : 128, c.stages = 4, c.consumers = 2;
  c.tma_store = tma_store;
  c.swap_ab = swap_ab;
  return c;
}

TEST(Staging, AHopperConfigRefusesPackedOddRowsAndServesThemStaged) {
  for (Layout l : {Layout::nn, Layout::tn})
    for (bool tma_store : {false, true}) {
      const KernelConfig c = hopper(l, tma_store);
      for (const Shape s : {Shape{4096, 4096, 4095}, Shape{512, 50257, 768}, Shape{7, 7, 7}}) {
        const Problem p{s, l, Accum::f32};
        const Staging st = staging_for(s, l);
        EXPECT_EQ(why_not_supported(c, p, st.pitches), "") << c.name() << " " << to_string(s);
        if (st.a || st.b || (st.c && tma_store)) {
          EXPECT_NE(why_not_supported(c, p), "") << c.name() << " " << to_string(s);
        }
      }
    }
  // The packed messages are the ones they were.
  EXPECT_EQ(why_not_supported(hopper(Layout::tn, false), {{64, 64, 100}, Layout::tn, Accum::f32}),
            "K = 100 is not a multiple of 8 (TMA needs 16-byte row strides)");
}

TEST(Staging, SwapAbCannotWriteAStagedCAndNoPitchIsShorterThanItsRow) {
  const KernelConfig swap = hopper(Layout::tn, false, true);
  const Problem head{{64, 50257, 768}, Layout::tn, Accum::f32};
  EXPECT_EQ(why_not_supported(swap, head, staging_for(head.shape, head.layout).pitches),
            "swap-AB cannot store C at a row stride other than N");
  const Problem odd_k{{64, 4096, 4095}, Layout::tn, Accum::f32};
  EXPECT_EQ(why_not_supported(swap, odd_k, staging_for(odd_k.shape, odd_k.layout).pitches), "");
  EXPECT_EQ(why_not_supported(hopper(Layout::nn, false), {{64, 64, 64}, Layout::nn, Accum::f32}, Pitches{64, 56, 64}),
            "a row stride is shorter than its row");
  EXPECT_EQ(why_not_supported(hopper(Layout::nn, false), {{64, 64, 64}, Layout::nn, Accum::f32}, Pitches{68, 64, 64}),
            "A's rows are 68 elements apart, not a multiple of 8 (TMA needs 16-byte row strides)");
}

}  // namespace
}  // namespace gemmforge
