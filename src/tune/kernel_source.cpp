#include "tune/kernel_source.hpp"

#include <algorithm>

#include "runtime/sm90_kernel.hpp"

namespace gemmforge::tune {

namespace {
CompileAhead::Job make_job(const KernelConfig& c) {
  CompileAhead::Job j;
  j.config = c;
  return j;
}
}  // namespace

CompileAhead::CompileAhead(jit::KernelCache& cache, unsigned threads) : cache_(cache) {
  if (threads == 0) {
    const unsigned cores = std::thread::hardware_concurrency();
    threads = cores > 2 ? cores - 2 : 1;
  }
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

CompiledConfig CompileAhead::compile_one(const KernelConfig& c, jit::KernelCache& cache) {
  CompiledConfig out;
  try {
    const auto r = jit::compile_cached(compile_request(c), cache);
    out.cubin_key = r.key;
    if (!r.ok) out.why = "compile failed: " + r.log.substr(0, 400);
    // Local memory in the main loop costs more than any knob gains; the bench sweep leaves such
    // configs out too.
    else if (r.spill_bytes > 0) out.why = "spills " + std::to_string(r.spill_bytes) + " bytes to local memory";
    else out.ok = true;
  } catch (const std::exception& e) {
    out.why = std::string("compile failed: ") + e.what();
  }
  return out;
}

void CompileAhead::work() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !urgent_.empty() || !background_.empty(); });
    if (stopping_) return;
    auto& queue = !urgent_.empty() ? urgent_ : background_;
    const std::string name = queue.front();
    queue.pop_front();
    Job& job = jobs_.at(name);
    if (job.state != State::queued) continue;  // queued twice (background, then urgent)
    job.state = State::running;
    const KernelConfig config = job.config;
    lock.unlock();
    CompiledConfig result = compile_one(config, cache_);
    lock.lock();
    job.result = std::move(result);
    job.state = State::done;
    finished_.notify_all();
  }
}

CompiledConfig CompileAhead::get(const KernelConfig& c) {
  const std::string name = c.name();
  std::unique_lock lock(mu_);
  Job& job = jobs_.try_emplace(name, make_job(c)).first->second;
  if (job.state == State::queued && !job.urgent) {
    job.urgent = true;
    urgent_.push_back(name);
    wake_.notify_one();
  }
  finished_.wait(lock, [&] { return job.state == State::done; });
  return job.result;
}

void CompileAhead::prefetch(const std::vector<KernelConfig>& configs) {
  {
    std::lock_guard lock(mu_);
    for (const auto& c : configs) {
      const std::string name = c.name();
      if (jobs_.try_emplace(name, make_job(c)).second) background_.push_back(name);
    }
  }
  wake_.notify_all();
}

}  // namespace gemmforge::tune
