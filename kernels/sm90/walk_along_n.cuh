// The walk along N (KernelConfig::walk_n; kWalkN builds): the order in which a launch visits its
// cluster tiles, as cuBLAS's Hopper kernels visit theirs (bench/NOTES.md, session 46, read from
// its SASS). Groups of `group` cluster-tile columns; inside a group, n fastest, so the clusters
// that start together share rows of A; odd groups walk m from the last row up (serpentine), so
// the tiles either side of a group boundary share a row of A too. The default walk
// (tile_scheduler.cuh) groups rows and walks m fastest. Host-side arithmetic too: the CPU tests
// check that every tile is visited exactly once, in this order.
#pragma once
#include "sm90/work_division.cuh"

namespace gemmforge::sm90 {

// x / d and x % d by the hardware's division: the divisor interface of FastDivisor, for builds
// without the fast walk.
struct PlainDivisor {
  int d = 1;
  GEMMFORGE_HOST_DEVICE int div(int x) const { return x / d; }
  GEMMFORGE_HOST_DEVICE int mod(int x, int quotient) const { return x - quotient * d; }
};

// Cluster tile t of the walk along N over tiles_m × tiles_n cluster tiles. The divisors divide by
// the tiles of one group (group · tiles_m), by its columns (group), and by the columns of the last
// group (tiles_n % group, or group where that is 0).
template <class Divisor>
GEMMFORGE_HOST_DEVICE inline void walk_along_n(int t, int tiles_m, int tiles_n, int group, const Divisor& per_group,
                                               const Divisor& group_cols, const Divisor& last_cols, int& tile_m,
                                               int& tile_n) {
  const int g = per_group.div(t);
  const int first_n = g * group;
  // A copy, not a reference: a reference to either divisor put the walk in local memory (as in
  // the default walk's fast build).
  const Divisor cols = tiles_n - first_n < group ? last_cols : group_cols;
  const int local = per_group.mod(t, g);
  const int row = cols.div(local);
  tile_n = first_n + cols.mod(local, row);
  tile_m = (g & 1) ? tiles_m - 1 - row : row;
}

// The same walk with the hardware's divisions, made per call.
GEMMFORGE_HOST_DEVICE inline void walk_along_n(int t, int tiles_m, int tiles_n, int group, int& tile_m, int& tile_n) {
  const int last = tiles_n % group;
  walk_along_n(t, tiles_m, tiles_n, group, PlainDivisor{group * tiles_m}, PlainDivisor{group},
               PlainDivisor{last == 0 ? group : last}, tile_m, tile_n);
}

}  // namespace gemmforge::sm90
