// The dynamic walk's feed (unit_feed.cuh) in shared memory: its ring of unit indices, each slot
// with a full and an empty mbarrier, and the producer's unit-started barrier. The kernel lays it
// out (hgemm_traits.cuh) and the host counts it in a config's shared memory (kernel_config.cpp):
// one definition for both.
#pragma once
#include "sm90/host_device.cuh"

namespace gemmforge::sm90 {

// Slots in the feed's ring. Each holds an index until every reader of the cluster took it; four
// let the feed run a unit or more ahead of the slowest reader (the producer is at most a ring of
// stages ahead of the consumers, which may hold the next index while they store a tile).
GEMMFORGE_HOST_DEVICE constexpr int feed_slots() { return 4; }

// Bytes: per slot its 8-byte index and two 8-byte mbarriers, and one more barrier.
GEMMFORGE_HOST_DEVICE constexpr int feed_shared_bytes() { return (3 * feed_slots() + 1) * 8; }

}  // namespace gemmforge::sm90
