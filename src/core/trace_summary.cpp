#include "core/trace_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>

#include "core/stats.hpp"
#include "gemmforge/types.hpp"
#include "sm90/trace_layout.cuh"

namespace gemmforge {

namespace {

namespace tr = sm90::trace;

// Clock stamps are one SM's counter: differences of two taken on the same SM, signed.
double ticks(uint64_t later, uint64_t earlier) { return double(int64_t(later - earlier)); }

struct Phase {
  const char* name;
  const char* what;
  bool per_unit;
  std::function<double(const void*)> value;  // of a TraceCta or a TraceUnit
  std::function<bool(const void*)> present = [](const void*) { return true; };
};

const std::vector<Phase>& phases() {
  auto cta = [](double TraceCta::*m) { return [m](const void* p) { return static_cast<const TraceCta*>(p)->*m; }; };
  auto unit = [](double TraceUnit::*m) { return [m](const void* p) { return static_cast<const TraceUnit*>(p)->*m; }; };
  auto reduced = [](const void* p) { return static_cast<const TraceCta*>(p)->reductions > 0; };
  static const std::vector<Phase> list = {
      {"setup_us", "CTA entry to barriers set up and the PDL wait passed", false, cta(&TraceCta::setup_us)},
      {"first_load_us", "producer's first TMA to the first stage full", false, cta(&TraceCta::first_load_us)},
      {"unit_wait_us", "a unit's start to its first stage full", true, unit(&TraceUnit::wait_us)},
      {"unit_main_us", "first stage full to the unit's last wgmma retired", true, unit(&TraceUnit::main_us)},
      {"clocks_per_k_block", "the main loop's SM clocks per k-block", true, unit(&TraceUnit::clocks_per_k_block)},
      {"unit_finish_us", "last wgmma retired to stored / its reduction part done", true, unit(&TraceUnit::finish_us)},
      {"unit_gap_us", "last wgmma retired to the next unit's first stage in hand (same SM)", true,
       unit(&TraceUnit::gap_us), [](const void* p) { return static_cast<const TraceUnit*>(p)->has_gap; }},
      {"epi_store_wait_us", "per epilogue call: waiting for earlier stores to read their buffers", false,
       cta(&TraceCta::epi_store_wait_us)},
      {"epi_barrier_us", "per epilogue call: in named barriers", false, cta(&TraceCta::epi_barrier_us)},
      {"epi_stage_us", "per epilogue call: staging (stmatrix) and its proxy fence", false, cta(&TraceCta::epi_stage_us)},
      {"epi_issue_us", "per epilogue call: issuing and committing its TMA stores", false, cta(&TraceCta::epi_issue_us)},
      {"red_publish_us", "per reduction: writing its partial sums, to the barrier after (pushed in a cluster: issuing its pushes)", false, cta(&TraceCta::red_publish_us),
       reduced},
      {"red_arrive_us", "per reduction: issuing its arrival (the release waits for the partial sums; 0 when pushed)", false, cta(&TraceCta::red_arrive_us), reduced},
      {"red_wait_us", "per reduction: until every part arrived", false, cta(&TraceCta::red_wait_us), reduced},
      {"red_slice_us", "per reduction: summing its slice, issuing its stores", false, cta(&TraceCta::red_slice_us), reduced},
      {"red_depart_us", "per reduction: departing (0 when pushed)", false, cta(&TraceCta::red_depart_us),
       reduced},
      {"store_wait_us", "last unit done to the walk's TMA stores read out", false, cta(&TraceCta::store_wait_us)},
      {"drain_us", "walk done to CTA exit (cluster barriers)", false, cta(&TraceCta::drain_us)},
      {"producer_wait_us", "producer waiting for free stages, summed per CTA", false, cta(&TraceCta::producer_wait_us)},
      {"cta_busy_us", "CTA entry to its end", false,
       [](const void* p) { return static_cast<const TraceCta*>(p)->end_us - static_cast<const TraceCta*>(p)->entry_us; }},
  };
  return list;
}

std::vector<double> samples_of(const TraceSummary& s, const Phase& ph) {
  std::vector<double> v;
  if (ph.per_unit) {
    for (const auto& u : s.units)
      if (ph.present(&u)) v.push_back(ph.value(&u));
  } else {
    for (const auto& c : s.per_cta)
      if (ph.present(&c)) v.push_back(ph.value(&c));
  }
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TraceSummary summarize_trace(const std::vector<uint64_t>& words, int grid_ctas) {
  TraceSummary s;
  const int recorded = std::min({grid_ctas, int(tr::kCtas), int(words.size() / tr::kSlotsPerCta)});
  auto slot = [&](int cta, int i) { return words[size_t(cta) * tr::kSlotsPerCta + size_t(i)]; };
  auto unit_slot = [&](int cta, int u, int i) { return slot(cta, tr::kCtaSlots + u * tr::kUnitSlots + i); };

  // The SM clock: every CTA's clock ticks over globaltimer nanoseconds, pooled (globaltimer steps
  // coarsely, so one short CTA alone says little).
  double pooled_ticks = 0, pooled_ns = 0;
  uint64_t first_entry = std::numeric_limits<uint64_t>::max();
  std::vector<int> stamped;
  for (int c = 0; c < recorded; ++c) {
    if (slot(c, tr::kEntryNs) == 0 || slot(c, tr::kConsumerEndNs) == 0) continue;
    stamped.push_back(c);
    pooled_ticks += ticks(slot(c, tr::kConsumerEndClock), slot(c, tr::kEntryClock));
    pooled_ns += ticks(slot(c, tr::kConsumerEndNs), slot(c, tr::kEntryNs));
    first_entry = std::min(first_entry, slot(c, tr::kEntryNs));
  }
  if (stamped.empty())
    throw Error("the trace buffer holds no stamped CTA: the kernel was not built with -DGEMMFORGE_TRACE, or did not run");
  if (pooled_ns <= 0 || pooled_ticks <= 0) throw Error("the trace's clocks do not advance: cannot convert them to time");
  s.ctas = int(stamped.size());
  s.clock_mhz = pooled_ticks / pooled_ns * 1e3;
  const double us_per_tick = 1.0 / s.clock_mhz;

  double last_entry = 0, first_end = std::numeric_limits<double>::max(), last_end = 0;
  for (int c : stamped) {
    TraceCta t;
    t.cta = c;
    t.sm = int(slot(c, tr::kSmId));
    t.units = int(slot(c, tr::kUnitsWalked));
    auto us = [&](uint64_t later, uint64_t earlier) { return ticks(later, earlier) * us_per_tick; };
    t.setup_us = us(slot(c, tr::kGridWaitClock), slot(c, tr::kEntryClock));
    t.producer_wait_us = double(slot(c, tr::kProducerWaitClocks)) * us_per_tick;
    t.drain_us = slot(c, tr::kExitClock) ? us(slot(c, tr::kExitClock), slot(c, tr::kConsumerEndClock)) : 0;
    t.entry_us = ticks(slot(c, tr::kEntryNs), first_entry) * 1e-3;
    t.end_us = ticks(slot(c, tr::kConsumerEndNs), first_entry) * 1e-3;
    last_entry = std::max(last_entry, t.entry_us);
    first_end = std::min(first_end, t.end_us);
    last_end = std::max(last_end, t.end_us);
    const int units = std::min(t.units, int(tr::kUnits));
    uint64_t last_done = 0;
    for (int u = 0; u < units; ++u) {
      const uint64_t start = unit_slot(c, u, tr::kUnitStart), first = unit_slot(c, u, tr::kUnitFirstData),
                     main = unit_slot(c, u, tr::kUnitMainDone), done = unit_slot(c, u, tr::kUnitDone);
      if (start == 0 || first == 0 || main == 0 || done == 0) continue;  // not this consumer's, or not stamped
      TraceUnit x;
      x.cta = c;
      x.walked = u;
      const uint64_t shape = unit_slot(c, u, tr::kUnitShape);
      x.k_blocks = int(shape & 0xFFFFFFFFu);
      x.parts = int(shape >> 32);
      x.wait_us = us(first, start);
      x.main_us = us(main, first);
      x.clocks_per_k_block = x.k_blocks > 0 ? ticks(main, first) / x.k_blocks : 0;
      x.finish_us = us(done, main);
      if (u + 1 < units && unit_slot(c, u + 1, tr::kUnitFirstData) != 0) {
        x.has_gap = true;
        x.gap_us = us(unit_slot(c, u + 1, tr::kUnitFirstData), main);
      }
      if (u == 0 && slot(c, tr::kProducerFirstClock)) t.first_load_us = us(first, slot(c, tr::kProducerFirstClock));
      if (u >= tr::kKbFirstUnit && u < tr::kKbFirstUnit + tr::kKbUnits)
        for (int kb = 0; kb < std::min(x.k_blocks, int(tr::kKbMax)); ++kb) {
          auto stamp = [&](int which) {
            const uint64_t v = slot(c, tr::kKbBase + ((u - tr::kKbFirstUnit) * tr::kKbMax + kb) * tr::kKbSlots + which);
            return v == 0 ? TraceKBlock::missing : int64_t(v) - int64_t(first);
          };
          const TraceKBlock k{c, u, kb, stamp(tr::kKbFull), stamp(tr::kKbRetired), stamp(tr::kKbLoaded)};
          if (k.full != k.missing || k.retired != k.missing || k.loaded != k.missing) s.kblocks.push_back(k);
        }
      last_done = std::max(last_done, done);
      s.units.push_back(x);
    }
    if (last_done && t.units <= tr::kUnits) t.store_wait_us = us(slot(c, tr::kConsumerEndClock), last_done);
    // The epilogue's sums are the first consumer's first thread's, over the epilogues it ran.
    if (const uint64_t calls = slot(c, tr::kEpiCalls); calls > 0) {
      const double per_unit = us_per_tick / double(calls);
      t.epi_store_wait_us = double(slot(c, tr::kEpiStoreWaitClocks)) * per_unit;
      t.epi_barrier_us = double(slot(c, tr::kEpiBarrierClocks)) * per_unit;
      t.epi_stage_us = double(slot(c, tr::kEpiStageClocks)) * per_unit;
      t.epi_issue_us = double(slot(c, tr::kEpiIssueClocks)) * per_unit;
    }
    if (const uint64_t calls = slot(c, tr::kRedCalls); calls > 0) {
      const double per_call = us_per_tick / double(calls);
      t.reductions = int(calls);
      t.red_publish_us = double(slot(c, tr::kRedPublishClocks)) * per_call;
      t.red_arrive_us = double(slot(c, tr::kRedArriveClocks)) * per_call;
      t.red_wait_us = double(slot(c, tr::kRedWaitClocks)) * per_call;
      t.red_slice_us = double(slot(c, tr::kRedSliceClocks)) * per_call;
      t.red_depart_us = double(slot(c, tr::kRedDepartClocks)) * per_call;
    }
    s.per_cta.push_back(t);
  }
  s.span_us = last_end;
  s.entry_skew_us = last_entry;
  s.end_skew_us = last_end - first_end;
  return s;
}

nlohmann::json trace_phases_json(const TraceSummary& s) {
  nlohmann::json j = {{"ctas", s.ctas}, {"units", s.units.size()}, {"clock_mhz", s.clock_mhz}, {"span_us", s.span_us},
                      {"entry_skew_us", s.entry_skew_us}, {"end_skew_us", s.end_skew_us}, {"phases", nlohmann::json::object()}};
  for (const auto& ph : phases()) {
    const auto v = samples_of(s, ph);
    if (v.empty()) continue;
    j["phases"][ph.name] = {{"median", percentile(v, 50)}, {"p10", percentile(v, 10)}, {"p90", percentile(v, 90)},
                            {"n", v.size()}, {"what", ph.what}};
  }
  return j;
}

std::string trace_phases_table(const TraceSummary& s) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "  %d CTAs, %zu units stamped, SM clock %.0f MHz; span %.2f us (entries within %.2f us, ends within %.2f us)\n",
                s.ctas, s.units.size(), s.clock_mhz, s.span_us, s.entry_skew_us, s.end_skew_us);
  out += line;
  std::snprintf(line, sizeof line, "  %-19s %9s %9s %9s %6s  %s\n", "phase", "median", "p10", "p90", "n", "from - to");
  out += line;
  for (const auto& ph : phases()) {
    const auto v = samples_of(s, ph);
    if (v.empty()) continue;
    std::snprintf(line, sizeof line, "  %-19s %9.3f %9.3f %9.3f %6zu  %s\n", ph.name, percentile(v, 50), percentile(v, 10),
                  percentile(v, 90), v.size(), ph.what);
    out += line;
  }
  return out;
}

std::string trace_units_csv(const TraceSummary& s) {
  std::string out = "cta,sm,walked,k_blocks,parts,wait_us,main_us,clocks_per_k_block,finish_us,gap_us\n";
  std::vector<int> sm_of(size_t(s.per_cta.empty() ? 0 : s.per_cta.back().cta + 1), -1);
  for (const auto& c : s.per_cta) sm_of[size_t(c.cta)] = c.sm;
  char line[256];
  for (const auto& u : s.units) {
    std::snprintf(line, sizeof line, "%d,%d,%d,%d,%d,%.4f,%.4f,%.1f,%.4f,", u.cta, sm_of[size_t(u.cta)], u.walked, u.k_blocks,
                  u.parts, u.wait_us, u.main_us, u.clocks_per_k_block, u.finish_us);
    out += line;
    if (u.has_gap) {
      std::snprintf(line, sizeof line, "%.4f", u.gap_us);
      out += line;
    }
    out += "\n";
  }
  return out;
}

std::string trace_kblocks_table(const TraceSummary& s) {
  if (s.kblocks.empty()) return "";
  int positions = 0;
  for (const auto& k : s.kblocks) positions = std::max(positions, k.kb + 1);
  // Per position: stage full to the next stage full, stage full to retired, loads issued to full.
  const auto slots = size_t(positions);
  std::vector<std::vector<double>> step(slots), busy(slots), delivery(slots);
  constexpr auto missing = TraceKBlock::missing;
  for (size_t i = 0; i < s.kblocks.size(); ++i) {
    const auto& k = s.kblocks[i];
    if (i + 1 < s.kblocks.size()) {
      const auto& n = s.kblocks[i + 1];
      if (n.cta == k.cta && n.walked == k.walked && n.kb == k.kb + 1 && n.full != missing && k.full != missing)
        step[size_t(k.kb)].push_back(double(n.full - k.full));
    }
    if (k.full != missing && k.retired != missing) busy[size_t(k.kb)].push_back(double(k.retired - k.full));
    if (k.full != missing && k.loaded != missing) delivery[size_t(k.kb)].push_back(double(k.full - k.loaded));
  }
  auto median = [](std::vector<double> v) {
    if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    return percentile(v, 50);
  };
  std::string out = "  per k-block of units " + std::to_string(int(tr::kKbFirstUnit)) + "-" +
                    std::to_string(int(tr::kKbFirstUnit + tr::kKbUnits - 1)) +
                    " of each walk, median SM clocks:\n  k-block  full->next full  full->retired  loads issued->full\n";
  char line[128];
  for (int p = 0; p < positions; ++p) {
    std::snprintf(line, sizeof line, "  %7d  %15.0f  %13.0f  %18.0f\n", p, median(step[size_t(p)]), median(busy[size_t(p)]),
                  median(delivery[size_t(p)]));
    out += line;
  }
  return out;
}

std::string trace_kblocks_csv(const TraceSummary& s) {
  std::string out = "cta,walked,kb,full_clocks,retired_clocks,loaded_clocks\n";
  auto field = [](int64_t v) { return v == TraceKBlock::missing ? std::string() : std::to_string(v); };
  for (const auto& k : s.kblocks)
    out += std::to_string(k.cta) + "," + std::to_string(k.walked) + "," + std::to_string(k.kb) + "," + field(k.full) + "," +
           field(k.retired) + "," + field(k.loaded) + "\n";
  return out;
}

}  // namespace gemmforge
