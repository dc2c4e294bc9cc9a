// Which work unit a CTA takes next. A unit is a range of K blocks of one output tile: the whole
// range, one of `splits` equal parts (split-K), or a CTA's share of a tile (stream-K,
// work_division.cuh). Tiles are grouped into cluster tiles (the CTAs of one cluster take
// neighbouring tiles, so a multicast operand is shared, and the same K part, so their loads
// pair up); persistent clusters walk unit indices cluster_id, cluster_id + clusters, ...; a
// non-persistent launch is the same walk with one unit per cluster. Cluster tiles are visited in
// groups of `group_m` rows so that consecutive clusters share B tiles (and A tiles within a
// group) in L2. The parts of one tile are consecutive units, so they run at the same time and
// the last of them finds the others' partial sums still in L2; or, with kPartsApart, `tiles`
// units apart, so that consecutive CTAs (which start together) work on the same K range of
// neighbouring tiles and read the A and B boxes they share at the same time: L2 serves an SM
// 117-148 GB/s of boxes that others read with it against 65 of its own (bench/NOTES.md, session
// 23). Only where every unit has a CTA of its own and no reduction inside a cluster (whose parts
// must be neighbours): a CTA walking several units could wait, in a sliced reduction, for a part
// that it or a CTA behind it holds for later.
//
// With kDynamicWalk (optional_knobs.cuh) and a launch flagged kFlagDynamicWalk (unsplit,
// persistent), a cluster's units after its first come from a counter as the cluster frees up
// (unit_feed.cuh): the cursor then reads them from the feed (FeedReader) instead of stepping by
// `clusters`. Other builds' cursors and walks are what they were.
//
// With kWalkN (optional_knobs.cuh) the groups are of cluster-tile columns instead, n fastest inside
// and serpentine in m (walk_along_n.cuh): cuBLAS's order. `group_m` then counts columns.
//
// With kFastWalk (optional_knobs.cuh) the walk divides by multiply and shift (FastDivisor): its
// four integer divisions cost a cooperative unit ~0.3 µs between tiles, in every consumer warp,
// while the tensor cores wait (bench/NOTES.md, session 31: +1.1% on cooperative 128x256, +1.8% at
// K = 1024, level elsewhere). Without it the walk is the code the shipped tables measured.
#pragma once
#include "sm90/feed_reader.cuh"
#include "sm90/optional_knobs.cuh"
#include "sm90/walk_along_n.cuh"
#include "sm90/work_division.cuh"

namespace gemmforge::sm90 {

// A CTA's place in its cluster of kClusterM × kClusterN CTAs (rank = rank_m + kClusterM · rank_n):
// its offset along M (the cluster column it is in) and along N. With one side 1 the other is the
// rank itself, so a two-CTA cluster does no arithmetic.
template <int kClusterM, int kClusterN>
__device__ inline unsigned cluster_rank_m(unsigned rank) {
  return kClusterM == 1 ? 0u : (kClusterN == 1 ? rank : rank % unsigned(kClusterM));
}
template <int kClusterM, int kClusterN>
__device__ inline unsigned cluster_rank_n(unsigned rank) {
  return kClusterN == 1 ? 0u : (kClusterM == 1 ? rank : rank / unsigned(kClusterM));
}

struct WorkUnit {
  int tile_m, tile_n;      // CTA tile coordinates
  int kb_begin, kb_count;  // the unit's K blocks (kb_count >= 1)
  int parts = 1;           // units that share this tile: > 1 means a reduction (split_k.cuh)
  int slot = 0;            // this unit's place among them: the order partial sums are added in
  int reduce_tile = 0;     // the tile's index among the tiles that are reduced
};

// The divisors of the fast walk, set once per launch: the tiles of a group of group_m lines (tile
// rows; in the walk along N columns, set with the axes swapped), its lines, and the lines of the
// last group. Empty without kFastWalk, so that build's scheduler is what it was.
template <bool kFastWalk>
struct WalkDivisors {
  FastDivisor per_group, group_lines, last_lines;
  __device__ void set(int group_m, int lines, int line_tiles) {
    per_group = FastDivisor(group_m * line_tiles);
    group_lines = FastDivisor(group_m);
    const int last = lines % group_m;
    last_lines = FastDivisor(last == 0 ? group_m : last);
  }
};
template <>
struct WalkDivisors<false> {
  __device__ void set(int, int, int) {}
};

// A role's place in the walk: the next unit index and its stream-K iterations, and in builds with
// the dynamic walk its place in the feed (FeedReader).
template <bool kDynamicWalk>
struct WalkCursor {
  int u;                     // next unit index
  long long sk_pos, sk_end;  // this CTA's remaining stream-K iterations
};
template <>
struct WalkCursor<true> {
  int u;
  long long sk_pos, sk_end;
  FeedReader feed;  // set by its role (start_feed_reader, pipeline.cuh)
};

// Whether a launch of a build with the dynamic walk uses it (kFlagDynamicWalk); nothing in others.
template <bool kDynamicWalk>
struct FeedSwitch {
  __device__ explicit FeedSwitch(bool) {}
};
template <>
struct FeedSwitch<true> {
  bool fed;
  __device__ explicit FeedSwitch(bool dynamic) : fed(dynamic) {}
};

template <int kClusterM, int kClusterN, bool kPartsApart = false, bool kFastWalk = false, bool kDynamicWalk = false,
          bool kWalkN = false>
struct TileScheduler : FeedSwitch<kDynamicWalk> {
  int tiles_m, tiles_n;  // in cluster tiles
  int group_m;           // cluster-tile rows per raster group (columns in the walk along N)
  int k_blocks, splits;  // splits <= k_blocks, so no part is empty
  bool stream_k;         // only without clusters (the host's rule)
  StreamKPlan sk;
  int index_units;       // units walked by index: tiles · splits, or the whole-wave tiles of stream-K
  bool parts_apart = false;  // kPartsApart and allowed for this launch (see above)
  WalkDivisors<kFastWalk> divisors;

