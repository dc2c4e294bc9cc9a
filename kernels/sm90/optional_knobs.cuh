// A config's optional knobs: members its Knobs struct declares only when they are set (the JIT
// writes `static constexpr bool kPartsApart = true;` and so on), read as false when absent, so
// every config from before a knob existed builds to the code it had, and the shipped tables, bound
// to that code, stay valid. Functions, not HgemmTraits members: NVRTC's -default-device would emit
// a constexpr member into every cubin.
#pragma once

namespace gemmforge::sm90 {

// A split tile's parts run on CTAs `tiles` apart (tile_scheduler.cuh).
template <class Knobs>
__host__ __device__ constexpr bool parts_apart_of() {
  if constexpr (requires { Knobs::kPartsApart; }) return Knobs::kPartsApart;
  else return false;
}

// In-cluster sums pushed into the CTAs that add them (SplitK::push_to_owners, split_k.cuh) instead
// of pulled through the cluster window after a cluster barrier.
template <class Knobs>
__host__ __device__ constexpr bool cluster_push_of() {
  if constexpr (requires { Knobs::kClusterPush; }) return Knobs::kClusterPush;
  else return false;
}

// Two consumers take alternate k-blocks of every tile, each its own half of an even ring, and the
// second hands its sums to the first (ksplit_exchange.cuh).
template <class Knobs>
__host__ __device__ constexpr bool ksplit_of() {
  if constexpr (requires { Knobs::kKSplit; }) return Knobs::kKSplit;
  else return false;
}

// A multicast cluster's CTAs meet at one relaxed cluster barrier after setting up their rings and
// at none at the end: each producer waits until every stage it filled was freed, by its own
// consumers and its partners' (pipeline.cuh), so no partner still writes into or arrives on its
// shared memory when it leaves. Full (release) barriers wait for every earlier memory operation of
// every thread: ~0.3-0.5 µs a call on 1x2 kernels (bench/NOTES.md, sessions 38-39).
template <class Knobs>
__host__ __device__ constexpr bool lean_cluster_sync_of() {
  if constexpr (requires { Knobs::kLeanClusterSync; }) return Knobs::kLeanClusterSync;
  else return false;
}

// The tile walk divides by multiply and shift (FastDivisor, tile_scheduler.cuh).
template <class Knobs>
__host__ __device__ constexpr bool fast_walk_of() {
  if constexpr (requires { Knobs::kFastWalk; }) return Knobs::kFastWalk;
  else return false;
}

// The warpgroup index broadcast from lane 0 (__shfl_sync), which ptxas then knows is the same in
// every lane of a warp: what depends on it (the consumer's stage ring position, its rows of the
// A tile) stays in uniform registers, and the wgmma descriptors are made by the uniform datapath.
// Without it each wgmma waited for four R2UR moves of its descriptors out of vector registers
// (Nsight Compute: 6.9 M R2UR for 1.5 M HGMMA on 8192x8192x1024; bench/NOTES.md, session 43).
template <class Knobs>
__host__ __device__ constexpr bool uniform_warpgroup_of() {
  if constexpr (requires { Knobs::kUniformWarpgroup; }) return Knobs::kUniformWarpgroup;
  else return false;
}

// The dynamic walk: a cluster takes its next tile from a global counter when it is ready for one
// (unit_feed.cuh), so the tiles that start together are neighbours in the walk and read the
// boxes they share at the same time.
template <class Knobs>
__host__ __device__ constexpr bool dynamic_walk_of() {
  if constexpr (requires { Knobs::kDynamicWalk; }) return Knobs::kDynamicWalk;
  else return false;
}

// The walk along N: raster groups of cluster-tile columns, n fastest inside, serpentine in m
// (walk_along_n.cuh), cuBLAS's order, instead of groups of rows with m fastest.
template <class Knobs>
__host__ __device__ constexpr bool walk_n_of() {
  if constexpr (requires { Knobs::kWalkN; }) return Knobs::kWalkN;
  else return false;
}

}  // namespace gemmforge::sm90
