#include "eval/graph_exec.hpp"

#include "eval/cuda_check.hpp"

namespace gemmforge {

bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  GF_CUDA(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

GraphExec GraphExec::capture(cudaStream_t stream, const std::function<void(cudaStream_t)>& enqueue, std::string* why) {
  auto failed = [&](const std::string& reason) {
    cudaGetLastError();  // a capture that failed is not the caller's error
    if (why) *why = reason;
    return GraphExec{};
  };
  if (const cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess)
    return failed(std::string("cudaStreamBeginCapture: ") + cudaGetErrorString(e));
  cudaGraph_t graph = nullptr;
  auto end_capture = [&] {
    const cudaError_t e = cudaStreamEndCapture(stream, &graph);
    if (e != cudaSuccess && graph) cudaGraphDestroy(graph), graph = nullptr;
    return e;
  };
  try {
    enqueue(stream);
  } catch (const Error& e) {
    end_capture();
    if (graph) cudaGraphDestroy(graph);
    return failed(std::string("the call cannot be captured: ") + e.what());
  } catch (...) {
    end_capture();
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    throw;
  }
  if (const cudaError_t e = end_capture(); e != cudaSuccess || !graph)
    return failed(std::string("cudaStreamEndCapture: ") + cudaGetErrorString(e));
  GraphExec g;
  const cudaError_t e = cudaGraphInstantiate(&g.exec_, graph, 0);
  cudaGraphDestroy(graph);
  if (e != cudaSuccess) {
    g.exec_ = nullptr;
    return failed(std::string("cudaGraphInstantiate: ") + cudaGetErrorString(e));
  }
  return g;
}

void GraphExec::launch(cudaStream_t stream) const {
  if (!exec_) throw Error("launch of an empty GraphExec");
  GF_CUDA(cudaGraphLaunch(exec_, stream));
}

}  // namespace gemmforge