  using Cursor = WalkCursor<kDynamicWalk>;

  __device__ TileScheduler(int M, int N, int block_m, int block_n, int group, int k_blocks_, int splits_, bool stream_k_,
                           bool cluster_reduction = false, bool dynamic_walk = false)
      : FeedSwitch<kDynamicWalk>(dynamic_walk),
        tiles_m((M + block_m * kClusterM - 1) / (block_m * kClusterM)),
        tiles_n((N + block_n * kClusterN - 1) / (block_n * kClusterN)),
        group_m(group < 1 ? 1 : group),
        k_blocks(k_blocks_),
        splits(stream_k_ || splits_ < 1 ? 1 : (splits_ > k_blocks_ ? k_blocks_ : splits_)),
        stream_k(stream_k_ && kClusterM * kClusterN == 1) {
    if (stream_k) {
      sk = StreamKPlan::make((long long)tiles_m * tiles_n, k_blocks, int(gridDim.x));
      index_units = int(sk.dp_tiles);
    } else {
      index_units = tiles_m * tiles_n * splits;
    }
    if constexpr (kPartsApart) parts_apart = splits > 1 && !cluster_reduction && index_units <= stride();
    if constexpr (kWalkN) divisors.set(group_m, tiles_n, tiles_m);
    else divisors.set(group_m, tiles_m, tiles_n);
  }

  __device__ static int first() { return blockIdx.x / (kClusterM * kClusterN); }
  __device__ static int stride() { return gridDim.x / (kClusterM * kClusterN); }
  // Tiles that may be reduced, and the workspace slots each has (split_k.cuh's layout).
  __device__ int reduce_tiles() const { return stream_k ? int(sk.sk_tiles) : tiles_m * kClusterM * tiles_n * kClusterN; }
  __device__ int slots_per_tile() const { return stream_k ? sk.max_parts : splits; }

  __device__ Cursor start() const {
    Cursor c{first(), 0, 0};
    if (stream_k && int(blockIdx.x) < sk.sk_ctas) {
      c.sk_pos = sk.begin(blockIdx.x);
      c.sk_end = sk.begin(blockIdx.x + 1);
    }
    return c;
  }
  // Unit u of an unsplit launch: a whole tile (the dynamic walk's units).
  __device__ void whole_tile(int u, unsigned rank, WorkUnit& w) const {
    tile_of(u, rank, w.tile_m, w.tile_n);
    w.kb_begin = 0;
    w.kb_count = k_blocks;
    w.parts = 1;
    w.slot = 0;
    w.reduce_tile = w.tile_m * tiles_n * kClusterN + w.tile_n;
  }
  // Whether the walk has another unit after those next() returned so far.
  __device__ bool more(const Cursor& c) const {
    if constexpr (kDynamicWalk)
      if (c.feed.on) return c.feed.peek() < index_units;
    return c.u < index_units || c.sk_pos < c.sk_end;
  }

