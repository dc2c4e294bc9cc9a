// The tuner's GPU, in a worker process (`gemmforge worker`, or any executable that speaks
// worker_protocol): a candidate that crashes, hangs or breaks the CUDA context costs only the
// worker. The next request starts a fresh one, which re-opens the current shape first.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tune/backend.hpp"
#include "tune/worker_process.hpp"

namespace gemmforge::tune {

struct WorkerTimeouts {
  double start_s = 180;      // CUDA context, cuBLAS handles, NVML
  double open_s = 600;       // buffers and the gate's fp32 references (minutes on huge shapes)
  double candidate_s = 30;   // one candidate: gate, estimate, re-check. A hang costs this much.
  double baseline_s = 300;   // cublaslt-autotune times its algorithms
  double compare_s = 600;    // warm-up by time plus interleaved rounds
};

class WorkerBackend final : public MeasureBackend {
 public:
  WorkerBackend(std::vector<std::string> argv, WorkerTimeouts = {});
  ~WorkerBackend() override;

  nlohmann::json environment() override;
  void open(const Shape&, Accum, uint64_t seed) override;
  Outcome measure(Layout, const KernelCandidate&, const std::string& cubin_key) override;
  Outcome baseline(Layout, const std::string& impl) override;
  std::vector<EntryResult> compare(Layout, const std::vector<FinalEntry>&, int rounds) override;

  int worker_starts() const { return proc_.starts(); }
  // Ends the worker politely (it exits at the end of its input).
  void shut_down();

 private:
  void ensure_ready();  // a running worker with the current shape open
  Reply call(const Request&, double timeout_s);
  Reply exchange(const Request&, double timeout_s);  // one request, one checked reply

  WorkerProcess proc_;
  WorkerTimeouts timeouts_;
  nlohmann::json environment_;
  std::optional<OpenShape> shape_;  // re-sent to every fresh worker
  bool shape_open_ = false;
  long long next_id_ = 1;
};

}  // namespace gemmforge::tune
