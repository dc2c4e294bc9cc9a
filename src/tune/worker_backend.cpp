#include "tune/worker_backend.hpp"

#include <chrono>
#include <thread>

namespace gemmforge::tune {

WorkerBackend::WorkerBackend(std::vector<std::string> argv, WorkerTimeouts t) : proc_(std::move(argv)), timeouts_(t) {}

WorkerBackend::~WorkerBackend() {
  try {
    shut_down();
  } catch (...) {  // the process is killed either way
  }
}

void WorkerBackend::shut_down() {
  proc_.stop(5.0);
  shape_open_ = false;
}

nlohmann::json WorkerBackend::environment() {
  ensure_ready();
  return environment_;
}

void WorkerBackend::ensure_ready() {
  if (!proc_.running()) {
    shape_open_ = false;
    std::string hello;
    // Twice: a worker killed a moment ago may still be releasing the GPU.
    for (int attempt = 0;; ++attempt) {
      try {
        hello = proc_.start(timeouts_.start_s);
        break;
      } catch (const WorkerDied& e) {
        if (attempt == 1) throw Error(std::string("the tuner's worker cannot start: ") + e.what());
        std::this_thread::sleep_for(std::chrono::seconds(1));
      }
    }
    Reply r;
    try {
      r = decode_reply(hello);
    } catch (const Error& e) {
      proc_.stop(0);
      throw Error(std::string("the tuner's worker does not speak the worker protocol: ") + e.what());
    }
    if (r.status != "ok") {
      proc_.stop(5.0);
      if (r.why.find("no usable NVIDIA GPU") != std::string::npos) throw NoGpuError(r.why);
      throw Error("the tuner's worker cannot start: " + r.why);
    }
    if (r.protocol != kProtocolVersion || !r.environment.is_object()) {
      proc_.stop(0);
      throw Error("the tuner's worker speaks protocol " + std::to_string(r.protocol) + ", this tuner " +
                  std::to_string(kProtocolVersion) + ": use a worker from the same build");
    }
    environment_ = r.environment;
  }
  if (shape_ && !shape_open_) {
    Reply r;
    try {
      r = exchange(*shape_, timeouts_.open_s);
    } catch (const WorkerDied& e) {
      // Not a candidate's fault, so it must not be recorded as one: the tuner decides.
      throw ShapeSetupError("the worker died setting up shape " + to_string(shape_->shape) + ": " + e.what());
    }
    if (r.status != "ok") throw ShapeSetupError("cannot set up shape " + to_string(shape_->shape) + ": " + r.why);
    shape_open_ = true;
  }
}

Reply WorkerBackend::exchange(const Request& req, double timeout_s) {
  const long long id = next_id_++;
  std::string line;
  try {
    line = proc_.request(encode_request(req, id), timeout_s);
  } catch (const WorkerDied&) {
    shape_open_ = false;
    throw;
  }
  Reply r;
  try {
    r = decode_reply(line);
  } catch (const Error& e) {
    shape_open_ = false;
    proc_.abandon(std::string("sent garbage (") + e.what() + ")");
  }
  if (r.id != id) {
    shape_open_ = false;
    proc_.abandon("answered request " + std::to_string(r.id) + " when asked request " + std::to_string(id));
  }
  if (r.status == "fatal") {  // the worker exits after saying so
    proc_.stop(5.0);
    shape_open_ = false;
  }
  return r;
}

Reply WorkerBackend::call(const Request& req, double timeout_s) {
  ensure_ready();
  return exchange(req, timeout_s);
}

void WorkerBackend::open(const Shape& s, Accum acc, uint64_t seed) {
  shape_ = OpenShape{s, acc, seed};
  shape_open_ = false;
  try {
    ensure_ready();
  } catch (...) {
    shape_.reset();
    throw;
  }
}

namespace {

Outcome outcome_of(const Reply& r) {
  Outcome o;
  o.note = r.note;
  if (r.status == "ok" && r.us) {
    o.us = r.us;
    return o;
  }
  if (r.status == "ok") o.verdict = "fail: the worker reported no time";
  else if (r.status == "fatal") o.verdict = "fail: " + r.why + " (the worker's CUDA context was lost; it was restarted)";
  else o.verdict = r.why.rfind("fail", 0) == 0 ? r.why : "fail: " + r.why;
  return o;
}

}  // namespace

Outcome WorkerBackend::measure(Layout l, const KernelCandidate& c, const std::string& key) {
  try {
    return outcome_of(call(MeasureCandidate{l, c, key}, timeouts_.candidate_s));
  } catch (const WorkerDied& e) {
    return Outcome{std::string("fail: ") + e.what(), std::nullopt, {}};
  }
}

Outcome WorkerBackend::baseline(Layout l, const std::string& impl) {
  try {
    return outcome_of(call(MeasureBaseline{l, impl}, timeouts_.baseline_s));
  } catch (const WorkerDied& e) {
    return Outcome{std::string("fail: ") + e.what(), std::nullopt, {}};
  }
}

std::vector<EntryResult> WorkerBackend::compare(Layout l, const std::vector<FinalEntry>& entries, int rounds) {
  auto all_failed = [&](const std::string& why) {
    std::vector<EntryResult> out(entries.size());
    for (auto& e : out) e.verdict = why.rfind("fail", 0) == 0 ? why : "fail: " + why;
    return out;
  };
  Reply r;
  try {
    r = call(CompareFinal{l, entries, rounds}, timeouts_.compare_s);
    if (r.status == "ok" && r.results.size() != entries.size()) {
      shape_open_ = false;
      proc_.abandon("answered a comparison of " + std::to_string(entries.size()) + " with " +
                    std::to_string(r.results.size()) + " results");
    }
  } catch (const WorkerDied& e) {
    return all_failed(e.what());
  }
  if (r.status != "ok") return all_failed(r.why);
  return r.results;
}

}  // namespace gemmforge::tune
