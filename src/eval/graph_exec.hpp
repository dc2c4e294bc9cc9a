// A CUDA graph made from the work some host code enqueues on a stream, ready to launch: what the
// evaluator's device-time batches and the runtime's replayed calls are made of.
#pragma once
#include <functional>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

namespace gemmforge {

// Whether work enqueued on `stream` now would be captured into a graph rather than run.
bool is_capturing(cudaStream_t stream);

class GraphExec {
 public:
  GraphExec() = default;
  GraphExec(GraphExec&& o) noexcept : exec_(std::exchange(o.exec_, nullptr)) {}
  GraphExec& operator=(GraphExec&& o) noexcept {
    std::swap(exec_, o.exec_);
    return *this;
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  // A graph still running is freed by the driver when it finishes.
  ~GraphExec() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Captures what `enqueue` puts on `stream` (which must not be capturing already) and
  // instantiates it. Thread-local capture mode: other threads of the process may use CUDA
  // meanwhile. Empty, with the reason in `why`, when the work cannot be captured (a call that
  // synchronizes, the legacy default stream, a gemmforge::Error thrown by `enqueue`); that leaves
  // no CUDA error behind and the stream out of capture mode. Anything else `enqueue` throws
  // propagates, the stream out of capture mode too.
  static GraphExec capture(cudaStream_t stream, const std::function<void(cudaStream_t)>& enqueue, std::string* why = nullptr);

  explicit operator bool() const { return exec_ != nullptr; }
  // Enqueues the graph on `stream`; throws gemmforge::Error if the launch fails.
  void launch(cudaStream_t stream) const;

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace gemmforge
