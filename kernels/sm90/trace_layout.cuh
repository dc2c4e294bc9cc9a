// Where `gemmforge trace`'s stamps go in the traced build's buffer (trace.cuh), shared by the
// kernel and the host code that reads the buffer back (src/core/trace_summary.cpp).
//
// Per CTA (blockIdx.x < kCtas) kSlotsPerCta 64-bit words: the CtaSlots, then kUnitSlots words for
// each of its first kUnits units (UnitSlots), then kKbSlots words for each of the first kKbMax
// k-blocks of kKbUnits units from the walk's kKbFirstUnit on (KBlockSlots: where in a unit the
// time goes, past the walk's start). Clock slots are the SM's %clock64, nanosecond slots
// %globaltimer (comparable across SMs). A slot never stamped stays 0 (the host zeroes the buffer).
#pragma once

namespace gemmforge::sm90::trace {

// Enumerators, not constexpr variables: NVRTC's -default-device would make each of those a
// device global in every kernel's cubin, traced or not.
enum Capacity : int {
  kCtas = 4096,
  kUnits = 24,
  kCtaSlots = 24,
  kUnitSlots = 5,
  kKbFirstUnit = 4,
  kKbUnits = 4,
  kKbMax = 32,
  kKbSlots = 3,
  kKbBase = kCtaSlots + kUnits * kUnitSlots,
  kSlotsPerCta = kKbBase + kKbUnits * kKbMax * kKbSlots
};

enum CtaSlot : int {
  kEntryNs = 0,         // thread 0, first instruction (globaltimer)
  kEntryClock,          // the same moment (clock64)
  kGridWaitClock,       // thread 0, after the barriers are initialised and the PDL wait
  kProducerFirstClock,  // producer, its first TMA issued
  kProducerLastClock,   // producer, its last TMA issued
  kProducerWaitClocks,  // producer, clocks spent waiting for free stages, summed
  kConsumerEndClock,    // first consumer thread, its walk done (stores read out of shared memory)
  kConsumerEndNs,       // the same moment (globaltimer)
  kExitClock,           // first consumer thread, after the cluster's last barrier
  kUnitsWalked,         // units of the CTA's walk (ping-pong: both consumers' units)
  kSmId,                // %smid
  // The first consumer's first thread in its TMA-store epilogues, clocks summed over its units:
  kEpiStoreWaitClocks,  // waiting for earlier stores to have read their staging buffers
  kEpiBarrierClocks,    // in the epilogue's named barriers
  kEpiStageClocks,      // staging (stmatrix) and the proxy fence after it
  kEpiCalls,            // epilogues those sums are over
  kEpiIssueClocks,      // issuing the TMA stores and committing them
  // The first consumer's first thread in its sliced split-K reductions with the lean finish
  // (split_k.cuh, reduce_sliced_lean: parts-apart builds), clocks summed over its reduced units:
  kRedPublishClocks,    // writing its partial sums to the workspace, to the barrier after
  kRedArriveClocks,     // issuing its arrival (the release waits for those writes to reach L2)
  kRedWaitClocks,       // until every part has arrived
  kRedSliceClocks,      // summing its slice of the tile and issuing its stores
  kRedDepartClocks,     // its departure
  kRedCalls,            // reductions those sums are over
};

enum UnitSlot : int {
  kUnitStart = 0,  // before the unit's main loop (ping-pong: after its turn came)
  kUnitFirstData,  // its first stage full
  kUnitMainDone,   // its last wgmma retired
  kUnitDone,       // stored, or its part of a reduction done
  kUnitShape,      // k-blocks | parts << 32
};

// Per k-block of a stamped unit (clock64): the stamping consumer thread's and the producer's.
enum KBlockSlot : int {
  kKbFull = 0,  // the consumer's wait for the k-block's stage returned
  kKbRetired,   // the consumer saw the k-block's wgmma group retired (its next wait, or the last)
  kKbLoaded,    // the producer issued the k-block's loads (its wait for a free stage returned)
};

}  // namespace gemmforge::sm90::trace
