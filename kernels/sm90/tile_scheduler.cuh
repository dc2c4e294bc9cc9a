// Which output tile a CTA works on next. Persistent CTAs walk tile indices blockIdx.x,
// blockIdx.x + gridDim.x, ...; a non-persistent launch is the same walk with one tile per CTA.
// Tiles are visited in groups of `group_m` tile-rows so that consecutive CTAs share B tiles
// (and A tiles within a group) in L2.
#pragma once

namespace gemmforge::sm90 {

struct TileScheduler {
  int tiles_m, tiles_n, group_m;

  __device__ TileScheduler(int M, int N, int block_m, int block_n, int group)
      : tiles_m((M + block_m - 1) / block_m), tiles_n((N + block_n - 1) / block_n), group_m(group < 1 ? 1 : group) {}

  __device__ int total() const { return tiles_m * tiles_n; }

  __device__ void coords(int t, int& tile_m, int& tile_n) const {
    const int per_group = group_m * tiles_n;
    const int first_m = (t / per_group) * group_m;
    const int rows = min(tiles_m - first_m, group_m);
    const int local = t % per_group;
    tile_m = first_m + local % rows;
    tile_n = local / rows;
  }
};

}  // namespace gemmforge::sm90
