// Compiles many kernels at once on worker threads: one NVRTC program per request, and NVRTC is
// thread-safe for separate programs.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "jit/kernel_cache.hpp"
#include "jit/nvrtc_compiler.hpp"

namespace gemmforge::jit {

class CompilePool {
 public:
  // threads = 0: std::thread::hardware_concurrency(), at least 1. With a cache, every request
  // goes through compile_cached(); the cache must outlive the pool.
  explicit CompilePool(unsigned threads = 0, KernelCache* cache = nullptr);
  // Requests not yet started are dropped (their futures report std::future_error, broken
  // promise); compiles already running finish, then the workers are joined.
  ~CompilePool();
  CompilePool(const CompilePool&) = delete;
  CompilePool& operator=(const CompilePool&) = delete;

  unsigned threads() const { return unsigned(workers_.size()); }

  // An NVRTC failure that compile() throws comes out of the future's get().
  std::future<CompileResult> submit(CompileRequest);

  // Called as each compile finishes, from a worker thread, never two at a time:
  // (finished so far, total, index of the request, its result).
  using Progress = std::function<void(size_t done, size_t total, size_t index, const CompileResult&)>;

  // Results in request order. Waits for every request, then rethrows the first exception if any.
  std::vector<CompileResult> compile_all(std::vector<CompileRequest>, const Progress& progress = {});

 private:
  void work();
  CompileResult run(const CompileRequest&);
  std::future<CompileResult> enqueue(std::packaged_task<CompileResult()>);

  KernelCache* cache_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<CompileResult()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gemmforge::jit
