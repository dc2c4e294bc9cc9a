// Which output tile a CTA works on next. Tiles are grouped into cluster tiles (the CTAs of one
// cluster take neighbouring tiles, so a multicast operand is shared); persistent clusters walk
// cluster-tile indices cluster_id, cluster_id + clusters, ...; a non-persistent launch is the
// same walk with one cluster tile per cluster. Cluster tiles are visited in groups of `group_m`
// rows so that consecutive clusters share B tiles (and A tiles within a group) in L2.
#pragma once

namespace gemmforge::sm90 {

template <int kClusterM, int kClusterN>
struct TileScheduler {
  int tiles_m, tiles_n;  // in cluster tiles
  int group_m;

  __device__ TileScheduler(int M, int N, int block_m, int block_n, int group)
      : tiles_m((M + block_m * kClusterM - 1) / (block_m * kClusterM)),
        tiles_n((N + block_n * kClusterN - 1) / (block_n * kClusterN)),
        group_m(group < 1 ? 1 : group) {}

  __device__ int total() const { return tiles_m * tiles_n; }
  __device__ static int first() { return blockIdx.x / (kClusterM * kClusterN); }
  __device__ static int stride() { return gridDim.x / (kClusterM * kClusterN); }

  // The CTA tile of the CTA of rank `rank` in cluster tile t. A CTA of a cluster tile that hangs
  // over the matrix edge still runs (its partner needs its half of the shared operand); TMA reads
  // zeros there and the epilogue writes nothing.
  __device__ void coords(int t, unsigned rank, int& tile_m, int& tile_n) const {
    const int per_group = group_m * tiles_n;
    const int first_m = (t / per_group) * group_m;
    const int rows = min(tiles_m - first_m, group_m);
    const int local = t % per_group;
    tile_m = (first_m + local % rows) * kClusterM + (kClusterM > 1 ? int(rank) : 0);
    tile_n = (local / rows) * kClusterN + (kClusterN > 1 ? int(rank) : 0);
  }
};

}  // namespace gemmforge::sm90
