// Stream-K's arithmetic (kernels/sm90/work_division.cuh), which the kernel and the host share:
// checked here on the CPU over many tile counts, K lengths and grid sizes.
#include <gtest/gtest.h>

#include <vector>

#include "core/kernel_config.hpp"
#include "sm90/work_division.cuh"

namespace gemmforge {
namespace {

// The fast walk's divisions by multiply and shift: exact against / and % over the divisors and
// dividends a launch can have (tile counts, group sizes), the edges of each power of two included.
TEST(FastDivisor, MatchesIntegerDivision) {
  std::vector<int> divisors, dividends;
  for (int p = 0; p < 31; ++p)
    for (int d : {(1 << p) - 1, 1 << p, (1 << p) + 1})
      if (d >= 1) divisors.push_back(d), dividends.push_back(d);
  for (int d = 1; d <= 2000; ++d) divisors.push_back(d);
  for (int x = 0; x <= 100000; x += 7) dividends.push_back(x);
  for (int x : {0x7FFFFFFF, 0x7FFFFFFE, 0x40000000, 123456789, 2147480000}) dividends.push_back(x);
  for (int d : divisors) {
    const sm90::FastDivisor f(d);
    for (int x : dividends) {
      const int q = f.div(x);
      ASSERT_EQ(q, x / d) << x << " / " << d;
      ASSERT_EQ(f.mod(x, q), x % d) << x << " % " << d;
    }
  }
}

// The multiplier is exactly ceil(2^p / d), p = 31 + ceil(log2 d), over the whole divisor range:
// the float reciprocal's refinement never leaves it off by one (the quotients above check only the
// dividends tried).
TEST(FastDivisor, MultiplierIsTheExactRoundedUpQuotient) {
  std::vector<unsigned> divisors;
  for (unsigned d = 2; d <= 70000; ++d) divisors.push_back(d);
  for (unsigned long long d = 70001; d < (1ull << 31); d += 7919) divisors.push_back(unsigned(d));
  for (int p = 17; p < 31; ++p)
    for (unsigned d : {(1u << p) - 1, 1u << p, (1u << p) + 1}) divisors.push_back(d);
  divisors.push_back(0x7FFFFFFFu);
  for (unsigned d : divisors) {
    const sm90::FastDivisor f{int(d)};
    const unsigned p = 31 + (32 - unsigned(__builtin_clz(d - 1)));
    const unsigned long long exact = ((1ull << p) + d - 1) / d;
    ASSERT_EQ(f.multiplier, exact) << "d = " << d;
    ASSERT_EQ(f.shift, p - 32) << "d = " << d;
  }
}

TEST(StreamK, IterationsArePartitionedAndEveryTileFitsItsSlots) {
  for (long long tiles : {1LL, 2LL, 7LL, 131LL, 132LL, 133LL, 400LL, 408LL, 1000LL})
    for (int k_blocks : {1, 2, 3, 16, 64, 257})
      for (int ctas : {1, 2, 66, 132}) {
        const auto p = sm90::StreamKPlan::make(tiles, k_blocks, ctas);
        const std::string where = std::to_string(tiles) + " tiles, " + std::to_string(k_blocks) + " k-blocks, " +
                                  std::to_string(ctas) + " CTAs";
        ASSERT_EQ(p.dp_tiles % ctas, 0) << where;  // whole waves only
        ASSERT_EQ(p.dp_tiles + p.sk_tiles, tiles) << where;
        ASSERT_LT(p.sk_tiles, ctas) << where;
        if (p.sk_tiles == 0) continue;
        ASSERT_EQ(p.begin(0), 0) << where;
        ASSERT_EQ(p.begin(p.sk_ctas), p.sk_iters) << where;
        for (int c = 0; c < p.sk_ctas; ++c) {
          ASSERT_LT(p.begin(c), p.begin(c + 1)) << where << ": CTA " << c << " has no iteration";
          for (long long x = p.begin(c); x < p.begin(c + 1); ++x) ASSERT_EQ(p.cta_of(x), c) << where << ", iteration " << x;
        }
        for (long long t = 0; t < p.sk_tiles; ++t) {
          const int parts = p.cta_of((t + 1) * k_blocks - 1) - p.cta_of(t * k_blocks) + 1;
          ASSERT_GE(parts, 1) << where;
          ASSERT_LE(parts, p.max_parts) << where << ": tile " << t << " needs more slots than the workspace has";
        }
      }
}

TEST(StreamK, WorkspaceOnlyForTheLeftOverTiles) {
  KernelConfig c;  // 128x128, two cooperative consumers
  EXPECT_EQ(streamk_workspace_bytes(c, 128 * 132, 128, 4096, 132), 0u);  // whole waves: nothing shared
  const auto p = sm90::StreamKPlan::make(17 * 24, 16, 132);              // 2112x3000x1024
  EXPECT_EQ(p.sk_tiles, 408 - 396);
  EXPECT_EQ(streamk_workspace_bytes(c, 2112, 3000, 1024, 132),
            size_t(64 * 4 + p.sk_tiles * 2 * p.max_parts * 64 * 128 * 4));
  EXPECT_TRUE(launch_problem(c, LaunchKnobs{.stream_k = true}).empty());
  KernelConfig cluster = c;
  cluster.cluster_m = 2;
  cluster.multicast = true;
  EXPECT_FALSE(launch_problem(cluster, LaunchKnobs{.stream_k = true}).empty());
  EXPECT_FALSE(launch_problem(c, LaunchKnobs{.persistent = false, .stream_k = true}).empty());
  EXPECT_FALSE(launch_problem(c, LaunchKnobs{.splits = 2, .stream_k = true}).empty());
}

}  // namespace
}  // namespace gemmforge
