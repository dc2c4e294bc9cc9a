// What one traced launch's stamps say (kernels/sm90/trace.cuh, `gemmforge trace`): per CTA and
// per work unit, in microseconds at the SM clock the stamps themselves show. Host-only, so the
// arithmetic is tested on the CPU with made-up buffers.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gemmforge {

// The traced build's buffer (kernels/sm90/trace.cuh). Named here, not in the shared layout header:
// a string constant there would land in every kernel's data, traced or not.
inline constexpr const char* kTraceBufferSymbol = "gemmforge_trace";

struct TraceCta {
  int cta = 0, sm = 0, units = 0;
  int reductions = 0;            // sliced split-K reductions its first consumer stamped
  double setup_us = 0;           // entry to the barriers initialised and the PDL wait passed
  double first_load_us = 0;      // the producer's first TMA to the first unit's first stage full
  double producer_wait_us = 0;   // the producer waiting for free stages, summed
  double store_wait_us = 0;      // the last unit done to the walk's stores read out (TMA stores)
  double drain_us = 0;           // the walk done to the CTA's exit (cluster barriers)
  // Per epilogue call of the first consumer's first thread (TMA stores through one buffer per
  // block or two alternating ones; 0 for other epilogues; a tile that defers half its epilogue
  // makes two calls):
  double epi_store_wait_us = 0;  // waiting for earlier stores to have read their buffers
  double epi_barrier_us = 0;     // in the epilogue's named barriers
  double epi_stage_us = 0;       // staging into shared memory and the proxy fence
  double epi_issue_us = 0;       // issuing and committing the TMA stores
  // Per sliced split-K reduction of the first consumer's first thread, in builds with the lean
  // finish (parts apart; 0 for other launches):
  double red_publish_us = 0;     // writing its partial sums, to the barrier after
  double red_arrive_us = 0;      // issuing its arrival on the tile's counter (sliced)
  double red_wait_us = 0;        // until every part arrived
  double red_slice_us = 0;       // summing its slice and issuing its stores
  double red_depart_us = 0;      // departing
  double entry_us = 0, end_us = 0;  // globaltimer, from the launch's first CTA entry
};

struct TraceUnit {
  int cta = 0, walked = 0;  // the CTA and the unit's place in its walk
  int k_blocks = 0, parts = 1;
  double wait_us = 0;            // its start to its first stage full
  double main_us = 0;            // first stage full to its last wgmma retired
  double clocks_per_k_block = 0;
  double finish_us = 0;          // last wgmma retired to stored (or its reduction part done)
  bool has_gap = false;
  double gap_us = 0;  // from this unit's last wgmma to the next unit's first stage in hand, same SM
};

// One k-block of a unit the walk stamped per k-block (trace_layout.cuh's KBlockSlot), in clocks
// from the unit's first stage full; a stamp that was not written reads `missing`.
struct TraceKBlock {
  static constexpr int64_t missing = std::numeric_limits<int64_t>::min();
  int cta = 0, walked = 0, kb = 0;
  int64_t full = missing;     // the consumer's wait for the stage returned
  int64_t retired = missing;  // the consumer saw its wgmma group retired
  int64_t loaded = missing;   // the producer issued its loads
};

struct TraceSummary {
  int ctas = 0;           // CTAs of the launch that the buffer holds
  double clock_mhz = 0;   // SM clock the stamps show (clock64 ticks per globaltimer µs, median)
  double span_us = 0;     // first CTA entry to last CTA end (globaltimer)
  double entry_skew_us = 0, end_skew_us = 0;  // first to last CTA entry; first to last CTA end
  std::vector<TraceCta> per_cta;
  std::vector<TraceUnit> units;
  std::vector<TraceKBlock> kblocks;
};

// words: the buffer as read back (trace_layout.cuh), grid_ctas: the launch's CTAs. Throws Error
// when no CTA was stamped (not a traced build, or a launch that did not run).
TraceSummary summarize_trace(const std::vector<uint64_t>& words, int grid_ctas);

// Median, 10th and 90th percentile of each phase, over CTAs or units, as JSON and as a table.
nlohmann::json trace_phases_json(const TraceSummary&);
std::string trace_phases_table(const TraceSummary&);
// One row per unit, for scripts.
std::string trace_units_csv(const TraceSummary&);
// Per k-block position in a unit: medians over the stamped units of the clocks from one stage
// full to the next, from a group's stage full to its retirement, and from the producer's issue
// to the consumer's stage full ("" when no k-block was stamped).
std::string trace_kblocks_table(const TraceSummary&);
// One row per stamped k-block, for scripts.
std::string trace_kblocks_csv(const TraceSummary&);

}  // namespace gemmforge
