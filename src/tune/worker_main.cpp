#include "tune/worker_main.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <list>
#include <map>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include "eval/nvml.hpp"
#include "eval/timing.hpp"
#include "eval/verify.hpp"
#include "jit/kernel_cache.hpp"
#include "runtime/candidate_kernel.hpp"
#include "tune/line_io.hpp"
#include "tune/worker_protocol.hpp"

namespace gemmforge::tune {
namespace {

// Modules by cache key, most recently used first; a module costs device memory, so few are kept.
class ModuleCache {
 public:
  explicit ModuleCache(const std::filesystem::path& dir) : cache_(dir) {}
  std::shared_ptr<jit::LoadedKernel> get(const KernelCandidate& c, const std::string& key) {
    if (auto it = index_.find(key); it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    const auto compiled = cache_.load(key);
    if (!compiled || !compiled->ok)
      throw Error("kernel " + c.build_name() + " (key " + key + ") is not in the kernel cache " +
                  cache_.dir().string() + "; the tuner compiles every candidate before asking for it");
    auto loaded = load_candidate(c, compiled->cubin);
    order_.emplace_front(key, loaded);
    index_[key] = order_.begin();
    if (order_.size() > kKeep) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return loaded;
  }

 private:
  static constexpr size_t kKeep = 256;
  jit::KernelCache cache_;
  std::list<std::pair<std::string, std::shared_ptr<jit::LoadedKernel>>> order_;
  std::map<std::string, decltype(order_)::iterator> index_;
};

// The list the gate takes: (implementation, layout) pairs.
using GateList = std::vector<Candidate>;

// Whether the last error broke the CUDA context (a sticky error: illegal address, trap, ...);
// then the text of that error, else "". A non-sticky error is cleared.
std::string lost_context() {
  cudaGetLastError();
  const cudaError_t e = cudaDeviceSynchronize();
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

Reply failed(const std::string& status, const std::string& why) {
  Reply r;
  r.status = status;
  r.why = why;
  return r;
}

class Worker {
 public:
  Worker(DeviceContext& ctx, const CandidateFactory& f) : ctx_(ctx), factory_(f) {}

  // The open shape could not be set up again after a candidate damaged it.
  struct ShapeLost : Error {
    using Error::Error;
  };

  Reply handle(const Request& req) {
    return std::visit(
        [&](const auto& q) -> Reply {
          using T = std::decay_t<decltype(q)>;
          const bool per_candidate = std::is_same_v<T, MeasureCandidate> || std::is_same_v<T, MeasureBaseline>;
          try {
            if constexpr (std::is_same_v<T, OpenShape>) return open(q);
            else if constexpr (std::is_same_v<T, MeasureCandidate>) return measure(q);
            else if constexpr (std::is_same_v<T, MeasureBaseline>) return baseline(q);
            else if constexpr (std::is_same_v<T, CompareFinal>) return compare(q);
            else return Reply{};
          } catch (const ShapeLost& e) {
            // The candidate's verdict stands, but this worker has no shape any more: it says so
            // as fatal, exits, and the tuner starts a fresh one that sets the shape up again.
            return failed("fatal", e.what());
          } catch (const std::exception& e) {
            // A CUDA context that a kernel broke cannot be trusted again: say why, then exit.
            if (auto lost = lost_context(); !lost.empty()) return failed("fatal", std::string(e.what()) + " [" + lost + "]");
            return failed(per_candidate ? "fail" : "error", e.what());
          }
        },
        req);
  }

 private:
  Problem problem(Layout l) const { return Problem{buf_->shape(), l, acc_}; }
  void require_shape() const {
    if (!buf_) throw Error("no shape is open");
  }

  Reply open(const OpenShape& q) {
    baselines_.clear();
    gate_.reset();  // the gate refers to the buffers: it goes first
    buf_.reset();
    open_ = q;
    auto buf = std::make_unique<ShapeBuffers>(q.shape, false, ctx_.info().l2_bytes, ctx_.stream());
    GateOptions g;
    g.seed = q.seed;
    g.fixed_inputs = true;
    auto gate = std::make_unique<CorrectnessGate>(ctx_, *buf, q.acc, g);
    // The references of every trial, now, so that no candidate's deadline pays for them.
    gate->check({});
    gate->recheck_after_timing({});
    acc_ = q.acc;
    seed_ = q.seed;
    timing_ = TimingOptions{};
    timing_.seed = q.seed;
    buf_ = std::move(buf);  // only a shape fully set up is open
    gate_ = std::move(gate);
    return Reply{};
  }

  // The gate keeps its references for the whole shape. A candidate that wrote out of bounds
  // may have written into them too: set the shape up again rather than judge the next
  // candidates against damaged references.
  void after_verdict(const std::string& verdict) {
    if (verdict.find("out-of-bounds write") == std::string::npos || !open_) return;
    try {
      open(*open_);
    } catch (const std::exception& e) {
      throw ShapeLost(verdict + "; then the shape could not be set up again: " + e.what());
    }
  }

  // Items 1-5 and 7 of the gate, a short device-time estimate, then item 6.
  Reply gate_and_estimate(GemmImpl& impl, Layout l) {
    const GateList one = {{&impl, l}};
    if (auto v = gate_->check(one).front(); !v.passed()) {
      after_verdict(v.text());
      return failed("fail", v.text());
    }
    buf_->fill_for_timing(seed_, ctx_.stream());
    ShapeTimer timer(ctx_, *buf_, timing_, nullptr);
    const auto est = timer.estimate(impl);
    if (auto v = gate_->recheck_after_timing(one).front(); !v.passed()) {
      after_verdict(v.text());
      return failed("fail", v.text());
    }
    Reply r;
    r.us = est.device_us;
    r.note = impl.note();
    return r;
  }

  Reply measure(const MeasureCandidate& q) {
    require_shape();
    // Said before any module is loaded: a build for another shape is the tuner's mistake.
    if (auto why = why_not_specialized_for(q.candidate.built_for, buf_->shape()); !why.empty())
      return failed("fail", q.candidate.name() + ": " + why);
    auto impl = factory_(ctx_, q.candidate, q.cubin_key);
    impl->prepare(problem(q.layout), {buf_->guarded()});
    return gate_and_estimate(*impl, q.layout);
  }

  // A baseline is prepared once per open shape and layout (cuBLASLt-autotune times its
  // algorithms then, as a user's plan would): the final comparison runs the same pick again
  // instead of autotuning a second time, which cost as much as the rest of a large problem.
  Reply baseline(const MeasureBaseline& q) {
    require_shape();
    auto impl = make_impl(q.impl, ctx_);
    impl->prepare(problem(q.layout), {buf_->guarded()});
    Reply r = gate_and_estimate(*impl, q.layout);
    if (r.status == "ok") baselines_[{q.impl, q.layout}] = std::move(impl);
    return r;
  }

  // Design.md section 5 in full: gate, warm-up by time for heavy shapes, interleaved shuffled
  // rounds of graph replays, re-check with fresh inputs.
  Reply compare(const CompareFinal& q) {
    require_shape();
    const size_t n = q.entries.size();
    Reply r;
    r.results.resize(n);
    std::vector<std::unique_ptr<GemmImpl>> owned(n);
    std::vector<GemmImpl*> impls(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
      const auto& e = q.entries[i];
      if (!e.candidate)
        if (auto it = baselines_.find({e.baseline, q.layout}); it != baselines_.end()) {
          impls[i] = it->second.get();  // prepared (and autotuned) for this shape's estimate
          continue;
        }
      try {
        owned[i] = e.candidate ? factory_(ctx_, *e.candidate, e.cubin_key) : make_impl(e.baseline, ctx_);
        owned[i]->prepare(problem(q.layout), {buf_->guarded()});
        impls[i] = owned[i].get();
      } catch (const Error& err) {
        if (auto lost = lost_context(); !lost.empty()) throw;
        owned[i].reset();
        r.results[i].verdict = std::string("fail: not prepared: ") + err.what();
      }
    }
    auto passing = [&] {
      std::vector<size_t> idx;
      for (size_t i = 0; i < n; ++i)
        if (impls[i] && r.results[i].verdict == "pass") idx.push_back(i);
      return idx;
    };
    gate_entries(passing(), impls, q.layout, r, false);
    const std::vector<size_t> live = passing();
    if (live.empty()) return r;
    std::vector<GemmImpl*> timed_impls;
    for (size_t i : live) timed_impls.push_back(impls[i]);
    TimingOptions t = timing_;
    t.rounds = q.rounds;
    buf_->fill_for_timing(seed_ ^ 0x5EEDull, ctx_.stream());
    ShapeTimer timer(ctx_, *buf_, t, nullptr);
    std::vector<ShapeTimer::Estimate> est;
    double slowest = 0;
    for (auto* impl : timed_impls) {
      est.push_back(timer.estimate(*impl));
      slowest = std::max(slowest, est.back().device_us);
    }
    // Heavy shapes heat the card into its power cap within about a second (design.md 5).
    const bool heavy = slowest > t.heavy_call_us;
    timer.warm_up(timed_impls, heavy ? (seen_heavy_ ? t.heavy_warmup_s : t.first_heavy_warmup_s) : t.light_warmup_s);
    seen_heavy_ |= heavy;
    const auto timed = timer.measure(timed_impls, est, Mode::gpu);
    const auto reading = Nvml::instance(ctx_.info().pci_bus_id).read();
    for (size_t k = 0; k < live.size(); ++k) {
      auto& res = r.results[live[k]];
      res.median_us = timed[k].wall.median;
      res.p25_us = timed[k].wall.p25;
      res.p75_us = timed[k].wall.p75;
      res.min_us = timed[k].wall.min;
    }
    gate_entries(live, impls, q.layout, r, true);
    char note[128];
    std::snprintf(note, sizeof note, "sm_clock_mhz %.0f, power_w %.0f", reading.sm_clock_mhz.value_or(-1),
                  reading.power_w.value_or(-1));
    r.note = note;
    // What each entry ran (e.g. the algorithm cuBLASLt-autotune kept: the table keeps it too).
    for (size_t i : live) r.results[i].note = impls[i]->note() + "; " + note;
    return r;
  }

  // Gates the entries `live` together (one reference per trial serves all of them); a failing
  // entry loses its timing.
  void gate_entries(const std::vector<size_t>& live, const std::vector<GemmImpl*>& impls, Layout l, Reply& r,
                    bool after_timing) {
    if (live.empty()) return;
    GateList list;
    for (size_t i : live) list.push_back({impls[i], l});
    const std::vector<Verdict> verdicts = after_timing ? gate_->recheck_after_timing(list) : gate_->check(list);
    bool damaged = false;
    for (size_t k = 0; k < live.size(); ++k)
      if (!verdicts[k].passed()) {
        auto& res = r.results[live[k]];
        res = EntryResult{};
        res.verdict = verdicts[k].text();
        damaged |= res.verdict.find("out-of-bounds write") != std::string::npos;
      }
    if (damaged) after_verdict("out-of-bounds write");
  }

  DeviceContext& ctx_;
  const CandidateFactory& factory_;
  std::unique_ptr<ShapeBuffers> buf_;
  std::unique_ptr<CorrectnessGate> gate_;
  std::optional<OpenShape> open_;
  Accum acc_ = Accum::f32;
  uint64_t seed_ = 1;
  TimingOptions timing_;
  bool seen_heavy_ = false;
  // Baselines prepared for the open shape, by (implementation, layout).
  std::map<std::pair<std::string, Layout>, std::unique_ptr<GemmImpl>> baselines_;
};

nlohmann::json worker_environment(const DeviceContext& ctx) {
  const auto& info = ctx.info();
  nlohmann::json env = environment_json(info);
  env["arch"] = "sm_" + std::to_string(info.cc_major) + std::to_string(info.cc_minor) + "a";
  auto& nvml = Nvml::instance(info.pci_bus_id);
  env["nvidia_driver"] = nvml.driver_version();
  const auto now = nvml.read();
  env["sm_clock_mhz_at_start"] = now.sm_clock_mhz ? nlohmann::json(*now.sm_clock_mhz) : nlohmann::json();
  env["power_w_at_start"] = now.power_w ? nlohmann::json(*now.power_w) : nlohmann::json();
  if (!nvml.available()) env["nvml"] = nvml.why_unavailable();
  return env;
}

}  // namespace

CandidateFactory kernel_cache_factory(const std::filesystem::path& cache_dir) {
  auto modules = std::make_shared<ModuleCache>(cache_dir);
  return [modules](DeviceContext& ctx, const KernelCandidate& c, const std::string& key) -> std::unique_ptr<GemmImpl> {
    return make_candidate_kernel(ctx, c, modules->get(c, key));
  };
}

int run_worker(const CandidateFactory& factory) {
  // Replies go to a private copy of stdout, and fd 1 becomes stderr: whatever a library or a
  // kernel's printf writes cannot corrupt the protocol.
  const int out = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (out < 0 || dup2(2, 1) < 0) {
    std::fprintf(stderr, "gemmforge worker: cannot set up its output: %s\n", std::strerror(errno));
    return 4;
  }
  std::unique_ptr<DeviceContext> ctx;
  try {
    ctx = std::make_unique<DeviceContext>();
    Reply hello;
    hello.environment = worker_environment(*ctx);
    write_line(out, encode_reply(hello));
  } catch (const NoGpuError& e) {
    write_line(out, encode_reply(failed("fatal", e.what())));
    return 3;
  } catch (const Error& e) {
    write_line(out, encode_reply(failed("fatal", e.what())));
    return 4;
  }
  Worker worker(*ctx, factory);
  FdLineReader in(0);
  while (auto line = in.next()) {
    DecodedRequest d;
    try {
      d = decode_request(*line);
    } catch (const Error& e) {
      write_line(out, encode_reply(failed("error", e.what())));
      continue;
    }
    if (std::holds_alternative<Quit>(d.request)) break;
    Reply r = worker.handle(d.request);
    r.id = d.id;
    write_line(out, encode_reply(r));
    if (r.status == "fatal") return 4;
  }
  return 0;
}

}  // namespace gemmforge::tune
