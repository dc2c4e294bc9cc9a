#include "tune/kernel_source.hpp"

#include <algorithm>

#include "runtime/candidate_kernel.hpp"

namespace gemmforge::tune {

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

CompiledConfig CompileAhead::compile_one(const KernelCandidate& c, const std::string& sm80_arch, jit::KernelCache& cache) {
  CompiledConfig out;
  try {
    const auto r = jit::compile_cached(compile_request(c, sm80_arch), cache);
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
    const KernelCandidate build = job.build;
    const std::string sm80_arch = sm80_arch_;
    lock.unlock();
    CompiledConfig result = compile_one(build, sm80_arch, cache_);
    lock.lock();
    job.result = std::move(result);
    job.state = State::done;
    finished_.notify_all();
  }
}

CompileAhead::Job& CompileAhead::job_for(const KernelCandidate& c) {
  Job j;
  j.build = c.sm80 ? c : KernelCandidate{c.config, LaunchKnobs{}};
  j.build.built_for = c.built_for;
  return jobs_.try_emplace(c.build_name(), std::move(j)).first->second;
}

void CompileAhead::set_sm80_arch(const std::string& arch) {
  std::lock_guard lock(mu_);
  sm80_arch_ = arch;
}

CompiledConfig CompileAhead::get(const KernelCandidate& c) {
  const std::string name = c.build_name();
  std::unique_lock lock(mu_);
  Job& job = job_for(c);
  if (job.state == State::queued && !job.urgent) {
    job.urgent = true;
    urgent_.push_back(name);
    wake_.notify_one();
  }
  finished_.wait(lock, [&] { return job.state == State::done; });
  return job.result;
}

void CompileAhead::prefetch(const std::vector<KernelCandidate>& candidates) {
  {
    std::lock_guard lock(mu_);
    for (const auto& c : candidates) {
      const size_t before = jobs_.size();
      job_for(c);
      if (jobs_.size() > before) background_.push_back(c.build_name());
    }
  }
  wake_.notify_all();
}

}  // namespace gemmforge::tune
