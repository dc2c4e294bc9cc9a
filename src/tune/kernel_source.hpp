// Where the tuner's candidates come from: compiled kernels in the kernel cache, of either family,
// built for any shape or for one. CompileAhead compiles in a pool of threads in the tuner process
// while the worker measures; a kernel the search asks for now jumps the queue of the background
// work. Candidates that differ only in launch knobs share one build (KernelCandidate::build_name).
#pragma once
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/kernel_candidate.hpp"
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
  // Blocks until the candidate's kernel is compiled (or known not to compile).
  virtual CompiledConfig get(const KernelCandidate&) = 0;
  // Compiles these in the background, after anything get() is waiting for.
  virtual void prefetch(const std::vector<KernelCandidate>&) {}
  // The architecture the sm80 family compiles for on the worker's GPU (sm80_family_arch); the
  // tuner sets it from the worker's environment before asking for any sm80 kernel.
  virtual void set_sm80_arch(const std::string&) {}
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
    KernelCandidate build;  // with default launch knobs: they do not change the cubin
    State state = State::queued;
    bool urgent = false;
    CompiledConfig result;
  };

  CompiledConfig get(const KernelCandidate&) override;
  void prefetch(const std::vector<KernelCandidate>&) override;
  void set_sm80_arch(const std::string& arch) override;
  unsigned threads() const { return unsigned(workers_.size()); }

 private:
  void work();
  static CompiledConfig compile_one(const KernelCandidate&, const std::string& sm80_arch, jit::KernelCache&);
  Job& job_for(const KernelCandidate&);  // under mu_; a new one is queued nowhere yet

  jit::KernelCache& cache_;
  mutable std::mutex mu_;
  std::condition_variable wake_, finished_;
  std::map<std::string, Job> jobs_;     // by build name
  std::string sm80_arch_;
  std::deque<std::string> urgent_, background_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace gemmforge::tune
