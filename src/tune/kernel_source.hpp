// Where the tuner's candidates come from: compiled configs in the kernel cache. CompileAhead
// compiles in a pool of threads in the tuner process while the worker measures; a config the
// search asks for now jumps the queue of the background work.
#pragma once
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/kernel_config.hpp"
#include "jit/kernel_cache.hpp"

namespace gemmforge::tune {

struct CompiledConfig {
  bool ok = false;
  std::string cubin_key;  // the kernel cache entry the worker loads
  std::string why;        // when !ok: the compile error, or the spill that disqualifies it
};

class KernelSource {
 public:
  virtual ~KernelSource() = default;
  // Blocks until the config is compiled (or known not to compile).
  virtual CompiledConfig get(const KernelConfig&) = 0;
  // Compiles these in the background, after anything get() is waiting for.
  virtual void prefetch(const std::vector<KernelConfig>&) {}
};

class CompileAhead final : public KernelSource {
 public:
  // threads = 0: all cores but two (one for the worker's host side), at least one.
  CompileAhead(jit::KernelCache&, unsigned threads = 0);
  // Background work not started is dropped; compiles under way finish first.
  ~CompileAhead() override;
  CompileAhead(const CompileAhead&) = delete;
  CompileAhead& operator=(const CompileAhead&) = delete;
  enum class State { queued, running, done };
  struct Job {
    KernelConfig config;
    State state = State::queued;
    bool urgent = false;
    CompiledConfig result;
  };

  CompiledConfig get(const KernelConfig&) override;
  void prefetch(const std::vector<KernelConfig>&) override;
  unsigned threads() const { return unsigned(workers_.size()); }

 private:
  void work();
  static CompiledConfig compile_one(const KernelConfig&, jit::KernelCache&);

  jit::KernelCache& cache_;
  mutable std::mutex mu_;
  std::condition_variable wake_, finished_;
  std::map<std::string, Job> jobs_;     // by config name
  std::deque<std::string> urgent_, background_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gemmforge::tune
