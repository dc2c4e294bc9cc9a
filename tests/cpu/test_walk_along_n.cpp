// The walk along N's order (kernels/sm90/walk_along_n.cuh), which the kernel and these tests
// share: checked on the CPU over many tile grids and group sizes, the fast walk's divisors too.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sm90/walk_along_n.cuh"

namespace gemmforge {
namespace {

using Tile = std::pair<int, int>;  // (cluster-tile row, column)

std::vector<Tile> walk(int tiles_m, int tiles_n, int group) {
  std::vector<Tile> order;
  for (int t = 0; t < tiles_m * tiles_n; ++t) {
    int m = -1, n = -1;
    sm90::walk_along_n(t, tiles_m, tiles_n, group, m, n);
    order.emplace_back(m, n);
  }
  return order;
}

// A 3 × 5 grid in groups of two columns: n fastest inside a group, the second group from the last
// row up, the last group one column wide.
TEST(WalkAlongN, VisitsGroupsOfColumnsRowByRowAndTurnsAtEachGroup) {
  const std::vector<Tile> expected = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},   // group 0, down
                                      {2, 2}, {2, 3}, {1, 2}, {1, 3}, {0, 2}, {0, 3},   // group 1, up
                                      {0, 4}, {1, 4}, {2, 4}};                          // group 2, down
  EXPECT_EQ(walk(3, 5, 2), expected);
}

// Every tile once; the group's columns and rows as described; the tiles either side of a group
// boundary in the same row; and the fast walk's divisions give the same order.
TEST(WalkAlongN, VisitsEveryTileOnceAndTheFastWalkAgrees) {
  for (int tiles_m = 1; tiles_m <= 40; tiles_m += 3)
    for (int tiles_n = 1; tiles_n <= 40; ++tiles_n)
      for (int group = 1; group <= tiles_n + 1; ++group) {
        const auto order = walk(tiles_m, tiles_n, group);
        std::vector<int> seen(size_t(tiles_m * tiles_n), 0);
        const int last = tiles_n % group;
        const sm90::FastDivisor per_group(group * tiles_m), group_cols(group), last_cols(last == 0 ? group : last);
        for (int t = 0; t < int(order.size()); ++t) {
          const auto [m, n] = order[size_t(t)];
          ASSERT_TRUE(m >= 0 && m < tiles_m && n >= 0 && n < tiles_n) << t;
          ++seen[size_t(m * tiles_n + n)];
          const int g = t / (group * tiles_m);
          EXPECT_EQ(n / group, g) << "tile " << t << " outside its group's columns";
          int fast_m = -1, fast_n = -1;
          sm90::walk_along_n(t, tiles_m, tiles_n, group, per_group, group_cols, last_cols, fast_m, fast_n);
          ASSERT_EQ(Tile(fast_m, fast_n), order[size_t(t)]) << tiles_m << "x" << tiles_n << " group " << group;
          if (t > 0 && t % (group * tiles_m) == 0) {
            EXPECT_EQ(order[size_t(t - 1)].first, m) << "turn at tile " << t;
          } else if (t > 0 && order[size_t(t - 1)].first == m) {
            EXPECT_EQ(order[size_t(t - 1)].second + 1, n) << "n fastest inside a group";
          }
        }
        for (int v : seen) ASSERT_EQ(v, 1) << tiles_m << "x" << tiles_n << " group " << group;
      }
}

}  // namespace
}  // namespace gemmforge
