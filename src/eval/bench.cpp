#include "eval/bench.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/progress.hpp"
#include "eval/nvml.hpp"

namespace gemmforge {
namespace {

// One implementation instance prepared for one layout of the current shape.
struct Slot {
  std::string impl;
  Layout layout;
  std::unique_ptr<GemmImpl> instance;
  std::string verdict = "pass";
  std::string sweep_note;  // gemmforge only: how many configurations passed the gate
};

BenchRecord base_record(const Shape& s, const Slot& slot, const BenchOptions& o, const std::string& mode) {
  BenchRecord r;
  r.shape = s;
  r.layout = slot.layout;
  r.acc = o.acc;
  r.impl = slot.impl;
  r.mode = mode;
  r.l2 = o.timing.cold_l2 ? "cold" : "warm";
  r.verdict = slot.verdict;
  if (slot.instance) r.note = slot.instance->note();
  if (!slot.sweep_note.empty()) r.note += (r.note.empty() ? "" : "; ") + slot.sweep_note;
  return r;
}

// Impl "gemmforge": gate every candidate configuration on this shape and layout, then keep the
// correct one with the least device time. A failing configuration is dropped from the sweep;
// the slot fails only when no configuration passes. Two stages: a quick estimate of every
// passing config, then the few fastest (and their shape-specialized builds, when asked for)
// timed in interleaved rounds after a warm-up, so clock drift during a long sweep (a heavy
// shape heats the card into its power cap) cannot pick the winner. On a heavy shape every
// passing config is timed so: the estimates, one config after another while the card heats,
// rank configs otherwise than steady state does (bench/NOTES.md, session 12, call 3: on 8192³
// tn the fastest at steady state had the eighth-best estimate).
void pick_gemmforge(DeviceContext& ctx, const BenchOptions& o, ShapeBuffers& buf, CorrectnessGate& gate, Slot& slot,
                    const std::vector<Operands>& sets) {
  const Problem problem{buf.shape(), slot.layout, o.acc};
  auto cands = o.gemmforge_candidates(problem, sets);
  if (cands.empty()) {
    slot.verdict = "fail: no gemmforge configuration serves this shape and layout";
    return;
  }
  auto gate_all = [&](size_t from) {
    std::vector<Candidate> gated;
    for (size_t i = from; i < cands.size(); ++i) gated.push_back({cands[i].get(), slot.layout});
    return gate.check(gated);
  };
  std::vector<Verdict> verdicts = gate_all(0);
  buf.fill_for_timing(o.timing.seed, ctx.stream());
  ShapeTimer probe(ctx, buf, o.timing, nullptr);
  std::vector<ShapeTimer::Estimate> est(cands.size());
  std::vector<size_t> passed;
  std::string first_failure;
  auto estimate_from = [&](size_t from) {
    for (size_t i = from; i < cands.size(); ++i) {
      if (!verdicts[i].passed()) {
        if (first_failure.empty()) first_failure = cands[i]->note() + ": " + verdicts[i].text();
        continue;
      }
      est[i] = probe.estimate(*cands[i]);
      passed.push_back(i);
    }
  };
  estimate_from(0);
  if (passed.empty()) {
    slot.verdict = "fail: every gemmforge configuration failed the gate; first: " + first_failure;
    return;
  }
  std::stable_sort(passed.begin(), passed.end(), [&](size_t a, size_t b) { return est[a].device_us < est[b].device_us; });
  std::vector<size_t> finalists(passed.begin(), passed.begin() + std::ptrdiff_t(std::min(passed.size(), o.sweep_finalists)));
  size_t specialized = 0;
  if (o.specialize_finalists) {
    std::vector<const GemmImpl*> of;
    for (size_t i : finalists) of.push_back(cands[i].get());
    auto builds = o.specialize_finalists(problem, of, sets);
    const size_t first_build = cands.size(), passed_before = passed.size();
    for (auto& b : builds) cands.push_back(std::move(b));
    const auto build_verdicts = gate_all(first_build);
    buf.fill_for_timing(o.timing.seed, ctx.stream());  // the gate left its last test pattern in A and B
    for (size_t i = 0; i < build_verdicts.size(); ++i)
      if (!build_verdicts[i].passed())  // its generic build passed: the constants are what differs
        std::fprintf(stderr, "\ngemmforge: shape-specialized %s failed the gate on %s: %s\n",
                     cands[first_build + i]->note().c_str(), to_string(problem.shape).c_str(),
                     build_verdicts[i].text().c_str());
    verdicts.insert(verdicts.end(), build_verdicts.begin(), build_verdicts.end());
    est.resize(cands.size());
    estimate_from(first_build);
    finalists.insert(finalists.end(), passed.begin() + std::ptrdiff_t(passed_before), passed.end());
    specialized = passed.size() - passed_before;
  }
  const bool heavy = est[passed.front()].device_us > o.timing.heavy_call_us;
  if (heavy)
    for (size_t i : passed)
      if (std::find(finalists.begin(), finalists.end(), i) == finalists.end()) finalists.push_back(i);
  std::vector<double> final_us(cands.size(), -1.0);
  size_t best_i = finalists.front();
  if (finalists.size() > 1) {
    std::vector<GemmImpl*> impls;
    std::vector<ShapeTimer::Estimate> fest;
    for (size_t i : finalists) {
      impls.push_back(cands[i].get());
      fest.push_back(est[i]);
    }
    probe.warm_up(impls, heavy ? o.timing.heavy_warmup_s : o.timing.light_warmup_s);
    const auto timed = probe.measure(impls, fest, Mode::gpu);
    for (size_t f = 0; f < finalists.size(); ++f) final_us[finalists[f]] = timed[f].wall.median;
    best_i = *std::min_element(finalists.begin(), finalists.end(), [&](size_t a, size_t b) { return final_us[a] < final_us[b]; });
  }
  if (o.on_sweep_candidate)
    for (size_t i = 0; i < cands.size(); ++i)
      o.on_sweep_candidate(problem, *cands[i], verdicts[i], verdicts[i].passed() ? est[i].device_us : -1.0, final_us[i]);
  slot.instance = std::move(cands[best_i]);
  slot.sweep_note = std::to_string(passed.size()) + " of " + std::to_string(cands.size()) +
                    " configs passed the gate; fastest of " + std::to_string(finalists.size()) + " finalists" +
                    (specialized > 0 ? " (" + std::to_string(specialized) + " of them shape-specialized)" : std::string());
}

std::vector<Slot> prepare_slots(DeviceContext& ctx, const BenchOptions& o, const Shape& s, ShapeBuffers& buf,
                                CorrectnessGate& gate) {
  std::vector<Operands> sets;
  for (size_t i = 0; i < buf.set_count(); ++i) sets.push_back(buf.set(i));
  std::vector<Slot> slots;
  for (const auto& name : o.impls)
    for (Layout l : o.layouts) {
      Slot slot{name, l, nullptr, "pass", {}};
      try {
        if (name == "gemmforge" && o.gemmforge_candidates) {
          pick_gemmforge(ctx, o, buf, gate, slot, sets);
        } else {
          slot.instance = make_impl(name, ctx);
          slot.instance->prepare(Problem{s, l, o.acc}, sets);
        }
      } catch (const Error& e) {
        slot.verdict = std::string("fail: not prepared: ") + e.what();
        slot.instance.reset();
      }
      slots.push_back(std::move(slot));
    }
  return slots;
}

// Runs the gate on every prepared slot and writes failing verdicts into the slots.
void gate_slots(CorrectnessGate& gate, std::vector<Slot>& slots, bool after_timing) {
  std::vector<Candidate> cands;
  std::vector<Slot*> who;
  for (auto& s : slots)
    if (s.instance && s.verdict == "pass") {
      cands.push_back({s.instance.get(), s.layout});
      who.push_back(&s);
    }
  if (cands.empty()) return;
  const auto verdicts = after_timing ? gate.recheck_after_timing(cands) : gate.check(cands);
  for (size_t i = 0; i < cands.size(); ++i)
    if (!verdicts[i].passed()) who[i]->verdict = verdicts[i].text();
}

size_t failed_count(const std::vector<BenchRecord>& recs) {
  return size_t(std::count_if(recs.begin(), recs.end(), [](const BenchRecord& r) { return r.verdict != "pass"; }));
}

template <class PerShape>
std::vector<BenchRecord> for_each_shape(DeviceContext& ctx, const BenchOptions& o, const char* label, PerShape fn) {
  std::vector<BenchRecord> records;
  Progress progress(label, o.shapes.size());
  for (size_t i = 0; i < o.shapes.size(); ++i) {
    const Shape& s = o.shapes[i];
    if (o.stop_requested && o.stop_requested()) {
      progress.finish("stopped before shape " + std::to_string(i + 1) + " of " + std::to_string(o.shapes.size()));
      return records;
    }
    progress.update(i, to_string(s) + " | failed verdicts so far: " + std::to_string(failed_count(records)));
    try {
      ShapeBuffers buf(s, o.timing.cold_l2, ctx.info().l2_bytes, ctx.stream());
      fn(s, buf, records);
    } catch (const Error& e) {
      // Out of memory for this shape, or a candidate broke the CUDA context. The first kind is
      // recorded and the run goes on; after the second, nothing on this GPU can be trusted.
      if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
        throw Error(std::string("the CUDA context is lost while measuring ") + to_string(s) + ": " + e.what());
      for (const auto& name : o.impls)
        for (Layout l : o.layouts) {
          Slot slot{name, l, nullptr, std::string("fail: ") + e.what(), {}};
          records.push_back(base_record(s, slot, o, "all"));
        }
    }
  }
  progress.finish("failed verdicts: " + std::to_string(failed_count(records)));
  return records;
}

}  // namespace

nlohmann::json settings_json(const BenchOptions& o) {
  nlohmann::json layouts = nlohmann::json::array(), modes = nlohmann::json::array();
  for (auto l : o.layouts) layouts.push_back(to_string(l));
  for (auto m : o.modes) modes.push_back(to_string(m));
  const auto& t = o.timing;
  return {{"acc", to_string(o.acc)}, {"layouts", layouts}, {"modes", modes}, {"impls", o.impls},
          {"l2", t.cold_l2 ? "cold" : "warm"}, {"rounds", t.rounds}, {"min_sample_us", t.min_sample_us},
          {"server_calls", t.server_calls}, {"server_gap_us", t.server_gap_us}, {"seed", t.seed},
          {"heavy_call_us", t.heavy_call_us}, {"first_heavy_warmup_s", t.first_heavy_warmup_s},
          {"heavy_warmup_s", t.heavy_warmup_s}, {"gate_random_trials", o.gate.random_trials}, {"shapes", o.shapes.size()},
          {"sweep_finalists", o.sweep_finalists},
          {"specialize_finalists", bool(o.specialize_finalists)}};
}

std::vector<BenchRecord> run_bench(DeviceContext& ctx, const BenchOptions& o) {
  auto& nvml = Nvml::instance(ctx.info().pci_bus_id);
  const std::unique_ptr<L2Flusher> flusher = o.timing.cold_l2 ? std::make_unique<L2Flusher>(ctx.info().l2_bytes) : nullptr;
  bool seen_heavy = false;
  return for_each_shape(ctx, o, "bench", [&](const Shape& s, ShapeBuffers& buf, std::vector<BenchRecord>& records) {
    CorrectnessGate gate(ctx, buf, o.acc, o.gate);
    auto slots = prepare_slots(ctx, o, s, buf, gate);
    gate_slots(gate, slots, false);

    std::vector<GemmImpl*> live;
    std::vector<Slot*> live_slots;
    for (auto& sl : slots)
      if (sl.instance && sl.verdict == "pass") {
        live.push_back(sl.instance.get());
        live_slots.push_back(&sl);
      }
    buf.fill_for_timing(o.timing.seed ^ uint64_t(s.M * 131 + s.N * 7 + s.K), ctx.stream());
    ShapeTimer timer(ctx, buf, o.timing, flusher.get());
    std::vector<ShapeTimer::Estimate> est;
    double slowest = 0;
    for (auto* impl : live) {
      est.push_back(timer.estimate(*impl));
      slowest = std::max(slowest, est.back().device_us);
    }
    const bool heavy = slowest > o.timing.heavy_call_us;
    timer.warm_up(live, heavy ? (seen_heavy ? o.timing.heavy_warmup_s : o.timing.first_heavy_warmup_s)
                              : o.timing.light_warmup_s);
    seen_heavy |= heavy;

    std::vector<std::pair<Mode, std::vector<Timed>>> timed;
    std::vector<NvmlReading> readings;
    for (Mode m : o.modes) {
      timed.emplace_back(m, timer.measure(live, est, m));
      readings.push_back(nvml.read());
    }
    gate_slots(gate, slots, true);  // item 6: fresh inputs after the timing loop

    for (auto& sl : slots) {
      for (size_t mi = 0; mi < o.modes.size(); ++mi) {
        BenchRecord r = base_record(s, sl, o, to_string(o.modes[mi]));
        auto it = std::find(live_slots.begin(), live_slots.end(), &sl);
        if (sl.verdict == "pass" && it != live_slots.end()) {
          const Timed& t = timed[mi].second[size_t(it - live_slots.begin())];
          r.median_us = t.wall.median;
          r.p25_us = t.wall.p25;
          r.p75_us = t.wall.p75;
          r.min_us = t.wall.min;
          if (t.event) r.event_median_us = t.event->median;
          r.samples = t.wall.count;
          r.calls_per_sample = t.calls_per_sample;
          r.sm_clock_mhz = readings[mi].sm_clock_mhz;
          r.power_w = readings[mi].power_w;
        }
        records.push_back(std::move(r));
      }
    }
  });
}

std::vector<BenchRecord> run_verify(DeviceContext& ctx, const BenchOptions& o, int calls_between) {
  return for_each_shape(ctx, o, "verify", [&](const Shape& s, ShapeBuffers& buf, std::vector<BenchRecord>& records) {
    CorrectnessGate gate(ctx, buf, o.acc, o.gate);
    auto slots = prepare_slots(ctx, o, s, buf, gate);
    gate_slots(gate, slots, false);
    for (auto& sl : slots)
      if (sl.instance && sl.verdict == "pass")
        for (int c = 0; c < calls_between; ++c) sl.instance->run(buf.set(size_t(c) % buf.set_count()));
    GF_CUDA(cudaStreamSynchronize(ctx.stream()));
    gate_slots(gate, slots, true);
    for (auto& sl : slots) records.push_back(base_record(s, sl, o, "verify"));
  });
}

}  // namespace gemmforge