  // The next unit of this CTA (of rank `rank` in its cluster); false when the walk is over.
  __device__ bool next(Cursor& c, unsigned rank, WorkUnit& w) const {
    if constexpr (kDynamicWalk)
      if (c.feed.on) {  // unsplit launches: whole tiles, in the order the feed hands them out
        const int u = c.feed.take();
        if (u >= index_units) return false;
        whole_tile(u, rank, w);
        return true;
      }
    if (c.u < index_units) {
      // Unsplit launches skip the division: the walk runs it once per tile in every consumer warp.
      int t = splits == 1 ? c.u : c.u / splits, split = c.u - t * splits;
      if constexpr (kPartsApart) {
        if (parts_apart) t = c.u % (tiles_m * tiles_n), split = c.u / (tiles_m * tiles_n);
      }
      tile_of(t, rank, w.tile_m, w.tile_n);
      w.kb_begin = kb_begin(split);
      w.kb_count = kb_begin(split + 1) - w.kb_begin;
      w.parts = splits;
      w.slot = split;
      w.reduce_tile = w.tile_m * tiles_n * kClusterN + w.tile_n;
      c.u += stride();
      return true;
    }
    if (c.sk_pos < c.sk_end) {
      const long long tile = c.sk_pos / k_blocks;  // among the left-over tiles
      const long long tile_begin = tile * k_blocks, tile_end = tile_begin + k_blocks;
      const long long stop = tile_end < c.sk_end ? tile_end : c.sk_end;
      tile_of(int(sk.dp_tiles + tile), 0, w.tile_m, w.tile_n);
      w.kb_begin = int(c.sk_pos - tile_begin);
      w.kb_count = int(stop - c.sk_pos);
      const int first_cta = sk.cta_of(tile_begin);
      w.parts = sk.cta_of(tile_end - 1) - first_cta + 1;
      w.slot = int(blockIdx.x) - first_cta;
      w.reduce_tile = int(tile);
      c.sk_pos = stop;
      return true;
    }
    return false;
  }

 private:
  __device__ int kb_begin(int split) const {
    if constexpr (kFastWalk) {
      if (splits == 1) return split == 0 ? 0 : k_blocks;  // an unsplit unit: no division
    }
    return split * k_blocks / splits;
  }

  // The CTA tile of the CTA of rank `rank` in cluster tile t. A CTA of a cluster tile that hangs
  // over the matrix edge still runs (its partner needs its half of the shared operand); TMA reads
  // zeros there and the epilogue writes nothing.
  __device__ void tile_of(int t, unsigned rank, int& tile_m, int& tile_n) const {
    if constexpr (kWalkN) {
      int m, n;
      if constexpr (kFastWalk)
        walk_along_n(t, tiles_m, tiles_n, group_m, divisors.per_group, divisors.group_lines, divisors.last_lines, m, n);
      else
        walk_along_n(t, tiles_m, tiles_n, group_m, m, n);
      tile_m = m * kClusterM + int(cluster_rank_m<kClusterM, kClusterN>(rank));
      tile_n = n * kClusterN + int(cluster_rank_n<kClusterM, kClusterN>(rank));
    } else if constexpr (kFastWalk) {
      const int group = divisors.per_group.div(t);
      const int first_m = group * group_m;
      // A copy, not a reference: a reference to either member put the scheduler in local memory.
      const FastDivisor rows = tiles_m - first_m < group_m ? divisors.last_lines : divisors.group_lines;
      const int local = divisors.per_group.mod(t, group);
      const int column = rows.div(local);
      tile_m = (first_m + rows.mod(local, column)) * kClusterM + int(cluster_rank_m<kClusterM, kClusterN>(rank));
      tile_n = column * kClusterN + int(cluster_rank_n<kClusterM, kClusterN>(rank));
    } else {
      const int per_group = group_m * tiles_n;
      const int first_m = (t / per_group) * group_m;
      const int rows = min(tiles_m - first_m, group_m);
      const int local = t % per_group;
      tile_m = (first_m + local % rows) * kClusterM + int(cluster_rank_m<kClusterM, kClusterN>(rank));
      tile_n = (local / rows) * kClusterN + int(cluster_rank_n<kClusterM, kClusterN>(rank));
    }
  }
};

// The scheduler of a kernel's traits (its cluster and optional knobs).
template <class T>
using SchedulerOf = TileScheduler<T::kClusterM, T::kClusterN, parts_apart_of<T>(), fast_walk_of<T>(),
                                  dynamic_walk_of<T>(), walk_n_of<T>()>;

}  // namespace gemmforge::sm90
