#include "jit/compile_pool.hpp"

#include <algorithm>
#include <exception>

namespace gemmforge::jit {

CompilePool::CompilePool(unsigned threads, KernelCache* cache) : cache_(cache) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

CompilePool::~CompilePool() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void CompilePool::work() {
  for (;;) {
    std::packaged_task<CompileResult()> task;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();  // a packaged_task stores an exception in its future instead of throwing
  }
}

CompileResult CompilePool::run(const CompileRequest& req) {
  return cache_ ? compile_cached(req, *cache_) : compile(req);
}

std::future<CompileResult> CompilePool::enqueue(std::packaged_task<CompileResult()> task) {
  auto future = task.get_future();
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
  return future;
}

std::future<CompileResult> CompilePool::submit(CompileRequest req) {
  return enqueue(std::packaged_task<CompileResult()>([this, req = std::move(req)] { return run(req); }));
}

std::vector<CompileResult> CompilePool::compile_all(std::vector<CompileRequest> reqs, const Progress& progress) {
  const size_t total = reqs.size();
  std::mutex progress_mu;
  size_t done = 0;
  std::vector<std::future<CompileResult>> futures;
  futures.reserve(total);
  for (size_t i = 0; i < total; ++i) {
    futures.push_back(enqueue(std::packaged_task<CompileResult()>([&, i, req = std::move(reqs[i])] {
      CompileResult r = run(req);
      if (progress) {
        std::lock_guard lock(progress_mu);
        progress(++done, total, i, r);
      }
      return r;
    })));
  }
  // The tasks refer to this frame (progress, its mutex), so every one must finish before we
  // return or throw.
  for (auto& f : futures) f.wait();
  std::vector<CompileResult> results;
  results.reserve(total);
  std::exception_ptr first_error;
  for (auto& f : futures) {
    try {
      results.push_back(f.get());
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
      results.emplace_back();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
  return results;
}

}  // namespace gemmforge::jit
