#include <gtest/gtest.h>

#include "core/stats.hpp"
#include "gemmforge/types.hpp"

namespace gemmforge {
namespace {

TEST(Stats, PercentilesInterpolateLikeNumpy) {
  const auto s = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.p25, 1.75);
  EXPECT_DOUBLE_EQ(s.p75, 3.25);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.relative_spread(), (3.25 - 1.75) / (2 * 2.5));
}

TEST(Stats, SingleSampleAndEmptyInput) {
  EXPECT_DOUBLE_EQ(summarize({7}).median, 7);
  EXPECT_THROW(summarize({}), Error);
}

TEST(Stats, Means) {
  EXPECT_NEAR(geometric_mean({2, 8}), 4, 1e-12);
  EXPECT_NEAR(arithmetic_mean({2, 8}), 5, 1e-12);
  EXPECT_THROW(geometric_mean({1, 0}), Error);
}

}  // namespace
}  // namespace gemmforge
